/* sweep_text.h: the sentences of a speculative sweep: a rung's name, why two engines
 * differ at one rung, and a shape step where ours falls while the reference holds.
 * The decisions behind them are analyze/sweep.c's; these only word them. */
#ifndef REPORTS_SWEEP_TEXT_H
#define REPORTS_SWEEP_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/sweep.h"

/* Writes "base" (sweep_rung_is_base()) or the depth ("3") into buf and returns buf. */
const char *sweep_text_rung(int64_t n_max, char *buf, size_t len);

/* Writes a one-sentence explanation of gap into buf (always NUL-terminated when
 * len > 0), naming the engines ours_name and ref_name, e.g. "ours decodes 13.7%
 * slower than llama.cpp at n_max=2: acceptance is equal (+0.3% tokens/cycle) but
 * each cycle costs 16.2% more: per-cycle host overhead, not the drafter", as
 * sweep_gap_why() decides. A gap that is not decided (gap->decided 0) gets
 * "ours and llama.cpp decode within the noise at n_max=2 (+8.3%, 95% CI -5.1% to
 * +23.0%): this data could not have seen a difference under 14.0%" instead, naming
 * no side and no cause. Returns 0, or -1 when the gap holds NaN (buf gets "")
 * or the sentence did not fit (buf holds its start). */
int sweep_text_gap(const struct sweep_gap *gap, const char *ours_name, const char *ref_name,
		   char *buf, size_t len);

/* Writes the shape sentence for step st of ours_name against ref_name ("ours falls
 * at n_max=3 (-15.0%) while llama.cpp holds (+1.0%): the signature of an ours-side
 * regression") into buf, truncated to len. */
void sweep_text_shape(const struct sweep_step *st, const char *ours_name, const char *ref_name,
		      char *buf, size_t len);

/* Writes the line of a step, shape step or gap measured on different machines
 * (runs a and b, kind RUN_DIFF_MACHINE as compare words it) into buf, truncated
 * to len: for a step of ours_name's series (ref_name NULL) "ACROSS MACHINES:
 * ours from n_max=2 to n_max=3 not checked (--across-machines), measured on
 * different machines: ours on 'alpha (...)', ours on 'beta (...)'"; for a shape
 * step "ACROSS MACHINES: the shape of ours against upstream from n_max=2 to n_max=3 not
 * checked ..."; for a gap (from_n_max == to_n_max) "ACROSS MACHINES: ours
 * against upstream at n_max=3 not explained ...". */
void sweep_text_across(const char *ours_name, const char *ref_name, int64_t from_n_max,
		       int64_t to_n_max, const struct run *a, const struct run *b, char *buf,
		       size_t len);

#endif
