/* table_base.c: the base table, one row per model and endpoint and one cell per
 * engine: the estimate's centres and the verdicts of each metric against the
 * reference engine, the very numbers 'tpsdb compare' prints (the latest base
 * run's medians only where no comparison was made). */
#include "reports/tables_int.h"
#include "analyze/stats.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "reports/strv.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct tables_base_row *base_row(struct tables *t, const char *model, const char *endpoint)
{
	struct tables_base_row *row;
	size_t i;

	for (i = 0; i < t->n_base; i++) {
		if (tables_same(t->base[i].model, model) && tables_same(t->base[i].endpoint, endpoint))
			return &t->base[i];
	}
	t->base = tps_xrealloc(t->base, (t->n_base + 1) * sizeof(*t->base));
	row = &t->base[t->n_base++];
	row->model = tps_xstrdup(model ? model : "");
	row->endpoint = tps_xstrdup(endpoint ? endpoint : "");
	row->cells = tps_xcalloc(t->n_engines, sizeof(*row->cells));
	return row;
}

/* completion first: it is the study's endpoint; the others follow by name. */
static int endpoint_cmp(const char *a, const char *b)
{
	int ca = tables_same(a, "completion"), cb = tables_same(b, "completion");

	if (ca != cb)
		return ca ? -1 : 1;
	return strcmp(a, b);
}

static int base_cmp(const void *pa, const void *pb)
{
	const struct tables_base_row *a = pa, *b = pb;
	int c = strcmp(a->model, b->model);

	return c ? c : endpoint_cmp(a->endpoint, b->endpoint);
}

int tables_build_base(const struct tables_opts *o, struct tables *t,
		      const struct report_input *in)
{
	const struct cell_run *r = in->runs;
	size_t i, n = in->n_runs;

	for (i = 0; i < n; i++) {
		struct tables_base_cell *c;
		long e;
		if (r[i].n_max != TPS_NULL || !tables_same(r[i].spec_type, "") ||
		    !tables_wanted(o, r[i].engine, r[i].model) || (e = tables_engine_index(t, r[i].engine)) < 0)
			continue;
		c = &base_row(t, r[i].model, r[i].endpoint)->cells[e];
		if (c->present)
			continue; /* one run per cell: the loader gave the latest */
		c->present = 1;
		snprintf(c->run, sizeof(c->run), "%s", r[i].uuid);
		c->tag = tps_xstrdup(r[i].tag ? r[i].tag : "");
		c->pp = stats_median(in->values[i].pp, in->values[i].n_pp);
		c->tg = stats_median(in->values[i].tg, in->values[i].n_tg);
	}
	if (t->n_base > 1)
		qsort(t->base, t->n_base, sizeof(*t->base), base_cmp);
	return 0;
}

static void take_verdicts(struct tables *t, size_t e, const struct parity_result *pr)
{
	long ref = t->ref ? tables_engine_index(t, t->ref) : -1;
	size_t i, k;

	for (i = 0; i < pr->n_rows; i++) {
		const struct parity_row *pw = &pr->rows[i];
		for (k = 0; k < t->n_base; k++) {
			struct tables_base_cell *c = &t->base[k].cells[e];
			struct tables_verdict *v;
			if (pw->n_max != TPS_NULL || !tables_same(pw->spec_type, "") ||
			    !tables_same(pw->model, t->base[k].model) ||
			    !tables_same(pw->endpoint, t->base[k].endpoint) || !c->present)
				continue;
			v = !strcmp(pw->metric, "pp") ? &c->vpp : &c->vtg;
			v->has = pw->v.kind != VERDICT_UNKNOWN;
			v->v = pw->v;
			c->forced |= pw->forced;
			/* The value beside a verdict is the estimate's own centre, as
			 * compare prints it; the reference takes its centre from the
			 * first comparison that has one. */
			if (v->has) {
				int pp = !strcmp(pw->metric, "pp");
				struct tables_base_cell *rc = ref >= 0 ?
					&t->base[k].cells[ref] : NULL;

				*(pp ? &c->pp : &c->tg) = pw->ours_median;
				*(pp ? &c->est_pp : &c->est_tg) = 1;
				if (rc && rc->present && !(pp ? rc->est_pp : rc->est_tg)) {
					*(pp ? &rc->pp : &rc->tg) = pw->vs_median;
					*(pp ? &rc->est_pp : &rc->est_tg) = 1;
				}
			}
		}
	}
	for (i = 0; i < pr->n_notes; i++) {
		const struct parity_side *cs = pr->notes[i].cell;
		char *text;
		if (pr->notes[i].kind != PARITY_NOTE_FORCED)
			continue;
		for (k = 0; k < t->n_base; k++) {
			struct tables_base_cell *c = &t->base[k].cells[e];
			if (c->present && c->forced && cs->n_max == TPS_NULL &&
			    tables_same(cs->spec_type, "") && tables_same(cs->model, t->base[k].model) &&
			    tables_same(cs->endpoint, t->base[k].endpoint))
				parity_diff_text(&pr->notes[i].diff, c->reason, sizeof(c->reason));
		}
		text = parity_note_text(&pr->notes[i]);
		strv_add(&t->warnings, &t->n_warnings, text);
		free(text);
	}
}

int tables_build_verdicts(const struct tables_opts *o, struct tables *t,
			  const struct report_input *in)
{
	struct parity_result pr = { 0 };
	size_t e, m, nm = o->n_models ? o->n_models : 1;

	if (!t->ref)
		return 0;
	for (e = 0; e < t->n_engines; e++) {
		if (tables_same(t->engines[e].label, t->ref))
			continue;
		for (m = 0; m < nm; m++) {
			/* Loaded with force on: a report must not stop at one odd cell,
			 * it says "not comparable" in its cell and lists the reason. */
			const struct report_pair *p = report_pair_find(in, t->engines[e].label,
					t->ref, o->n_models ? o->models[m] : NULL);
			if (!p)
				return tps_error("the pairs of '%s' and '%s' were not loaded",
						 t->engines[e].label, t->ref);
			if (parity_decide(&p->set.in, &p->po, &pr) < 0 && parity_stop_error(&pr)) {
				parity_result_release(&pr);
				return -1;
			}
			take_verdicts(t, e, &pr);
			parity_result_release(&pr);
		}
	}
	return 0;
}

static void fmt_verdict(const struct tables_verdict *v, char *buf, size_t len)
{
	char lead[48] = "";

	/* The report judges at the default band: a verdict whose resolution is wider
	 * is led by it, so that a parity inside a wide band is not read as tight. */
	if (v->v.mde_pct > VERDICT_BAND_PCT)
		snprintf(lead, sizeof(lead), "mde %.1f%%: ", v->v.mde_pct);
	if (!v->has || v->v.kind == VERDICT_UNKNOWN)
		snprintf(buf, len, "n/a");
	else if (v->v.kind == VERDICT_PARITY)
		snprintf(buf, len, "%s%s", lead, verdict_kind_name(v->v.kind));
	else if (v->v.kind == VERDICT_UNDECIDED)
		/* The point, which names no side: "undecided" says so. */
		snprintf(buf, len, "%s%+.1f%% undecided", lead, v->v.delta_pct);
	else
		snprintf(buf, len, "%s%+.1f%% %s", lead, v->v.delta_pct,
			 verdict_kind_name(v->v.kind));
}

char *tables_base_text(const struct tables *t, const struct tables_base_row *row, size_t e)
{
	const struct tables_base_cell *c = &row->cells[e];
	char pp[32], tg[32], a[48], b[48];

	if (!c->present)
		return tps_xstrdup("-");
	md_num(pp, sizeof(pp), "%.0f", c->pp);
	md_num(tg, sizeof(tg), "%.1f", c->tg);
	if (t->ref && tables_same(t->engines[e].label, t->ref))
		return tps_xasprintf("%s / %s (ref)", pp, tg);
	if (c->forced)
		return tps_xasprintf("%s / %s (not comparable)", pp, tg);
	if (!c->vpp.has && !c->vtg.has)
		return tps_xasprintf("%s / %s", pp, tg);
	fmt_verdict(&c->vpp, a, sizeof(a));
	fmt_verdict(&c->vtg, b, sizeof(b));
	return tps_xasprintf("%s / %s (%s / %s)", pp, tg, a, b);
}

