/* compare_write.c: renders a parity decision for `tpsdb compare`: one text row per
 * cell and metric, or the JSON rows and warnings. The notes become the same
 * sentences on stderr and in the JSON's "warnings". */
#include "reports/compare_write.h"
#include "reports/escape.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/json.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "schema/record.h"
#include "tpsdb.h"

void compare_write_notes(const struct parity_result *r)
{
	size_t i;

	for (i = 0; i < r->n_notes; i++) {
		char *text = parity_note_text(&r->notes[i]), *e = escape_text(text);
		tps_warning("%s", e);
		free(text);
		free(e);
	}
	for (i = 0; i < r->n_rows; i++) {
		char *text, *e;
		/* One line a cell: its pp and tg rows share their runs. */
		if (i && !strcmp(r->rows[i].ours_run, r->rows[i - 1].ours_run) &&
		    !strcmp(r->rows[i].vs_run, r->rows[i - 1].vs_run))
			continue;
		if (!(text = parity_env_text(&r->rows[i])))
			continue;
		e = escape_text(text);
		tps_warning("%s", e);
		free(text);
		free(e);
	}
}

int compare_write_json(const struct parity_result *r)
{
	cJSON *root = cJSON_CreateObject(), *rows, *warn, *env;
	unsigned b;
	size_t i;

	rows = cJSON_AddArrayToObject(root, "rows");
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(rows, o);
		cJSON_AddStringToObject(o, "model", w->model);
		cJSON_AddStringToObject(o, "spec_type", w->spec_type);
		json_put_i64(o, "n_max", w->n_max);
		cJSON_AddStringToObject(o, "endpoint", w->endpoint);
		cJSON_AddStringToObject(o, "config", w->config ? w->config : "");
		cJSON_AddStringToObject(o, "metric", w->metric);
		cJSON_AddStringToObject(o, "ours", w->ours);
		cJSON_AddStringToObject(o, "vs", w->vs);
		json_put_num(o, "ours_median", w->ours_median);
		json_put_num(o, "vs_median", w->vs_median);
		json_put_num(o, "delta_pct", w->v.delta_pct);
		json_put_num(o, "mean_delta_pct", w->v.mean_delta_pct);
		json_put_num(o, "ci_lo_pct", w->v.ci_lo_pct);
		json_put_num(o, "ci_hi_pct", w->v.ci_hi_pct);
		/* p_value is the canonical name; the report's "p_wilcoxon" is its documented alias. */
		json_put_num(o, "p_value", w->v.p_wilcoxon);
		json_put_num(o, "p_sign", w->v.p_sign);
		cJSON_AddNumberToObject(o, "n_pairs", (double)w->v.n_pairs);
		cJSON_AddStringToObject(o, "verdict", verdict_kind_name(w->v.kind));
		cJSON_AddBoolToObject(o, "significant", w->v.significant);
		json_put_num(o, "band_pct", w->v.band_pct);
		cJSON_AddStringToObject(o, "bound", verdict_bound_name(w->v.bound));
		json_put_num(o, "noise_pct", w->noise_pct);
		cJSON_AddNumberToObject(o, "excluded_ours", (double)w->excluded_ours);
		cJSON_AddNumberToObject(o, "excluded_vs", (double)w->excluded_vs);
		cJSON_AddNumberToObject(o, "unpaired", (double)w->unpaired);
		cJSON_AddStringToObject(o, "ours_run", w->ours_run);
		cJSON_AddStringToObject(o, "vs_run", w->vs_run);
		cJSON_AddBoolToObject(o, "forced", w->forced);
		cJSON_AddNumberToObject(o, "rounds", (double)w->v.rounds);
		cJSON_AddNumberToObject(o, "instances_ours", (double)w->v.instances_ours);
		cJSON_AddNumberToObject(o, "instances_vs", (double)w->v.instances_vs);
		json_put_num(o, "mde_pct", w->v.mde_pct);
		cJSON_AddBoolToObject(o, "decided", w->v.decided);
		cJSON_AddStringToObject(o, "method", verdict_method_name(w->v.method));
		cJSON_AddStringToObject(o, "lean", verdict_kind_name(w->v.lean));
		json_put_num(o, "rounds_more", w->v.rounds_more);
		json_put_i64(o, "outputs_compared", w->outputs_compared < 0 ? INT64_MIN :
			     w->outputs_compared);
		json_put_i64(o, "outputs_identical", w->outputs_identical < 0 ? INT64_MIN :
			     w->outputs_identical);
		env = cJSON_AddArrayToObject(o, "environment");
		for (b = 1; b < RUN_ENV_FLAGS_END; b <<= 1) {
			if (w->env_flags & b)
				cJSON_AddItemToArray(env, cJSON_CreateString(record_env_flag_name(b)));
		}
		cJSON_AddNumberToObject(o, "degenerate_samples", (double)w->degenerate);
	}
	warn = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < r->n_notes; i++) {
		char *note = parity_note_text(&r->notes[i]);
		cJSON_AddItemToArray(warn, cJSON_CreateString(note));
		free(note);
	}
	for (i = 0; i < r->n_rows; i++) {
		char *note;
		if (i && !strcmp(r->rows[i].ours_run, r->rows[i - 1].ours_run) &&
		    !strcmp(r->rows[i].vs_run, r->rows[i - 1].vs_run))
			continue;
		if ((note = parity_env_text(&r->rows[i]))) {
			cJSON_AddItemToArray(warn, cJSON_CreateString(note));
			free(note);
		}
	}
	return json_write(stdout, root);
}

/* The lines that lead the table: rows whose resolution is wider than the band
 * asked for, so that a verdict inside a wide band is not read as a tight one. */
static void write_lead(const struct parity_result *r, double band_pct)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], *e;

		if (!(w->v.mde_pct > band_pct))
			continue;
		parity_row_name(w, name, sizeof(name));
		e = escape_text(name);
		printf("mde %.2f%% > band %.2f%%: %s %s could not have seen a difference under "
		       "%.2f%% (%zu round%s)\n",
		       w->v.mde_pct, band_pct, e, w->metric, w->v.mde_pct, w->v.rounds,
		       w->v.rounds == 1 ? "" : "s");
		free(e);
	}
}

/* The lines after the table: how far each undecided row is from decided. */
static void write_open(const struct parity_result *r)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], more[64], *e;

		if (w->v.kind != VERDICT_UNDECIDED)
			continue;
		parity_row_name(w, name, sizeof(name));
		if (isfinite(w->v.rounds_more))
			snprintf(more, sizeof(more), "about %.0f more round%s", w->v.rounds_more,
				 w->v.rounds_more == 1 ? "" : "s");
		else
			snprintf(more, sizeof(more), "more rounds");
		e = escape_text(name);
		printf("undecided: %s %s: 95%% CI [%+.2f%%, %+.2f%%] against the band +-%.2f%% "
		       "(leans %s); %s would decide it\n",
		       e, w->metric, w->v.ci_lo_pct, w->v.ci_hi_pct, w->v.band_pct,
		       verdict_kind_name(w->v.lean), more);
		free(e);
	}
}

void compare_write_text(const struct parity_result *r, const char *ours_raw,
			const char *vs_raw, double band_pct)
{
	char *ours = escape_text(ours_raw), *vs = escape_text(vs_raw);
	int wc = 4;
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		char name[256], *e;
		int l;
		parity_row_name(&r->rows[i], name, sizeof(name));
		e = escape_text(name);
		l = (int)strlen(e);
		if (l > wc)
			wc = l;
		free(e);
	}
	write_lead(r, band_pct);
	printf("%-*s  %-6s  %10s  %10s  %8s  %-17s  %-8s  %5s  %6s  %-9s  %-3s  %-11s  %6s  %s\n",
	       wc, "cell", "metric", ours, vs, "delta", "95% CI", "p", "pairs", "rounds",
	       "verdict", "sig", "band", "mde", "excl");
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], a[32], b[32], d[32], lo[32], hi[32], ci[80], p[32], band[40];
		char excl[48], mde[32], rounds[32], *e;

		parity_row_name(w, name, sizeof(name));
		e = escape_text(name);
		md_num(a, sizeof(a), "%.1f", w->ours_median);
		md_num(b, sizeof(b), "%.1f", w->vs_median);
		md_num(d, sizeof(d), "%+.2f%%", w->v.delta_pct);
		md_num(lo, sizeof(lo), "%+.2f", w->v.ci_lo_pct);
		md_num(hi, sizeof(hi), "%+.2f", w->v.ci_hi_pct);
		snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		md_num(p, sizeof(p), "%.2g", w->v.p_wilcoxon);
		snprintf(band, sizeof(band), "%.1f%% %s", w->v.band_pct,
			 verdict_bound_name(w->v.bound));
		snprintf(excl, sizeof(excl), "%zu/%zu%s", w->excluded_ours, w->excluded_vs,
			 w->forced ? "  FORCED" : "");
		md_num(mde, sizeof(mde), "%.2f%%", w->v.mde_pct);
		snprintf(rounds, sizeof(rounds), "%zu", w->v.rounds);
		printf("%-*s  %-6s  %10s  %10s  %8s  %-17s  %-8s  %5zu  %6s  %-9s  %-3s  %-11s  %6s  %s\n",
		       wc, e, w->metric, a, b, d, ci, p, w->v.n_pairs, rounds,
		       verdict_kind_name(w->v.kind), w->v.significant ? "yes" : "no", band, mde,
		       excl);
		free(e);
	}
	write_open(r);
	printf("tok/s medians; delta = median of per-pair %s/%s - 1 with one round; medians over "
	       "the paired samples; CI: 95%% t on log ratios; "
	       "p: Wilcoxon signed-rank; band: max(--band, k x A/A noise); with two rounds or more: "
	       "delta and CI from the per-round log ratios (each run one instance), band --band, "
	       "parity when the 90%% CI is inside it; mde: the 95%% CI's half-width; excl: "
	       "flagged samples left out (%s/%s)\n", ours, vs, ours, vs);
	free(ours);
	free(vs);
}
