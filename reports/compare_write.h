/* compare_write.h: what `tpsdb compare` prints from a parity decision
 * (analyze/parity.h): the warnings, the one table in text, markdown or CSV, and
 * the JSON document the README documents. */
#ifndef REPORTS_COMPARE_WRITE_H
#define REPORTS_COMPARE_WRITE_H

#include <stddef.h>

#include "analyze/config.h"
#include "analyze/config_near.h"
#include "analyze/parity.h"
#include "reports/table.h"

/* Prints each note of r as a "tpsdb: warning: ..." line on stderr, in order. */
void compare_write_notes(const struct parity_result *r);

/* The llama-bench speedups of r (r->speedups, analyze/speedup.h) as one table:
 * model, test (with the config keys that vary among them), t/s of vs, t/s of
 * ours (the order compare-llama-bench.py prints), speedup, then compare's
 * interval and regression answer of the test's row in r ("-" for a combined
 * pp+tg test, which has none), processes vs/ours. Release with
 * table_release(). */
void compare_speedup_table(struct table *t, const struct parity_result *r, const char *ours,
			   const char *vs);

/* The parity table of r's rows, one row per cell and metric, the two medians
 * headed by the engine labels ours and vs: the one table every format of compare
 * shows. Release t with table_release(). */
void compare_table(struct table *t, const struct parity_result *r, const char *ours,
		   const char *vs);

/* Writes what compare prints in fmt: for text, the answer, the rows whose mde is
 * wider than band_pct (the --band asked for), the table, how far undecided rows
 * are from decided, and the legend; for markdown (a pull request, the step
 * summary) the same as a heading, a bolded answer, the table (a decided
 * regression bold), lists and the legend; for CSV the table alone, with the
 * llama-bench speedups as columns after its own (and a row for each combined
 * pp+tg test) when r has any. */
void compare_write(FILE *f, const struct parity_result *r, const char *ours, const char *vs,
		   double band_pct, enum table_format fmt);

/* Writes into buf (len bytes) the tail of the "no cell measured by both" error:
 * which config keys the nearest cells of ours and vs differ in, with each side's
 * value, and the --ignore-config that would pair them. */
void compare_write_near(char *buf, size_t len, const struct config_near *n, const char *ours,
			const char *vs);

/* The warning line of --ignore-config (compare's and gate's): which keys were
 * ignored and what each side's runs held in them (a and b: "key=value" lists,
 * NULL when none). */
void compare_write_ignored(const char *keys, const char *a_label, const char *a,
			   const char *b_label, const char *b);

/* How many rows are llama-bench cells of one process a side, which decide
 * nothing (their reason is ESTIMATE_REASON_ONE_INSTANCE). */
size_t compare_one_instance_cells(const struct parity_result *r);

/* Prints {"rows":[...],"warnings":[...]} on stdout. 0 ok, -1 after an error line
 * (out of memory). */
int compare_write_json(const struct parity_result *r);

/* A refused comparison in JSON, for scripts (the error line says it too):
 * {"rows":[],"refused":{"reason":"machines-differ"|"runs-differ","cell",
 * "runs":[{"engine","run","machine"},{...}],"message"},"warnings":[]}. 0 ok,
 * -1 after an error line. */
int compare_write_refused_json(const struct parity_result *r);

/* Everything 'tpsdb compare' writes of a result with rows: the comparison on
 * stdout in fmt (compare_write() or compare_write_json()) and its markdown in
 * $GITHUB_STEP_SUMMARY when set. 0 ok, -1 after an error line. */
int compare_write_out(const struct parity_result *r, const char *ours, const char *vs,
		      double band_pct, enum out_format fmt);

/* The error line of a comparison without a cell both sides measured: of model
 * when not NULL, with near's keys (compare_write_near()) when not NULL. */
void compare_write_none(const char *ours, const char *vs, const char *model,
			const struct config_near *near);

#endif
