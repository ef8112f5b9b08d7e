/* cellset.h: the one door through which runs reach a decision. The store's one
 * loader (schema/cellset.h) fills a cell set from one run filter: every run that
 * matches, each a server instance with who it is, its round, batch, tag, start,
 * design, environment and, for the runs a decision pools, its samples' usable
 * values. Here, over that plain set, is the one pooling rule (which runs of a
 * cell a side takes), the one pairing of two sides' cells, and the instances the
 * one estimate (analyze/estimate.h) takes. compare, gate, sweep, report, check,
 * plan, trend, calibrate and collect --until-decided all read runs this way, so
 * they cannot pool a cell two ways. Pure: no stdio, no store. */
#ifndef ANALYZE_CELLSET_H
#define ANALYZE_CELLSET_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/envrule.h"
#include "analyze/estimate.h"

/* A field the store left empty: the store's TPS_NULL. */
#define RUN_NULL INT64_MIN

/* The metrics of a run, in the order every per-metric array holds them. */
enum run_metric {
	RUN_PP,     /* prompt tok/s */
	RUN_TG,     /* decode tok/s */
	RUN_ACCEPT, /* draft_n_accepted / draft_n per sample: speculative runs only */
	RUN_N_METRICS,
};

/* The sample flags a run counts (flag 1 << i for i < RUN_N_FLAGS: the store's
 * SAMPLE_TRUNCATED .. SAMPLE_DEGENERATE). */
#define RUN_N_FLAGS 7

/* What the samples loader reads for a run (struct run.want); the run's identity
 * is always there. */
enum run_load {
	RUN_LOAD_VALUES = 1 << 0,  /* pp and tg values, flag counts, outputs, sums */
	RUN_LOAD_ACCEPT = 1 << 1,  /* acceptance values */
	RUN_LOAD_WALL = 1 << 2,    /* every request's wall_ms (plan) */
	RUN_LOAD_PROMPTS = 1 << 3, /* per-prompt decode and draft sums (the report) */
};

/* One usable sample value of a metric, keyed by prompt and repetition: struct
 * run_value, analyze/estimate.h's. */

/* The usable values of one metric in a run, ordered by (prompt_id, rep), and the
 * samples a flag (or a missing value) kept out of them. */
struct run_values {
	struct run_value *v;
	size_t n, excluded;
};

/* One sample's output identity: the sha256 of its generated text. */
struct run_output {
	int64_t prompt_id, rep;
	char *hash;
};

/* Sums over a run's samples usable for decode (speculative analysis). */
struct run_agg {
	int64_t n;                  /* samples summed */
	int64_t predicted_n, draft_n, draft_n_accepted;
	double predicted_ms;
	int has_draft;              /* any summed sample reported draft_n */
};

/* One prompt of a run: its mean decode tok/s and summed draft counts. */
struct run_prompt {
	char *name;
	double tg;
	int64_t draft_n, draft_n_accepted;
};

/* One run: a server instance. Strings are owned by the run (NULL or "" where the
 * store has none: tag, batch and config are "" then; engine_version and
 * engine_sha256, the binary's, "" unknown);
 * integers are RUN_NULL when absent. What the samples loader fills stays empty
 * until it has run for this run (want). */
struct run {
	int64_t id;
	char uuid[40];
	char *engine, *role, *engine_version, *model, *model_sha256, *model_quant, *host;
	/* The machine it was measured on beside its host name: the GPU model
	 * (nvidia-smi's name of the GPU used, or llama-bench's gpu_info), driver
	 * and CUDA versions, and the CPU (llama-bench's cpu_info); "" unknown.
	 * machine is all of them as one line, host first (run_machine_text()),
	 * set by cellset_canon(); NULL before. */
	char *gpu, *driver, *cuda, *cpu, *machine;
	char *engine_sha256;
	char *tag, *batch, *started_at, *ended_at, *status;
	char *spec_type, *endpoint, *prompt_set, *config; /* the cell's config */
	char *spec_settings;       /* the settled speculative knobs it decoded with,
				      "n_min=0 p_min=0.75" (run.spec_settings); ""
				      unknown. Not part of the cell key: two runs of
				      one cell that differ here are refused
				      (run_mismatch()) */
	char *source;              /* what made it: "collect", "import", "llama-bench",
				      "speed-bench" (run.source) */
	int64_t n_max, ctx, n_predict, warmup;
	int64_t reps;              /* the most repetitions of a prompt among its
				      samples: with the prompt set, its design
				      (prompts x reps); RUN_NULL none */
	int64_t round;             /* the collector's round (1-based), RUN_NULL unknown */
	int64_t looks_to;          /* its batch looked after every round up to this one
				      (--until-decided's --max-rounds); 0 a fixed design */
	unsigned looks_metric;     /* 1 << RUN_PP or 1 << RUN_TG: the one metric its
				      batch's stopping rule watched (--metric); 0 both,
				      or a fixed design */
	struct env_facts env;      /* its environment facts as stored (run.env) */
	unsigned env_flags;        /* RUN_ENV_* findings: as stored until cellset_canon()
				      derives them from env (env_findings()) */
	double temperature;        /* NAN unknown */
	double floor_pct[2];       /* the cell's newest stored A/A floor, pp and tg;
				      NAN none */
	double duration_ms;        /* start to end of a complete run; NAN otherwise */
	/* --- the samples, for runs with want set --- */
	unsigned want;             /* enum run_load bits to read */
	unsigned loaded;           /* enum run_load bits read */
	int64_t n_samples, n_degenerate;
	int64_t n_prompts_asked;   /* distinct prompts among its samples */
	struct run_values values[RUN_N_METRICS];
	int64_t flag_counts[RUN_N_FLAGS];
	struct run_agg agg;
	struct run_output *outputs; /* ordered by (prompt_id, rep) */
	size_t n_outputs;
	double *wall_ms;            /* every request's, in (prompt, rep) order */
	size_t n_wall;
	struct run_prompt *prompts; /* in prompt name order */
	size_t n_prompts;
	double bench_ts;            /* a llama-bench run's avg_ts (the mean of its
				      samples' llama-bench rates: llama-bench's own
				      avg_ts where stored), read with the values;
				      NAN for any other run or before */
};

/* Every run one filter matched, in the store's cell order: model, spec type,
 * n_max (base first), config, endpoint, engine, then start time (oldest first). */
struct cellset {
	struct run *runs;
	size_t n;
};

/* Frees what set holds (its runs and their strings) and zeroes it; accepts NULL. */
void cellset_release(struct cellset *set);
/* Frees what one run holds and zeroes it; accepts NULL. */
void run_release(struct run *r);
/* Frees what the samples loader filled in r and clears loaded (want stays). */
void run_release_samples(struct run *r);

/* Equal strings, NULL read as "". */
int run_str_eq(const char *a, const char *b);
/* Two runs measured the same cell: model, spec type, n_max, endpoint, config. */
int run_same_cell(const struct run *a, const struct run *b);
/* ... and the same engine: one series. */
int run_same_series(const struct run *a, const struct run *b);

/* Two runs were measured on one machine: the same host name, GPU model, driver,
 * CUDA version and CPU. A part one run does not record ("", or a host named
 * "unknown": an import without --host, a host without nvidia-smi) tells nothing
 * either way, as an unknown model sha256 does (run_mismatch()). Pure. */
int run_same_machine(const struct run *a, const struct run *b);
/* The machine of r as one line: the host name, then in parentheses what it
 * records of the GPU, driver, CUDA and CPU, e.g. "vm (NVIDIA H200, driver
 * 570.86.15, CUDA 12.8)". A heap string the caller frees. */
char *run_machine_text(const struct run *r);
/* The same line of the parts (NULL or "" unknown): what 'tpsdb runs' shows of a
 * run it lists without loading a struct run. */
char *machine_text(const char *host, const char *gpu, const char *driver, const char *cuda,
		   const char *cpu);
/* A run that may inform what comes after it (history, plan, calibrate, a
 * trend's change points, the newest clean answer): complete, and without an
 * environment finding (env_flags as cellset_canon() derives them). A spoiled
 * run stays in the store and is shown; it only never informs. */
int run_clean(const struct run *r);
/* Two runs of one design: the same reps of every prompt (both known; the prompt
 * set is run_mismatch()'s). */
int run_same_design(const struct run *a, const struct run *b);

/* Why two runs of one cell may not be compared. a and b are borrowed from the
 * sides compared; the first difference found is the one named. */
enum run_diff_kind {
	RUN_DIFF_NONE,
	RUN_DIFF_SHA256,
	RUN_DIFF_CTX,
	RUN_DIFF_N_PREDICT,
	RUN_DIFF_ENDPOINT,
	RUN_DIFF_PROMPT_SET,
	RUN_DIFF_CONFIG, /* llama-bench configurations differ (run.config) */
	RUN_DIFF_SPEC_SETTINGS, /* a settled speculative knob differs
				   (run.spec_settings: p_min=0.75 against 0) */
	RUN_DIFF_MACHINE, /* measured on different machines (run_same_machine());
			     never from run_mismatch(): analyze/parity.c's
			     parity_decide() finds it of the pools it pairs */
};

struct run_diff {
	enum run_diff_kind kind;
	const struct run *a, *b;
};

/* Whether two runs of one cell may be compared: 0 (out->kind NONE) when they may,
 * else 1 with the first difference in *out: two known, different model sha256, a
 * different ctx or n_predict (both known), endpoint, prompt set (both known), a
 * settled speculative knob both name with different values
 * (run_settings_differ()), or llama-bench config. */
int run_mismatch(const struct run *a, const struct run *b, struct run_diff *out);

/* 1 when the settings texts a and b ("n_min=0 p_min=0.75", run.spec_settings)
 * name one knob with different values; a knob only one names, or "" / NULL,
 * proves nothing. Pure. */
int run_settings_differ(const char *a, const char *b);

/* Rewrites every run's config in canonical form (config_canon(): one spelling
 * per value, the keys of the comma list ignore left out; NULL ignores none),
 * collecting what was left out into *ignored (config_collect(); a heap string
 * the caller frees, NULL none) when ignored is not NULL, and derives every run's
 * environment findings from its facts (env_findings()), and its machine line
 * (run.machine: run_machine_text()). */
void cellset_canon(struct cellset *set, const char *ignore, char **ignored);

/* How a pool takes the runs of its series. */
enum pool_rule {
	/* Nothing chose the runs: the batch of the series' newest run (every run
	 * of that collect invocation); when the newest has no batch (an import),
	 * the runs without a batch carrying its tag; untagged, the untagged
	 * llama-bench runs of its build (engine version) when it is one (each
	 * llama-bench file one process, one instance), else that run alone. */
	POOL_NEWEST_BATCH,
	/* The filter chose them (tags, batches, a baseline): every run. */
	POOL_ALL,
};

/* The runs one side takes of one series: oldest first, the newest (the pool's
 * face: its identity and config) last. Runs of the series the rule took whose
 * model sha256, ctx, n_predict, endpoint, prompt set or config differ from the
 * newest's (run_mismatch()) are left out and counted. Borrowed from the set. */
struct pool {
	const struct run **runs;
	size_t n;
	size_t n_mismatch;
	/* POOL_NEWEST_BATCH only: the runs of the series' newest
	 * ESTIMATE_HIST_BATCHES earlier batches on the face's host that measured
	 * what the face did (run_mismatch() finds nothing) and started before
	 * every run of the pool, oldest first: the history pool_history() reads.
	 * Borrowed from the set; NULL none. */
	const struct run **hist;
	size_t n_hist;
	/* The set it was pooled from and by which rule: what pools_pair() re-pools
	 * from. Borrowed; NULL for a pool made by hand (never re-pooled). */
	const struct cellset *set;
	enum pool_rule rule;
};

/* The newest run of a pool (its face). */
const struct run *pool_face(const struct pool *p);

/* The pools of set under rule: one per series, in the set's order (of each
 * series' runs). A round's instance is its last try: a run another job spoiled
 * (RUN_ENV_BUSY) followed in its batch by a later run of the same round (collect
 * --wait-quiet measured the cell again) joins no pool nor history. *out is a heap
 * array of *n pools the caller frees with pools_free(). Cannot fail. */
void cellset_pools(const struct cellset *set, enum pool_rule rule, struct pool **out,
		   size_t *n);
void pools_free(struct pool *p, size_t n);

/* The pools of one cell that two sides compare, ours a and vs b (cellset_pools()
 * of each side's set), as a comparison takes them, into *ra and *rb (release each
 * with pool_release()). Where both are POOL_NEWEST_BATCH pools whose newest runs
 * come from different batches, both are pooled again from the newest batch
 * that holds runs of both series, when one does: a cell pools the newest batch
 * that measured both sides, not each side's own newest (so a newer batch of one
 * side, from another machine or not, does not pair with the other side's older
 * one). Otherwise copies of a and b. Returns 1 when it pooled again, else 0. */
int pools_pair(const struct pool *a, const struct pool *b, struct pool *ra, struct pool *rb);
/* Sets want |= what on every run that pools_pair() of a pool of a[0..na) and
 * one of the same cell of b[0..nb) would take, so that the samples loader reads
 * what a comparison pools (a and b may be one array: every pair of its engines). */
void pools_want_pairs(struct pool *a, size_t na, struct pool *b, size_t nb, unsigned what);
/* Frees what one pool holds (its runs and history arrays) and zeroes it. */
void pool_release(struct pool *p);

/* Whether the runs of pools a and b were all measured on one machine: 1 when
 * every run of both is on the machine of a's face (run_same_machine()), else 0
 * with *x and *y (when not NULL) the first two runs found on different
 * machines (a run of a or b, and one it differs from). Pure. */
int pools_same_machine(const struct pool *a, const struct pool *b, const struct run **x,
		       const struct run **y);

/* Splits each of the *n pools of *p into one pool per machine its runs were
 * measured on (run_same_machine() with the newest run of each group), so that a
 * history or trend series comes from one machine: the groups of a pool follow
 * one another, the newest run's first, each keeping its runs' order. Replaces
 * *p (freed) with a heap array of the new *n pools (pools_free()). For pools
 * without history (POOL_ALL: 'tpsdb trend', gate --trend, the report's trend
 * figures). */
void pools_split_machines(struct pool **p, size_t *n);
/* Keeps in p only the runs that may inform a plan (run_clean()) on the machine of
 * its newest such run, in their order. Its history is left alone. */
void pool_keep_clean(struct pool *p);

/* 1 when a run of one of the n pools of p has uuid (a run the decisions take:
 * 'tpsdb runs --pooled'), else 0. */
int pools_hold(const struct pool *p, size_t n, const char *uuid);

/* The store ids of every run of the n pools of p, pool by pool (the runs a
 * baseline freezes): a heap array of *n_ids the caller frees. */
int64_t *pools_run_ids(const struct pool *p, size_t n, size_t *n_ids);

/* Sets want |= what on every run of the pools, so that the samples loader reads
 * exactly what the decision will pool. */
void pools_want(struct pool *p, size_t n, unsigned what);
/* Sets want |= what on every run of the set. */
void cellset_want(struct cellset *set, unsigned what);

/* The estimate's instances of metric m of a pool: each run's usable values with
 * their keys, round, batch, start and uuid, and its environment. *out is a heap
 * array of p->n the caller frees (it borrows from the runs). */
struct estimate_unit *pool_units(const struct pool *p, enum run_metric m);

/* The outlier instances of metric m in pool p, by the rule the estimate applies
 * to each side (estimate_outliers() on the instances' log values): bad[k] = 1 for
 * p->runs[k] (bad holds p->n), *median the exp of the pool's median log value
 * (NaN under three instances). Returns how many it marked. */
size_t pool_outliers(const struct pool *p, enum run_metric m, char *bad, double *median);

/* An outlier instance that pools_outliers() found. */
struct pool_outlier {
	const struct run *run;  /* borrowed from its pool */
	enum run_metric metric; /* RUN_PP or RUN_TG */
	double value;           /* the instance's value (exp of estimate_unit_log()) */
	double median;          /* its pool's median, as pool_outliers() gives it */
};

/* The outlier instances of pp and tg of every pool (pool_outliers()), pool by
 * pool, pp before tg, each pool's runs in order: the pools compare and gate take,
 * judged by the rule their estimate applies. A heap array the caller frees, *n
 * its length. */
struct pool_outlier *pools_outliers(const struct pool *pools, size_t n_pools, size_t *n);

/* The design a look at pools a and b pays for. A side whose runs come from two
 * designs or more (collect batches; a run without a batch, an import, counts by
 * its tag) was looked at before the later ones were added, and no level short of
 * the strictest keeps that chain of looks within its error: ESTIMATE_MAX_LOOK
 * (docs/PERFORMANCE.md, "Pooled batches"). Otherwise the largest looks_to of
 * their runs: an --until-decided batch's own sequential design, 0 for fixed ones
 * (a gate's baseline frozen from an earlier batch is one design, the
 * candidate's another). */
int64_t pools_looks(const struct pool *a, const struct pool *b);

/* The round scatter of metric m that the earlier batches of a cell showed: of
 * each batch of a's history that b's history holds too (newest first), the sum
 * of squares of its round log ratios about their mean, with rounds less one
 * degrees of freedom, from the estimate of that batch alone as a fixed design.
 * A batch that is spoiled, decides nothing for a reason (estimate_reason) or
 * has under two rounds adds nothing. *h is zero without history. */
void pool_history(const struct pool *a, const struct pool *b, enum run_metric m,
		  struct estimate_history *h);

/* The one question the sequential batches behind pools a and b asked, when it
 * was of one metric: 1 << RUN_PP or 1 << RUN_TG when every run of a batch that
 * looked (looks_to > 0) records that same one metric (run.looks_metric, collect
 * --until-decided --metric), else 0: both metrics, no batch looked, or they asked
 * different questions. It names the question only; the level is pools_looks()'s
 * for both metrics, since the other metric's rounds were still chosen by looks
 * (at the watched one) and its interval pays for them as well. */
unsigned pools_question(const struct pool *a, const struct pool *b);

/* The one estimate of metric m of a cell: ours pool a against vs pool b, with
 * p's band (p->looks_to, p->noise_pct, p->scatter_pct and p->hist are set here:
 * the pools' design; for pp and tg the floor of a's face, the metric's default
 * scatter (ESTIMATE_SCATTER_*) and pool_history(); none for acceptance). Fills *e (release
 * with estimate_release()); *units_a and *units_b (when not NULL) receive the
 * instances the estimate's indexes point into (caller frees). 0, or -1 for bad
 * parameters. */
int pool_estimate(const struct pool *a, const struct pool *b, enum run_metric m,
		  const struct estimate_params *p, struct estimate *e,
		  struct estimate_unit **units_a, struct estimate_unit **units_b);

/* The newest clean answer of a cell (pool_newest_clean()): what the newest
 * clean batch said, shown beside a selected batch that is spoiled. */
struct clean_answer {
	int found;                /* 0: no clean batch holds the cell */
	struct verdict v;         /* its estimate's verdict, as a fixed batch alone */
	double ours_center, vs_center; /* the estimate's centres */
	const char *batch;        /* its batch id, borrowed from the history */
	const char *started_at;   /* the start of its newest run of ours, borrowed */
};

/* The newest clean answer of metric m of the cell whose selected runs' face is
 * face: of the batches of ha (every run of ours' series of the cell, any order)
 * other than face's, on face's host, newest first (by their newest run), the
 * first whose runs of ours and of the other side are all clean (run_clean())
 * and whose estimate (pool_estimate() with p, that batch alone, no history) is
 * not spoiled. The other side is hb's runs of that batch when same_batch (hb:
 * every run of vs' series of the cell), else hb whole (a gate's baseline, whose
 * own runs are then no candidate batch's).
 * Fills *out (found 0 when none). 0, or -1 for bad parameters. */
int pool_newest_clean(const struct pool *ha, const struct pool *hb, int same_batch,
		      const struct run *face, enum run_metric m,
		      const struct estimate_params *p, struct clean_answer *out);

/* The first of the n pools of h whose newest run measured face's cell
 * (run_same_cell()) on engine (NULL: any engine), NULL none: a series' history. */
const struct pool *pools_find_cell(const struct pool *h, size_t n, const char *engine,
				   const struct run *face);

/* The OR of the RUN_ENV_* findings of every run of the pool. */
unsigned pool_env(const struct pool *p);

#endif
