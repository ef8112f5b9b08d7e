/* trend.c: per-run medians, then changepoint_detect(). A run is reduced to its
 * median rather than its mean so that one slow request cannot move a run, and the
 * change-point search then sees one value per run, as Otava's does. */
#include "analyze/trend.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

int64_t trend_build_number(const char *version)
{
	int64_t b = 0;
	const char *p;

	if (!version || version[0] != 'b' || !isdigit((unsigned char)version[1]))
		return -1;
	for (p = version + 1; isdigit((unsigned char)*p); p++) {
		if (b > (INT64_MAX - 9) / 10)
			return -1;
		b = b * 10 + (*p - '0');
	}
	/* "b0" is what llama.cpp's build says when git describe failed: no number. */
	return b > 0 && (*p == '\0' || *p == '-' || *p == '+') ? b : -1;
}

/* What tells a build apart when its version names no number: the binary's
 * sha256 when stored, else the version as it reads. */
static const char *build_id(const struct run *r)
{
	if (r->engine_sha256 && *r->engine_sha256)
		return r->engine_sha256;
	return r->engine_version ? r->engine_version : "";
}

static const char *at(const struct run *r)
{
	return r->started_at ? r->started_at : "";
}

char *trend_build_label(const char *version, const char *sha256)
{
	const char *v = version ? version : "";

	if (trend_build_number(v) >= 0 || !sha256 || strlen(sha256) < 8)
		return tps_xstrdup(v);
	return tps_xasprintf("%s%ssha %.8s", v, *v ? " " : "", sha256);
}

char *trend_version_label(const struct run *r)
{
	return trend_build_label(r->engine_version, r->engine_sha256);
}

/* Build order, then the start order the runs came in (id breaks a tie of times). */
static int by_build(const void *pa, const void *pb)
{
	const struct run *a = *(const struct run *const *)pa, *b = *(const struct run *const *)pb;
	int64_t ba = trend_build_number(a->engine_version), bb = trend_build_number(b->engine_version);
	int c;

	if (ba != bb)
		return ba < bb ? -1 : 1;
	if ((c = strcmp(a->started_at ? a->started_at : "", b->started_at ? b->started_at : "")))
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* A run with the time its build was first seen in the history. */
struct seen {
	const struct run *r;
	const char *first;
};

static int by_id_then_start(const void *pa, const void *pb)
{
	const struct seen *a = pa, *b = pb;
	int c;

	if ((c = strcmp(build_id(a->r), build_id(b->r))))
		return c;
	if ((c = strcmp(at(a->r), at(b->r))))
		return c;
	return a->r->id < b->r->id ? -1 : a->r->id > b->r->id;
}

/* First-seen order of the builds, then, within one build, start order. */
static int by_first_seen(const void *pa, const void *pb)
{
	const struct seen *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->first, b->first)))
		return c;
	return by_id_then_start(pa, pb);
}

static void order_first_seen(struct pool *h)
{
	struct seen *v = tps_xcalloc(h->n ? h->n : 1, sizeof(*v));
	size_t i, g = 0;

	for (i = 0; i < h->n; i++)
		v[i].r = h->runs[i];
	qsort(v, h->n, sizeof(*v), by_id_then_start);
	for (i = 0; i < h->n; i++) {
		if (strcmp(build_id(v[i].r), build_id(v[g].r)))
			g = i;
		v[i].first = at(v[g].r);
	}
	qsort(v, h->n, sizeof(*v), by_first_seen);
	for (i = 0; i < h->n; i++)
		h->runs[i] = v[i].r;
	free(v);
}

enum trend_by trend_order_by(const struct pool *h)
{
	int builds = h->n > 0, ids = 0;

	for (size_t i = 0; i < h->n; i++) {
		builds = builds && trend_build_number(h->runs[i]->engine_version) >= 0;
		ids = ids || strcmp(build_id(h->runs[i]), build_id(h->runs[0]));
	}
	if (builds)
		return TREND_BY_BUILD;
	return ids ? TREND_BY_FIRST_SEEN : TREND_BY_START;
}

void trend_order(struct pool *h, int64_t limit)
{
	size_t drop;
	enum trend_by by = trend_order_by(h);

	if (by == TREND_BY_BUILD)
		qsort(h->runs, h->n, sizeof(*h->runs), by_build);
	else if (by == TREND_BY_FIRST_SEEN)
		order_first_seen(h);
	if (limit <= 0 || (uint64_t)limit >= h->n)
		return;
	drop = h->n - (size_t)limit;
	memmove(h->runs, h->runs + drop, (size_t)limit * sizeof(*h->runs));
	h->n = (size_t)limit;
}

void trend_history(const struct pool *h, enum run_metric m, int64_t limit, struct pool *out)
{
	memset(out, 0, sizeof(*out));
	out->runs = tps_xcalloc(h->n ? h->n : 1, sizeof(*out->runs));
	for (size_t i = 0; i < h->n; i++)
		if (h->runs[i]->values[m].n)
			out->runs[out->n++] = h->runs[i];
	/* The limit counts the runs of this metric, as the history shows them. */
	trend_order(out, limit > 0 ? limit : 0);
}

double run_median(const struct run *r, enum run_metric m)
{
	const struct run_values *vs = &r->values[m];
	double *v = tps_xmalloc((vs->n ? vs->n : 1) * sizeof(*v)), med;

	for (size_t k = 0; k < vs->n; k++)
		v[k] = vs->v[k].value;
	med = stats_median(v, vs->n);
	free(v);
	return med;
}

double *trend_medians(const struct pool *h, enum run_metric m)
{
	double *y = tps_xcalloc(h->n ? h->n : 1, sizeof(*y));

	for (size_t i = 0; i < h->n; i++)
		y[i] = run_median(h->runs[i], m);
	return y;
}

int trend_detect(const struct pool *h, enum run_metric m, const struct changepoint_params *p,
		 struct trend *out)
{
	double *y = trend_medians(h, m), *clean;
	struct changepoint *cps = NULL;
	size_t ncp = 0, i;
	int ret = -1, rc;

	memset(out, 0, sizeof(*out));
	/* A spoiled run is drawn but never searched: it cannot start a segment. */
	clean = tps_xmalloc((h->n ? h->n : 1) * sizeof(*clean));
	for (i = 0; i < h->n; i++)
		clean[i] = run_clean(h->runs[i]) ? y[i] : NAN;
	rc = changepoint_detect(clean, h->n, p, &cps, &ncp);
	free(clean);
	if (rc < 0)
		goto out;
	out->medians = y;
	out->n_runs = h->n;
	out->cps = cps;
	out->n_cps = ncp;
	y = NULL;
	ret = 0;
out:
	free(y);
	return ret;
}

const struct changepoint *trend_latest(const struct trend *t)
{
	return t->n_cps ? &t->cps[t->n_cps - 1] : NULL;
}

int trend_latest_regression(const struct trend *t)
{
	const struct changepoint *cp = trend_latest(t);

	return cp && cp->change_pct < 0;
}

void trend_release(struct trend *t)
{
	free(t->medians);
	changepoint_free(t->cps);
	memset(t, 0, sizeof(*t));
}

int trend_items(const struct pool *hist, size_t n_hist, const int want[2], int64_t limit,
		const struct changepoint_params *p, struct trend_item **out, size_t *n)
{
	struct trend_item *v = tps_xcalloc(2 * n_hist + 1, sizeof(*v));
	size_t i;
	int m;

	*out = v;
	*n = 0;
	for (m = RUN_PP; m <= RUN_TG; m++) {
		for (i = 0; want[m] && i < n_hist; i++) {
			struct trend_item *it = &v[*n];

			trend_history(&hist[i], (enum run_metric)m, limit, &it->hist);
			it->metric = (enum run_metric)m;
			it->by = trend_order_by(&it->hist);
			if (!it->hist.n) {
				free(it->hist.runs);
				continue;
			}
			(*n)++;
			if (trend_detect(&it->hist, it->metric, p, &it->t) < 0)
				return -1;
		}
	}
	return 0;
}

void trend_items_free(struct trend_item *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		trend_release(&v[i].t);
		free(v[i].hist.runs);
	}
	free(v);
}
