/* tables_int.h: what the writers behind tables.h share and nothing else includes:
 * the data-quality lines and the tables in the table model (table.h), built once
 * so that a label or a number reads the same in every format. */
#ifndef REPORTS_TABLES_INT_H
#define REPORTS_TABLES_INT_H

#include <stddef.h>
#include <stdint.h>

#include "reports/tables.h"

/* --- the data-quality section, shared by the writers (table_findings.c) --- */

/* One unescaped line per finding (findings_line()), then per alarm ("ALARM: ...")
 * and per warning, in that order: *n = findings + alarms + warnings. Free with
 * strv_free(). */
char **tables_quality_lines(const struct tables *t, size_t *n);

/* The report's tables in the one table model (table.h), built once and rendered
 * as markdown and text (report_write.c) or HTML (report_html.c), so no format can
 * drift from another. Laid out as the report's pages are: markdown unpadded, text
 * with a rule under a left-aligned header and a marked cell ending in " *". tab is
 * initialised here; the caller releases it (table_release()). */
struct table;
void tables_build_base(const struct tables *t, struct table *tab);
void tables_build_spec(const struct tables *t, struct table *tab);
void tables_build_prompts(const struct tables *t, const struct tables_prompt_table *pt,
			  struct table *tab);
void tables_build_runs(const struct tables *t, struct table *tab);
/* The answers table every format of the report leads with (table_answer.c): one
 * row per study.rows, comparison x metric x model, "comparison | metric | model |
 * answer | reads | delta | <level> interval", and a "newest clean answer" column
 * where a row is spoiled. */
void tables_build_answers(const struct tables *t, struct table *tab);
/* The class of answers table row r's answer (as the HTML page colours it):
 * "no", "yes", "undecided", "spoiled", "intermittent", "na" (no verdict) or
 * "nc" (not comparable); clean 1: of its newest clean answer ("" when the row is
 * not spoiled, "na" when none was found). Static strings. */
const char *tables_answer_class(const struct tables *t, size_t r, int clean);
/* The words under the answers table: what each answer means, against the band
 * of its rows. Caller frees. */
char *tables_answers_legend(const struct tables *t);
/* An empty table of ncols columns in that layout (every column TABLE_TEXT, headers
 * empty), for the report's own tables (tables.c, below the writers that build
 * them); release with table_release(). */
void tables_table_init(struct table *tab, size_t ncols);

#endif
