/* tables_int.h: what the files behind tables.h share and nothing else includes:
 * the steps of tables_build() (tables.c runs them in order, each in its own
 * table_*.c) and the small helpers the builders and the writers agree on, so that
 * a label or a number reads the same in every table, format and figure. */
#ifndef REPORTS_TABLES_INT_H
#define REPORTS_TABLES_INT_H

#include <stddef.h>
#include <stdint.h>

#include "reports/tables.h"
#include "schema/cells.h"

struct series;
struct series_set;

/* --- helpers (tables.c) --- */

/* Equal strings, NULL read as "". */
int tables_same(const char *a, const char *b);
/* Is s one of v[0..n)? */
int tables_in_list(const char *const *v, size_t n, const char *s);
/* The study's column order of a role: ours 0, other 1, upstream 2. */
int tables_role_rank(const char *role);
/* The column of engine label, or -1. */
long tables_engine_index(const struct tables *t, const char *label);
/* Does o let this engine and model in (the reference engine always is)? */
int tables_wanted(const struct tables_opts *o, const char *engine, const char *model);
/* Does o let the series in, and has its engine a column? */
int tables_series_shown(const struct tables_opts *o, const struct tables *t,
			const struct series *se);
/* "q35" for the completion endpoint (or none), else "q35 (chat)". Caller frees. */
char *tables_model_label(const char *model, const char *endpoint);
/* "base", "<type> base", "<type> n_max=<n>" ("spec" for no type), with
 * " (<endpoint>)" after it unless completion. Caller frees. */
char *tables_config_label(const char *spec_type, int64_t n_max, const char *endpoint);
/* A speculative row's config: the spec type, or "spec" when it has none. Borrowed. */
const char *tables_spec_name(const char *spec_type);

/* --- the steps of tables_build(), in order; each 0 ok, -1 after an error line --- */

/* The base table's rows and cells, medians of the unflagged samples (table_base.c). */
int tables_build_base(const struct tables_opts *o, struct tables *t,
		      const struct report_input *in);
/* Each base cell's verdicts against t->ref, and the forced-comparison warnings. */
int tables_build_verdicts(const struct tables_opts *o, struct tables *t,
			  const struct report_input *in);
/* The speculative columns, rows and best rungs, then the per-prompt tables of the
 * same series (table_spec.c). */
int tables_build_spec(const struct tables_opts *o, struct tables *t,
		      const struct report_input *in);
/* The column of (engine, n_max) among cols[0..n), or -1. */
long tables_col_index(const struct tables_spec_col *cols, size_t n, size_t engine,
		      int64_t n_max);
/* One per-prompt table per speculative row, from the series of set (table_prompts.c). */
int tables_build_prompts(const struct tables_opts *o, struct tables *t,
			 const struct series_set *set, const struct report_input *in);
/* The runs any number of the tables came from, in the order of r (table_runs.c). */
void tables_build_runs(struct tables *t, const struct cell_run *r, size_t n);
/* Does a table show a number of run uuid? */
int tables_referenced(const struct tables *t, const char *uuid);
/* The findings of the runs shown, the load failures that explain a hole, and the
 * model-identity alarms (table_findings.c). Needs t->runs. */
int tables_build_findings(const struct tables_opts *o, struct tables *t,
			  const struct report_input *in);

/* Only the engines and the base table with its verdicts, all a parity figure needs.
 * Fills *t as tables_build() does. */
int tables_build_base_only(const struct tables_opts *o, const struct report_input *in,
			   struct tables *t);

/* --- the data-quality section, shared by the writers (table_findings.c) --- */

/* One unescaped line per finding (findings_line()), then per alarm ("ALARM: ...")
 * and per warning, in that order: *n = findings + alarms + warnings. Free with
 * strv_free(). */
char **tables_quality_lines(const struct tables *t, size_t *n);

/* The report's tables as cells (md.h), built once and rendered as markdown and
 * text (report_write.c) or HTML (report_html.c), so no format can drift from
 * another. mt is initialised here; the caller releases it. */
struct md_table;
void tables_md_base(const struct tables *t, struct md_table *mt);
void tables_md_spec(const struct tables *t, struct md_table *mt);
void tables_md_prompts(const struct tables *t, const struct tables_prompt_table *pt,
		       struct md_table *mt);
void tables_md_runs(const struct tables *t, struct md_table *mt);

#endif
