/* gate_write.h: the words of `tpsdb gate` (analyze/gate.h): the table in text,
 * markdown or CSV, the JSON document, GitHub Actions annotations, JUnit XML, the warnings and the line
 * that says why the gate could not decide. Every format renders the same result. */
#ifndef REPORTS_GATE_WRITE_H
#define REPORTS_GATE_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/config.h"
#include "analyze/config_near.h"
#include "analyze/gate.h"
#include "analyze/gate_threshold.h"
#include "reports/table.h"

/* What the outputs name besides the result. Borrowed. */
struct gate_report {
	const char *baseline, *engine; /* required */
	const char *tag;               /* the candidate's tag; NULL: its latest runs */
	const struct config_near *near; /* NULL, or the nearest cells of the two sides,
					   said by the "nothing to gate" error
					   (compare_write_near()) */
};

/* A note as one warning line without a prefix, e.g. "cell 'gemma-4b': the
 * candidate has it, the baseline 'rel-1' does not", cut to len - 1 bytes (the
 * callers use 512). */
void gate_write_note(const struct gate_report *h, const struct gate_note *n, char *buf,
		     size_t len);

/* The message of a threshold that did not parse (analyze/gate_threshold.h): of
 * line e->line of the file path, or of --max-regress when path is NULL. The
 * caller prints it as its usage error and frees it. */
char *gate_write_threshold_err(const struct gate_threshold_err *e, const char *path);

/* Prints the error line for a result whose gate_decide() returned -1 (nothing to
 * gate, with h->near's keys when set, or the cell whose parameters were refused)
 * and returns -1. */
int gate_write_stop(const struct gate_report *h, const struct gate_result *r);
/* A gate refused for its baseline's machine (GATE_STOP_MACHINES) in JSON, for
 * scripts: {"pass":false,"status":"refused","refused":{"reason":
 * "machines-differ","cell","candidate_machine","baseline_machine","message"},
 * "cells":[],"warnings":[]} on f. 0 ok, -1 after an error line. */
int gate_write_refused_json(FILE *f, const struct gate_report *h, const struct gate_result *r);

/* The gate's table, one row per cell and metric (cell, metric, baseline,
 * candidate, delta, 90% interval, threshold, rounds, mde, regression, status; a
 * status that is not pass marked): the one table every format of gate shows.
 * Release t with table_release(). */
void gate_table(struct table *t, const struct gate_result *r);

/* Writes the gate in fmt: text (a status line, the answer, the table indented,
 * then the sweep, finding, trend and output lines and a legend), markdown (a
 * heading, the table, a table per other check, the warnings and a legend) or CSV
 * (the table alone). */
void gate_write(FILE *f, const struct gate_report *h, const struct gate_result *r,
		enum table_format fmt);

/* {"pass","baseline","engine","tag","failures","status","inconclusive","spoiled",
 * "cells","warnings","sweep_violations","sweep_across_machines","findings","trend"}
 * and a newline. 0 ok, -1 after an error
 * line (out of memory). */
int gate_write_json(FILE *f, const struct gate_report *h, const struct gate_result *r);

/* ::error lines for every failure, ::warning lines for every row the gate did not
 * answer (inconclusive or spoiled) and finding that does not fail, and for the
 * notes, as GitHub's workflow commands (message '%', CR and LF escaped). */
void gate_write_github(FILE *f, const struct gate_report *h, const struct gate_result *r);

/* Everything 'tpsdb gate' writes of a decided result: each note as a warning
 * line, the JUnit XML file when junit is not NULL, the gate on stdout in fmt
 * (gate_write() or gate_write_json()), the GitHub annotations when
 * $GITHUB_ACTIONS is "true" (on stderr when stdout is JSON or markdown, so that
 * it stays one document) and the markdown in $GITHUB_STEP_SUMMARY when set. 0
 * ok, -1 after an error line. */
int gate_write_out(const struct gate_report *h, const struct gate_result *r,
		   enum out_format fmt, const char *junit);

/* Writes JUnit XML to path: one testcase per row (a row the gate did not answer
 * and does not fail on is <skipped> with its reason), violation, sweep step
 * across machines (skipped unless it fails), trend and failing finding, through outfile_open() (a file is replaced whole, a symlink
 * followed, a device or FIFO written directly). 0 ok, -1 after an error line
 * naming path, with an old file at path left as it was. */
int gate_write_junit(const char *path, const struct gate_report *h,
		     const struct gate_result *r);

#endif
