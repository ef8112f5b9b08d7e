/* tables_int.h: what the writers behind tables.h share and nothing else includes:
 * the data-quality lines and the tables as md.h cells, built once so that a label
 * or a number reads the same in every format. */
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
