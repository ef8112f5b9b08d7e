/* table_text.c: the cells of the base and speculative tables as text, the one
 * wording of a value with its verdict that markdown, text and HTML share:
 * "13150 / 142.6 (parity / -3.1% slower)", without a reference "13107 / 143.0
 * (ours: +0.4% undecided / spoiled (host-busy))", "230.7 · 0.71". */
#include "reports/tables_int.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "reports/until_write.h"
#include "tpsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fmt_verdict(const struct tables_verdict *v, char *buf, size_t len)
{
	char lead[48] = "";

	/* The report judges at the default band: a verdict whose resolution is wider
	 * is led by it, so that a parity inside a wide band is not read as tight. */
	if (v->v.mde_pct > VERDICT_BAND_PCT)
		snprintf(lead, sizeof(lead), "mde %.1f%%: ", v->v.mde_pct);
	if (!v->has || v->v.kind == VERDICT_UNKNOWN) {
		snprintf(buf, len, "n/a");
	} else if (v->v.kind == VERDICT_SPOILED) {
		/* No delta and no lead: the interval is the environment's as much as
		 * the engine's, and a number here would be read as the answer. */
		char env[160];

		parity_env_names(v->v.spoiled, env, sizeof(env));
		snprintf(buf, len, "spoiled (%s)", env);
	} else if (v->v.kind == VERDICT_PARITY) {
		snprintf(buf, len, "%s%s", lead, verdict_kind_name(v->v.kind));
	} else if (v->v.kind == VERDICT_UNDECIDED) {
		/* The point, which names no side: "undecided" says so. */
		snprintf(buf, len, "%s%+.1f%% undecided", lead, v->v.delta_pct);
	} else {
		snprintf(buf, len, "%s%+.1f%% %s", lead, v->v.delta_pct,
			 verdict_kind_name(v->v.kind));
	}
}

char *tables_base_text(const struct tables *t, const struct tables_base_row *row, size_t e)
{
	const struct tables_base_cell *c = &row->cells[e];
	char pp[32], tg[32], a[200], b[200];

	if (!c->present)
		return tps_xstrdup("-");
	md_num(pp, sizeof(pp), "%.0f", c->pp);
	md_num(tg, sizeof(tg), "%.1f", c->tg);
	if (t->ref && study_same(t->engines[e].label, t->ref))
		return tps_xasprintf("%s / %s (ref)", pp, tg);
	if (!t->ref && t->ours && study_same(t->engines[e].label, t->ours))
		return tps_xasprintf("%s / %s (ours)", pp, tg);
	if (c->forced)
		return tps_xasprintf("%s / %s (not comparable)", pp, tg);
	if (!c->vpp.has && !c->vtg.has)
		return tps_xasprintf("%s / %s", pp, tg);
	fmt_verdict(&c->vpp, a, sizeof(a));
	fmt_verdict(&c->vtg, b, sizeof(b));
	/* Without a reference the verdicts are ours' against this engine: the
	 * parenthesis says whose they are. */
	if (!t->ref && t->ours)
		return tps_xasprintf("%s / %s (%s: %s / %s)", pp, tg, t->ours, a, b);
	return tps_xasprintf("%s / %s (%s / %s)", pp, tg, a, b);
}

int tables_any_spoiled(const struct tables *t)
{
	size_t i, e;

	for (i = 0; i < t->n_base; i++) {
		for (e = 0; e < t->n_engines; e++) {
			const struct tables_base_cell *c = &t->base[i].cells[e];
			if (c->present && !c->forced &&
			    ((c->vpp.has && c->vpp.v.kind == VERDICT_SPOILED) ||
			     (c->vtg.has && c->vtg.v.kind == VERDICT_SPOILED)))
				return 1;
		}
	}
	return 0;
}


char *tables_clean_text(const struct tables *t, size_t k, size_t e, int m)
{
	const struct tables_base_cell *c = &t->base[k].cells[e];
	const struct tables_verdict *v = m ? &c->vtg : &c->vpp;
	char ans[400];

	if (!c->present || c->forced || !v->has || v->v.kind != VERDICT_SPOILED)
		return NULL;
	clean_answer_text(&v->clean, ans, sizeof(ans));
	return tps_xasprintf("%s %s %s: spoiled; %s", t->base[k].model, t->engines[e].label,
			     m ? "tg" : "pp", ans);
}

char *tables_spec_text(const struct tables_spec_cell *c)
{
	char tg[32], ac[32];

	if (!c->present)
		return tps_xstrdup("-");
	md_num(tg, sizeof(tg), "%.1f", c->tg);
	md_num(ac, sizeof(ac), "%.2f", c->accept);
	return tps_xasprintf("%s \xc2\xb7 %s", tg, ac);
}
