/* plan.c: engines and models in, cells and their schedule out. The order of work:
 * a model's file is read from disk once for all its engines and rounds, a round
 * alternates the engines' order, and a sweep's base run sits right before its spec
 * runs on the same engine. */
#include "collect/plan.h"
#include "collect/dialect.h"
#include "collect/manifest.h"
#include "schema/record.h"
#include "strbuf.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *plan_role_guess(const char *label)
{
	if (strstr(label, "llama.cpp") || strstr(label, "stock"))
		return "upstream";
	return "other";
}

int plan_role_valid(const char *role)
{
	return !strcmp(role, "ours") || !strcmp(role, "upstream") || !strcmp(role, "other");
}

struct engine_spec *plan_find_engine(struct plan *p, const char *label)
{
	size_t i;

	for (i = 0; i < p->n_engines; i++) {
		if (!strcmp(p->engines[i].label, label))
			return &p->engines[i];
	}
	return NULL;
}

static struct model_spec *find_model(struct plan *p, const char *label)
{
	size_t i;

	for (i = 0; i < p->n_models; i++) {
		if (!strcmp(p->models[i].label, label))
			return &p->models[i];
	}
	return NULL;
}

struct engine_spec *plan_add_engine(struct plan *p, const char *label, const char *binary,
				    char *err, size_t errlen)
{
	struct engine_spec *e;

	if (!*label) {
		tps_fail(err, errlen, "an engine label is empty");
		return NULL;
	}
	if (plan_find_engine(p, label)) {
		tps_fail(err, errlen, "engine '%s' is given twice", label);
		return NULL;
	}
	p->engines = tps_xrealloc(p->engines, (p->n_engines + 1) * sizeof(*p->engines));
	e = &p->engines[p->n_engines++];
	memset(e, 0, sizeof(*e));
	e->label = tps_xstrdup(label);
	e->binary = tps_xstrdup(binary);
	e->role = tps_xstrdup(plan_role_guess(label));
	e->args = tps_xstrdup("");
	return e;
}

struct model_spec *plan_add_model(struct plan *p, const char *label, const char *path,
				  const char *args, char *err, size_t errlen)
{
	struct model_spec *m;

	if (!*label || !*path) {
		tps_fail(err, errlen, "a model needs a label and a gguf path");
		return NULL;
	}
	if (find_model(p, label)) {
		tps_fail(err, errlen, "model '%s' is given twice", label);
		return NULL;
	}
	p->models = tps_xrealloc(p->models, (p->n_models + 1) * sizeof(*p->models));
	m = &p->models[p->n_models++];
	memset(m, 0, sizeof(*m));
	m->label = tps_xstrdup(label);
	m->path = tps_xstrdup(path);
	m->args = tps_xstrdup(args ? args : "");
	m->bytes = TPS_NULL;
	return m;
}

int plan_add_spec(struct plan *p, const struct manifest_entry *e, const char *where,
		  char *err, size_t errlen)
{
	struct model_spec *m = find_model(p, e->label);

	if (!m) {
		m = plan_add_model(p, e->label, e->path, "", err, errlen);
		if (!m)
			return -1;
	} else if (strcmp(m->path, e->path)) {
		return tps_fail(err, errlen, "model '%s' is '%s' in the spec manifest but '%s' "
				"elsewhere", e->label, e->path, m->path);
	} else if (m->spec_args) {
		return tps_fail(err, errlen, "model '%s' has two speculative sweeps", e->label);
	}
	m->spec_args = tps_xstrdup(e->args);
	m->spec_where = where ? tps_xstrdup(where) : NULL;
	m->n_max = tps_xcalloc(e->n_n_max, sizeof(*m->n_max));
	memcpy(m->n_max, e->n_max, e->n_n_max * sizeof(*m->n_max));
	m->n_n_max = e->n_n_max;
	return 0;
}

const char *plan_base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* The value raw args argv give knob k (any spelling, also as --opt=value; the
 * last wins); NULL when none. Borrowed from argv. */
static const char *raw_value(char *const *argv, enum spec_knob k)
{
	const char *v = NULL, *eq;
	size_t i;

	for (i = 0; argv[i]; i++) {
		const char *a = argv[i], *next = argv[i + 1];

		if (spec_knob_of_flag(a) != (int)k)
			continue;
		if ((eq = strchr(a, '=')))
			v = a[1] == '-' ? eq + 1 : v; /* "-md=x" is no spelling */
		else if (next)
			v = next;
	}
	return v;
}

const char *plan_draft_model(char *const *argv)
{
	return raw_value(argv, SPEC_KNOB_DRAFTER);
}

void plan_spec_info(char *const *argv, char **spec_type, char **drafter)
{
	const char *type = raw_value(argv, SPEC_KNOB_TYPE), *draft = plan_draft_model(argv);

	*spec_type = tps_xstrdup(type ? type : draft ? "draft" : "custom");
	*drafter = tps_xstrdup(draft ? plan_base_name(draft) : "");
}

static char *join(char *const *argv)
{
	size_t n = 1, i;
	char *s;

	for (i = 0; argv && argv[i]; i++)
		n += strlen(argv[i]) + 3;
	s = tps_xcalloc(1, n);
	for (i = 0; argv && argv[i]; i++) {
		int quote = !*argv[i] || strpbrk(argv[i], " \t'\"\\") != NULL;
		if (i)
			strcat(s, " ");
		if (quote && !strchr(argv[i], '\'')) {
			strcat(s, "'");
			strcat(s, argv[i]);
			strcat(s, "'");
		} else {
			strcat(s, argv[i]);
		}
	}
	return s;
}

static void cell_release(struct cell *c)
{
	free(c->spec_settings);
	free(c->spec_type);
	free(c->drafter);
	free(c->extra_args);
	manifest_free_args(c->extra_argv);
}

/* llama-server wants exactly n_max values in --spec-synth-rates; one manifest line
 * serves every rung of a sweep, so rung n gets the list's first n values (the
 * "0.9,0.8,0.7 and its prefixes" of a synthetic-acceptance sweep). */
static void synth_rates_prefix(struct cell *c, int64_t n_max)
{
	size_t i;

	for (i = 0; i + 1 < c->extra_argc; i++) {
		char *v = c->extra_argv[i + 1], *p = v;
		int64_t k = 0;

		if (strcmp(c->extra_argv[i], "--spec-synth-rates"))
			continue;
		while (*p && (k < n_max - 1 || *p != ',')) {
			if (*p == ',')
				k++;
			p++;
		}
		*p = '\0';
	}
}

/* Appends the words of src (server args named by what, of label) to *argv. */
static int split_into(const char *src, const char *what, const char *label, char ***argv,
		      size_t *argc, char *err, size_t errlen)
{
	char why[256];

	if (!src || !*src)
		return 0;
	if (manifest_split_args(src, argv, argc, why, sizeof(why)) < 0)
		return tps_fail(err, errlen, "%s of '%s': %s", what, label, why);
	return 0;
}

/* The spec args of m, split, and the terms that open them. */
static int spec_terms_of(const struct model_spec *m, char ***words, struct spec_terms *t,
			 char *err, size_t errlen)
{
	size_t n = 0;
	char why[256];

	*words = NULL;
	if (split_into(m->spec_args, "the spec server args", m->label, words, &n, err,
		       errlen) < 0)
		return -1;
	if (!*words)
		*words = tps_xcalloc(1, sizeof(**words));
	if (manifest_spec_terms(*words, t, why, sizeof(why)) < 0)
		return tps_fail(err, errlen, "the spec args of '%s': %s", m->label, why);
	return 0;
}

/* A settled knob's value as every command line and record writes it: "%g" of
 * the number ("0.00" is "0"); NULL when v is none. Caller frees. */
static char *canon_value(const char *v)
{
	double x;

	if (!v || tps_parse_double(v, &x) < 0 || !isfinite(x))
		return NULL;
	return tps_xasprintf("%g", x);
}

/* The value model m's line gives engine e for knob k: settle[k] where e spells
 * the knob, or wherever the line set it (an engine without it is then refused);
 * NULL: e's own default. Borrowed from m. */
static const char *settled_for(const struct model_spec *m, const struct engine_spec *e,
			       int k)
{
	if (!m->settle[k])
		return NULL;
	if ((m->settle_line & 1u << k) || (e->dialect && e->dialect->flag[k]))
		return m->settle[k];
	return NULL;
}

/* One engine's part of a note: "new 0.00". */
static void note_engine(struct strbuf *sb, const struct engine_spec *e, int k, int first)
{
	const char *v = e->dialect->deflt[k];
	char *w = tps_xasprintf("%s%s %s", first ? "" : ", ", e->label, v ? v : "none stated");

	strbuf_put(sb, w, strlen(w));
	free(w);
}

/* Appends line (taken) to p->spec_note. */
static void note_add(struct plan *p, char *line)
{
	char *c;

	if (!p->spec_note) {
		p->spec_note = line;
		return;
	}
	c = tps_xasprintf("%s%s", p->spec_note, line);
	free(p->spec_note);
	free(line);
	p->spec_note = c;
}

/* Knob k's one value on every engine when their stated defaults differ (or one
 * that spells it states none): the value every release reads alike where the
 * knob has one (spec_knobs.h), else the first upstream engine's default, else
 * the first engine's; NULL when they agree or none states one. The first time a
 * knob is equalised, a line of *note says so. Caller frees. */
static char *equalise(struct plan *p, int k, int *noted)
{
	char *c0 = NULL, *chosen = NULL, *c;
	const char *pick = NULL, *first = NULL;
	int differ = 0, n = 0;
	struct strbuf sb = { 0 };
	size_t ei;

	for (ei = 0; ei < p->n_engines; ei++) {
		const struct engine_spec *e = &p->engines[ei];

		if (!e->dialect || !e->dialect->flag[k])
			continue;
		if (!(c = canon_value(e->dialect->deflt[k]))) {
			differ = 1;
			continue;
		}
		if (!first)
			first = e->dialect->deflt[k];
		if (!pick && !strcmp(e->role, "upstream"))
			pick = e->dialect->deflt[k];
		if (!c0)
			c0 = c;
		else {
			differ |= strcmp(c0, c) != 0;
			free(c);
		}
	}
	free(c0);
	if (!differ || !first)
		return NULL;
	chosen = canon_value(spec_knobs[k].alike ? spec_knobs[k].alike : pick ? pick : first);
	if (*noted)
		return chosen;
	*noted = 1;
	c = tps_xasprintf("spec settings: %s %s on every engine (defaults differ: ",
			  spec_knobs[k].term, chosen);
	strbuf_put(&sb, c, strlen(c));
	free(c);
	for (ei = 0; ei < p->n_engines; ei++)
		if (p->engines[ei].dialect && p->engines[ei].dialect->flag[k])
			note_engine(&sb, &p->engines[ei], k, !n++);
	c = tps_xasprintf(")%s; set %s= in the spec manifest to choose\n",
			  spec_knobs[k].alike ? ", the one value every release reads alike" : "",
			  spec_knobs[k].term);
	strbuf_put(&sb, c, strlen(c));
	free(c);
	note_add(p, sb.p);
	return chosen;
}

/* Where the line sets knob k to v, not the value every release reads alike, and
 * the engines spell k in more than one way (each spelling a release's drafting
 * loop, spec_knobs.c): a line of p->spec_note says the releases read v
 * differently. The value stays the line's: the user chose it. */
static void note_read_differently(struct plan *p, int k, const char *v)
{
	const char *first = NULL;
	struct strbuf sb = { 0 };
	int split = 0;
	char *alike = canon_value(spec_knobs[k].alike), *c;
	size_t ei;

	if (!alike || !strcmp(alike, v)) {
		free(alike);
		return;
	}
	c = tps_xasprintf("spec settings: %s %s as the spec manifest sets it, which the releases "
			  "read differently (", spec_knobs[k].term, v);
	strbuf_put(&sb, c, strlen(c));
	free(c);
	for (ei = 0; ei < p->n_engines; ei++) {
		const char *f = p->engines[ei].dialect ? p->engines[ei].dialect->flag[k] : NULL;

		if (!f)
			continue;
		split |= first && strcmp(first, f) != 0;
		c = tps_xasprintf("%s%s %s", first ? ", " : "", p->engines[ei].label, f);
		strbuf_put(&sb, c, strlen(c));
		free(c);
		if (!first)
			first = f;
	}
	if (!split) {
		free(alike);
		free(sb.p);
		return;
	}
	c = tps_xasprintf("); %s=%s is the one value every release reads alike\n",
			  spec_knobs[k].term, alike);
	strbuf_put(&sb, c, strlen(c));
	free(c);
	free(alike);
	note_add(p, sb.p);
}

int plan_spec_settle(struct plan *p, char *err, size_t errlen)
{
	int noted[SPEC_N_KNOBS] = { 0 }, noted_set[SPEC_N_KNOBS] = { 0 };
	size_t mi;
	int k;

	for (mi = 0; mi < p->n_models; mi++) {
		struct model_spec *m = &p->models[mi];
		struct spec_terms t;
		char **words = NULL;

		if (!m->n_n_max)
			continue;
		if (spec_terms_of(m, &words, &t, err, errlen) < 0) {
			manifest_free_args(words);
			return -1;
		}
		m->settle_line = 0;
		for (k = SPEC_SETTLED_FIRST; t.given && k < SPEC_N_KNOBS; k++) {
			free(m->settle[k]);
			if (t.set[k]) {
				m->settle[k] = canon_value(t.set[k]);
				m->settle_line |= 1u << k;
				if (m->settle[k] && !noted_set[k]) {
					noted_set[k] = 1;
					note_read_differently(p, k, m->settle[k]);
				}
			} else {
				m->settle[k] = equalise(p, k, &noted[k]);
			}
		}
		manifest_free_args(words);
	}
	return 0;
}

char *plan_spec_settings(const struct plan *p, size_t ei, size_t mi)
{
	const struct engine_spec *e = &p->engines[ei];
	const struct model_spec *m = &p->models[mi];
	const struct dialect *d = e->dialect;
	struct strbuf sb = { 0 };

	strbuf_put(&sb, "", 0);
	for (int k = SPEC_SETTLED_FIRST; d && k < SPEC_N_KNOBS; k++) {
		const char *v = settled_for(m, e, k);
		char *own = v || !d->flag[k] ? NULL : canon_value(d->deflt[k]), *w;

		if (!v && !own)
			continue;
		w = tps_xasprintf("%s%s=%s", sb.len ? " " : "", spec_knobs[k].term, v ? v : own);
		strbuf_put(&sb, w, strlen(w));
		free(w);
		free(own);
	}
	return sb.p;
}

int plan_spec_given(const struct plan *p, size_t mi)
{
	struct spec_terms t;
	char **words = NULL, err[256];
	int r = -1;

	if (p->models[mi].spec_args && spec_terms_of(&p->models[mi], &words, &t, err,
						    sizeof(err)) == 0)
		r = t.given ? 1 : 0;
	manifest_free_args(words);
	return r;
}

int plan_spec_words(const struct plan *p, size_t ei, size_t mi, int64_t n_max, char ***argv,
		    size_t *argc, char *err, size_t errlen)
{
	const struct engine_spec *e = &p->engines[ei];
	const struct model_spec *m = &p->models[mi];
	const char *settle[SPEC_N_KNOBS] = { 0 };
	struct spec_terms t;
	char **words = NULL;
	int ret = -1;

	for (int k = SPEC_SETTLED_FIRST; k < SPEC_N_KNOBS; k++)
		settle[k] = settled_for(m, e, k);

	*argv = tps_xcalloc(1, sizeof(**argv));
	*argc = 0;
	if (split_into(e->args, "the server args", e->label, argv, argc, err, errlen) < 0 ||
	    split_into(m->args, "the server args", m->label, argv, argc, err, errlen) < 0)
		goto out;
	if (n_max != TPS_NULL && (spec_terms_of(m, &words, &t, err, errlen) < 0 ||
				  dialect_spell(e->dialect, e->label, words, &t, n_max, settle,
						argv, argc, err, errlen) < 0))
		goto out;
	ret = 0;
out:
	manifest_free_args(words);
	return ret;
}

/* The speculative type and drafter cell c records: in tpsdb's terms what the line
 * says, whatever each engine's spelling; in raw args what the words name. */
static int spec_info(const struct plan *p, struct cell *c, char *err, size_t errlen)
{
	const struct model_spec *m = &p->models[c->model];
	struct spec_terms t;
	char **words = NULL;

	if (spec_terms_of(m, &words, &t, err, errlen) < 0) {
		manifest_free_args(words);
		return -1;
	}
	if (t.given) {
		c->spec_type = tps_xstrdup(t.type);
		c->drafter = tps_xstrdup(t.drafter ? plan_base_name(t.drafter) : "");
	} else {
		plan_spec_info(c->extra_argv, &c->spec_type, &c->drafter);
	}
	manifest_free_args(words);
	return 0;
}

/* Appends the cell for engine ei, model mi and n_max (TPS_NULL: base). */
static int add_cell(struct plan *p, size_t ei, size_t mi, int64_t n_max, char *err,
		    size_t errlen)
{
	struct cell c = { 0 };

	c.engine = ei;
	c.model = mi;
	c.n_max = n_max;
	if (plan_spec_words(p, ei, mi, n_max, &c.extra_argv, &c.extra_argc, err, errlen) < 0) {
		cell_release(&c);
		return -1;
	}
	if (n_max != TPS_NULL) {
		synth_rates_prefix(&c, n_max);
		if (spec_info(p, &c, err, errlen) < 0) {
			cell_release(&c);
			return -1;
		}
		c.spec_settings = plan_spec_settings(p, ei, mi);
	} else {
		c.spec_type = tps_xstrdup("");
		c.drafter = tps_xstrdup("");
		c.spec_settings = tps_xstrdup("");
	}
	c.extra_args = join(c.extra_argv);
	p->cells = tps_xrealloc(p->cells, (p->n_cells + 1) * sizeof(*p->cells));
	p->cells[p->n_cells++] = c;
	return 0;
}

int plan_has_spec(const struct plan *p)
{
	for (size_t i = 0; i < p->n_models; i++)
		if (p->models[i].n_n_max)
			return 1;
	return 0;
}

int plan_build(struct plan *p, char *err, size_t errlen)
{
	size_t mi, ei, k;

	if (!p->n_engines)
		return tps_fail(err, errlen, "no engine to measure");
	if (!p->n_models)
		return tps_fail(err, errlen, "no model to measure");
	for (mi = 0; mi < p->n_models; mi++) {
		for (ei = 0; ei < p->n_engines; ei++) {
			if (add_cell(p, ei, mi, TPS_NULL, err, errlen) < 0)
				return -1;
			for (k = 0; k < p->models[mi].n_n_max; k++) {
				if (add_cell(p, ei, mi, p->models[mi].n_max[k], err, errlen) < 0)
					return -1;
			}
		}
	}
	return 0;
}

int64_t plan_rounds(const struct plan *p)
{
	return p->rounds > 1 ? p->rounds : 1;
}

size_t plan_round_order(const struct plan *p, size_t mi, int64_t round, size_t *order)
{
	size_t n = 0, i, k;

	for (i = 0; i < p->n_engines; i++) {
		/* Even rounds walk the engines backwards: over two rounds each engine has
		 * run as early and as late as every other, so a slow drift cancels. */
		size_t ei = round % 2 == 0 ? p->n_engines - 1 - i : i;
		for (k = 0; k < p->n_cells; k++) {
			if (p->cells[k].model == mi && p->cells[k].engine == ei)
				order[n++] = k;
		}
	}
	return n;
}

struct plan_step *plan_schedule(const struct plan *p, size_t *n)
{
	int64_t rounds = plan_rounds(p), r;
	struct plan_step *v = tps_xcalloc(p->n_cells * (size_t)rounds + 1, sizeof(*v));
	size_t *order = tps_xcalloc(p->n_cells + 1, sizeof(*order));
	size_t mi, i, m;

	*n = 0;
	for (mi = 0; mi < p->n_models; mi++) {
		for (r = 1; r <= rounds; r++) {
			m = plan_round_order(p, mi, r, order);
			for (i = 0; i < m; i++) {
				v[*n].cell = order[i];
				v[*n].round = r;
				(*n)++;
			}
		}
	}
	free(order);
	return v;
}

char **plan_argv(const struct plan *p, const struct cell *c, int port, int64_t ctx)
{
	size_t n = 0, i;
	char **argv = tps_xcalloc(12 + c->extra_argc, sizeof(*argv));

	argv[n++] = tps_xstrdup(p->engines[c->engine].binary);
	argv[n++] = tps_xstrdup("--host");
	argv[n++] = tps_xstrdup("127.0.0.1");
	argv[n++] = tps_xstrdup("--port");
	argv[n++] = tps_xasprintf("%d", port);
	argv[n++] = tps_xstrdup("-m");
	argv[n++] = tps_xstrdup(p->models[c->model].path);
	argv[n++] = tps_xstrdup("-c");
	argv[n++] = tps_xasprintf("%lld", (long long)ctx);
	argv[n++] = tps_xstrdup("-ngl");
	argv[n++] = tps_xstrdup("99");
	for (i = 0; i < c->extra_argc; i++)
		argv[n++] = tps_xstrdup(c->extra_argv[i]);
	argv[n] = NULL;
	return argv;
}

void plan_release(struct plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n_engines; i++) {
		free(p->engines[i].label);
		free(p->engines[i].binary);
		free(p->engines[i].role);
		free(p->engines[i].args);
		free(p->engines[i].home);
		free(p->engines[i].sha256);
		free(p->engines[i].version);
		dialect_free(p->engines[i].dialect);
	}
	for (i = 0; i < p->n_models; i++) {
		free(p->models[i].label);
		free(p->models[i].path);
		free(p->models[i].args);
		free(p->models[i].spec_args);
		free(p->models[i].spec_where);
		free(p->models[i].n_max);
		for (int k = 0; k < SPEC_N_KNOBS; k++)
			free(p->models[i].settle[k]);
		free(p->models[i].file);
		free(p->models[i].sha256);
		free(p->models[i].quant);
	}
	for (i = 0; i < p->n_cells; i++)
		cell_release(&p->cells[i]);
	free(p->engines);
	free(p->models);
	free(p->cells);
	free(p->spec_note);
	memset(p, 0, sizeof(*p));
}

void plan_print(FILE *f, const struct plan *p, const char *url, int port, int64_t ctx)
{
	int64_t rounds = plan_rounds(p);
	size_t k, n;
	struct plan_step *steps = plan_schedule(p, &n);

	for (k = 0; k < n; k++) {
		const struct cell *c = &p->cells[steps[k].cell];
		const struct engine_spec *e = &p->engines[c->engine];
		fprintf(f, "%zu/%zu %s %s (%s) ", k + 1, n, p->models[c->model].label,
			e->label, e->role);
		if (c->n_max == TPS_NULL)
			fprintf(f, "base");
		else
			fprintf(f, "n_max=%lld spec_type=%s drafter=%s", (long long)c->n_max,
				c->spec_type, *c->drafter ? c->drafter : "-");
		if (rounds > 1)
			fprintf(f, " round %lld/%lld", (long long)steps[k].round,
				(long long)rounds);
		if (url) {
			fprintf(f, ": %s\n", url);
			continue;
		}
		fprintf(f, ":");
		char **argv = plan_argv(p, c, port, ctx);
		for (size_t i = 0; argv[i]; i++)
			fprintf(f, strpbrk(argv[i], " \t\"") || !*argv[i] ? " '%s'" : " %s",
				argv[i]);
		manifest_free_args(argv);
		if (e->home)
			fprintf(f, " [HOME=%s]", e->home);
		else if (e->fresh_home)
			fprintf(f, " [HOME=<fresh temporary>]");
		fprintf(f, "\n");
	}
	free(steps);
}
