/* history.h: every run of a series in time order, with the usable values of one
 * metric, for the trend (analyze/trend.h) of 'tpsdb trend', the trend figure and
 * 'gate --trend'. A series
 * is one engine label on one model and config (spec_type, n_max, endpoint), the
 * same cell that store_cell_runs() takes the latest run of. One query streams the
 * values of all runs, so a store of 10,000 runs is read in one pass. */
#ifndef SCHEMA_HISTORY_H
#define SCHEMA_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "schema/cells.h"

struct store;

/* One run of a series. */
struct history_run {
	int64_t id;
	char uuid[40];
	char *tag, *started_at; /* tag "" when none */
	char *engine_version;   /* "" when unknown */
	int64_t build;          /* the build number in engine_version, -1 when none */
	double *values;         /* the run's usable values of the metric, heap */
	size_t n;               /* >= 1: a run without one is not listed */
};

struct history_series {
	char *engine, *role, *model, *spec_type, *endpoint; /* spec_type "" for base */
	int64_t n_max;                                       /* TPS_NULL for base */
	struct history_run *runs; /* by build number when every run has one, else by
				     start time (oldest first) */
	size_t n;
};

/* The build number an engine version names: llama.cpp's "b7123", alone or
 * followed by '-' or '+' and more ("b7123-4e1b2c3"), gives 7123; anything else -1. */
int64_t history_build_number(const char *version);

/* Lists the series of the runs matching f (f->all is ignored: every run counts;
 * f->run, when set, narrows further and its limit keeps each series' last runs),
 * ordered by model, spec_type, n_max (base first), endpoint and engine. The runs
 * of a series are in build order when every one of them names a build number
 * (history_build_number(); ties by start time), else in start order. Each run's
 * values of metric m leave out samples with a flag that spoils m (and NULL
 * values), and a run with none left is not listed. *out is a heap array of *n
 * series the caller frees with history_free(). 0 ok, -1 after an error line. */
int store_history(struct store *s, const struct cell_filter *f, enum cell_metric m,
		  struct history_series **out, size_t *n);

/* As store_history() for the per-sample acceptance draft_n_accepted / draft_n of
 * speculative runs: samples flagged for decode, and those that drafted nothing
 * (draft_n absent or 0, or draft_n_accepted absent), are left out, as in
 * store_cell_accept_values(); a base run has no such sample and is not listed. */
int store_history_accept(struct store *s, const struct cell_filter *f,
			 struct history_series **out, size_t *n);

/* Run i's values of the series se (a const struct history_series *), borrowed,
 * and their count in *n: the accessor analyze/trend.h's trend_detect() takes. */
const double *history_run_values(const void *se, size_t i, size_t *n);

/* Frees an array from store_history() or store_history_accept(); accepts NULL. */
void history_free(struct history_series *v, size_t n);

#endif
