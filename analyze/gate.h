/* gate.h: the gate decision. A candidate build's cells are matched with a frozen
 * baseline's and each shared cell is passed or failed per metric on the means
 * (verdict_gate()) by the one estimate compare makes (analyze/estimate.h: the
 * pools' instances, the stored noise floor for one instance a side); the optional
 * checks add the candidate's flagged samples, its sweep violations (--sweep) and
 * its history's newest change point (--trend). Pure: cmd/side.h loads and pools
 * the input, reports/gate_write.h words the result. */
#ifndef ANALYZE_GATE_H
#define ANALYZE_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/answer.h"
#include "analyze/changepoint.h"
#include "analyze/estimate.h"
#include "analyze/parity.h"
#include "analyze/series.h"
#include "analyze/verdict.h"

/* The gated metrics, in the order every output lists them. */
enum gate_metric {
	GATE_PP,     /* prompt tok/s */
	GATE_TG,     /* decode tok/s */
	GATE_ACCEPT, /* accepted / drafted tokens, speculative cells only */
	GATE_N_METRICS,
};

/* The sample flags a finding counts: the flag 1 << i for i < GATE_N_FLAGS
 * (SAMPLE_TRUNCATED .. SAMPLE_COLD of the store). */
#define GATE_N_FLAGS 5
/* The store's SAMPLE_DEGENERATE bit, which a gate finding may also carry. */
#define GATE_FLAG_DEGENERATE (1u << 6)

/* "pp", "tg" or "accept"; static strings. */
const char *gate_metric_name(int metric);
/* The enum gate_metric of a name ("pp", "tg", "accept"), or -1. */
int gate_metric_index(const char *name);

/* One cell of a side as the gate sees it: a pool (analyze/cellset.h) of the
 * candidate's or the baseline's runs, its newest run its face. The gate makes one
 * per pool it is handed (gate_result.cells) and points rows, notes and findings
 * at them. */
struct gate_cell {
	const struct pool *pool;      /* the runs pooled, oldest first */
	const struct run *side;       /* pool_face(pool): identity and config */
	const struct pool *hist;      /* --trend: every run of the candidate's series
					 on its machine (run_same_machine()),
					 oldest first; NULL none */
	int base;                     /* 1: a baseline cell */
};

/* What gate_decide() judges, all borrowed: the candidate's pools and the
 * baseline's (cellset_pools(); several engines may hold one cell there), both in
 * the store's cell order; with --trend the candidate's histories (a pool per
 * series of every run of the engine); with --sweep its speculative series. */
struct gate_input {
	const struct pool *cand, *base;
	size_t n_cand, n_base;
	const struct pool *hist;
	size_t n_hist;
	const struct series_set *sweep;
};

/* What fails the gate (--fail-on). A check that is not chosen is still shown,
 * never silent: an open or spoiled row is a warning, a finding a note. */
enum gate_fail_on {
	GATE_FAIL_REGRESSION = 1 << 0,   /* a row answers "regression yes" (the default) */
	GATE_FAIL_INCONCLUSIVE = 1 << 1, /* a row whose answer is still open */
	GATE_FAIL_ENVIRONMENT = 1 << 2,  /* a spoiled row, an environment finding of either
					    side's runs, flagged samples of the candidate's */
	GATE_FAIL_OUTPUT = 1 << 3,       /* degenerate-output samples, and a cell whose
					    outputs differ from the baseline's or cannot be
					    compared (then compared for every cell) */
	GATE_FAIL_ALL = 0xf,             /* --strict */
};

/* "regression", "inconclusive", "environment", "output"; "?" otherwise. */
const char *gate_fail_on_name(unsigned bit);
/* The bits of a comma list of those names into *out: 0, or -1 with the first
 * unknown name copied into bad (cut to bad_len). */
int gate_fail_on_parse(const char *list, unsigned *out, char *bad, size_t bad_len);

struct gate_params {
	double threshold[GATE_N_METRICS]; /* allowed regression, percent, >= 0 */
	int gated[GATE_N_METRICS];        /* 1: the metric is gated */
	int sweep;                        /* fail on the sweep's violations; its
					     steps across machines are open */
	int trend;                        /* fail on a regressing newest change point */
	unsigned fail_on;                 /* enum gate_fail_on bits */
	int across_machines;              /* gate a cell whose baseline was frozen on
					     another machine than the candidate ran
					     on, unpaired (--across-machines) */
};

/* Sets the defaults: every metric gated at VERDICT_MAX_REGRESS_PCT, no optional
 * check, only a regression fails. */
void gate_params_init(struct gate_params *p);

/* The gate's reading of one metric of one cell: the cell's estimate
 * (analyze/estimate.h) against the threshold, in the gate's words. */
struct verdict_gate_result {
	enum verdict_gate_outcome outcome; /* verdict_gate_outcome_of(&v) */
	enum verdict_bound bound;
	double threshold_pct;        /* the metric's --max-regress */
	double delta_pct;            /* the estimate's point, percent */
	double candidate_mean, baseline_mean; /* the estimate's centres: delta_pct is
						 their ratio */
	size_t n_candidate, n_baseline; /* usable values of the instances given */
	enum verdict_method method;
	size_t rounds, instances_cand, instances_base;
	double ci_lo_pct, ci_hi_pct; /* the interval at v.ci_level */
	double mde_pct;              /* its half-width */
	int decided;                 /* pass or fail by the interval */
	struct verdict v;            /* the estimate's verdict at the threshold */
	enum estimate_reason reason; /* why it decides nothing, when it does not */
	size_t n_out_cand, n_out_base; /* instances left out as outliers */
	const char *out_cand[4], *out_base[4]; /* their uuids (the first four) */
};

/* One metric of one shared cell. */
struct gate_row {
	const struct gate_cell *cand, *base; /* the runs compared */
	int metric;                          /* enum gate_metric */
	struct verdict_gate_result g;        /* means, delta, threshold, bound, outcome */
	unsigned fails;                      /* the gate_fail_on bit it fails under, 0
						when it does not fail the gate */
	double noise_pct;                    /* the stored floor; NaN when none */
	int64_t outputs_compared, outputs_identical; /* parity_outputs() of the two runs */
	unsigned question;                   /* pools_question() of the two pools (1 <<
						RUN_PP or RUN_TG: the candidate's batch
						stopped on that metric alone); 0 both */
	int across;                          /* 1: the sides were measured on different
						machines (--across-machines): unpaired */
	struct clean_answer newest_clean;    /* when g is spoiled: the candidate's
						newest clean batch against the same
						baseline (pool_newest_clean(), filled
						by the command); found 0 otherwise */
};

/* Output identity of one shared cell (every cell with GATE_FAIL_OUTPUT). */
struct gate_output {
	const struct gate_cell *cand, *base;
	int64_t compared, identical; /* parity_outputs(); -1 not at temperature 0 */
	int fail;                    /* identical < compared, or nothing compared */
};

/* A remark for the reader, in the order met. */
enum gate_note_kind {
	GATE_NOTE_CAND_ONLY,      /* cell: the candidate has it, the baseline does not */
	GATE_NOTE_ENGINES,        /* cell: the baseline holds n_engines engines for it;
				     gated against base, another engine */
	GATE_NOTE_NOT_COMPARABLE, /* cell, base: not gated, diff says why */
	GATE_NOTE_NO_DATA,        /* cell, metric: a side has no usable value */
	GATE_NOTE_BASE_ONLY,      /* cell (a baseline run): the candidate lacks it */
	GATE_NOTE_MACHINES,       /* cell, base: gated across machines (diff: the two
				     runs, kind RUN_DIFF_MACHINE), unpaired */
};

struct gate_note {
	enum gate_note_kind kind;
	const struct gate_cell *cell, *base;
	size_t n_engines;       /* ENGINES */
	struct run_diff diff; /* NOT_COMPARABLE, MACHINES */
	int metric;             /* NO_DATA */
	int baseline_empty;     /* NO_DATA: 1 the baseline's side, 0 the candidate's */
};

/* A flag carried by some of a candidate run's samples, or (env_flags set, flag 0)
 * the environment findings of a candidate or baseline run (migration 0007);
 * degenerate-output samples are flag SAMPLE_DEGENERATE (1 << 6) of either side. */
struct gate_finding {
	const struct gate_cell *cell;
	unsigned flag; /* 1 << i, or 0 for an environment finding */
	int64_t count, n_samples;
	unsigned env_flags; /* RUN_ENV_* bits of the store's record.h */
	int base;           /* 1: a baseline run's */
	unsigned fails;     /* the gate_fail_on bit it fails under (environment, or
			       output for degenerate samples); 0: a note */
};

/* A sweep violation of the candidate: decode falls from one rung to the next. */
struct gate_violation {
	const struct series *series;
	int64_t from, to; /* n_max of the rungs; <= 0 or TPS_NULL for the base */
	double drop_pct;  /* > 0 */
	const struct sweep_step *step; /* the sweep's step: interval, decided */
};

/* A step of a candidate series whose two rungs were measured on different
 * machines (the sweep's report.across, sweep_rungs_same_machine()): the sweep
 * checked it for neither a fall nor a rise, so the gate can neither pass nor fail
 * it on its numbers. It is open, as an inconclusive row is: it makes the status
 * INCONCLUSIVE, and fails only under --fail-on inconclusive. */
struct gate_sweep_across {
	const struct series *series;
	const struct sweep_step *step; /* the sweep's record: from_n_max, to_n_max and
					  the two runs machine_a, machine_b */
	unsigned fails;                /* GATE_FAIL_INCONCLUSIVE when p->fail_on
					  names it, else 0 */
};

/* The newest change point of a candidate cell's history of one metric. */
struct gate_trend {
	const struct gate_cell *cell;
	int metric;
	const struct run *run;           /* the first run of the new segment */
	struct changepoint cp;
	double threshold;                /* the magnitude a change needed, percent */
	int fail;                        /* the change is a fall */
};

/* The gate's answer as a whole. */
enum gate_status {
	GATE_STATUS_PASS,
	GATE_STATUS_FAIL,
	GATE_STATUS_OPEN, /* nothing failed, but a row is inconclusive or spoiled, or
			     a sweep step was measured across machines */
};

/* "PASS", "FAIL", "INCONCLUSIVE"; static strings. */
const char *gate_status_name(enum gate_status s);

/* Why gate_decide() stopped. */
enum gate_stop {
	GATE_STOP_NONE,
	GATE_STOP_NOTHING_SHARED, /* no candidate cell is comparable with the baseline */
	GATE_STOP_BAD_PARAMS,     /* stop_cell: a threshold or noise_k is not >= 0 */
	GATE_STOP_BAD_TREND,      /* stop_cell: change-point parameters refused */
	GATE_STOP_MACHINES,       /* stop_cell: its baseline was frozen on another
				     machine (stop_diff: the two runs), and
				     p->across_machines is off */
};

struct gate_result {
	struct gate_cell *cells;       /* one per pool of in->cand, then of in->base */
	size_t n_cells;
	struct gate_row *rows;         /* order of in->cand, metrics in enum order */
	size_t n_rows;
	struct gate_note *notes;
	size_t n_notes;
	struct gate_finding *find;     /* every flag of every candidate run */
	size_t n_find;
	struct gate_violation *viol;   /* with p->sweep */
	size_t n_viol;
	struct gate_sweep_across *sweep_across; /* with p->sweep: steps across
						   machines, never a violation */
	size_t n_sweep_across;
	struct gate_trend *trend;      /* with p->trend, cells that have a change point */
	size_t n_trend;
	struct gate_output *outputs;   /* with GATE_FAIL_OUTPUT, one per shared cell */
	size_t n_outputs;
	size_t n_shared;               /* candidate cells gated */
	size_t n_inconclusive;         /* rows whose regression answer is open */
	size_t n_spoiled;              /* rows an environment finding spoiled */
	size_t n_fail;                 /* rows, findings and outputs that fail under
					  p->fail_on, + regressing trends and decided
					  violations, + sweep steps across machines
					  under --fail-on inconclusive; the gate
					  passes at 0 */
	enum gate_status status;       /* FAIL with a failure; else OPEN while a row is
					  inconclusive or spoiled or a sweep step is
					  across machines; else PASS */
	enum gate_stop stop;
	const struct gate_cell *stop_cell;
	struct run_diff stop_diff;     /* MACHINES: the two runs, kind RUN_DIFF_MACHINE */
	size_t n_across;               /* cells gated across machines */
	struct answer_set answers;     /* gate_answer() of the rows */
};

/* The one-line answer of r's rows: per metric (enum gate_metric), the rows of that
 * metric through answer_build() against the threshold of its last row
 * (answer_set_build()). Fills *out, borrowing r's verdicts; the caller releases it
 * with answer_set_release(). gate_decide() fills r->answers so. */
void gate_answer(const struct gate_result *r, struct answer_set *out);

/* Judges in under p. Each candidate pool takes the baseline pool of the same cell
 * and engine, else the first of another engine (an ENGINES note when there was a
 * choice); a cell only one side holds is a note, as is a pair run_mismatch()
 * refuses. A pair measured on different machines (pools_same_machine()) stops
 * the gate with GATE_STOP_MACHINES, unless p->across_machines, which gates it
 * unpaired (its rows across, a MACHINES note). Every gated metric of a shared cell (acceptance only off the base rung)
 * gets a row: the cell's one estimate (pool_estimate(), the candidate as ours,
 * the metric's threshold as the band), the same that compare prints of the same
 * pools: fail iff its regression answer is yes, pass iff no, spoiled iff an
 * environment finding spoiled it, else inconclusive; a side without values is a
 * NO_DATA note instead (not for acceptance unless both sides had values). With
 * p->trend, each gated metric's history is searched for change points at min
 * magnitude p->threshold. With p->sweep, each violation of in->sweep's series is
 * listed (a decided one fails) and each step across machines (report.across) is
 * open (sweep_across), never a pass nor a failure unless --fail-on inconclusive. answers holds the rows' one-line answer
 * (gate_answer()). Fills *out; everything in it borrows from in, so in must
 * outlive it. Release with gate_result_release(), also after -1. 0 ok; -1 with
 * out->stop set. */
int gate_decide(const struct gate_input *in, const struct gate_params *p,
		struct gate_result *out);

/* Frees what *r holds and zeroes it; accepts NULL and a zeroed result. */
void gate_result_release(struct gate_result *r);

#endif
