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

/* Judges one metric of one cell and appends the row. -1 when the verdict's
 * parameters are not numbers >= 0. */
static int judge(const struct parity_opts *o, const struct parity_side *a,
		 const struct parity_side *b, const struct parity_cell *c, enum parity_metric m,
		 int forced, struct parity_result *r)
{
	const struct parity_series *va = &c->ours_values[m], *vb = &c->vs_values[m];
	double *x = NULL, *y = NULL, noise = c->noise_pct[m];
	size_t n = 0, lost = 0;
	struct verdict_params vp;
	struct parity_row *row;
	int ret = -1;

	parity_pair(va->v, va->n, vb->v, vb->n, &x, &y, &n, &lost);
	verdict_params_init(&vp);
	vp.band_pct = o->band_pct;
	vp.noise_k = o->noise_k;
	vp.noise_pct = isnan(noise) ? 0 : noise;
	r->rows = tps_xrealloc(r->rows, (r->n_rows + 1) * sizeof(*r->rows));
	row = &r->rows[r->n_rows];
	memset(row, 0, sizeof(*row));
	if (verdict_paired(x, y, n, &vp, &row->v) < 0)
		goto out;
	r->n_rows++;
	row->model = tps_xstrdup(a->model ? a->model : "");
	row->spec_type = tps_xstrdup(a->spec_type ? a->spec_type : "");
	row->endpoint = tps_xstrdup(a->endpoint ? a->endpoint : "");
	row->n_max = a->n_max;
	row->ctx = a->ctx;
	row->n_predict = a->n_predict;
	row->metric = m == PARITY_METRIC_PP ? "pp" : "tg";
	row->ours = o->ours;
	row->vs = o->vs;
	copy_uuid(row->ours_run, sizeof(row->ours_run), a->uuid);
	copy_uuid(row->vs_run, sizeof(row->vs_run), b->uuid);
	row->noise_pct = noise;
	row->ours_median = series_median(va);
	row->vs_median = series_median(vb);
	row->excluded_ours = va->excluded;
	row->excluded_vs = vb->excluded;
	row->unpaired = lost;
	row->forced = forced;
	ret = 0;
out:
	free(x);
	free(y);
	return ret;
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
	}
	free(r->rows);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}
