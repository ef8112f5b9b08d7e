/* report_folder.h: where 'tpsdb report' puts what it renders: the report on
 * stdout, or a report folder (report.md and summary.txt, report.json, report.csv,
 * or index.html with a page per model) with the figures drawn beside it, built
 * aside and swapped in whole. */
#ifndef REPORTS_REPORT_FOLDER_H
#define REPORTS_REPORT_FOLDER_H

#include "analyze/study.h"
#include "reports/tables.h"

enum report_format { REPORT_MD, REPORT_JSON, REPORT_CSV, REPORT_HTML };

/* The format 'tpsdb report --format' names: "md", "json", "csv" or "html"; -1
 * for any other name. */
int report_format_of(const char *name);

/* The report of t in fmt (not HTML) on stdout, without figures. 0 ok, -1 after
 * an error line. */
int report_stdout(enum report_format fmt, const struct tables *t);

/* The report folder out: the tables t of study s in fmt, and unless no_plots the
 * figures of s->fig (which the study must have built) drawn by gnuplot as PNG
 * (SVG for HTML). Missing gnuplot or a gnuplot failure skips the figures with a
 * warning and a note in the report; a figure that cannot be written fails. The
 * folder is built beside out and swapped in whole, so a failure leaves the
 * previous one as it was. Prints "wrote <files>" on success. 0 ok, -1 after an
 * error line. */
int report_folder_write(const char *out, enum report_format fmt, int no_plots,
			const struct study *s, const struct tables *t);

#endif
