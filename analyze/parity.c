/* parity.c: judging the shared cells of two engines. The values come ordered by
 * (prompt, rep), so pairing is one merge join; the verdict itself is
 * analyze/verdict.c's. Refusals are decided before a cell's values are used, and
 * the result says why in fields, not words: reports/parity.c writes them. */
#include "analyze/parity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/config.h"
#include "analyze/stats.h"
#include "tpsdb.h"

void parity_opts_init(struct parity_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->metrics = PARITY_BOTH;
	o->band_pct = VERDICT_BAND_PCT;
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int known(const char *s)
{
	return s && *s;
}

int parity_mismatch(const struct parity_side *a, const struct parity_side *b,
		    struct parity_diff *out)
{
	enum parity_diff_kind k = PARITY_DIFF_NONE;

	/* An unknown hash (import without --model-sha256) proves nothing either way;
	 * only two known, different hashes are a different GGUF. */
	if (known(a->model_sha256) && known(b->model_sha256) &&
	    strcmp(a->model_sha256, b->model_sha256))
		k = PARITY_DIFF_SHA256;
	else if (a->ctx != INT64_MIN && b->ctx != INT64_MIN && a->ctx != b->ctx)
		k = PARITY_DIFF_CTX;
	else if (a->n_predict != INT64_MIN && b->n_predict != INT64_MIN &&
		 a->n_predict != b->n_predict)
		k = PARITY_DIFF_N_PREDICT;
	else if (!same_str(a->endpoint, b->endpoint))
		k = PARITY_DIFF_ENDPOINT;
	else if (known(a->prompt_set) && known(b->prompt_set) &&
		 strcmp(a->prompt_set, b->prompt_set))
		k = PARITY_DIFF_PROMPT_SET;
	else if (!same_str(a->config, b->config))
		k = PARITY_DIFF_CONFIG;
	out->kind = k;
	out->a = a;
	out->b = b;
	return k != PARITY_DIFF_NONE;
}

static int key_before(const struct parity_value *x, const struct parity_value *y)
{
	return x->prompt_id < y->prompt_id || (x->prompt_id == y->prompt_id && x->rep < y->rep);
}

void parity_pair(const struct parity_value *a, size_t na, const struct parity_value *b,
		 size_t nb, double **ours, double **vs, size_t *n, size_t *unpaired)
{
	size_t i = 0, j = 0, m = 0, lost = 0, cap = na < nb ? na : nb;
	double *x = cap ? tps_xmalloc(cap * sizeof(*x)) : NULL;
	double *y = cap ? tps_xmalloc(cap * sizeof(*y)) : NULL;

	while (i < na && j < nb) {
		if (key_before(&a[i], &b[j])) {
			i++;
			lost++;
		} else if (key_before(&b[j], &a[i])) {
			j++;
			lost++;
		} else {
			x[m] = a[i++].value;
			y[m] = b[j++].value;
			m++;
		}
	}
	lost += (na - i) + (nb - j);
	if (!m) {
		free(x);
		free(y);
		x = y = NULL;
	}
	*ours = x;
	*vs = y;
	*n = m;
	if (unpaired)
		*unpaired = lost;
}

/* Whether sides[] measured this model at all: a cell one engine lacks is worth a
 * note only when that engine measured the model in other cells. */
static int has_model(const struct parity_side *sides, size_t n, const char *model)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (same_str(sides[i].model, model))
			return 1;
	return 0;
}

static void add_note(struct parity_result *r, enum parity_note_kind kind,
		     const struct parity_side *cell, const char *missing,
		     const struct parity_diff *diff)
{
	struct parity_note *n;

	r->notes = tps_xrealloc(r->notes, (r->n_notes + 1) * sizeof(*r->notes));
	n = &r->notes[r->n_notes++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->cell = cell;
	n->missing = missing;
	if (diff)
		n->diff = *diff;
}

/* Copies a uuid into a fixed field, cut to fit; NULL gives "". */
static void copy_uuid(char *dst, size_t len, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= len)
		n = len - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Whether two runs may share a round: the same batch, or a side without one. */
static int same_batch(const char *a, const char *b)
{
	return !a || !b || !strcmp(a, b);
}

size_t parity_rounds(const struct parity_instance *a, size_t na,
		     const struct parity_instance *b, size_t nb, int by_batch, size_t *pairs)
{
	size_t i, j, r = 0, n = na < nb ? na : nb;
	int numbered = 1;
	char *used;

	for (i = 0; i < na; i++)
		numbered &= a[i].side && a[i].side->round != INT64_MIN;
	for (j = 0; j < nb; j++)
		numbered &= b[j].side && b[j].side->round != INT64_MIN;
	if (!numbered) {
		for (r = 0; r < n; r++)
			pairs[2 * r] = pairs[2 * r + 1] = r;
		return n;
	}
	/* Rounds restart at 1 in every collect batch: two runs of one round pair
	 * only within one batch when both carry one, and no run pairs twice. */
	used = tps_xcalloc(nb ? nb : 1, 1);
	for (i = 0; i < na && r < n; i++)
		for (j = 0; j < nb; j++)
			if (!used[j] && a[i].side->round == b[j].side->round &&
			    (!by_batch || same_batch(a[i].side->batch, b[j].side->batch))) {
				pairs[2 * r] = i;
				pairs[2 * r + 1] = j;
				used[j] = 1;
				r++;
				break;
			}
	free(used);
	return r;
}

/* The estimate's instances of one side: values and their (prompt, rep) keys
 * copied out of the keyed series (*store and *keys hold them; the caller frees
 * all three). */
static struct estimate_unit *units_of(const struct parity_instance *in, size_t n,
				      enum parity_metric m, double **store, int64_t **keys)
{
	struct estimate_unit *u = tps_xcalloc(n ? n : 1, sizeof(*u));
	size_t total = 0, k, i, at = 0;

	for (k = 0; k < n; k++)
		total += in[k].values[m].n;
	*store = tps_xmalloc((total ? total : 1) * sizeof(**store));
	*keys = tps_xmalloc(2 * (total ? total : 1) * sizeof(**keys));
	for (k = 0; k < n; k++) {
		const struct parity_series *s = &in[k].values[m];

		u[k].v = *store + at;
		u[k].key = *keys + 2 * at;
		for (i = 0; i < s->n; i++) {
			(*keys)[2 * at] = s->v[i].prompt_id;
			(*keys)[2 * at + 1] = s->v[i].rep;
			(*store)[at++] = s->v[i].value;
		}
		u[k].n = s->n;
		u[k].value = NAN;
		u[k].round = in[k].side ? in[k].side->round : INT64_MIN;
		u[k].batch = in[k].side ? in[k].side->batch : NULL;
		u[k].started_at = in[k].side ? in[k].side->started_at : NULL;
		u[k].uuid = in[k].side ? in[k].side->uuid : NULL;
	}
	return u;
}

/* The sequential design the instances came from: the largest looks_to of a
 * side's runs (0: every run came from a fixed design). */
static int64_t design_looks(const struct parity_instance *a, size_t na,
			    const struct parity_instance *b, size_t nb)
{
	int64_t l = 0;
	size_t k;

	for (k = 0; k < na; k++)
		if (a[k].side && a[k].side->looks_to > l)
			l = a[k].side->looks_to;
	for (k = 0; k < nb; k++)
		if (b[k].side && b[k].side->looks_to > l)
			l = b[k].side->looks_to;
	return l;
}

/* Judges one metric of one cell and appends the row: the cell's one estimate.
 * -1 when the parameters are not numbers >= 0. */
static int judge(const struct parity_opts *o, const struct parity_side *a,
		 const struct parity_side *b, const struct parity_cell *c, enum parity_metric m,
		 int forced, struct parity_result *r)
{
	struct parity_instance one_a, one_b;
	const struct parity_instance *ia = c->ours_inst, *ib = c->vs_inst;
	size_t na = c->n_ours_inst, nb = c->n_vs_inst, i;
	double noise = c->noise_pct[m], *va = NULL, *vb = NULL;
	int64_t *key_a = NULL, *key_b = NULL;
	struct estimate_unit *ua = NULL, *ub = NULL;
	struct estimate_params ep;
	struct estimate e = { 0 };
	struct parity_row *row;
	int ret = -1;

	if (!ia || !na) {
		memset(&one_a, 0, sizeof(one_a));
		one_a.side = a;
		one_a.values[m] = c->ours_values[m];
		ia = &one_a;
		na = 1;
	}
	if (!ib || !nb) {
		memset(&one_b, 0, sizeof(one_b));
		one_b.side = b;
		one_b.values[m] = c->vs_values[m];
		ib = &one_b;
		nb = 1;
	}
	estimate_params_init(&ep);
	ep.band_pct = o->band_pct;
	ep.noise_pct = isnan(noise) ? 0 : noise;
	ep.looks_to = o->looks_to ? o->looks_to : design_looks(ia, na, ib, nb);
	if (ep.looks_to > ESTIMATE_MAX_LOOK)
		ep.looks_to = ESTIMATE_MAX_LOOK;
	ua = units_of(ia, na, m, &va, &key_a);
	ub = units_of(ib, nb, m, &vb, &key_b);
	if (estimate_cell(ua, na, ub, nb, &ep, &e) < 0)
		goto out;
	r->rows = tps_xrealloc(r->rows, (r->n_rows + 1) * sizeof(*r->rows));
	row = &r->rows[r->n_rows++];
	memset(row, 0, sizeof(*row));
	row->v = e.v;
	row->ours_median = e.ours_center;
	row->vs_median = e.vs_center;
	row->reason = e.reason;
	row->n_ours_first = e.n_ours_first;
	row->n_vs_first = e.n_vs_first;
	row->n_out_ours = e.n_out_ours;
	row->n_out_vs = e.n_out_vs;
	for (i = 0; i < e.n_out_ours && i < 4; i++)
		copy_uuid(row->out_ours[i], sizeof(row->out_ours[i]), ua[e.out_ours[i]].uuid);
	for (i = 0; i < e.n_out_vs && i < 4; i++)
		copy_uuid(row->out_vs[i], sizeof(row->out_vs[i]), ub[e.out_vs[i]].uuid);
	row->unpaired = e.n_unpaired;
	row->model = tps_xstrdup(a->model ? a->model : "");
	row->spec_type = tps_xstrdup(a->spec_type ? a->spec_type : "");
	row->endpoint = tps_xstrdup(a->endpoint ? a->endpoint : "");
	row->config = tps_xstrdup(a->config ? a->config : "");
	row->n_max = a->n_max;
	row->ctx = a->ctx;
	row->n_predict = a->n_predict;
	row->metric = m == PARITY_METRIC_PP ? "pp" : "tg";
	row->ours = o->ours;
	row->vs = o->vs;
	copy_uuid(row->ours_run, sizeof(row->ours_run), a->uuid);
	copy_uuid(row->vs_run, sizeof(row->vs_run), b->uuid);
	row->noise_pct = noise;
	for (i = 0; i < na; i++)
		row->excluded_ours += ia[i].values[m].excluded;
	for (i = 0; i < nb; i++)
		row->excluded_vs += ib[i].values[m].excluded;
	row->forced = forced;
	for (i = 0; i < na; i++) {
		row->env_ours |= ia[i].side ? ia[i].side->env_flags : 0;
		row->degenerate += ia[i].side ? ia[i].side->n_degenerate : 0;
	}
	for (i = 0; i < nb; i++) {
		row->env_vs |= ib[i].side ? ib[i].side->env_flags : 0;
		row->degenerate += ib[i].side ? ib[i].side->n_degenerate : 0;
	}
	row->env_flags = row->env_ours | row->env_vs;
	parity_outputs(a, b, &row->outputs_compared, &row->outputs_identical);
	ret = 0;
out:
	estimate_release(&e);
	free(ua);
	free(ub);
	free(va);
	free(vb);
	free(key_a);
	free(key_b);
	return ret;
}

void parity_outputs(const struct parity_side *a, const struct parity_side *b,
		    int64_t *compared, int64_t *identical)
{
	size_t i = 0, j = 0;

	*compared = *identical = -1;
	if (!(a->temperature == 0) || !(b->temperature == 0))
		return;
	*compared = *identical = 0;
	while (i < a->n_outputs && j < b->n_outputs) {
		const struct parity_output *x = &a->outputs[i], *y = &b->outputs[j];
		if (x->prompt_id < y->prompt_id || (x->prompt_id == y->prompt_id && x->rep < y->rep)) {
			i++;
		} else if (x->prompt_id > y->prompt_id || x->rep > y->rep) {
			j++;
		} else {
			(*compared)++;
			*identical += x->hash && y->hash && !strcmp(x->hash, y->hash);
			i++;
			j++;
		}
	}
}

size_t parity_env_rows(const struct parity_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n_rows; i++)
		n += r->rows[i].env_flags || r->rows[i].degenerate > 0;
	return n;
}

int parity_decide(const struct parity_input *in, const struct parity_opts *o,
		  struct parity_result *out)
{
	const struct parity_cell *c = in->cells, *end = in->cells + in->n_cells;
	char *used = tps_xcalloc(in->n_vs ? in->n_vs : 1, 1);
	size_t i, j;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < in->n_cells; i++)
		used[in->cells[i].vs] = 1;
	for (i = 0; i < in->n_ours; i++) {
		const struct parity_side *a = &in->ours[i], *b;
		struct parity_diff diff;
		int forced = 0;

		if (c == end || c->ours != i) {
			if (has_model(in->vs, in->n_vs, a->model))
				add_note(out, PARITY_NOTE_LONE, a, o->vs, NULL);
			continue;
		}
		b = &in->vs[c->vs];
		if (parity_mismatch(a, b, &diff)) {
			if (!o->force) {
				out->stop = PARITY_STOP_REFUSED;
				out->stop_cell = a;
				out->stop_diff = diff;
				goto out;
			}
			forced = 1;
			add_note(out, PARITY_NOTE_FORCED, a, NULL, &diff);
		}
		/* A llama-bench test measures one metric: no row for the other. */
		if (((o->metrics & PARITY_PP) && config_measures(a->config, PARITY_METRIC_PP) &&
		     judge(o, a, b, c, PARITY_METRIC_PP, forced, out) < 0) ||
		    ((o->metrics & PARITY_TG) && config_measures(a->config, PARITY_METRIC_TG) &&
		     judge(o, a, b, c, PARITY_METRIC_TG, forced, out) < 0)) {
			out->stop = PARITY_STOP_BAD_PARAMS;
			out->stop_cell = a;
			goto out;
		}
		c++;
	}
	for (j = 0; j < in->n_vs; j++)
		if (!used[j] && has_model(in->ours, in->n_ours, in->vs[j].model))
			add_note(out, PARITY_NOTE_LONE, &in->vs[j], o->ours, NULL);
	parity_answer(out, o->band_pct, &out->answers);
	ret = 0;
out:
	free(used);
	return ret;
}

void parity_answer(const struct parity_result *r, double band_pct, struct answer_set *out)
{
	const double band[PARITY_N_METRICS] = { band_pct, band_pct };
	int *metric = tps_xcalloc(r->n_rows + 1, sizeof(*metric));
	const struct verdict **v = tps_xcalloc(r->n_rows + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const char *m = r->rows[i].metric;

		metric[i] = !strcmp(m, "pp") ? PARITY_METRIC_PP : !strcmp(m, "tg") ?
			    PARITY_METRIC_TG : -1;
		v[i] = &r->rows[i].v;
	}
	answer_set_build(metric, v, r->n_rows, band, PARITY_N_METRICS, out);
	free(v);
	free(metric);
}

void parity_result_release(struct parity_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n_rows; i++) {
		free(r->rows[i].model);
		free(r->rows[i].spec_type);
		free(r->rows[i].endpoint);
		free(r->rows[i].config);
	}
	free(r->rows);
	free(r->notes);
	answer_set_release(&r->answers);
	memset(r, 0, sizeof(*r));
}
