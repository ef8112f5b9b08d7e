/* parity.c: judging the shared cells of two engines. The values come ordered by
 * (prompt, rep), so pairing is one merge join; the verdict itself is
 * analyze/verdict.c's. Refusals are decided before a cell's values are used, and
 * the result says why in fields, not words: reports/parity.c writes them. */
#include "analyze/parity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

void parity_opts_init(struct parity_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->metrics = PARITY_BOTH;
	o->band_pct = VERDICT_BAND_PCT;
	o->noise_k = VERDICT_NOISE_K;
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

static double series_median(const struct parity_series *s)
{
	double *x = tps_xmalloc((s->n ? s->n : 1) * sizeof(*x)), m;
	size_t i;

	for (i = 0; i < s->n; i++)
		x[i] = s->v[i].value;
	m = stats_median(x, s->n);
	free(x);
	return m;
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

/* Appends a run's values to a growing array. */
static void append_values(double **dst, size_t *n, const struct parity_series *s)
{
	if (!s->n)
		return;
	*dst = tps_xrealloc(*dst, (*n + s->n) * sizeof(**dst));
	for (size_t i = 0; i < s->n; i++)
		(*dst)[(*n)++] = s->v[i].value;
}

static void append(double **dst, size_t *n, const double *x, size_t m)
{
	if (!m)
		return;
	*dst = tps_xrealloc(*dst, (*n + m) * sizeof(**dst));
	memcpy(*dst + *n, x, m * sizeof(*x));
	*n += m;
}

/* log of a run's median; NaN when it has no positive finite one. */
static double log_median(const struct parity_series *s)
{
	double m = series_median(s);

	return m > 0 && isfinite(m) ? log(m) : NAN;
}

/* The pooled comparison of one metric of one cell: each round is reduced to one
 * log ratio (the median of its per-prompt ratios, or the ratio of the run
 * medians when no prompt pairs), each run to its log median. The medians of the
 * row are over the samples that formed the comparison. Returns 0 with *v filled,
 * 1 when a single pair of runs leaves only the requests' verdict (the caller
 * falls back), -1 for bad parameters. */
static int pooled(const struct parity_instance *a, size_t na,
		  const struct parity_instance *b, size_t nb, enum parity_metric m,
		  const struct verdict_params *vp, struct parity_row *row)
{
	size_t *pairs = tps_xmalloc(2 * (na < nb ? na : nb) * sizeof(*pairs) + sizeof(*pairs));
	double *rl, *la = tps_xmalloc(na * sizeof(*la)), *lb = tps_xmalloc(nb * sizeof(*lb));
	double *px = NULL, *py = NULL;
	char *used_a = tps_xcalloc(na, 1), *used_b = tps_xcalloc(nb, 1);
	size_t r, k, npx = 0, npy = 0, lost = 0;
	int ret;

	r = parity_rounds(a, na, b, nb, 1, pairs);
	rl = tps_xmalloc((r ? r : 1) * sizeof(*rl));
	for (k = 0; k < na; k++)
		la[k] = log_median(&a[k].values[m]);
	for (k = 0; k < nb; k++)
		lb[k] = log_median(&b[k].values[m]);
	for (k = 0; k < r; k++) {
		const struct parity_series *sa = &a[pairs[2 * k]].values[m];
		const struct parity_series *sb = &b[pairs[2 * k + 1]].values[m];
		double *x = NULL, *y = NULL, *q;
		size_t n = 0, l = 0, i, good = 0;

		used_a[pairs[2 * k]] = used_b[pairs[2 * k + 1]] = 1;
		parity_pair(sa->v, sa->n, sb->v, sb->n, &x, &y, &n, &l);
		q = tps_xmalloc((n ? n : 1) * sizeof(*q));
		for (i = 0; i < n; i++) {
			double t = x[i] / y[i];
			if (x[i] > 0 && y[i] > 0 && isfinite(t) && t > 0)
				q[good++] = t;
		}
		if (good) {
			rl[k] = log(stats_median(q, good));
			append(&px, &npx, x, n);
			append(&py, &npy, y, n);
			lost += l;
		} else {
			rl[k] = la[pairs[2 * k]] - lb[pairs[2 * k + 1]];
			append_values(&px, &npx, sa);
			append_values(&py, &npy, sb);
		}
		free(q);
		free(x);
		free(y);
	}
	for (k = 0; k < na; k++)
		if (!used_a[k])
			lost += a[k].values[m].n;
	for (k = 0; k < nb; k++)
		if (!used_b[k])
			lost += b[k].values[m].n;
	ret = verdict_rounds(rl, r, la, na, lb, nb, vp, &row->v);
	if (ret == 0) {
		if (row->v.method == VERDICT_METHOD_WELCH) {
			/* Compared by the run medians: every value took part. */
			free(px);
			free(py);
			px = py = NULL;
			npx = npy = lost = 0;
			for (k = 0; k < na; k++)
				append_values(&px, &npx, &a[k].values[m]);
			for (k = 0; k < nb; k++)
				append_values(&py, &npy, &b[k].values[m]);
		}
		row->ours_median = stats_median(px, npx);
		row->vs_median = stats_median(py, npy);
		row->unpaired = lost;
	}
	free(px);
	free(py);
	free(used_a);
	free(used_b);
	free(rl);
	free(la);
	free(lb);
	free(pairs);
	return ret;
}

/* Judges one metric of one cell and appends the row. -1 when the verdict's
 * parameters are not numbers >= 0. */
static int judge(const struct parity_opts *o, const struct parity_side *a,
		 const struct parity_side *b, const struct parity_cell *c, enum parity_metric m,
		 int forced, struct parity_result *r)
{
	struct parity_instance one_a, one_b;
	const struct parity_instance *ia = c->ours_inst, *ib = c->vs_inst;
	size_t na = c->n_ours_inst, nb = c->n_vs_inst, i;
	double *x = NULL, *y = NULL, noise = c->noise_pct[m];
	size_t n = 0, lost = 0;
	struct verdict_params vp;
	struct parity_row *row;
	int ret = -1, got;

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
	verdict_params_init(&vp);
	vp.band_pct = o->band_pct;
	vp.noise_k = o->noise_k;
	vp.noise_pct = isnan(noise) ? 0 : noise;
	r->rows = tps_xrealloc(r->rows, (r->n_rows + 1) * sizeof(*r->rows));
	row = &r->rows[r->n_rows];
	memset(row, 0, sizeof(*row));
	got = pooled(ia, na, ib, nb, m, &vp, row);
	if (got < 0)
		goto out;
	if (got > 0) {
		/* One pair of runs (or too few to pool): the requests of the newest
		 * pair, the band widened to the stored instance noise, as before. */
		const struct parity_series *va = &ia[na - 1].values[m], *vb = &ib[nb - 1].values[m];

		parity_pair(va->v, va->n, vb->v, vb->n, &x, &y, &n, &lost);
		if (verdict_paired(x, y, n, &vp, &row->v) < 0)
			goto out;
		row->ours_median = stats_median(x, n);
		row->vs_median = stats_median(y, n);
		for (i = 0; i + 1 < na; i++)
			lost += ia[i].values[m].n;
		for (i = 0; i + 1 < nb; i++)
			lost += ib[i].values[m].n;
		row->unpaired = lost;
		row->v.instances_ours = na;
		row->v.instances_vs = nb;
	}
	r->n_rows++;
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
	free(x);
	free(y);
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
		if (((o->metrics & PARITY_PP) &&
		     judge(o, a, b, c, PARITY_METRIC_PP, forced, out) < 0) ||
		    ((o->metrics & PARITY_TG) &&
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
	ret = 0;
out:
	free(used);
	return ret;
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
	memset(r, 0, sizeof(*r));
}
