/* trend.h: the one trend decision behind 'tpsdb trend', the report's trend figure
 * and 'gate --trend': a history series (each run's usable values of one metric, in
 * time order) is reduced to one median per run and searched for change points
 * (changepoint.h); the newest change point says whether the series now regresses. */
#ifndef ANALYZE_TREND_H
#define ANALYZE_TREND_H

#include <stddef.h>

#include "analyze/cellset.h"
#include "analyze/changepoint.h"

struct trend {
	double *medians;         /* n_runs per-run medians, heap; NaN for a run with no value */
	size_t n_runs;
	struct changepoint *cps; /* n_cps change points in time order, heap; NULL when none;
				    an index is a run's */
	size_t n_cps;
};

/* Reduces each run of the history h (a pool of every run of one series, in its
 * order) to the median of its usable values of metric m and finds the change
 * points of those medians with p (NULL: the defaults). A run with no value gets
 * a NaN median, which the search skips; so does a run that is not clean
 * (run_clean(): spoiled or incomplete): its median is kept in medians, to be
 * drawn, but it never starts or shapes a segment. On success fills *out, which the caller
 * releases with trend_release(), and returns 0; -1 (*out empty) when a parameter
 * is out of range. */
int trend_detect(const struct pool *h, enum run_metric m, const struct changepoint_params *p,
		 struct trend *out);

/* The per-run medians of h's runs alone (NaN for a run with no value): a heap
 * array of h->n (at least one) doubles the caller frees. Cannot fail. */
double *trend_medians(const struct pool *h, enum run_metric m);

/* The build number an engine version names: llama.cpp's "b7123", alone or
 * followed by '-' or '+' and more ("b7123-4e1b2c3"), gives 7123; anything else,
 * and "b0" (llama.cpp's build without a git describe: "b0-unknown"), -1. */
int64_t trend_build_number(const char *version);

/* How a history's runs are put in order (trend_order()). */
enum trend_by {
	TREND_BY_BUILD,      /* every run names a build number: build order */
	TREND_BY_FIRST_SEEN, /* some do not, and the runs are of more than one
				build (binary sha256, else version): builds in
				the order they were first seen (their first run's
				start), each build's runs in start order */
	TREND_BY_START,      /* one build without a number: start order */
};

/* The order trend_order() puts h's runs in. */
enum trend_by trend_order_by(const struct pool *h);

/* Puts a history's runs (a pool of every run of one series) in the order
 * trend_order_by() names (ties by start time, then id), then keeps only the last
 * limit of them (limit > 0; 0 keeps all). */
void trend_order(struct pool *h, int64_t limit);

/* How the trend and the report name r's build: its version when that names a
 * build number or no binary sha256 is stored, else the version and the first 8
 * hex digits of the binary's sha256 ("b0-unknown sha 601a1b04"), so that two
 * builds without a number read apart. A heap string the caller frees; "" none. */
char *trend_version_label(const struct run *r);
/* The same from an engine version and its binary's sha256 (NULL or "": none). */
char *trend_build_label(const char *version, const char *sha256);

/* The history of metric m in h: its runs that hold a usable value of m, in h's
 * order, the last limit of them (limit > 0; 0 all), into *out (out->runs a heap
 * array the caller frees; out->n 0: none). */
void trend_history(const struct pool *h, enum run_metric m, int64_t limit, struct pool *out);

/* The median of a run's usable values of metric m; NaN with none. */
double run_median(const struct run *r, enum run_metric m);

/* The newest change point of t, or NULL when it has none; borrowed from t. */
const struct changepoint *trend_latest(const struct trend *t);

/* 1 when the newest change point of t is a fall of the metric (a regression of a
 * tok/s or acceptance series), else 0. */
int trend_latest_regression(const struct trend *t);

/* Frees what trend_detect() filled and empties *t; accepts an empty *t. */
void trend_release(struct trend *t);

/* One history of one metric and the change points found in it (trend_items()). */
struct trend_item {
	struct pool hist;       /* the runs holding a value of metric (trend_history());
				   hist.runs owned, the runs borrowed */
	enum run_metric metric; /* RUN_PP or RUN_TG */
	enum trend_by by;       /* how hist is ordered (trend_order_by()) */
	struct trend t;
};

/* What 'tpsdb trend' decides over the histories of n_hist series (pools of every
 * run, in order, side_load_history()): for pp when want[RUN_PP], then for tg when
 * want[RUN_TG], each series' history of that metric (trend_history(), the last
 * limit runs) searched with p (trend_detect()); a history without runs is left
 * out. *out is a heap array of *n items; release it with trend_items_free(), also
 * after -1. 0 ok, -1 when a parameter is out of range. */
int trend_items(const struct pool *hist, size_t n_hist, const int want[2], int64_t limit,
		const struct changepoint_params *p, struct trend_item **out, size_t *n);
void trend_items_free(struct trend_item *v, size_t n);

#endif
