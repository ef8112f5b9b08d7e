/* dialect.c: an engine's spellings of the speculative knobs, read from its --help,
 * and the one rule that spells a spec manifest line with them. The help text, not
 * the dialect, is what the cache keeps: a better reading of it needs no new cache. */
#include "collect/dialect.h"
#include "collect/filehash.h"
#include "collect/manifest.h"
#include "proc.h"
#include "strbuf.h"
#include "tpsdb.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An option's spelling: '-' or "--", then a letter. "-----" section rules are not. */
static int is_spelling(const char *s, size_t n)
{
	size_t d = 0;

	while (d < n && d < 2 && s[d] == '-')
		d++;
	return d >= 1 && d < n && isalpha((unsigned char)s[d]);
}

static void add_flag(struct dialect *d, const char *s, size_t n)
{
	d->flags = tps_xrealloc(d->flags, (d->n_flags + 2) * sizeof(*d->flags));
	d->flags[d->n_flags++] = tps_xstrndup(s, n);
	d->flags[d->n_flags] = NULL;
}

static void add_type(char ***types, const char *s, size_t n)
{
	size_t k = 0;

	while (*types && (*types)[k])
		k++;
	*types = tps_xrealloc(*types, (k + 2) * sizeof(**types));
	(*types)[k] = tps_xstrndup(s, n);
	(*types)[k + 1] = NULL;
}

/* --spec-type's value hint: "none,draft-simple,..." or "[none|ngram-cache|...]". */
static void parse_types(struct dialect *d, const char *hint, size_t n)
{
	size_t i = 0, start;

	d->types = tps_xcalloc(1, sizeof(*d->types));
	while (i < n) {
		while (i < n && strchr("[]|,", hint[i]))
			i++;
		start = i;
		while (i < n && !strchr("[]|,", hint[i]))
			i++;
		if (i > start)
			add_type(&d->types, hint + start, i - start);
	}
}

/* Where the description of the option on line begins: after the head and two
 * blanks, or the next line when the head fills this one. */
static const char *description(const char *head_end, const char *eol)
{
	const char *p = head_end;

	while (p < eol && *p == ' ')
		p++;
	if (p < eol)
		return p;
	p = *eol ? eol + 1 : eol;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* What the description [p, end) says after "(default: ", up to its ")"; NULL
 * when none. Caller frees. */
static char *default_of(const char *p, const char *end)
{
	static const char key[] = "(default: ";
	const size_t n = sizeof(key) - 1;
	const char *v, *close;

	for (; p + n <= end; p++) {
		if (strncmp(p, key, n))
			continue;
		v = p + n;
		for (close = v; close < end && *close != ')' && *close != '\n'; close++)
			;
		return close < end && *close == ')' && close > v ?
		       tps_xstrndup(v, (size_t)(close - v)) : NULL;
	}
	return NULL;
}

/* The knobs whose spellings name: each takes the option's default, once. */
static void knob_defaults(struct dialect *d, const char *const *names, const size_t *lens,
			  size_t n, const char *desc, const char *end)
{
	for (size_t i = 0; i < n; i++) {
		char *w = tps_xstrndup(names[i], lens[i]);
		int k = spec_knob_of_flag(w);

		free(w);
		if (k >= 0 && !d->deflt[k])
			d->deflt[k] = default_of(desc, end);
	}
}

/* One option line: its spellings ("-a, --bee, --cee HINT  description"), kept
 * unless its description says it has been removed; its description runs to
 * block_end (the indented lines under it). */
static void parse_option(struct dialect *d, const char *line, const char *eol,
			 const char *block_end)
{
	const char *p = line, *tok, *hint = NULL, *hint_end = NULL, *desc;
	const char *type_flag = spec_knobs[SPEC_KNOB_TYPE].flags[0];
	const char *names[16];
	size_t lens[16], n = 0, i;

	for (;;) {
		tok = p;
		while (p < eol && *p != ' ' && *p != ',')
			p++;
		if (!is_spelling(tok, (size_t)(p - tok)) || n == 16)
			break;
		names[n] = tok;
		lens[n++] = (size_t)(p - tok);
		if (p < eol && *p == ',') {
			p++;
			while (p < eol && *p == ' ')
				p++;
			continue;
		}
		/* One blank then a word: the value hint; two or more: the description. */
		if (p + 1 < eol && p[0] == ' ' && p[1] != ' ') {
			hint = p + 1;
			hint_end = hint;
			while (hint_end < eol && *hint_end != ' ')
				hint_end++;
			p = hint_end;
		}
		break;
	}
	if (!n)
		return;
	desc = description(p, eol);
	if (!strncmp(desc, "the argument has been removed", 29))
		return;
	knob_defaults(d, names, lens, n, desc, block_end);
	for (i = 0; i < n; i++) {
		add_flag(d, names[i], lens[i]);
		if (lens[i] == strlen(type_flag) && !strncmp(names[i], type_flag, lens[i]) &&
		    hint && !d->types)
			parse_types(d, hint, (size_t)(hint_end - hint));
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dialect_accepts(const struct dialect *d, const char *flag)
{
	return d->n_flags && bsearch(&flag, d->flags, d->n_flags, sizeof(*d->flags),
				     cmp_str) != NULL;
}

static const char *first_accepted(const struct dialect *d, const char *const *flags)
{
	for (size_t i = 0; flags[i]; i++)
		if (dialect_accepts(d, flags[i]))
			return flags[i];
	return NULL;
}

/* Where the block of the option on line (ending at eol) ends: after the
 * indented lines that go on with its description. */
static const char *block_end(const char *eol)
{
	const char *p = eol;

	while (*p && (p[1] == ' ' || p[1] == '\t')) {
		p = strchr(p + 1, '\n');
		if (!p)
			return eol + strlen(eol);
	}
	return p;
}

int dialect_parse(const char *help, struct dialect *d)
{
	const char *line, *eol;
	int k;

	memset(d, 0, sizeof(*d));
	for (line = help; line && *line; line = *eol ? eol + 1 : NULL) {
		eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		if (*line == '-')
			parse_option(d, line, eol, block_end(eol));
	}
	if (!d->n_flags) {
		dialect_release(d);
		return -1;
	}
	qsort(d->flags, d->n_flags, sizeof(*d->flags), cmp_str);
	for (k = 0; k < SPEC_N_KNOBS; k++) {
		d->flag[k] = first_accepted(d, spec_knobs[k].flags);
		if (!d->flag[k]) { /* a default of a removed option is no default */
			free(d->deflt[k]);
			d->deflt[k] = NULL;
		}
	}
	if (!dialect_accepts(d, spec_knobs[SPEC_KNOB_TYPE].flags[0])) {
		manifest_free_args(d->types);
		d->types = NULL;
	}
	return 0;
}

void dialect_release(struct dialect *d)
{
	if (!d)
		return;
	manifest_free_args(d->flags);
	manifest_free_args(d->types);
	for (int k = 0; k < SPEC_N_KNOBS; k++)
		free(d->deflt[k]);
	memset(d, 0, sizeof(*d));
}

void dialect_free(struct dialect *d)
{
	dialect_release(d);
	free(d);
}

static int knows_type(const struct dialect *d, const char *type)
{
	for (size_t i = 0; d->types && d->types[i]; i++)
		if (!strcmp(d->types[i], type))
			return 1;
	return 0;
}

static void push(char ***argv, size_t *argc, const char *w)
{
	*argv = tps_xrealloc(*argv, (*argc + 2) * sizeof(**argv));
	(*argv)[(*argc)++] = tps_xstrdup(w);
	(*argv)[*argc] = NULL;
}

/* The types d's --spec-type takes, for an error line: "a, b, c". Caller frees. */
static char *type_list(const struct dialect *d)
{
	struct strbuf sb = { 0 };

	strbuf_put(&sb, "", 0);
	for (size_t i = 0; d->types[i]; i++) {
		if (i)
			strbuf_put(&sb, ", ", 2);
		strbuf_put(&sb, d->types[i], strlen(d->types[i]));
	}
	return sb.p;
}

/* The terms' words: --spec-type and the draft model. -1 with err when d lacks one. */
static int spell_terms(const struct dialect *d, const char *engine, const struct spec_terms *t,
		       char ***argv, size_t *argc, char *err, size_t errlen)
{
	if (!d)
		return tps_fail(err, errlen, "engine '%s': cannot spell spec=%s, its --help lists "
				"no option", engine, t->type);
	if (knows_type(d, t->type)) {
		push(argv, argc, spec_knobs[SPEC_KNOB_TYPE].flags[0]);
		push(argv, argc, t->type);
	} else if (strcmp(t->type, "draft-simple") || !d->flag[SPEC_KNOB_DRAFTER]) {
		/* Before --spec-type knew draft-simple, a draft model alone was it. */
		char *list = d->types ? type_list(d) : NULL;
		int r = tps_fail(err, errlen, "engine '%s' has no spec=%s: %s%s", engine, t->type,
				 list ? "its --spec-type takes " : "its --help lists no --spec-type",
				 list ? list : "");
		free(list);
		return r;
	}
	if (t->drafter) {
		if (!d->flag[SPEC_KNOB_DRAFTER])
			return tps_fail(err, errlen, "engine '%s' has no drafter=: its --help lists "
					"none of %s", engine, spec_knob_flag_list(SPEC_KNOB_DRAFTER));
		push(argv, argc, d->flag[SPEC_KNOB_DRAFTER]);
		push(argv, argc, t->drafter);
	}
	return 0;
}

/* The settled knobs' words: each value settle names, with d's flag. */
static int spell_settled(const struct dialect *d, const char *engine,
			 const char *const *settle, char ***argv, size_t *argc, char *err,
			 size_t errlen)
{
	for (int k = SPEC_SETTLED_FIRST; settle && k < SPEC_N_KNOBS; k++) {
		if (!settle[k])
			continue;
		if (!d->flag[k])
			return tps_fail(err, errlen, "engine '%s' has no %s: its --help lists none "
					"of %s", engine, spec_knobs[k].term,
					spec_knob_flag_list((enum spec_knob)k));
		push(argv, argc, d->flag[k]);
		push(argv, argc, settle[k]);
	}
	return 0;
}

int dialect_spell(const struct dialect *d, const char *engine, char *const *words,
		  const struct spec_terms *t, int64_t n_max, const char *const *settle,
		  char ***argv, size_t *argc, char *err, size_t errlen)
{
	size_t start = *argc, i;
	const char *flag = d && d->flag[SPEC_KNOB_N_MAX] ? d->flag[SPEC_KNOB_N_MAX] :
			   spec_knobs[SPEC_KNOB_N_MAX].flags[0];
	char num[32];

	if (t->given && spell_terms(d, engine, t, argv, argc, err, errlen) < 0)
		goto fail;
	for (i = t->n; words && words[i]; i++)
		push(argv, argc, words[i]);
	/* A raw line keeps its words; only n_max, tpsdb's own knob, is spelled. */
	if (t->given && (!d || !d->flag[SPEC_KNOB_N_MAX])) {
		tps_fail(err, errlen, "engine '%s' has no n_max: its --help lists none of %s",
			 engine, spec_knob_flag_list(SPEC_KNOB_N_MAX));
		goto fail;
	}
	snprintf(num, sizeof(num), "%lld", (long long)n_max);
	push(argv, argc, flag);
	push(argv, argc, num);
	if (t->given && spell_settled(d, engine, settle, argv, argc, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	while (*argc > start) {
		free((*argv)[--(*argc)]);
		(*argv)[*argc] = NULL;
	}
	return -1;
}

char *dialect_cache_dir(void)
{
	const char *v = getenv("TPSDB_CACHE");

	if (v && *v)
		return tps_xstrdup(v);
	v = getenv("HOME");
	return v && *v ? tps_xasprintf("%s/.cache/tpsdb", v) : NULL;
}

/* Keeps text as path: a temporary sibling renamed over it, so a reader never sees
 * half a file. A cache, so any failure just leaves it unwritten. */
static void cache_put(const char *dir, const char *path, const char *text, size_t len)
{
	char *tmp = tps_xasprintf("%s.XXXXXX", path);
	FILE *f = NULL;
	int fd;

	(void)mkdir(dir, 0755);
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		goto out;
	}
	{
		int bad = fwrite(text, 1, len, f) != len;

		bad |= fclose(f) != 0; /* always closed, whatever the write did */
		if (bad || rename(tmp, path) < 0)
			unlink(tmp);
	}
	f = NULL;
out:
	free(tmp);
}

struct dialect *dialect_detect(const char *binary, char *err, size_t errlen)
{
	struct dialect *d = NULL;
	char *real = filehash_resolve(binary), *cache = dialect_cache_dir();
	char *dir = NULL, *path = NULL, *help = NULL;
	char hex[65];
	size_t len = 0;
	int fresh = 0;

	if (!real) {
		tps_fail(err, errlen, "'%s' is not found", binary);
		goto out;
	}
	if (filehash_compute(real, hex, NULL) < 0) {
		tps_fail(err, errlen, "'%s' cannot be hashed", binary);
		goto out;
	}
	if (cache) {
		dir = tps_xasprintf("%s/dialect", cache);
		path = tps_xasprintf("%s/%s.help", dir, hex);
		if (access(path, R_OK) == 0)
			help = tps_read_file(path, &len);
	}
	if (!help) {
		char *argv[] = { real, (char *)"--help", NULL };

		help = proc_capture(argv, DIALECT_HELP_TIMEOUT_S, DIALECT_HELP_MAX, &len);
		if (!help) {
			tps_fail(err, errlen, "'%s --help' failed, printed more than %u MiB or "
				 "did not end within %g s", binary, DIALECT_HELP_MAX >> 20,
				 DIALECT_HELP_TIMEOUT_S);
			goto out;
		}
		fresh = 1;
	}
	d = tps_xcalloc(1, sizeof(*d));
	if (dialect_parse(help, d) < 0) {
		tps_fail(err, errlen, "'%s --help' lists no option in llama.cpp's form", binary);
		free(d);
		d = NULL;
	} else if (fresh && path) {
		/* Only a help that parsed is kept: a one-off failure is asked again. */
		(void)mkdir(cache, 0755);
		cache_put(dir, path, help, len);
	}
out:
	free(real);
	free(cache);
	free(dir);
	free(path);
	free(help);
	return d;
}
