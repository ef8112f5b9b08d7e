/* tables.h: the study's tables as the renderers take them: the numbers of an
 * analyze/study.h result, borrowed, with the words the report prints beside them
 * (the findings of the quality rows the study picked, the model-identity alarms,
 * the forced comparisons). The tables_write_* functions (report_*.c) render that
 * one struct as markdown, text, JSON, CSV or HTML, so the formats always carry the
 * same numbers. Nothing here decides: the study did. */
#ifndef REPORTS_TABLES_H
#define REPORTS_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/study.h"
#include "reports/findings.h"
#include "reports/plot.h"
#include "schema/catalog.h"

/* The study's numbers (borrowed from it) and their words (owned). */
struct tables {
	const char *ref;                    /* NULL when there is none */
	const char *ours;                   /* without ref: the engine judged against
					       every other (study.ours) */
	const struct tables_engine *engines;
	size_t n_engines;
	const struct tables_base_row *base;
	size_t n_base;
	const struct tables_spec_col *spec_cols;
	size_t n_spec_cols;
	const struct tables_spec_row *spec;
	size_t n_spec;
	const struct tables_prompt_table *prompts;
	size_t n_prompts;
	struct findings findings;           /* in the words of 'tpsdb check' */
	const struct catalog_alarm *alarms; /* borrowed from the input */
	size_t n_alarms;
	char **warnings;                    /* forced comparisons */
	size_t n_warnings;
	const struct tables_run *runs;      /* ordered by model, config, engine */
	size_t n_runs;
	const struct study_answer *answers; /* 2 per engine; NULL: none */
	const struct study_answer_row *rows; /* the answers table (study.rows) */
	size_t n_rows;
	const struct study_machine *machines; /* of the runs that match (study.machines) */
	size_t n_machines;
	const char *const *base_machines;   /* of the base cells (study.base_machines) */
	size_t n_base_machines;
	const char *const *spec_machines;   /* of the speculative cells */
	size_t n_spec_machines;
};

/* The tables of study s: its numbers, borrowed (s must outlive t), the findings
 * of the quality rows s picked from q[0..) (the rows s's input viewed), the
 * alarms a[0..na) (borrowed) and the forced comparisons as warnings. Release
 * with tables_release(), which accepts a zeroed t. Cannot fail. */
void tables_init(struct tables *t, const struct study *s, const struct catalog_quality *q,
		 const struct catalog_alarm *a, size_t na);
void tables_release(struct tables *t);

/* The one-line answer of column e's comparison, as the study decided it: "ours vs
 * llama.cpp: pp ...; tg ..." (answer_text_metric()), e against the reference, or
 * without one ours against e ("ours vs e: no comparable cell" when no cell had a
 * verdict), ending in "; measured on <machines>" where the runs that match
 * span several machines; NULL for the engine the others are judged against, and
 * with a reference for an engine without a verdict. Caller frees
 * (table_answer.c). */
char *tables_answer_text(const struct tables *t, size_t e);

/* Does a base cell hold a spoiled verdict (the report then says what spoiled
 * means)? */
int tables_any_spoiled(const struct tables *t);
/* The Machines section's first paragraph, over n machines; caller frees
 * (table_machines.c). */
char *tables_machines_intro(size_t n);
/* Where the runs that match were measured on several machines: the paragraph
 * under the report's title that says which of them its numbers come from; NULL
 * with one machine. Caller frees. */
char *tables_machines_note(const struct tables *t);
/* The same: one line per machine, "<machine>: <engines>", the ones no number
 * comes from marked so; *n 0 with one machine. Free with strv_free(). */
char **tables_machine_lines(const struct tables *t, size_t *n);
/* With several machines, what a section's numbers were measured on: "Measured
 * on <machine>." (spec 0: the base table, 1: the speculative one); NULL with one
 * machine or none. Caller frees. */
char *tables_section_machines(const struct tables *t, int spec);
/* m[0..n) as one line, "; " between them. Caller frees. */
char *tables_machines_join(const char *const *m, size_t n);

/* The line of base row k, engine e, metric m (0 pp, 1 tg) whose verdict is
 * spoiled: "tiny aa tg: spoiled; newest clean answer: regression no, parity
 * (+0.31% [-0.50%, +1.12%]) (batch b-1a2b, 2026-12-01)" (clean_answer_text());
 * NULL when that verdict is not spoiled. Caller frees. */
char *tables_clean_text(const struct tables *t, size_t k, size_t e, int m);

/* The error line of a failed study step (study.err), the words the commands
 * printed before the study moved to analyze/. Returns -1. */
int tables_error(const struct study_error *e);

/* What a forced cell's runs differ in, "" when unknown: the reason the JSON gives
 * for "not comparable". */
void tables_reason(const struct tables_base_cell *c, char *buf, size_t len);

/* Where the report's figures went, for the links: a file name (relative to the
 * report) per figure, NULL when that figure was not drawn, and a note to print
 * instead of the figures when none were (e.g. "skipped: gnuplot not found"). */
struct tables_figures {
	const char *trend, *sweep, *parity;  /* trend and parity: of decode (tg) */
	const char *trend_pp, *parity_pp;    /* the same of prefill (pp) */
	const char *note;
	char *trend_what;         /* the trend's caption (HTML), its title (heap, freed by
				     report_folder_write()); NULL: a generic one */
	char *trend_pp_what;
};

/* A model's page of the HTML report: its name, the page's file name, its trend
 * figure's file name (NULL: not drawn) and data (NULL or no series: no history),
 * and how many runs that history holds. Borrowed. */
struct tables_html_model {
	const char *model;
	const char *page;
	const char *trend_svg;
	const struct plot_trend *trend;
	size_t n_runs;
};

/* The renderers. Markdown and text differ only in markup; JSON is one object
 * (keys in the help of 'tpsdb report'); CSV is one row per number. fig may be
 * NULL (no figures section). Return 0, or -1 when writing failed (nothing
 * printed: the caller names the file). */
int tables_write_md(FILE *f, const struct tables *t, const struct tables_figures *fig);
int tables_write_text(FILE *f, const struct tables *t, const struct tables_figures *fig);
int tables_write_json(FILE *f, const struct tables *t, const struct tables_figures *fig);
int tables_write_csv(FILE *f, const struct tables *t);
/* HTML: index.html, the same tables as markdown with the figures (fig) and a link
 * to each model's page; and one model's page, its history figure with the change
 * points and runs as tables. Self-contained: inline style, no script, nothing
 * from the network; every label through escape_html(). */
int tables_write_html(FILE *f, const struct tables *t, const struct tables_figures *fig,
		      const struct tables_html_model *models, size_t n_models);
int tables_write_html_model(FILE *f, const struct tables_html_model *m);

/* The cell formats of the base and speculative tables, exposed for the tests
 * (table_text.c):
 * "13150 / 142.6", "13150 / 142.6 (parity / -3.1% slower)", "13100 / 143.0 (ref)",
 * without a reference "13100 / 143.0 (ours: +0.4% undecided / parity)" (ours
 * against the cell's engine) and "13150 / 142.6 (ours)" for ours' own cell, a
 * spoiled verdict "spoiled (host-busy)", "-" for no run; "230.7 · 0.71". Caller
 * frees. */
char *tables_base_text(const struct tables *t, const struct tables_base_row *row, size_t e);
char *tables_spec_text(const struct tables_spec_cell *c);

#endif
