/* manifest.c: the models and spec manifest parsers, and the shell-like word
 * splitting of server arguments they share with the --engine-args option. A bad
 * line is reported once, as file:line, and leaves the manifest as it was. */
#include "collect/manifest.h"
#include "tpsdb.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MANIFEST_MAX_FIELDS 8
#define MANIFEST_MAX_N_MAX 4096

static void entry_release(struct manifest_entry *e)
{
	free(e->label);
	free(e->path);
	free(e->args);
	free(e->n_max);
	memset(e, 0, sizeof(*e));
}

void manifest_release(struct manifest *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		entry_release(&m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

const struct manifest_entry *manifest_find(const struct manifest *m, const char *label)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (!strcmp(m->v[i].label, label))
			return &m->v[i];
	}
	return NULL;
}

void manifest_free_args(char **argv)
{
	size_t i;

	if (!argv)
		return;
	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int manifest_split_args(const char *s, char ***argv, size_t *argc, char *err, size_t errlen)
{
	size_t cap = strlen(s) + 1, n = 0, start = *argc;
	char *word = tps_xmalloc(cap);
	int in_word = 0, ret = -1;
	char q = 0;

	for (const char *p = s;; p++) {
		if (q) {
			if (!*p) {
				tps_fail(err, errlen, "unbalanced %c quote in '%s'", q, s);
				goto out;
			}
			if (*p == q) {
				q = 0;
			} else if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\')) {
				word[n++] = *++p;
			} else {
				word[n++] = *p;
			}
			continue;
		}
		if (!*p || isspace((unsigned char)*p)) {
			if (in_word) {
				*argv = tps_xrealloc(*argv, (*argc + 2) * sizeof(**argv));
				(*argv)[(*argc)++] = tps_xstrndup(word, n);
				(*argv)[*argc] = NULL;
				n = 0;
				in_word = 0;
			}
			if (!*p)
				break;
			continue;
		}
		in_word = 1;
		if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '\\' && p[1]) {
			word[n++] = *++p;
		} else {
			word[n++] = *p;
		}
	}
	if (!*argv) {
		*argv = tps_xcalloc(1, sizeof(**argv));
	}
	ret = 0;
out:
	if (ret < 0) {
		/* Leave the caller's array as it came in. */
		while (*argc > start) {
			free((*argv)[--(*argc)]);
			(*argv)[*argc] = NULL;
		}
	}
	free(word);
	return ret;
}

/* A settled knob's value v (spec_knobs.h's range), as the term key= gives it. */
static int check_value(enum spec_knob k, const char *w, const char *v, char *err,
		       size_t errlen)
{
	const struct spec_knob_def *d = &spec_knobs[k];
	double x = NAN;
	int64_t i;

	if (!d->whole)
		(void)tps_parse_double(v, &x);
	else if (tps_parse_i64(v, &i) == 0)
		x = (double)i;
	if (!(x >= d->min && x <= d->max))
		return tps_fail(err, errlen, "'%s' is not %s from %g to %g", w,
				d->whole ? "a whole number" : "a number", d->min, d->max);
	return 0;
}

int manifest_spec_terms(char *const *words, struct spec_terms *t, char *err, size_t errlen)
{
	size_t i;
	int k;

	memset(t, 0, sizeof(*t));
	for (i = 0; words[i] && words[i][0] != '-' && strchr(words[i], '='); i++) {
		const char *w = words[i], *v = strchr(w, '=') + 1;
		const char **slot;

		k = spec_knob_of_term(w, (size_t)(v - 1 - w));
		if (k == SPEC_KNOB_TYPE)
			slot = &t->type;
		else if (k == SPEC_KNOB_DRAFTER)
			slot = &t->drafter;
		else if (k >= SPEC_SETTLED_FIRST)
			slot = &t->set[k];
		else if (k == SPEC_KNOB_N_MAX)
			return tps_fail(err, errlen, "'n_max=' is not a term: the n_max list is "
					"the line's fourth field");
		else
			return tps_fail(err, errlen, "unknown term '%.*s' (the terms are spec=, "
					"drafter=, n_min= and p_min=)", (int)(v - w), w);
		if (*slot)
			return tps_fail(err, errlen, "'%.*s' is given twice", (int)(v - w), w);
		if (!*v)
			return tps_fail(err, errlen, "'%s' has no value", w);
		if (k >= SPEC_SETTLED_FIRST && check_value((enum spec_knob)k, w, v, err, errlen) < 0)
			return -1;
		*slot = v;
	}
	t->n = i;
	t->given = i > 0;
	if (!t->given)
		return 0;
	for (; words[i]; i++) {
		k = spec_knob_of_flag(words[i]);
		if (k >= SPEC_SETTLED_FIRST)
			return tps_fail(err, errlen, "'%s' among the raw args: write %s= (the "
					"terms spell it for each engine)", words[i],
					spec_knobs[k].term);
		if (k >= 0)
			return tps_fail(err, errlen, "'%s' among the raw args: the terms spell the "
					"type, the draft model and n_max for each engine", words[i]);
	}
	if (!t->type)
		t->type = "draft-simple";
	if (!strcmp(t->type, "draft-simple") && !t->drafter)
		return tps_fail(err, errlen, "spec=draft-simple needs drafter=<gguf>");
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_n_max(const char *field, struct manifest_entry *e, char *err, size_t errlen)
{
	char *copy = tps_xstrdup(field), *save = NULL, *tok;
	int ret = -1;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *t = trim(tok);
		int64_t v;
		size_t i;

		if (tps_parse_i64(t, &v) < 0 || v < 1 || v > MANIFEST_MAX_N_MAX) {
			tps_fail(err, errlen, "n_max '%s' is not a whole number from 1 to %d", t,
				 MANIFEST_MAX_N_MAX);
			goto out;
		}
		for (i = 0; i < e->n_n_max; i++) {
			if (e->n_max[i] == v) {
				tps_fail(err, errlen, "n_max %lld is listed twice", (long long)v);
				goto out;
			}
		}
		e->n_max = tps_xrealloc(e->n_max, (e->n_n_max + 1) * sizeof(*e->n_max));
		e->n_max[e->n_n_max++] = v;
	}
	if (!e->n_n_max) {
		tps_fail(err, errlen, "the n_max list is empty (write e.g. '1,2,3')");
		goto out;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

/* One non-blank, non-comment line into e. -1 with the problem (no location) in err. */
static int parse_line(char *line, enum manifest_kind kind, const struct manifest *m,
		      const struct manifest *add, struct manifest_entry *e, char *err,
		      size_t errlen)
{
	char *fields[MANIFEST_MAX_FIELDS + 1], *p = line, *bar;
	char **words = NULL;
	size_t nf = 0, nw = 0;
	int want_min = kind == MANIFEST_SPEC ? 4 : 2, want_max = kind == MANIFEST_SPEC ? 4 : 3;
	int ret = -1;

	for (;;) {
		bar = strchr(p, '|');
		if (nf == MANIFEST_MAX_FIELDS) {
			nf++;
			break;
		}
		if (bar)
			*bar = '\0';
		fields[nf++] = trim(p);
		if (!bar)
			break;
		p = bar + 1;
	}
	if ((int)nf < want_min || (int)nf > want_max) {
		if (kind == MANIFEST_SPEC)
			tps_fail(err, errlen, "expected 4 fields 'label | gguf path | spec server "
				 "args | n_max list', found %zu", nf);
		else
			tps_fail(err, errlen, "expected 'label | gguf path' and optional extra "
				 "server args, found %zu fields", nf);
		goto out;
	}
	if (!*fields[0]) {
		tps_fail(err, errlen, "the label is empty");
		goto out;
	}
	for (p = fields[0]; *p; p++) {
		if (isspace((unsigned char)*p) || *p == '=') {
			tps_fail(err, errlen, "label '%s' has %s in it", fields[0],
				 *p == '=' ? "'='" : "blank space");
			goto out;
		}
	}
	if (manifest_find(m, fields[0]) || manifest_find(add, fields[0])) {
		tps_fail(err, errlen, "label '%s' is used twice", fields[0]);
		goto out;
	}
	if (!*fields[1]) {
		tps_fail(err, errlen, "the gguf path of '%s' is empty", fields[0]);
		goto out;
	}
	if (nf > 2 && manifest_split_args(fields[2], &words, &nw, err, errlen) < 0)
		goto out;
	if (kind == MANIFEST_SPEC) {
		struct spec_terms t;
		char why[256];

		if (!nw) {
			tps_fail(err, errlen, "the spec server args of '%s' are empty", fields[0]);
			goto out;
		}
		if (manifest_spec_terms(words, &t, why, sizeof(why)) < 0) {
			tps_fail(err, errlen, "the spec args of '%s': %s", fields[0], why);
			goto out;
		}
		if (parse_n_max(fields[3], e, err, errlen) < 0)
			goto out;
	}
	e->label = tps_xstrdup(fields[0]);
	e->path = tps_xstrdup(fields[1]);
	e->args = tps_xstrdup(nf > 2 ? fields[2] : "");
	ret = 0;
out:
	manifest_free_args(words);
	return ret;
}

int manifest_parse(struct manifest *m, enum manifest_kind kind, const char *text,
		   const char *file, char *err, size_t errlen)
{
	struct manifest add = { 0 };
	struct manifest_entry e;
	char *copy = tps_xstrdup(text), *line, *next, *t;
	char why[512];
	int lineno = 0, ret = -1;
	size_t i;

	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		t = trim(line);
		if (!*t || *t == '#')
			continue;
		memset(&e, 0, sizeof(e));
		if (parse_line(t, kind, m, &add, &e, why, sizeof(why)) < 0) {
			entry_release(&e);
			tps_fail(err, errlen, "%s:%d: %s", file, lineno, why);
			goto out;
		}
		e.line = lineno;
		add.v = tps_xrealloc(add.v, (add.n + 1) * sizeof(*add.v));
		add.v[add.n++] = e;
	}
	m->v = tps_xrealloc(m->v, (m->n + add.n + 1) * sizeof(*m->v));
	for (i = 0; i < add.n; i++)
		m->v[m->n++] = add.v[i];
	free(add.v);
	add.v = NULL;
	add.n = 0;
	ret = 0;
out:
	manifest_release(&add);
	free(copy);
	return ret;
}
