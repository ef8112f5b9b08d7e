/* parity.c: pairing the cells of two engines and judging each. The runs come from
 * store_cell_runs() (latest per cell, or by tag), the values from store_cell_values()
 * ordered by (prompt, rep), so pairing is one merge join; the verdict itself is
 * analyze/verdict.c's. Refusals happen before any value is read. */
#include "reports/parity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "reports/strv.h"
#include "schema/noise.h"
#include "schema/record.h"
#include "tpsdb.h"

void parity_opts_init(struct parity_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->metrics = PARITY_BOTH;
	o->band_pct = VERDICT_BAND_PCT;
	o->noise_k = VERDICT_NOISE_K;
}

void parity_cell_name(const char *model, const char *spec_type, int64_t n_max,
		      const char *endpoint, char *buf, size_t len)
{
	char spec[96] = "";
	char ep[64] = "";

	if (!len)
		return;
	if (spec_type && *spec_type && n_max != TPS_NULL)
		snprintf(spec, sizeof(spec), " [%s n_max=%lld]", spec_type, (long long)n_max);
	else if (spec_type && *spec_type)
		snprintf(spec, sizeof(spec), " [%s base]", spec_type);
	else if (n_max != TPS_NULL)
		snprintf(spec, sizeof(spec), " [n_max=%lld]", (long long)n_max);
	if (endpoint && *endpoint && strcmp(endpoint, "completion"))
		snprintf(ep, sizeof(ep), " (%s)", endpoint);
	snprintf(buf, len, "%s%s%s", model ? model : "", spec, ep);
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int same_cell(const struct cell_run *a, const struct cell_run *b)
{
	return same_str(a->model, b->model) && same_str(a->spec_type, b->spec_type) &&
	       a->n_max == b->n_max && same_str(a->endpoint, b->endpoint);
}

int parity_mismatch(const struct cell_run *a, const struct cell_run *b, char *buf, size_t len)
{
	const char *sa = a->model_sha256 ? a->model_sha256 : "";
	const char *sb = b->model_sha256 ? b->model_sha256 : "";

	if (len)
		buf[0] = '\0';
	/* An unknown hash (import without --model-sha256) proves nothing either way;
	 * only two known, different hashes are a different GGUF. */
	if (*sa && *sb && strcmp(sa, sb)) {
		snprintf(buf, len, "model sha256 differs (%.12s vs %.12s)", sa, sb);
		return 1;
	}
	if (a->ctx != TPS_NULL && b->ctx != TPS_NULL && a->ctx != b->ctx) {
		snprintf(buf, len, "ctx differs (%lld vs %lld)", (long long)a->ctx, (long long)b->ctx);
		return 1;
	}
	if (a->n_predict != TPS_NULL && b->n_predict != TPS_NULL && a->n_predict != b->n_predict) {
		snprintf(buf, len, "n_predict differs (%lld vs %lld)", (long long)a->n_predict,
			 (long long)b->n_predict);
		return 1;
	}
	if (!same_str(a->endpoint, b->endpoint)) {
		snprintf(buf, len, "endpoint differs (%s vs %s)", a->endpoint ? a->endpoint : "",
			 b->endpoint ? b->endpoint : "");
		return 1;
	}
	if (a->prompt_set && b->prompt_set && *a->prompt_set && *b->prompt_set &&
	    strcmp(a->prompt_set, b->prompt_set)) {
		snprintf(buf, len, "prompt set differs (%.12s vs %.12s)", a->prompt_set,
			 b->prompt_set);
		return 1;
	}
	return 0;
}

void parity_pair(const struct cell_value *a, size_t na, const struct cell_value *b, size_t nb,
		 double **ours, double **vs, size_t *n, size_t *unpaired)
{
	size_t i = 0, j = 0, m = 0, lost = 0, cap = na < nb ? na : nb;
	double *x = cap ? tps_xmalloc(cap * sizeof(*x)) : NULL;
	double *y = cap ? tps_xmalloc(cap * sizeof(*y)) : NULL;

	while (i < na && j < nb) {
		if (a[i].prompt_id < b[j].prompt_id ||
		    (a[i].prompt_id == b[j].prompt_id && a[i].rep < b[j].rep)) {
			i++;
			lost++;
		} else if (a[i].prompt_id > b[j].prompt_id ||
			   (a[i].prompt_id == b[j].prompt_id && a[i].rep > b[j].rep)) {
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

static double values_median(const struct cell_value *v, size_t n)
{
	double *x = tps_xmalloc((n ? n : 1) * sizeof(*x)), m;
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = v[i].value;
	m = stats_median(x, n);
	free(x);
	return m;
}

/* Whether runs[] measured this model at all: a cell one engine lacks is worth a
 * warning only when that engine measured the model in other cells. */
static int has_model(const struct cell_run *runs, size_t n, const char *model)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (same_str(runs[i].model, model))
			return 1;
	return 0;
}

/* Judges one metric of one cell and appends the row. */
static int judge(struct store *s, const struct parity_opts *o, const struct cell_run *a,
		 const struct cell_run *b, enum cell_metric m, int forced,
		 struct parity_result *r)
{
	struct cell_value *va = NULL, *vb = NULL;
	size_t na = 0, nb = 0, xa = 0, xb = 0, n = 0, lost = 0;
	double *x = NULL, *y = NULL, noise = NAN;
	const char *metric = m == CELL_PP ? "pp" : "tg";
	struct verdict_params vp;
	struct parity_row *row;
	int got, ret = -1;

	if (store_cell_values(s, a->id, m, &va, &na, &xa) < 0 ||
	    store_cell_values(s, b->id, m, &vb, &nb, &xb) < 0)
		goto out;
	got = store_noise_get(s, a->model, a->spec_type, a->n_max, a->ctx, a->n_predict,
			      a->endpoint, metric, &noise, NULL);
	if (got < 0)
		goto out;
	if (!got)
		noise = NAN;
	parity_pair(va, na, vb, nb, &x, &y, &n, &lost);
	verdict_params_init(&vp);
	vp.band_pct = o->band_pct;
	vp.noise_k = o->noise_k;
	vp.noise_pct = got ? noise : 0;
	r->rows = tps_xrealloc(r->rows, (r->n_rows + 1) * sizeof(*r->rows));
	row = &r->rows[r->n_rows];
	memset(row, 0, sizeof(*row));
	if (verdict_paired(x, y, n, &vp, &row->v) < 0) {
		tps_error("cannot judge '%s': a band or noise multiplier is not a number >= 0",
			  a->model);
		goto out;
	}
	r->n_rows++;
	row->model = tps_xstrdup(a->model);
	row->spec_type = tps_xstrdup(a->spec_type ? a->spec_type : "");
	row->endpoint = tps_xstrdup(a->endpoint ? a->endpoint : "");
	row->n_max = a->n_max;
	row->ctx = a->ctx;
	row->n_predict = a->n_predict;
	row->metric = metric;
	row->ours = o->ours;
	row->vs = o->vs;
	snprintf(row->ours_run, sizeof(row->ours_run), "%s", a->uuid);
	snprintf(row->vs_run, sizeof(row->vs_run), "%s", b->uuid);
	row->noise_pct = noise;
	row->ours_median = values_median(va, na);
	row->vs_median = values_median(vb, nb);
	row->excluded_ours = xa;
	row->excluded_vs = xb;
	row->unpaired = lost;
	row->forced = forced;
	ret = 0;
out:
	free(va);
	free(vb);
	free(x);
	free(y);
	return ret;
}

int parity_compare(struct store *s, const struct parity_opts *o, struct parity_result *out)
{
	struct cell_filter fa = { 0 }, fb = { 0 };
	struct cell_run *ra = NULL, *rb = NULL;
	size_t na = 0, nb = 0, i, j;
	char *used = NULL;
	char name[256], why[160];
	int ret = -1;

	memset(out, 0, sizeof(*out));
	fa.engine = o->ours;
	fa.model = o->model;
	fa.host = o->host;
	fa.tag = o->ours_tag;
	fb = fa;
	fb.engine = o->vs;
	fb.tag = o->vs_tag;
	if (store_cell_runs(s, &fa, &ra, &na) < 0 || store_cell_runs(s, &fb, &rb, &nb) < 0)
		goto out;
	used = tps_xcalloc(nb ? nb : 1, 1);
	for (i = 0; i < na; i++) {
		const struct cell_run *a = &ra[i], *b = NULL;
		int forced = 0;

		for (j = 0; j < nb; j++) {
			if (!used[j] && same_cell(a, &rb[j])) {
				b = &rb[j];
				used[j] = 1;
				break;
			}
		}
		parity_cell_name(a->model, a->spec_type, a->n_max, a->endpoint, name, sizeof(name));
		if (!b) {
			if (has_model(rb, nb, a->model))
				strv_addf(&out->warnings, &out->n_warnings,
					  "cell '%s': no run of '%s' to compare with", name, o->vs);
			continue;
		}
		if (parity_mismatch(a, b, why, sizeof(why))) {
			if (!o->force) {
				tps_error("refusing to compare cell '%s': %s (--force compares anyway)",
					  name, why);
				goto out;
			}
			forced = 1;
			strv_addf(&out->warnings, &out->n_warnings,
				  "FORCED comparison of cell '%s' although %s", name, why);
		}
		if ((o->metrics & PARITY_PP) && judge(s, o, a, b, CELL_PP, forced, out) < 0)
			goto out;
		if ((o->metrics & PARITY_TG) && judge(s, o, a, b, CELL_TG, forced, out) < 0)
			goto out;
	}
	for (j = 0; j < nb; j++) {
		if (used[j] || !has_model(ra, na, rb[j].model))
			continue;
		parity_cell_name(rb[j].model, rb[j].spec_type, rb[j].n_max, rb[j].endpoint, name,
				 sizeof(name));
		strv_addf(&out->warnings, &out->n_warnings,
			  "cell '%s': no run of '%s' to compare with", name, o->ours);
	}
	ret = 0;
out:
	free(used);
	cell_runs_free(ra, na);
	cell_runs_free(rb, nb);
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
	strv_free(r->warnings, r->n_warnings);
	memset(r, 0, sizeof(*r));
}
