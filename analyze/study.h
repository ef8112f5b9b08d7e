/* study.h: the study behind 'tpsdb report' and 'tpsdb plot', decided once over
 * plain structs: which engines are columns, the base cells with their estimate
 * and verdict, the speculative and per-prompt tables, the runs behind every
 * number, and the figures' data (series, change points, segment bands, which
 * history is longest). Its input is the cell set's pools (analyze/cellset.h), as
 * compare and sweep take them; reports/ renders the result and words it
 * (findings, warnings, reasons) without deciding again. */
#ifndef ANALYZE_STUDY_H
#define ANALYZE_STUDY_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/answer.h"
#include "analyze/cell_label.h"
#include "analyze/cellset.h"
#include "analyze/figure.h"
#include "analyze/parity.h"
#include "analyze/series.h"
#include "analyze/verdict.h"

/* A field the store left empty (RUN_NULL), and the metrics in enum run_metric's
 * order. */
#define STUDY_NULL RUN_NULL
enum { STUDY_PP = RUN_PP, STUDY_TG = RUN_TG };

/* --- the input, borrowed --- */

/* One run's data-quality row: what decides whether the report words it. */
struct study_quality {
	const char *uuid, *engine, *model, *status;
};

struct study_input {
	/* Every pool of the selection, every engine (cellset_pools(), samples read
	 * with RUN_LOAD_VALUES, and RUN_LOAD_PROMPTS for the per-prompt tables). */
	const struct pool *pools;
	size_t n_pools;
	const struct study_quality *quality; /* every run of the selection */
	size_t n_quality;
	/* The trend's histories: every run of each series (POOL_ALL), oldest first;
	 * a figure takes the runs with a value of its metric (trend_history()). */
	const struct pool *hist;
	size_t n_hist;
	int64_t hist_limit;       /* > 0: a history shows its last hist_limit runs */
	const struct pool *base;  /* a baseline's histories; NULL without */
	size_t n_base;
};

/* --- the result: the study's tables --- */

/* What to include. Lists are borrowed; an empty list means every one. */
struct study_opts {
	const char *const *engines; /* columns in this order; else ours, other, upstream */
	size_t n_engines;
	const char *const *models;
	size_t n_models;
	const char *tag;            /* the tag the input was loaded with (NULL: any);
				       the study itself filters nothing by it */
	const char *ref;            /* the reference engine (--ref): every other engine
				       is judged against it; NULL: ours (role ours,
				       else the first column) is judged against every
				       other engine, as 'compare --ours <ours> --vs
				       <engine>' judges it */
	int figures;                /* also the report's figures (study.fig) */
};

struct tables_engine {
	char *label, *role;
};

/* One metric's verdict of a cell: with a reference, of the cell's engine against
 * the reference; without, of ours against the cell's engine (ours' own cell has
 * none). */
struct tables_verdict {
	int has;              /* 0: no pairs were judged (or this is the reference,
				 or ours without one) */
	struct verdict v;
	struct clean_answer clean; /* v spoiled: the newest clean batch's answer of
				      the same comparison, from the input's
				      histories (pool_newest_clean()); found 0
				      otherwise or when none */
};

/* One engine's base cell of one model: medians of the unflagged samples. */
struct tables_base_cell {
	int present;          /* the engine has a base run of this model */
	double pp, tg;        /* the estimate's centre of the comparison the cell's
				 verdict comes from (so the value and the verdict
				 are one estimate): its engine's side of it; for the
				 reference, or for ours without one, the first
				 comparison that has one; without any, the median
				 of the latest base run; NaN when every sample was
				 flagged */
	int est_pp, est_tg;   /* pp / tg already came from an estimate */
	char run[40];
	char *tag;
	struct tables_verdict vpp, vtg;
	int forced;           /* the runs differ in a way parity refuses */
	struct run_diff diff; /* forced: what differs (kind NONE when unknown),
				    borrowing the input's sides */
	const char **machines; /* the machines (run.machine) of the runs behind pp
				  and tg: of the pool whose estimate they are, else
				  of the latest run; first met, borrowed from the
				  input (heap array of n_machines) */
	size_t n_machines;
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
	const char *machine;  /* run's machine (tables_run.machine), borrowed from
				 study.runs; NULL until study_build_machines() */
};

struct tables_spec_row {
	char *model, *spec_type, *endpoint;
	struct tables_spec_cell *cells; /* one per study.spec_cols */
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
	char *machine;  /* the machine it was measured on (run.machine) */
	char *build;    /* its engine build as trend names it (trend_version_label()) */
	int64_t n_max;
};

/* The one-line answer of one comparison over one metric: an engine against the
 * reference, or without one ours against an engine; the base cells with a
 * verdict (not forced; a spoiled one is counted apart), and analyze/answer.h's
 * answer of them. */
struct study_answer {
	size_t n;                 /* cells; 0: no answer (the reference, no verdicts) */
	struct answer a;
	const char **names;       /* n: the cells' models, borrowed from the base rows */
	const struct verdict **v; /* n: their verdicts, borrowed from the cells */
	const char **machines;    /* the machines of the comparison's answers rows,
				     both metrics (study_answer_row.machines);
				     heap array, borrowed strings */
	size_t n_machines;
};

/* One row of the report's answers table, the table its markdown, text and HTML
 * lead with: one comparison (column engine: it against the reference, or
 * without one ours against it, as study.answers pairs them), one metric, one
 * base row. Decided here, once: which cells answer (a base cell with a verdict,
 * or one the table calls not comparable) and in what order (comparison, then
 * metric, then model); reports/ words the verdict and, for a spoiled one, its
 * newest clean answer (tv->clean), and decides nothing. */
struct study_answer_row {
	size_t engine;                   /* the comparison's column (study.engines) */
	int metric;                      /* STUDY_PP or STUDY_TG */
	size_t base;                     /* the row of study.base: the model */
	int forced;                      /* not comparable (the cell's runs differ
					    in a way parity refuses): no verdict */
	const struct tables_verdict *tv; /* the verdict, borrowed from the cell;
					    NULL when forced */
	const char **machines;           /* the machines of both cells of the
					    comparison (tables_base_cell.machines),
					    first met; heap array, borrowed strings */
	size_t n_machines;
};

/* A machine the runs that match were measured on (run.machine), decided once
 * for every format (study_machines.c): whether a number of the report comes
 * from its runs, and the engines it measured. */
struct study_machine {
	const char *machine;  /* borrowed from the input */
	int used;             /* a base or speculative cell, or a listed run, is its */
	const char **engines; /* the engines of its runs that match, first met;
				 heap array, borrowed strings */
	size_t n_engines;
};

/* Why a study step failed; the caller words it (reports/tables.h). */
enum study_fail {
	STUDY_OK,
	STUDY_NO_ENGINE,      /* a: the engine asked for has no matching run */
	STUDY_NO_REF_RUNS,    /* a: the reference asked for has no matching run */
	STUDY_PARITY,         /* parity_decide() stopped: stop */
	STUDY_NO_PROMPTS,     /* a: the prompts of run a were not loaded */
	STUDY_TOLERANCE,      /* series_assemble() refused its tolerance */
	STUDY_CHANGEPOINTS,   /* the change-point search failed */
	STUDY_NO_PAIR,        /* a parity figure with no two engines to compare */
};

struct study_error {
	enum study_fail kind;
	char a[160], b[160];
	struct parity_result stop; /* STUDY_PARITY: stop, stop_cell, stop_diff only */
};

/* Owns the arrays a figure's struct points to: the study_trend(), _sweep() and
 * _parity() families allocate into it, and study_arena_free() frees them at once. */
struct study_arena;
struct study_arena *study_arena_new(void);
void study_arena_free(struct study_arena *a); /* accepts NULL */

/* The report's figures (study_opts.figures): the trends of decode and of prefill,
 * each of the model with the longest history of that metric, one decode trend per
 * model of the tables (for the HTML pages), the sweep of the first speculative
 * row and the parity bars of tg and of pp. Every pointer lives in the study's
 * arena or its tables. */
struct study_figures {
	const char **cols;            /* the table's engines: one colour each */
	struct plot_trend trend;      /* tg; no series: nothing to draw */
	const char *trend_model;      /* NULL: no history */
	struct plot_trend trend_pp;   /* the same of pp */
	const char *trend_pp_model;
	const char **models;          /* every model of the tables, in order */
	size_t n_models;
	struct plot_trend *model_trends; /* n_models */
	int has_sweep, has_parity, has_parity_pp; /* a figure with a bar to draw */
	struct plot_sweep sweep;
	struct plot_parity parity;    /* tg */
	struct plot_parity parity_pp;
};

/* A forced comparison: which one (labels borrowed from the study) and its note. */
struct study_note {
	const char *ours, *vs;
	struct parity_note note;            /* borrows the input */
};

struct study {
	char *ref;                          /* NULL when there is none */
	char *ours;                         /* without a reference, the engine judged
					       against every other one: role ours,
					       else the first column; NULL with one
					       (or without engines) */
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
	size_t *quality;                    /* indexes into in.quality the report shows */
	size_t n_quality;
	struct study_answer *answers;       /* 2 per engine, [2 * e + m]: m 0 pp, 1 tg;
					       without a reference, engine e's are
					       those of ours against e */
	struct study_answer_row *rows;      /* the answers table, comparison x metric
					       x model (study_answer_row) */
	size_t n_rows;
	struct study_note *notes;           /* forced comparisons */
	size_t n_notes;
	struct tables_run *runs;            /* ordered by model, config, engine */
	size_t n_runs;
	struct study_machine *machines;     /* every machine of the runs that match
					       (the input's pools), first met */
	size_t n_machines;
	const char **base_machines;         /* the machines of the base table's
					       cells, and of the speculative table's:
					       heap arrays, borrowed strings */
	size_t n_base_machines;
	const char **spec_machines;
	size_t n_spec_machines;
	struct study_figures fig;
	struct study_arena *arena;
	struct study_error err;             /* after -1 */
};

/* The study of in under o: every pool that matches o (the newest run's medians
 * of unflagged samples where no comparison was made; verdicts from
 * parity_decide() of each engine's pools against the reference's, or without a
 * reference of ours' pools against each other engine's, compare's estimate;
 * speculative rungs from series_assemble();
 * with o->figures, the figures too). An engine in o->engines or o->ref without
 * runs is an error. Fills *s, which borrows from in (in must outlive s) and which
 * the caller releases with study_release() (also after -1). 0 ok, -1 with s->err
 * set. */
int study_build(const struct study_opts *o, const struct study_input *in, struct study *s);
/* Only the engines and the base table with its verdicts (a parity figure). */
int study_build_base(const struct study_opts *o, const struct study_input *in,
		     struct study *s);
void study_release(struct study *s);

/* --- the vocabulary the study and its renderers share (study_select.c) --- */

/* Equal strings, NULL read as "". */
int study_same(const char *a, const char *b);
/* Is s one of v[0..n)? */
int study_in_list(const char *const *v, size_t n, const char *s);
/* The study's column order of a role: ours 0, other 1, upstream 2. */
int study_role_rank(const char *role);
/* The column of engine label, or -1. */
long study_engine_index(const struct study *s, const char *label);
/* Does o let this engine and model in (the reference engine always is)? */
int study_wanted(const struct study_opts *o, const char *engine, const char *model);

/* --- labels (study_label.c) --- */

/* A model or a config with its endpoint: analyze/cell_label.h's cell_label_endpoint()
 * and cell_label(), the one spelling. */
/* A speculative row's config: the spec type, or "spec" when it has none. Borrowed. */
const char *study_spec_name(const char *spec_type);

/* --- the figures (study_figures.c), shared by 'plot' and 'report' --- */

struct study_trend_opts {
	const char *const *engines; /* empty: every engine */
	size_t n_engines;
	const char *model;          /* NULL: the first model with runs */
	const char *spec_type;      /* NULL: "" (the base config) */
	int64_t n_max;              /* STUDY_NULL: the base */
	const char *baseline;       /* band from in->base (this baseline's runs); NULL:
				       one band per segment */
	int metric;                 /* STUDY_PP or STUDY_TG */
};

/* A trend figure: one series per engine over its runs' medians, change points
 * from changepoint_detect() with the defaults, and the band: with a baseline, the
 * min..max of the baseline's run medians of the same model and config, widened to
 * at least mean +/- max(2%, k x the stored A/A floor); without, one band per
 * segment of the first series (study_segment_bands()). *out points into arena a.
 * *no_band (may be NULL; else start it NULL) is set to the model when a baseline
 * was named but holds no run of it in this config (borrowed from in or a). 0 ok (the figure may hold no series: the caller decides),
 * -1 with *err set. */
int study_trend(const struct study_trend_opts *o, const struct study_input *in,
		struct study_arena *a, struct plot_trend *out, const char **no_band,
		struct study_error *err);

/* The level bands of one series cut at its change points cp[0..n_cp) (indexes of
 * the first run after each change): per segment, the median of its y, +/- the
 * wider of max(2%, k x floor) of the median and k x 1.4826 x the segment's median
 * absolute deviation, from its first run's x to its last's. One spike moves
 * neither the centre nor the width. out holds n_cp + 1; returns how many were
 * written (a segment of NaNs only has none). */
size_t study_segment_bands(const double *x, const double *y, size_t n, const size_t *cp,
			   size_t n_cp, double floor, struct plot_band *out);

/* The model whose history of metric (of config spec_type, NULL: the base, and
 * n_max) holds the longest series in in->hist among engines and models (each
 * empty: any), borrowed from in; the first such on a tie; NULL when none. */
const char *study_trend_longest(const struct study_input *in, const char *const *engines,
				size_t n_engines, const char *const *models, size_t n_models,
				const char *spec_type, int64_t n_max, int metric);

/* A sweep figure of one model and spec type (NULL: the first with rungs) from the
 * speculative pools of in->pools: one series per engine (engines, empty: all), x =
 * n_max (0 for the base). 0 ok, -1 with *err set. */
int study_sweep(const struct study_input *in, const char *const *engines, size_t n_engines,
		const char *model, const char *spec_type, struct study_arena *a,
		struct plot_sweep *out, struct study_error *err);

/* A parity figure: the delta % of metric with its interval for every base cell,
 * one bar per engine other than the reference (without one: per engine other
 * than ours, the delta of ours against it), the widest effective band of the
 * verdicts shaded; a forced or spoiled comparison has no bar (out->n_spoiled
 * counts the spoiled ones). No engine to compare ours with is an error. 0 ok, -1
 * with *err set. */
int study_parity(const struct study_opts *o, const struct study_input *in, int metric,
		 struct study_arena *a, struct plot_parity *out, struct study_error *err);

/* The same two figures from a study already built: the sweep of spec row `row`
 * (each engine's base from the base table, then its rungs), and the parity bars
 * of metric. The labels are borrowed from s. */
void study_sweep_of(const struct study *s, size_t row, struct study_arena *a,
		    struct plot_sweep *out);
void study_parity_of(const struct study *s, int metric, struct study_arena *a,
		     struct plot_parity *out);

#endif
