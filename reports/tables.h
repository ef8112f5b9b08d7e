/* tables.h: the study's tables, and the data behind the figures, built from what
 * schema/report_load.h loaded. tables_build() assembles all that 'tpsdb report'
 * shows (base table with verdicts, speculative and per-prompt tables, findings,
 * alarms, runs: tables.c and table_*.c); the tables_write_* functions (report_*.c) render that one struct as
 * markdown, text, JSON or CSV, so the four formats always carry the same numbers. */
#ifndef REPORTS_TABLES_H
#define REPORTS_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/verdict.h"
#include "reports/findings.h"
#include "reports/plot.h"
#include "schema/catalog.h"
#include "schema/report_load.h"

/* What to include. Lists are borrowed; an empty list means every one. */
struct tables_opts {
	const char *const *engines; /* columns in this order; else ours, other, upstream */
	size_t n_engines;
	const char *const *models;
	size_t n_models;
	const char *tag;            /* only runs with this tag; NULL: any */
	const char *ref;            /* the reference engine; NULL: the first upstream */
};

struct tables_engine {
	char *label, *role;
};

/* One metric's verdict against the reference. */
struct tables_verdict {
	int has;              /* 0: no pairs were judged (or this is the reference) */
	struct verdict v;
};

/* One engine's base cell of one model: medians of the unflagged samples. */
struct tables_base_cell {
	int present;          /* the engine has a base run of this model */
	double pp, tg;        /* the estimate's centre of the comparison the cell's
				 verdict comes from (so the value and the verdict
				 are one estimate); without one, the median of the
				 latest base run; NaN when every sample was flagged */
	int est_pp, est_tg;   /* pp / tg already came from an estimate */
	char run[40];
	char *tag;
	struct tables_verdict vpp, vtg;
	int forced;           /* the runs differ in a way parity refuses */
	char reason[160];     /* forced: what differs, "" when unknown */
};

struct tables_base_row {
	char *model, *endpoint;
	struct tables_base_cell *cells; /* one per engine, in column order */
};

/* A column of the speculative and per-prompt tables. */
struct tables_spec_col {
	size_t engine;        /* index into engines */
	int64_t n_max;        /* >= 1 */
};

struct tables_spec_cell {
	int present;
	double tg;            /* the rung's decode tok/s ('tpsdb sweep' prints it) */
	double tg_lo, tg_hi;  /* its 90% interval across runs; NaN with one run */
	double accept;        /* draft_n_accepted / draft_n; NaN without drafts */
	int best;             /* the engine's fastest rung in this row, decided: its
				 interval lies above every other rung's */
	char run[40];
	char *tag;
};

struct tables_spec_row {
	char *model, *spec_type, *endpoint;
	struct tables_spec_cell *cells; /* one per tables.spec_cols */
};

/* The per-prompt acceptance of one model and spec config. */
struct tables_prompt_table {
	char *model, *spec_type, *endpoint;
	size_t n_cols;
	struct tables_spec_col *cols;
	size_t n_prompts;
	char **prompts;       /* in name order */
	double *accept;       /* n_prompts * n_cols, prompt-major; NaN: none */
	double *all;          /* n_cols: over every prompt (summed counts) */
	double *decode;       /* n_cols: median decode tok/s of the rung */
};

/* A run some number of the report came from. */
struct tables_run {
	char uuid[40];
	char *engine, *role, *model, *spec_type, *endpoint, *tag, *started_at, *host;
	int64_t n_max;
};

struct tables {
	char *ref;                          /* NULL when there is none */
	struct tables_engine *engines;
	size_t n_engines;
	struct tables_base_row *base;
	size_t n_base;
	struct tables_spec_col *spec_cols;
	size_t n_spec_cols;
	struct tables_spec_row *spec;
	size_t n_spec;
	struct tables_prompt_table *prompts;
	size_t n_prompts;
	struct findings findings;           /* in the words of 'tpsdb check' */
	const struct catalog_alarm *alarms; /* borrowed from the input */
	size_t n_alarms;
	char **warnings;                    /* forced comparisons */
	size_t n_warnings;
	struct tables_run *runs;            /* ordered by model, config, engine */
	size_t n_runs;
};

/* Where the report's figures went, for the links: a file name (relative to the
 * report) per figure, NULL when that figure was not drawn, and a note to print
 * instead of the figures when none were (e.g. "skipped: gnuplot not found"). */
struct tables_figures {
	const char *trend, *sweep, *parity;
	const char *note;
	const char *trend_what;   /* the trend's caption (HTML); NULL: a generic one */
};

/* A model's page of the HTML report: its name, the page's file name, its trend
 * figure's file name (NULL: not drawn) and data (NULL or no series: no history),
 * and how many runs that history holds. Borrowed. */
struct tables_html_model {
	const char *model;
	const char *page;
	const char *trend_svg;
	const struct plot_trend *trend;
	size_t n_runs;
};

/* Builds the report from in (report_load() with in->full and the tag, engines,
 * models and ref of o): the latest run of every cell that matches o (medians of
 * unflagged samples; verdicts from parity_decide() against the reference, paired
 * by prompt and repetition; speculative rungs from series_assemble()). An engine
 * in o->engines or o->ref without runs is an error. Fills *t, which borrows the
 * alarms of in (in must outlive t) and which the caller releases with
 * tables_release() (also after -1). 0 ok, -1 after an error line. */
int tables_build(const struct tables_opts *o, const struct report_input *in, struct tables *t);
void tables_release(struct tables *t);

/* The renderers. Markdown and text differ only in markup; JSON is one object
 * (keys in the help of 'tpsdb report'); CSV is one row per number. fig may be
 * NULL (no figures section). Return 0, or -1 when writing failed (nothing
 * printed: the caller names the file). */
int tables_write_md(FILE *f, const struct tables *t, const struct tables_figures *fig);
int tables_write_text(FILE *f, const struct tables *t, const struct tables_figures *fig);
int tables_write_json(FILE *f, const struct tables *t, const struct tables_figures *fig);
int tables_write_csv(FILE *f, const struct tables *t);
/* HTML: index.html, the same tables as markdown with the figures (fig) and a link
 * to each model's page; and one model's page, its history figure with the change
 * points and runs as tables. Self-contained: inline style, no script, nothing
 * from the network; every label through escape_html(). */
int tables_write_html(FILE *f, const struct tables *t, const struct tables_figures *fig,
		      const struct tables_html_model *models, size_t n_models);
int tables_write_html_model(FILE *f, const struct tables_html_model *m);

/* The cell formats of the base and speculative tables, exposed for the tests:
 * "13150 / 142.6", "13150 / 142.6 (parity / -3.1% slower)", "13100 / 143.0 (ref)",
 * "-" for no run; "230.7 · 0.71". Caller frees. */
char *tables_base_text(const struct tables *t, const struct tables_base_row *row, size_t e);
char *tables_spec_text(const struct tables_spec_cell *c);

/* --- the data behind the figures (plot.h), shared by 'plot' and 'report' --- */

struct tables_trend_opts {
	const char *const *engines; /* empty: every engine */
	size_t n_engines;
	const char *model;          /* NULL: the first model with runs */
	const char *spec_type;      /* NULL: "" (the base config) */
	int64_t n_max;              /* TPS_NULL: the base */
	const char *baseline;       /* band from this baseline's runs; NULL: see below */
	int metric;                 /* CELL_PP or CELL_TG */
};

/* Owns the arrays a figure's struct points to: tables_trend(), _sweep() and
 * _parity() allocate into it, and tables_arena_free() frees them all at once. */
struct tables_arena;
struct tables_arena *tables_arena_new(void);
void tables_arena_free(struct tables_arena *a); /* accepts NULL */

/* A trend figure: one series per engine over its runs' medians, change points
 * from changepoint_detect() with the defaults, and the band: with a baseline, the
 * min..max of the baseline's run medians of the same model and config, widened to
 * at least mean +/- max(2%, k x the stored A/A floor); without, one band per
 * segment of the first series (tables_segment_bands()), each over its own runs. The
 * histories and floors come from in (report_load_trend() of o->model, the tag,
 * o->baseline and o->metric). *out points into arena a. 0 ok (the figure may hold
 * no series: the caller decides), -1 after an error line. */
int tables_trend(const struct tables_trend_opts *o, const struct report_trend *in,
		 struct tables_arena *a, struct plot_trend *out);

/* The level bands of one series cut at its change points cp[0..n_cp) (indexes of
 * the first run after each change): per segment, the median of its y, +/- the
 * wider of max(2%, k x floor) of the median and k x 1.4826 x the segment's median
 * absolute deviation, from its first run's x to its last's. One spike moves
 * neither the centre nor the width. out holds n_cp + 1; returns how many were
 * written (a segment of NaNs only has none). */
size_t tables_segment_bands(const double *x, const double *y, size_t n, const size_t *cp,
			    size_t n_cp, double floor, struct plot_band *out);

/* The model whose history (of config spec_type, NULL: the base, and n_max) holds
 * the longest series in in among engines and models (each empty: any), borrowed
 * from in; the first such on a tie; NULL when none. The report draws this one's
 * trend: the model with the most runs to show. */
const char *tables_trend_longest(const struct report_trend *in, const char *const *engines,
				 size_t n_engines, const char *const *models, size_t n_models,
				 const char *spec_type, int64_t n_max);

/* A sweep figure of one model and spec type (NULL: the first with rungs) from the
 * speculative runs in (report_load_decode()): one series per engine (engines,
 * empty: all), x = n_max (0 for the base). 0 ok, -1 after an error line. */
int tables_sweep(const struct report_decode *in, const char *const *engines, size_t n_engines,
		 const char *model, const char *spec_type, struct tables_arena *a,
		 struct plot_sweep *out);

/* A parity figure: the delta % of metric (CELL_PP or CELL_TG) with its 95% CI
 * for every base cell, one bar per engine other than ref (NULL: the first
 * upstream engine), with the widest effective band of the verdicts shaded. The
 * verdicts are the base table's (tables_build()); a forced comparison, which the
 * table calls not comparable, has no bar. No reference engine is an error. in is
 * report_load() of o's tag, engines, models and ref (full or not). */
int tables_parity(const struct tables_opts *o, const struct report_input *in, int metric,
		  struct tables_arena *a, struct plot_parity *out);

/* The same two figures from tables already built, as the
 * report draws them: the sweep of spec row `row` (each engine's base from the
 * base table, then its rungs), and the parity bars of metric. The labels are
 * borrowed from t, which must outlive the plot_job_*() call. */
void tables_sweep_of(const struct tables *t, size_t row, struct tables_arena *a,
		     struct plot_sweep *out);
void tables_parity_of(const struct tables *t, int metric, struct tables_arena *a,
		      struct plot_parity *out);

#endif
