/* sweep_text.c: wording for the sweep's decisions. Each clause of the gap sentence
 * follows a field of struct sweep_why, and a gap the runs did not decide names
 * no side and no cause, only its interval; the numbers are printed as the analysis computed them,
 * with one decimal. */
#include "reports/sweep_text.h"
#include "reports/parity.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

const char *sweep_text_rung(int64_t n_max, char *buf, size_t len)
{
	if (sweep_rung_is_base(n_max))
		snprintf(buf, len, "base");
	else
		snprintf(buf, len, "%lld", (long long)n_max);
	return buf;
}

/* Appends to buf like snprintf at offset *used; remembers overflow in *full. */
__attribute__((format(printf, 5, 6)))
static void append(char *buf, size_t len, size_t *used, int *full, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*full || *used >= len) {
		*full = 1;
		return;
	}
	va_start(ap, fmt);
	k = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= len - *used) {
		*full = 1;
		*used = len;
		return;
	}
	*used += (size_t)k;
}

/* ", and new drafted no token there (no request reported one)" for a gap whose
 * side(s) did not speculate at a drafting rung (sweep_gap.undrafted). */
static void undrafted_clause(const struct sweep_gap *gap, const char *ours_name,
			     const char *ref_name, char *buf, size_t len, size_t *used, int *full)
{
	if (!gap->undrafted)
		return;
	if (gap->undrafted == 3)
		append(buf, len, used, full, ", and neither drafted a token there (no request "
		       "reported one)");
	else
		append(buf, len, used, full, ", and %s drafted no token there (no request "
		       "reported one)", gap->undrafted == 1 ? ours_name : ref_name);
}

int sweep_text_gap(const struct sweep_gap *gap, const char *ours_name, const char *ref_name,
		   char *buf, size_t len)
{
	struct sweep_why w;
	char where[48];
	size_t used = 0;
	int full = 0;

	if (len)
		buf[0] = '\0';
	if (sweep_gap_why(gap, &w) < 0)
		return -1;
	if (w.base)
		snprintf(where, sizeof(where), "without speculation");
	else
		snprintf(where, sizeof(where), "at n_max=%lld", (long long)gap->n_max);

	/* An undecided gap states nothing it has not decided: no side, no cause. */
	if (!gap->decided) {
		if (gap->reason == ESTIMATE_REASON_ORDER)
			append(buf, len, &used, &full, "%s against %s decode %s: %+.1f%%, interval "
			       "%+.1f%% to %+.1f%%, decides nothing: every round started with the "
			       "same side, so a first-start edge cannot be told from a difference",
			       ours_name, ref_name, where, gap->tg_pct, gap->ci_lo_pct,
			       gap->ci_hi_pct);
		else if (gap->reason == ESTIMATE_REASON_DISAGREE)
			append(buf, len, &used, &full, "%s against %s decode %s: %+.1f%%, decides "
			       "nothing: a side's instances disagree with no clear majority, so "
			       "which of them measured the engine is not known", ours_name,
			       ref_name, where, gap->tg_pct);
		else if (isfinite(gap->ci_lo_pct) && isfinite(gap->ci_hi_pct))
			append(buf, len, &used, &full, "%s against %s decode %s: %+.1f%%, interval "
			       "%+.1f%% to %+.1f%%, decides neither a gap beyond %.1f%% nor parity "
			       "within it (mde %.1f%%)", ours_name, ref_name, where,
			       gap->tg_pct, gap->ci_lo_pct, gap->ci_hi_pct, SWEEP_EQUAL_PCT,
			       gap->mde_pct);
		else
			append(buf, len, &used, &full, "%s against %s decode %s: %+.1f%% from one "
			       "run a side, which has no interval and decides nothing (--rounds 2 "
			       "or more would)", ours_name, ref_name, where, gap->tg_pct);
		if (gap->outliers)
			append(buf, len, &used, &full, ", with %zu outlier instance%s left out",
			       gap->outliers, gap->outliers == 1 ? "" : "s");
		undrafted_clause(gap, ours_name, ref_name, buf, len, &used, &full);
		return full ? -1 : 0;
	}

	if (w.gap == 0)
		append(buf, len, &used, &full, "%s decodes on par with %s %s (%+.1f%%)",
		       ours_name, ref_name, where, gap->tg_pct);
	else
		append(buf, len, &used, &full, "%s decodes %.1f%% %s than %s %s", ours_name,
		       fabs(gap->tg_pct), w.gap > 0 ? "faster" : "slower", ref_name, where);

	/* Instances left out of figure and parts alike are named; parts of other
	 * data (sums holding an instance the figure left out, or sums on the other
	 * side) are shown as such, never as the cause. */
	if ((w.split || w.undrafted) && gap->outliers)
		append(buf, len, &used, &full, " (%zu outlier instance%s left out)",
		       gap->outliers, gap->outliers == 1 ? "" : "s");
	if (w.undrafted) {
		undrafted_clause(gap, ours_name, ref_name, buf, len, &used, &full);
		append(buf, len, &used, &full, ": speculation did not run on %s, so the gap "
		       "is not one of acceptance or cycle cost",
		       w.undrafted == 3 ? "either side" : "that side");
		return full ? -1 : 0;
	}
	if (!w.split) {
		if (gap->outliers)
			append(buf, len, &used, &full, " with %zu outlier instance%s left out; ",
			       gap->outliers, gap->outliers == 1 ? "" : "s");
		else
			append(buf, len, &used, &full, "; ");
		append(buf, len, &used, &full, "the sums%s (%+.1f%%: %+.1f%% tokens/cycle, "
		       "%+.1f%% ms per %s) do not explain it",
		       gap->sums_wider ? " over every instance" : "", gap->sums_pct,
		       w.base ? 0.0 : gap->tpc_pct, gap->cost_pct, w.base ? "token" : "cycle");
		return full ? -1 : 0;
	}

	if (w.base) {
		if (w.cost == 0)
			append(buf, len, &used, &full, ": each token costs the same (%+.1f%%)",
			       gap->cost_pct);
		else
			append(buf, len, &used, &full, ": each token costs %.1f%% %s",
			       fabs(gap->cost_pct), w.cost > 0 ? "more" : "less");
		return full ? -1 : 0;
	}

	if (w.accept == 0)
		append(buf, len, &used, &full, ": acceptance is equal (%+.1f%% tokens/cycle)",
		       gap->tpc_pct);
	else
		append(buf, len, &used, &full, ": acceptance is %s (%+.1f%% tokens/cycle)",
		       w.accept > 0 ? "higher" : "lower", gap->tpc_pct);
	append(buf, len, &used, &full, " %s ", w.against ? "but" : "and");
	if (w.cost == 0)
		append(buf, len, &used, &full, "each cycle costs the same (%+.1f%%)", gap->cost_pct);
	else
		append(buf, len, &used, &full, "each cycle costs %.1f%% %s",
		       fabs(gap->cost_pct), w.cost > 0 ? "more" : "less");

	switch (w.cause) {
	case SWEEP_CAUSE_NONE:
		break;
	case SWEEP_CAUSE_CANCEL:
		append(buf, len, &used, &full, ", and the two cancel");
		break;
	case SWEEP_CAUSE_HOST:
		append(buf, len, &used, &full, w.gap < 0 ?
		       ": per-cycle host overhead, not the drafter" :
		       ": cheaper cycles, not the drafter");
		break;
	case SWEEP_CAUSE_DRAFTER:
		append(buf, len, &used, &full, ": the drafter's acceptance, not per-cycle cost");
		break;
	case SWEEP_CAUSE_BOTH:
		append(buf, len, &used, &full,
		       " (%.0f%% of the gap from acceptance, %.0f%% from cycle cost)",
		       gap->share_acceptance * 100, gap->share_cost * 100);
		break;
	case SWEEP_CAUSE_COST_WINS:
		append(buf, len, &used, &full, ", which outweighs the acceptance");
		break;
	case SWEEP_CAUSE_ACCEPT_WINS:
		append(buf, len, &used, &full, ", which the acceptance outweighs");
		break;
	}
	return full ? -1 : 0;
}

void sweep_text_shape(const struct sweep_step *st, const char *ours_name, const char *ref_name,
		      char *buf, size_t len)
{
	int ref = sweep_sign(st->ref_change_pct);
	const char *move = ref > 0 ? "rises" : ref < 0 ? "dips" : "holds";
	char to[32];

	if (st->decided)
		snprintf(buf, len, "%s falls at n_max=%s (%+.1f%%) while %s %s (%+.1f%%): the "
			 "signature of an %s-side regression", ours_name,
			 sweep_text_rung(st->to_n_max, to, sizeof(to)), st->change_pct, ref_name,
			 move, st->ref_change_pct, ours_name);
	else
		snprintf(buf, len, "%s's point falls at n_max=%s (%+.1f%%) while %s's %s "
			 "(%+.1f%%); the intervals decide no side (one run a rung, or they "
			 "reach past the %s tolerance)", ours_name,
			 sweep_text_rung(st->to_n_max, to, sizeof(to)), st->change_pct, ref_name,
			 move, st->ref_change_pct, "sweep");
}

void sweep_text_across(const char *ours_name, const char *ref_name, int64_t from_n_max,
		       int64_t to_n_max, const struct run *a, const struct run *b, char *buf,
		       size_t len)
{
	const struct run_diff d = { RUN_DIFF_MACHINE, a, b };
	char why[1024], from[24], to[24];

	parity_diff_text(&d, why, sizeof(why));
	sweep_text_rung(from_n_max, from, sizeof(from));
	sweep_text_rung(to_n_max, to, sizeof(to));
	if (!ref_name)
		snprintf(buf, len, "ACROSS MACHINES: %s from n_max=%s to n_max=%s not checked "
			 "(--across-machines), %s", ours_name, from, to, why);
	else if (from_n_max != to_n_max)
		snprintf(buf, len, "ACROSS MACHINES: the shape of %s against %s from n_max=%s to "
			 "n_max=%s not checked (--across-machines), %s", ours_name, ref_name, from,
			 to, why);
	else
		snprintf(buf, len, "ACROSS MACHINES: %s against %s at n_max=%s not explained "
			 "(--across-machines), %s", ours_name, ref_name, to, why);
}
