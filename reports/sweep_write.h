/* sweep_write.h: the output of 'tpsdb sweep': each shown series as a table of its
 * rungs with its violations, anomalies and shape steps, then the per-rung gaps
 * between engines, all decided by series_decide() (analyze/series.h); as text,
 * markdown, CSV or the documented JSON. */
#ifndef REPORTS_SWEEP_WRITE_H
#define REPORTS_SWEEP_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/series.h"
#include "reports/table.h"

/* sweep_table()'s which for every shown series in one table (the CSV). */
#define SWEEP_TABLE_ALL SIZE_MAX

/* The rung table of series which of set (SWEEP_TABLE_ALL: of every shown one):
 * engine, model, spec_type, endpoint (key columns: the heading shows them in
 * text and md), n_max, tg, speedup, accept, tok/cycle, ms/cycle, cycles, n, then
 * runs, tg 90% interval and mde when a rung pools runs, the newest run, and the
 * status of the fall to the rung (a decided one marked). Release t with
 * table_release(). */
void sweep_table(struct table *t, const struct series_set *set, const struct series_verdict *vd,
		 size_t which);

/* Writes the report of set as vd decided it to out in fmt; tolerance_pct is the
 * one the set was analysed with (shown in violations). Text: a heading and table
 * per series, its violation, anomaly and shape lines, then the gaps; markdown: a
 * heading and table per series and the PASS/FAIL line; CSV: one table of every
 * shown series. */
void sweep_write(FILE *out, const struct series_set *set, const struct series_verdict *vd,
		 double tolerance_pct, enum table_format fmt);

/* Writes {"series":[...],"gaps":[...]} for set as vd decided it to out. 0 ok, -1
 * after an error line (out of memory). */
int sweep_write_json(FILE *out, const struct series_set *set, const struct series_verdict *vd);

/* What 'tpsdb sweep' says before its output: the error line when vd shows no
 * series (of v->engine when set, of model when not NULL), then -1; the error line
 * refusing the first pair whose settled speculative knobs clash (vd->clash: a
 * difference of settings, not of engines), then -1; the error line refusing the
 * first step, shape step or gap measured on two machines (vd->machines_refused:
 * the cell and both machines named, as compare names them), then -1; else the
 * warning lines when v->ref names no series and when steps or gaps were marked
 * across machines (--across-machines), and 0. */
int sweep_write_notes(const struct series_view *v, const struct series_set *set,
		      const struct series_verdict *vd, const char *model);

/* The refusal of vd->machines_refused as JSON for --json, beside the error line:
 * {"series":[],"gaps":[],"across_machines":<n>,"refused":{"reason":
 * "machines-differ","cell","ours","ref","from","to","machines":[a,b],"message"}}
 * (a step of one series: ours and ref name the same engine; a gap: from == to).
 * 0 ok, -1 after an error line. */
int sweep_write_refused_json(FILE *out, const struct series_set *set,
			     const struct series_verdict *vd);

#endif
