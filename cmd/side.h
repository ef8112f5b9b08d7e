/* side.h: one side of a decision, the way every command reads runs: the runs one
 * run filter selects (cmd/filter_opts.h) loaded into a cell set by the store's one
 * loader (schema/cellset.h), pooled by the one rule (analyze/cellset.h), and the
 * pooled runs' samples read. filter -> load -> pool -> samples, then the command
 * decides and renders. */
#ifndef CMD_SIDE_H
#define CMD_SIDE_H

#include <stddef.h>

#include "analyze/cellset.h"
#include "analyze/parity.h"
#include "analyze/study.h"

struct store;
struct run_filter;
struct plan_opts;
struct plan_input;
struct plan_result;
struct gate_result;

struct side {
	struct cellset set;
	struct pool *pools;   /* one per series of set, in its order */
	size_t n_pools;
	char *ignored;        /* with ignore: the "key=value"s those keys held, NULL none */
};

/* Fills *out with the runs f selects: their configs in canonical form without
 * the llama-bench keys of the comma list ignore (NULL: none), pooled whole when f
 * chooses runs by name (a tag, a batch, a baseline), else each series by the
 * batch of its newest run, and the samples of every pooled run read as want
 * asks (enum run_load; 0 reads none). Release with side_release(), also after
 * -1. 0 ok, -1 after an error line. */
int side_load(struct store *s, const struct run_filter *f, const char *ignore, unsigned want,
	      struct side *out);
/* The same for a history: every run f selects pooled per series (POOL_ALL),
 * each pool in build order (trend_order(); f->limit is left to the history of
 * a metric, trend_history()), every run's samples read as want asks. */
int side_load_history(struct store *s, const struct run_filter *f, const char *ignore,
		      unsigned want, struct side *out);
/* Splits every series of a history side into one per machine its runs were
 * measured on (pools_split_machines()), each put in trend order again: a trend
 * series comes from one machine ('tpsdb trend', gate --trend, the report's trend
 * figures). */
void side_split_machines(struct side *sd);
void side_release(struct side *sd);

/* The comparison compare and collect --until-decided make: side 0 holds the runs
 * f[0] selects of engine o->ours, side 1 those f[1] selects of o->vs (each
 * filter's engine list is replaced), loaded with side_load() (the runs that
 * drafted with their per-prompt figures too), and res the parity decision over
 * their pools. Release sd[] and res also after an error.
 * 0 ok; 1 when parity_decide() refused (res says why: parity_stop_error());
 * -1 after an error line. */
int side_parity(struct store *s, const struct run_filter *f, const char *ignore,
		const struct parity_opts *o, struct side sd[2], struct parity_result *res);

/* The newest clean answer of every row of res whose verdict is spoiled
 * (parity_row.newest_clean, pool_newest_clean()): the histories of both sides
 * (f[0] with ours, f[1] with vs, without the filters that choose runs by name:
 * tag, batch, baseline, uuid, limit) loaded into hist[] only when a row is
 * spoiled. Release hist[] also after an error. 0, or -1 after an error line. */
int side_newest_clean(struct store *s, const struct run_filter *f, const char *ignore,
		      const struct parity_opts *o, struct side hist[2],
		      struct parity_result *res);

/* The same for a gate: every pp or tg row of res whose verdict is spoiled gets
 * the candidate's newest clean batch against the same baseline pool, at the
 * metric's threshold (threshold[], enum gate_metric), from the candidate's
 * history (f without the filters that choose runs by name) loaded into *hist
 * only when a row is spoiled. Release *hist also after an error. 0, or -1 after
 * an error line. */
int side_gate_newest_clean(struct store *s, const struct run_filter *f, const char *ignore,
			   const double *threshold, struct side *hist, struct gate_result *res);

/* The plan 'tpsdb plan' makes and collect --until-decided takes its reps from:
 * every clean run f selects (a history, side_load_history(), pool_keep_clean():
 * complete, no environment finding, on the host of the series' newest such run;
 * f's engine list is replaced) of side[0] and, when side[1] is not NULL, of side[1], their cells
 * matched (plan_cells()) into *in and planned with o into *res. Release sd[],
 * in and res also after an error. 0 ok (res->n_cells 0 when no cell has both
 * sides), 1 when o is out of range, -1 after an error line. */
int side_plan(struct store *s, const struct run_filter *f, const char *const side[2],
	      const struct plan_opts *o, struct side sd[2], struct plan_input *in,
	      struct plan_result *res);

/* What 'tpsdb report' and 'tpsdb plot' study, loaded the same way: the pools
 * of every engine the filter selects (STUDY_LOAD_POOLS, their values and
 * per-prompt figures), the runs' quality rows and the store's alarms
 * (STUDY_LOAD_QUALITY), the histories of every series for the trend figures
 * (STUDY_LOAD_HISTORY, the filter's limit per series) and, with a baseline, the
 * baseline's histories. in views it all. */
enum {
	STUDY_LOAD_POOLS = 1 << 0,
	STUDY_LOAD_QUALITY = 1 << 1,
	STUDY_LOAD_HISTORY = 1 << 2,
};

struct study_load {
	struct side pools, hist, base;
	struct catalog_quality *quality;
	size_t n_quality;
	struct catalog_alarm *alarms;
	size_t n_alarms;
	struct study_quality *v_quality;
	struct study_input in;
};

/* Loads what `what` asks for into *out (baseline NULL: none). Release with
 * study_load_release(), also after -1. 0 ok, -1 after an error line. */
int study_load(struct store *s, const struct run_filter *f, const char *baseline, unsigned what,
	       struct study_load *out);
void study_load_release(struct study_load *l);

/* Every quality row (catalog_quality()) of the runs f matches, their environment
 * findings derived from their facts as the cell set's are and a failed load's
 * error line picked (loaderr_line()): what check and the report's data-quality
 * section list, in the same words. 0, or -1 after an error line. */
int side_quality(struct store *s, const struct run_filter *f, struct catalog_quality **q,
		 size_t *n);

#endif
