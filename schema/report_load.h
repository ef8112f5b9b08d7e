/* report_load.h: everything 'tpsdb report' and 'tpsdb plot' show, loaded from the
 * store in one go into plain structs, and viewed as analyze/study.h's input, so
 * that the study decides the tables and the figures' data from what it is handed:
 * the latest runs with their base medians' values, the pair sets of the verdicts,
 * the speculative runs, the per-prompt rows, the data-quality rows, the alarms,
 * and the trend's histories with their stored noise floors. */
#ifndef SCHEMA_REPORT_LOAD_H
#define SCHEMA_REPORT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/series.h"
#include "analyze/study.h"
#include "schema/catalog.h"
#include "schema/cells.h"
#include "schema/history.h"
#include "schema/pair_load.h"
#include "schema/series_load.h"

struct store;

/* What to load: the runs with tag (NULL: any); pair sets for the engines named
 * (empty: every engine with a run) against the reference ref (NULL: every engine
 * with role upstream), once per model named (empty: once for all models). */
struct report_load_opts {
	const char *tag;
	const char *const *engines;
	size_t n_engines;
	const char *const *models;
	size_t n_models;
	const char *ref;
	int full; /* 0: only runs, values and pairs (a parity figure) */
	int trend; /* also the tg histories of every model (the report's figures) */
	/* More conditions on every run loaded (engine version, dates, batch, host ...;
	 * 'tpsdb report --since'), borrowed; NULL: none. */
	const struct run_filter *run;
};

/* The cells ours and vs share, as store_pair_load() gives them for the report's
 * options (force on, both metrics, the tag on both sides). */
struct report_pair {
	char *ours, *vs, *model, *tag; /* model NULL: every model; tag NULL: any */
	struct parity_opts po;         /* the options it was loaded with, borrowing the
					  strings above: parity_decide() takes them */
	struct pair_set set;
};

/* The speculative runs: the store's runs and analyze/series.h's view of them
 * (series[i] borrows from runs[i]). */
struct report_decode {
	struct store_decode *runs;
	struct series_run *series;
	size_t n;
};


/* Loads the speculative runs with tag (NULL: any) into *out, each cell with every
 * run it pools (store_load_series(): without a tag, the runs carrying the tag of
 * the cell's latest run), released with report_decode_release() (also after -1).
 * 0 ok, -1 after an error line. */
int report_load_decode(struct store *s, const char *tag, struct report_decode *out);
void report_decode_release(struct report_decode *d);

/* analyze/series.h's view of runs[0..n): a heap array of n (at least one) the
 * caller frees, borrowing every pointer from runs. Cannot fail. */
struct series_run *report_series_runs(const struct store_decode *runs, size_t n);

/* The histories behind a trend figure, each series with the newest stored A/A
 * floor of its cell (any engine or host; NaN when none is stored). */
struct report_trend {
	struct history_series *h;      /* store_history() of model (NULL: all) and tag */
	size_t n;
	double *floor;                 /* n */
	struct history_series *base;   /* the baseline's runs of every model; NULL without */
	size_t n_base;
	double *base_floor;            /* n_base */
};

/* Loads the histories of metric m for a trend figure: the runs of model (NULL:
 * every model) with tag (NULL: any), and with baseline (NULL: none) the runs
 * frozen in it. Fills *out, released with report_trend_release() (also after -1).
 * 0 ok, -1 after an error line. */
int report_load_trend(struct store *s, const char *model, const char *tag,
		      const char *baseline, enum cell_metric m, struct report_trend *out);
/* As report_load_trend(), the runs of both histories also matching run (NULL: no
 * more condition; its limit keeps each series' latest runs). */
int report_load_trend_where(struct store *s, const char *model, const char *tag,
			    const struct run_filter *run, const char *baseline,
			    enum cell_metric m, struct report_trend *out);
void report_trend_release(struct report_trend *t);

struct report_input {
	struct cell_run *runs;         /* the latest run of every cell (store_cell_runs()) */
	size_t n_runs;
	struct study_values *values;   /* n_runs, parallel to runs */
	struct report_pair *pairs;
	size_t n_pairs;
	/* full only */
	struct report_decode decode;
	struct study_prompts *prompts; /* one per run of decode */
	size_t n_prompts;
	struct catalog_quality *quality; /* every run with the tag */
	size_t n_quality;
	struct catalog_alarm *alarms;
	size_t n_alarms;
	/* trend only (or filled by the caller with report_load_trend()) */
	struct report_trend trend;
	/* The study's view of all the above (report_input_view()), borrowing it. */
	struct study_input study;
	struct study_cell_run *v_runs;
	struct study_pair *v_pairs;
	struct study_quality *v_quality;
	struct study_history *v_hist;  /* trend.n, then trend.n_base */
	struct study_history_run *v_hist_runs;
};

/* Loads what o asks for into *out, and views it as the study's input (out->study),
 * which the caller releases with report_input_release() (also after -1). 0 ok, -1
 * after an error line. */
int report_load(struct store *s, const struct report_load_opts *o, struct report_input *out);
void report_input_release(struct report_input *in);

/* (Re)builds in->study from what in holds now: for a caller that filled
 * in->decode or in->trend itself (report_load_decode(), report_load_trend()).
 * Cannot fail. */
void report_input_view(struct report_input *in);

#endif
