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

int parity_metrics_of(const char *name)
{
	return !strcmp(name, "pp") ? PARITY_PP : !strcmp(name, "tg") ? PARITY_TG :
	       !strcmp(name, "both") ? PARITY_BOTH : -1;
}

void parity_opts_init(struct parity_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->metrics = PARITY_BOTH;
	o->band_pct = VERDICT_BAND_PCT;
}

static int key_before(const struct run_value *x, const struct run_value *y)
{
	return x->prompt_id < y->prompt_id || (x->prompt_id == y->prompt_id && x->rep < y->rep);
}

void parity_pair(const struct run_value *a, size_t na, const struct run_value *b, size_t nb,
		 double **ours, double **vs, size_t *n, size_t *unpaired)
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

/* Whether pools[] measured this model at all: a cell one engine lacks is worth a
 * note only when that engine measured the model in other cells. */
static int has_model(const struct pool *pools, size_t n, const char *model)
{
	for (size_t i = 0; i < n; i++)
		if (pools[i].n && run_str_eq(pool_face(&pools[i])->model, model))
			return 1;
	return 0;
}

static void add_note(struct parity_result *r, enum parity_note_kind kind,
		     const struct run *cell, const char *missing, const struct run_diff *diff)
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

/* Judges one metric of one cell and appends the row: the cell's one estimate.
 * -1 when the parameters are not numbers >= 0. */
static int judge(const struct parity_opts *o, const struct pool *pa, const struct pool *pb,
		 enum parity_metric m, int forced, int across, struct parity_result *r)
{
	const struct run *a = pool_face(pa), *b = pool_face(pb);
	struct estimate_unit *ua = NULL, *ub = NULL;
	struct estimate_params ep;
	struct estimate e = { 0 };
	struct parity_row *row;
	size_t i;
	int ret = -1;

	estimate_params_init(&ep);
	ep.band_pct = o->band_pct;
	ep.unpaired = across;
	if (pool_estimate(pa, pb, (enum run_metric)m, &ep, &e, &ua, &ub) < 0)
		goto out;
	r->rows = tps_xrealloc(r->rows, (r->n_rows + 1) * sizeof(*r->rows));
	row = &r->rows[r->n_rows++];
	memset(row, 0, sizeof(*row));
	row->v = e.v;
	row->pool_ours = pa;
	row->pool_vs = pb;
	row->question = pools_question(pa, pb);
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
	row->noise_pct = a->floor_pct[m];
	for (i = 0; i < pa->n; i++) {
		row->excluded_ours += pa->runs[i]->values[m].excluded;
		row->env_ours |= pa->runs[i]->env_flags;
		row->degenerate += pa->runs[i]->n_degenerate;
	}
	for (i = 0; i < pb->n; i++) {
		row->excluded_vs += pb->runs[i]->values[m].excluded;
		row->env_vs |= pb->runs[i]->env_flags;
		row->degenerate += pb->runs[i]->n_degenerate;
	}
	row->forced = forced;
	row->across = across;
	row->env_flags = row->env_ours | row->env_vs;
	parity_outputs(a, b, &row->outputs_compared, &row->outputs_identical);
	ret = 0;
out:
	estimate_release(&e);
	free(ua);
	free(ub);
	return ret;
}

void parity_outputs(const struct run *a, const struct run *b, int64_t *compared,
		    int64_t *identical)
{
	size_t i = 0, j = 0;

	*compared = *identical = -1;
	if (!(a->temperature == 0) || !(b->temperature == 0))
		return;
	*compared = *identical = 0;
	while (i < a->n_outputs && j < b->n_outputs) {
		const struct run_output *x = &a->outputs[i], *y = &b->outputs[j];
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
	char *used = tps_xcalloc(in->n_vs ? in->n_vs : 1, 1);
	size_t i, j;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	/* Two pools a shared cell: rows point into them, so they never move. */
	out->pools = tps_xcalloc(2 * in->n_ours + 1, sizeof(*out->pools));
	for (i = 0; i < in->n_ours; i++) {
		const struct pool *pa, *pb;
		const struct run *a = pool_face(&in->ours[i]), *b, *x, *y;
		struct run_diff diff;
		int forced = 0, across = 0;

		if (!a)
			continue;
		for (j = 0; j < in->n_vs; j++)
			if (!used[j] && in->vs[j].n && run_same_cell(a, pool_face(&in->vs[j])))
				break;
		if (j == in->n_vs) {
			if (has_model(in->vs, in->n_vs, a->model))
				add_note(out, PARITY_NOTE_LONE, a, o->vs, NULL);
			continue;
		}
		used[j] = 1;
		if (o->own_newest) {
			/* Copies (the rows point into out->pools either way): a pool
			 * of chosen runs is never pooled again. */
			struct pool a = in->ours[i], b = in->vs[j];

			a.rule = b.rule = POOL_ALL;
			pools_pair(&a, &b, &out->pools[out->n_pools],
				   &out->pools[out->n_pools + 1]);
		} else {
			pools_pair(&in->ours[i], &in->vs[j], &out->pools[out->n_pools],
				   &out->pools[out->n_pools + 1]);
		}
		pa = &out->pools[out->n_pools++];
		pb = &out->pools[out->n_pools++];
		a = pool_face(pa);
		b = pool_face(pb);
		if (run_mismatch(a, b, &diff)) {
			if (!o->force) {
				out->stop = PARITY_STOP_REFUSED;
				out->stop_cell = a;
				out->stop_diff = diff;
				goto out;
			}
			forced = 1;
			add_note(out, PARITY_NOTE_FORCED, a, NULL, &diff);
		}
		if (!pools_same_machine(pa, pb, &x, &y)) {
			struct run_diff md = { RUN_DIFF_MACHINE, x, y };

			if (!o->across_machines) {
				out->stop = PARITY_STOP_REFUSED;
				out->stop_cell = a;
				out->stop_diff = md;
				goto out;
			}
			across = 1;
			out->n_across++;
			add_note(out, PARITY_NOTE_FORCED, a, NULL, &md);
		}
		speedup_add(&out->speedups, pa, pb);
		accept_add(&out->accept, pa, pb, out->n_rows);
		/* A llama-bench test measures one metric: no row for the other. */
		if (((o->metrics & PARITY_PP) && config_measures(a->config, PARITY_METRIC_PP) &&
		     judge(o, pa, pb, PARITY_METRIC_PP, forced, across, out) < 0) ||
		    ((o->metrics & PARITY_TG) && config_measures(a->config, PARITY_METRIC_TG) &&
		     judge(o, pa, pb, PARITY_METRIC_TG, forced, across, out) < 0)) {
			out->stop = PARITY_STOP_BAD_PARAMS;
			out->stop_cell = a;
			goto out;
		}
	}
	for (j = 0; j < in->n_vs; j++)
		if (!used[j] && in->vs[j].n && has_model(in->ours, in->n_ours,
							 pool_face(&in->vs[j])->model))
			add_note(out, PARITY_NOTE_LONE, pool_face(&in->vs[j]), o->ours, NULL);
	parity_answer(out, o->band_pct, &out->answers);
	speedup_finish(&out->speedups);
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
	for (i = 0; i < r->n_pools; i++)
		pool_release(&r->pools[i]);
	free(r->pools);
	answer_set_release(&r->answers);
	speedup_release(&r->speedups);
	accept_release(&r->accept);
	memset(r, 0, sizeof(*r));
}
