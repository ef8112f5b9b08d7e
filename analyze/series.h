/* series.h: speculative series, one per (engine, model, spec_type, endpoint): the
 * engine's base pool of that model (n_max unset) followed by its n_max 1, 2, 3 ...
 * rungs, each a pool of the cell set (analyze/cellset.h) with its decode speed,
 * the draft sums and the sweep_analyze() verdict. Assembled from plain pools, so
 * the choice of rungs and base is testable without a store. */
#ifndef ANALYZE_SERIES_H
#define ANALYZE_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/cellset.h"
#include "analyze/estimate.h"
#include "analyze/sweep.h"

/* An instance screened out of a rung as an outlier. */
struct series_outlier {
	char run_uuid[40];
	double tg;               /* its decode speed, as the rung reduces a run */
};

/* One rung: a pool (one cell of one engine), each run one instance, less the
 * outliers (estimate_outliers() on the runs' log decode speeds, with three runs
 * or more). With one run, rung.tg is the geometric mean of its usable decode
 * samples; with more, that of the kept runs' values (the centre of the interval
 * on their logs). The counts are the sums over the kept runs. */
struct series_rung {
	int64_t n_max;           /* as the runs have it: RUN_NULL for the base */
	const struct pool *pool; /* the rung's runs, borrowed: the set must outlive
				    the series */
	int64_t run_id;          /* the pool's newest run */
	char run_uuid[40];
	const char *tag;         /* of that run, "" when none; borrowed */
	size_t n_values;         /* usable decode samples, kept runs */
	size_t n_excluded;       /* samples flagged for decode, left out */
	size_t n_runs;           /* runs kept, >= 1 */
	size_t n_screened;       /* runs screened out as outliers */
	struct series_outlier *screened_out; /* those runs, oldest first */
	double screen_median;    /* the median log run speed the rule measured
				    from (NaN: fewer than three runs) */
	double *tg_runs, *rate_runs, *accept_runs; /* per kept run (rung.tg_runs ...
						      point here): decode speed, summed
						      rate, acceptance (NaN: none) */
	int64_t *round_runs;     /* per kept run: its round (<= 0 unknown) */
	const char **batch_runs; /* per kept run: its batch id (NULL unknown), borrowed */
	struct sweep_rung rung;  /* what analyze/sweep.h consumes (n_max -1 for the base) */
	struct sweep_point point; /* filled from the report */
	/* Every run of the pool, the screened ones included, as the estimate takes
	 * an instance (rung.units points here; pool_units(), owned): a gap is
	 * compare's estimate of the cell, over the same pools with the same rule. */
	struct estimate_unit *units;
	unsigned char *unit_kept; /* per unit: 1 kept, 0 screened out */
};

struct series {
	char *engine, *role, *model, *spec_type, *endpoint;
	size_t n_rungs;
	struct series_rung *rungs;  /* base first (when there is one), then n_max ascending */
	struct sweep_rung *sweep;   /* rungs[i].rung copied, for the analyze/ calls */
	struct sweep_report report; /* sweep_analyze(sweep, n_rungs, tolerance) */
};

struct series_set {
	struct series *v;  /* ordered by model, spec_type, endpoint, engine */
	size_t n;
};

/* Assembles the series from the pools p[0..n) (cellset_pools(): one per engine and
 * cell, each a rung). Every drafting pool is a rung of its (engine, model,
 * spec_type, endpoint); each series takes as its base the base pool of the same
 * engine, model and endpoint with its own spec_type, else the one with spec_type
 * "". An engine and model with only base pools form no series; a series without
 * a base still has its rungs (speedups NaN). The pools (and their runs) are
 * borrowed and must outlive *out. Fills *out, which the caller releases with
 * series_set_release() (also after -1). Returns 0, or -1 (nothing printed) when
 * tolerance_pct is NaN or negative. */
int series_assemble(const struct pool *p, size_t n, double tolerance_pct,
		    struct series_set *out);

/* Frees what *set holds and zeroes it; accepts NULL and a zeroed set. */
void series_set_release(struct series_set *set);

/* The index of the rung with this n_max (any base value: the base), or -1. */
long series_find(const struct series *se, int64_t n_max);

/* The cross-engine shape check of ours against ref over the rungs both hold:
 * sweep_shape() on the aligned rungs. *out is a heap array of *count steps (NULL
 * when none) the caller frees; the steps' from/to index the aligned rungs, so use
 * from_n_max/to_n_max (<= 0 for the base). 0 ok, -1 when the analysis refused its
 * input. */
int series_shape(const struct series *ours, const struct series *ref, double tolerance_pct,
		 struct sweep_step **out, size_t *count);

/* The gap between ours and ref at the rung n_max (TPS_NULL: the base): fills *gap
 * (sweep_gap(), then sweep_gap_decide() across the rungs' runs). 0 ok, -1 when a
 * side lacks the rung or the counts to split it. Rungs measured on different
 * machines give 0 with gap->machine_a and machine_b set and nothing computed. */
int series_gap(const struct series *ours, const struct series *ref, int64_t n_max,
	       struct sweep_gap *gap);

/* Which series 'tpsdb sweep' shows and holds against which. */
struct series_view {
	const char *engine; /* only this engine's series are shown; NULL: all */
	const char *ref;    /* hold them against this engine only; NULL: every other */
	int across_machines; /* go on past steps and gaps measured on different
				machines, marked (--across-machines); 0: refuse */
};

/* 1 when se is shown under v. */
int series_shown(const struct series_view *v, const struct series *se);

/* 1 when other is a reference for se under v: the same model, spec_type and
 * endpoint, another engine, and v->ref (when set) names it. */
int series_is_ref(const struct series_view *v, const struct series *se,
		  const struct series *other);

/* 1 when the ordered pair (a, b) gets gap lines: each pair once, the "ours" role
 * first, then other engines, "upstream" last (so the sentence reads "ours ...
 * slower than llama.cpp"); with v->ref, every shown a against that engine. */
int series_gap_pair(const struct series_view *v, const struct series *a, const struct series *b);

/* One shape step of a shown series against one of its references. */
struct series_shape_step {
	size_t ref;              /* the reference's index in the set */
	struct sweep_step step;  /* series_shape()'s step */
};

/* One gap line: series ours against series ref at one rung, with the cause
 * sweep_gap_why() found; or, gap.machine_a set, the rung measured on two
 * machines: no figure, no cause (why zeroed). */
struct series_gap_line {
	size_t ours, ref;        /* indices in the set */
	int64_t n_max;           /* the rung of ours (TPS_NULL: the base) */
	struct sweep_gap gap;
	struct sweep_why why;
};

/* Two series' rung whose runs decoded under different settled speculative knobs
 * (run.spec_settings, run_settings_differ()): a difference of settings, which
 * no shape step nor gap line may read as one of engines. */
struct series_clash {
	size_t ours, ref;        /* indices in the set */
	int64_t n_max;           /* the rung */
	const struct run *a, *b; /* a run of each that differ, borrowed */
};

/* 1 with the first clash in *out (ours and ref as given; out->ours and
 * out->ref left to the caller) when some rung both series hold pools runs of ours
 * and ref whose settled knobs differ; 0 otherwise. Pure. */
int series_settings_clash(const struct series *ours, const struct series *ref,
			  struct series_clash *out);

/* A step, shape step or gap of what a view holds whose pools were not measured
 * on one machine (sweep_rungs_same_machine()): never decided, never explained. */
struct series_across {
	size_t ours, ref;        /* indices in the set; ref == ours: a step of one
				    series */
	int64_t from_n_max, to_n_max; /* the step's rungs; a gap: its rung, twice */
	const struct run *a, *b; /* two runs on different machines, borrowed */
	const struct run *cell;  /* the newest run of ours at to_n_max: the cell */
};

/* What 'tpsdb sweep' reports of a set under a view, decided before any writer
 * runs: which series are shown, each shown series' shape steps against its
 * references, and the gap lines, in the order the writers list them. */
struct series_verdict {
	size_t n;                          /* the set's series */
	unsigned char *shown;              /* per series: series_shown() */
	struct series_shape_step **shape;  /* per series: its steps (NULL: none) */
	size_t *n_shape;
	struct series_gap_line *gaps;      /* pairs by series_gap_pair(), rungs of the
					      first in order, those with a decided cause */
	size_t n_gaps;
	size_t n_shown;                    /* series shown */
	size_t n_violations;               /* decided violations of the shown series */
	size_t n_undecided;                /* undecided dips of the shown series */
	int ref_missing;                   /* v->ref is set and names no series */
	int clashed;                       /* 1: a pair the view holds clashes
					      (clash): its shape and gaps were
					      never computed, and sweep refuses */
	struct series_clash clash;         /* the first such pair */
	size_t n_across;                   /* steps of the shown series, shape steps
					      and gap lines measured on different
					      machines: marked, never a violation
					      nor a pass */
	int machines_refused;              /* 1: n_across > 0 and the view does not
					      go across machines: sweep refuses */
	struct series_across across;       /* the first of them (series order:
					      steps, shape steps, then gaps) */
};

/* Decides *out for set under v with tolerance_pct (the set's): series_shown(),
 * series_shape() against every series_is_ref() reference, series_gap() for every
 * series_gap_pair() at every rung of the first, kept when sweep_gap_why() finds a
 * cause, and whether v->ref names a series of the set. A pair whose settled knobs
 * clash (series_settings_clash()) gets neither shape steps nor gap lines; the
 * first is out->clash. Steps, shape steps and gaps measured on different
 * machines are counted in n_across, the first kept in out->across, and refused
 * (machines_refused) unless v->across_machines; gap lines include them. Release with series_verdict_release() (also after -1). 0 ok, -1 when
 * a shape analysis refused its input. */
int series_decide(const struct series_view *v, const struct series_set *set,
		  double tolerance_pct, struct series_verdict *out);

/* Frees what *out holds and zeroes it; accepts NULL and a zeroed verdict. */
void series_verdict_release(struct series_verdict *out);

#endif
