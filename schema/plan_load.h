/* plan_load.h: the stored runs `tpsdb plan` learns from: every run of the chosen
 * engines that matches the filters, grouped into cells (model, spec type, n_max,
 * endpoint, config, ctx, n_predict), each run with its usable values, its
 * requests' wall times and how long it took, as analyze/plan.h's plain input. */
#ifndef SCHEMA_PLAN_LOAD_H
#define SCHEMA_PLAN_LOAD_H

#include <stddef.h>

#include "analyze/plan.h"
#include "schema/cells.h"

struct store;

/* Which runs: side[0] the engine planned for (--ours or --engine), side[1] the
 * one it is compared with (--vs) or NULL; the rest NULL for any. */
struct plan_filter {
	const char *side[2];
	const char *model, *tag, *host, *batch;
};

/* A loaded set: `in` borrows everything from the rest, which the set owns until
 * plan_set_release(). */
struct plan_set {
	struct plan_input in;
	struct cell_run *runs[2];
	size_t n_runs[2];
	struct plan_cell *cells;
	struct plan_instance *inst;    /* every cell's instances, cell after cell */
	void **owned;                  /* the value and wall-time arrays */
	size_t n_owned;
};

/* Loads every run of f->side[0] (and of f->side[1] when set) carrying samples
 * and matching model, tag, host and batch, oldest first, grouped into cells; with
 * two sides only the cells both measured. For each run: the usable pp and tg
 * values (flagged samples left out, as compare does), every request's wall_ms,
 * and its duration from started_at to ended_at when the run is complete (NaN
 * otherwise); for each cell the most distinct prompts one of its runs asked.
 * Fills *out, released with plan_set_release() (also after -1). 0 ok, -1 after
 * an error line. */
int store_plan_load(struct store *s, const struct plan_filter *f, struct plan_set *out);

/* Frees what *p holds and zeroes it; accepts NULL and a zeroed set. */
void plan_set_release(struct plan_set *p);

#endif
