/* pair_load.h: loading two sets of runs for a paired analysis. For compare and the
 * report, the latest run of each cell of two engines, matched cell by cell; for
 * calibrate, the two latest runs of each series of one engine (the A/A pair). Each
 * comes back as analyze/parity.h's plain input, values ordered by (prompt, rep). */
#ifndef SCHEMA_PAIR_LOAD_H
#define SCHEMA_PAIR_LOAD_H

#include <stddef.h>

#include "analyze/parity.h"
#include "schema/cells.h"

struct store;

/* A loaded set. `in` is what the analysis takes; it borrows everything from the
 * rest, which the set owns until pair_set_release(). */
struct pair_set {
	struct parity_input in;
	struct cell_run *runs[2];      /* ours, vs (calibrate: the runs, and NULL) */
	size_t n_runs[2];
	struct parity_side *sides[2];  /* one per run, borrowing its strings */
	struct parity_cell *cells;
	struct parity_value **values;  /* every value array the cells point to */
	size_t n_values;
	struct parity_side *inst_sides[2]; /* compare: one per pooled run */
	struct parity_instance *inst;  /* the pooled runs the cells point to */
	char *ignored[2];              /* with o->ignore_config: the "key=value"s of
					  those keys each side's runs held, NULL none */
};

/* The single place where a run's round number and batch id are read: *round gets
 * the collector's round (TPS_NULL when unknown) and *batch its batch id (NULL
 * when unknown), as store_cell_runs() read them from run.round and run.batch
 * (migration 0003). Runs without a round pair by start order. */
void store_run_round_batch(const struct cell_run *r, int64_t *round, const char **batch);

/* Rewrites the config of every run of r[0..n) into its canonical form
 * (config_canon(): one spelling per value, the keys of the comma list ignore
 * left out; NULL ignores none), collecting what was left out into *ignored
 * (config_collect()) when ignored is not NULL. */
void store_runs_canon_config(struct cell_run *r, size_t n, const char *ignore, char **ignored);

/* Loads the cells o->ours and o->vs share, with the runs picked by o->model,
 * o->host, o->batch and the tags, and pools every picked run of a side in a
 * cell: with a tag, every run carrying it; without, the runs carrying the tag of
 * the cell's latest run (that run alone when it has none); runs whose config
 * differs from the latest (parity_mismatch()) are left out. Configurations are
 * compared in canonical form, without the keys of o->ignore_config (what those
 * keys held goes to out->ignored). The newest picked run
 * is the cell's run (in->ours, in->vs); cells[i].ours_inst / vs_inst list them
 * all, oldest first, with their values. Two runs share a cell
 * when model, spec type, n_max and endpoint agree; each vs run pairs with at most
 * one of ours, in the store's cell order. For each shared cell and each metric in
 * o->metrics: the usable values of both runs, the flagged samples left out, and the
 * newest stored noise floor of the cell (NaN when none). Fills *out, released with
 * pair_set_release() (also after -1). 0 ok, -1 after an error line. */
int store_pair_load(struct store *s, const struct parity_opts *o, struct pair_set *out);

/* Loads the A/A pairs among the runs that f selects (f->all is forced on): for
 * every series (engine, model, spec type, n_max, endpoint) run at least twice, its
 * two latest runs, in->cells[i].ours the older and .vs the newer, both indexing
 * in->ours (in->vs is the same array), with both metrics' values. Noise floors are
 * NaN. Fills *out, released with pair_set_release() (also after -1). 0 ok, -1
 * after an error line. */
int store_aa_load(struct store *s, const struct cell_filter *f, struct pair_set *out);

/* Frees what *p holds and zeroes it; accepts NULL and a zeroed set. */
void pair_set_release(struct pair_set *p);

/* The analysis' view of one run: *out borrows r's strings. */
void pair_side_of(const struct cell_run *r, struct parity_side *out);

#endif
