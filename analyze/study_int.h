/* study_int.h: what the files behind study.h share and nothing else includes: the
 * steps of study_build() (study.c runs them in order, each in its own study_*.c)
 * and the allocation helpers of the figures' arena. */
#ifndef ANALYZE_STUDY_INT_H
#define ANALYZE_STUDY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/study.h"

struct series;
struct series_set;

/* Sets s->err (a and b may be NULL) and returns -1. */
int study_fail(struct study_error *err, enum study_fail kind, const char *a, const char *b);
/* Does o let the series in, and has its engine a column? */
int study_series_shown(const struct study_opts *o, const struct study *t,
		       const struct series *se);
/* The column of (engine, n_max) among cols[0..n), or -1: the speculative table's
 * and the per-prompt tables' (study_select.c, below both). */
long study_col_index(const struct tables_spec_col *cols, size_t n, size_t engine,
		     int64_t n_max);

/* --- the steps of study_build(), in order; each 0 ok, -1 with t->err set --- */

/* The base table's rows and cells, medians of the unflagged samples (study_base.c). */
int study_build_cells(const struct study_opts *o, struct study *t,
		      const struct study_input *in);
/* Each base cell's verdicts: against t->ref, or without one of t->ours against
 * the cell's engine; and the forced comparisons. */
int study_build_verdicts(const struct study_opts *o, struct study *t,
			 const struct study_input *in);
/* Each comparison's answer per metric: an engine's against t->ref, or ours'
 * against the engine (study_answer.c). */
void study_build_answers(struct study *t);
/* The speculative columns, rows and best rungs, then the per-prompt tables of the
 * same series (study_spec.c). */
int study_build_spec(const struct study_opts *o, struct study *t,
		     const struct study_input *in);
/* One per-prompt table per speculative row, from the series of set (study_prompts.c). */
int study_build_prompts(const struct study_opts *o, struct study *t,
			const struct series_set *set);
/* The runs any number of the tables came from: the faces of the pools p[0..n)
 * (the newest run of each cell), in their order (study_runs.c). */
void study_build_runs(struct study *t, const struct pool *p, size_t n);
/* The machines: of the runs that match, of each base and speculative cell, of
 * each answers row, and which of them a number comes from (study_machines.c).
 * Needs t->runs. */
void study_build_machines(struct study *t, const struct study_input *in);
/* Cell c's numbers come from pool p: its machines are p's runs' (study_machines.c). */
void study_cell_machines(struct tables_base_cell *c, const struct pool *p);
/* Frees what study_build_machines() and study_cell_machines() allocated. */
void study_machines_release(struct study *t);
/* Does a table show a number of run uuid? */
int study_referenced(const struct study *t, const char *uuid);
/* The quality rows the report words: those of the runs shown, and the load
 * failures that explain a hole (study_quality.c). Needs t->runs. */
void study_build_quality(const struct study_opts *o, struct study *t,
			 const struct study_input *in);
/* The report's figures (study_figures.c). */
int study_build_figures(struct study *t, const struct study_input *in);
/* Copies p's engine labels, ref and ours into a, so p outlives the study
 * study_parity_of() drew it from (study_figures.c). */
void study_parity_own(struct plot_parity *p, struct study_arena *a);

#endif
