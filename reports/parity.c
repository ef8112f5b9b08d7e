/* parity.c: turns the fields of a parity decision (analyze/parity.c) into the
 * sentences compare, calibrate, gate and the report print: cell names, the
 * difference that makes two runs incomparable, notes and the refusal line. */
#include "reports/parity.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/config.h"
#include "schema/record.h"
#include "tpsdb.h"

void parity_cell_name(const char *model, const char *spec_type, int64_t n_max,
		      const char *endpoint, char *buf, size_t len)
{
	char spec[96] = "";
	char ep[64] = "";

	if (!len)
		return;
	if (spec_type && *spec_type && n_max != TPS_NULL)
		snprintf(spec, sizeof(spec), " [%s n_max=%lld]", spec_type, (long long)n_max);
	else if (spec_type && *spec_type)
		snprintf(spec, sizeof(spec), " [%s base]", spec_type);
	else if (n_max != TPS_NULL)
		snprintf(spec, sizeof(spec), " [n_max=%lld]", (long long)n_max);
	if (endpoint && *endpoint && strcmp(endpoint, "completion"))
		snprintf(ep, sizeof(ep), " (%s)", endpoint);
	snprintf(buf, len, "%s%s%s", model ? model : "", spec, ep);
}

/* The cell name, then a llama-bench config in braces: two configs of one model
 * are two cells and must read as two. */
static void with_config(const char *config, char *buf, size_t len)
{
	size_t at = strlen(buf);

	if (config && *config && at < len)
		snprintf(buf + at, len - at, " {%s}", config);
}

unsigned parity_rows_varying(const struct parity_result *r)
{
	const char **cfg = tps_xcalloc(r->n_rows ? r->n_rows : 1, sizeof(*cfg));
	unsigned v;
	size_t i;

	for (i = 0; i < r->n_rows; i++)
		cfg[i] = r->rows[i].config;
	v = config_varying(cfg, r->n_rows);
	free(cfg);
	return v;
}

void parity_row_label(const struct parity_row *w, unsigned varying, char *buf, size_t len)
{
	char *label = config_label(w->config, varying);

	parity_cell_name(w->model, w->spec_type, w->n_max, w->endpoint, buf, len);
	with_config(label, buf, len);
	free(label);
}

char *parity_rows_constant(const struct parity_result *r, unsigned varying)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		if (r->rows[i].config && *r->rows[i].config) {
			char *c = config_constant(r->rows[i].config, varying);
			if (*c)
				return c;
			free(c);
			return NULL;
		}
	}
	return NULL;
}

void run_cell_label(const struct run *s, unsigned varying, char *buf, size_t len)
{
	char *label = config_label(s->config, varying);

	parity_cell_name(s->model, s->spec_type, s->n_max, s->endpoint, buf, len);
	with_config(label, buf, len);
	free(label);
}

unsigned parity_configs_varying(const char *const *cfg, size_t n, char **constant)
{
	unsigned v = config_varying(cfg, n);
	size_t i;

	*constant = NULL;
	for (i = 0; i < n; i++) {
		if (cfg[i] && *cfg[i]) {
			*constant = config_constant(cfg[i], v);
			if (!**constant) {
				free(*constant);
				*constant = NULL;
			}
			break;
		}
	}
	return v;
}

void run_cell_name(const struct run *s, char *buf, size_t len)
{
	parity_cell_name(s->model, s->spec_type, s->n_max, s->endpoint, buf, len);
	with_config(s->config, buf, len);
}

void parity_row_name(const struct parity_row *w, char *buf, size_t len)
{
	parity_cell_name(w->model, w->spec_type, w->n_max, w->endpoint, buf, len);
	with_config(w->config, buf, len);
}

static const char *str(const char *s)
{
	return s ? s : "";
}

/* A run's machine line (run.machine), its host when the set was not
 * canonicalised. */
static const char *machine(const struct run *r)
{
	return r->machine ? r->machine : r->host ? r->host : "";
}

void parity_diff_text(const struct run_diff *d, char *buf, size_t len)
{
	const struct run *a = d->a, *b = d->b;

	if (len)
		buf[0] = '\0';
	switch (d->kind) {
	case RUN_DIFF_NONE:
		break;
	case RUN_DIFF_SHA256:
		snprintf(buf, len, "model sha256 differs (%.12s vs %.12s)", a->model_sha256,
			 b->model_sha256);
		break;
	case RUN_DIFF_CTX:
		snprintf(buf, len, "ctx differs (%lld vs %lld)", (long long)a->ctx,
			 (long long)b->ctx);
		break;
	case RUN_DIFF_N_PREDICT:
		snprintf(buf, len, "n_predict differs (%lld vs %lld)", (long long)a->n_predict,
			 (long long)b->n_predict);
		break;
	case RUN_DIFF_ENDPOINT:
		snprintf(buf, len, "endpoint differs (%s vs %s)", str(a->endpoint),
			 str(b->endpoint));
		break;
	case RUN_DIFF_PROMPT_SET:
		snprintf(buf, len, "prompt set differs (%.12s vs %.12s)", a->prompt_set,
			 b->prompt_set);
		break;
	case RUN_DIFF_MACHINE:
		snprintf(buf, len, "measured on different machines: %s on '%s', %s on '%s'",
			 str(a->engine), machine(a), str(b->engine), machine(b));
		break;
	case RUN_DIFF_SPEC_SETTINGS:
		snprintf(buf, len, "spec settings differ (%s vs %s)", str(a->spec_settings),
			 str(b->spec_settings));
		break;
	case RUN_DIFF_CONFIG:
		snprintf(buf, len, "llama-bench config differs (%s vs %s)", str(a->config),
			 str(b->config));
		break;
	}
}

char *parity_note_text(const struct parity_note *n)
{
	char name[256], why[1024];

	run_cell_name(n->cell, name, sizeof(name));
	if (n->kind == PARITY_NOTE_LONE)
		return tps_xasprintf("cell '%s': no run of '%s' to compare with", name,
				     str(n->missing));
	parity_diff_text(&n->diff, why, sizeof(why));
	if (n->diff.kind == RUN_DIFF_MACHINE)
		return tps_xasprintf("ACROSS MACHINES: cell '%s' compared unpaired (--across-machines), "
				     "%s", name, why);
	return tps_xasprintf("FORCED comparison of cell '%s' although %s", name, why);
}

int parity_stop_error(const struct parity_result *r)
{
	char name[256], why[1024];

	if (r->stop == PARITY_STOP_BAD_PARAMS)
		return tps_error("cannot judge '%s': a band or noise multiplier is not a number "
				 ">= 0",
				 r->stop_cell ? str(r->stop_cell->model) : "");
	if (!r->stop_cell)
		return tps_error("cannot compare: no cell was judged");
	run_cell_name(r->stop_cell, name, sizeof(name));
	parity_diff_text(&r->stop_diff, why, sizeof(why));
	if (r->stop_diff.kind == RUN_DIFF_MACHINE)
		return tps_error("refusing to compare cell '%s': %s (--across-machines compares "
				 "them unpaired; --host or --batch chooses one machine's runs)",
				 name, why);
	return tps_error("refusing to compare cell '%s': %s (--force compares anyway)", name, why);
}

void verdict_interval_text(const struct verdict *v, char *buf, size_t len)
{
	if (isfinite(v->ci_lo_pct) && isfinite(v->ci_hi_pct))
		snprintf(buf, len, "[%+.2f%%, %+.2f%%]", v->ci_lo_pct, v->ci_hi_pct);
	else
		snprintf(buf, len, "-");
}

void verdict_level_title(const struct verdict *const *v, size_t n, char *buf, size_t len)
{
	double level = verdict_common_level(v, n);

	if (isnan(level))
		snprintf(buf, len, "interval");
	else
		snprintf(buf, len, "%.3g%% interval", 100 * level);
}

/* Appends to buf what the interval's scatter rests on besides its own rounds. */
static void evidence_text(const struct verdict *v, char *buf, size_t len)
{
	size_t at = strlen(buf);

	if (at >= len)
		return;
	if (v->bound == VERDICT_BOUND_DEFAULT)
		snprintf(buf + at, len - at, "; one instance a side, judged against a default "
			 "instance scatter of %.0f%% (no stored A/A floor: tpsdb calibrate)",
			 v->scatter_pct);
	else if (v->scatter_source == VERDICT_SCATTER_INSTANCES)
		snprintf(buf + at, len - at, "; its round scatter raised to %.2f%% by the "
			 "spread of each side's instances (the round ratios alone scatter "
			 "less)", v->round_scatter_pct);
	else if (v->scatter_source == VERDICT_SCATTER_FLOOR)
		snprintf(buf + at, len - at, "; its round scatter raised to %.2f%% by the "
			 "cell's stored A/A floor", v->round_scatter_pct);
	else if (v->history == VERDICT_HIST_POOLED)
		snprintf(buf + at, len - at, "; its scatter pooled with %zu earlier batch%s on "
			 "this machine (%.0f df)", v->hist_batches, v->hist_batches == 1 ? "" : "es",
			 v->hist_df);
	else if (v->history == VERDICT_HIST_REJECTED)
		snprintf(buf + at, len - at, "; this batch alone: its scatter differs from the "
			 "%zu earlier %s (F test)", v->hist_batches,
			 v->hist_batches == 1 ? "batch's" : "batches'");
}

const char parity_bench_remedy[] =
	"run llama-bench a few more times and import each file: each file is one "
	"instance of its build; a build whose commit is unknown names none, so give "
	"its files one --tag";

void parity_row_answer_text(const struct parity_row *w, char *buf, size_t len)
{
	char ci[80];

	if (w->reason == ESTIMATE_REASON_ONE_INSTANCE && run_str_eq(w->endpoint, "llama-bench")) {
		verdict_interval_text(&w->v, ci, sizeof(ci));
		snprintf(buf, len, "undecided: one llama-bench process a side, whose repetitions "
			 "cannot show the scatter between instances; to decide it, %s, or store "
			 "an A/A floor (tpsdb calibrate) (repetitions' interval %s)",
			 parity_bench_remedy, ci);
		return;
	}
	verdict_answer_text(&w->v, w->reason, buf, len);
}

void verdict_answer_text(const struct verdict *v, enum estimate_reason reason, char *buf,
			 size_t len)
{
	double edge = -v->band_pct;
	char ci[80];

	verdict_interval_text(v, ci, sizeof(ci));
	if (v->regression == VERDICT_REG_SPOILED) {
		char env[160];

		parity_env_names(v->spoiled, env, sizeof(env));
		snprintf(buf, len, "spoiled: %s while an instance it used measured, so its "
			 "interval %s is not an answer; measure again on a quiet machine", env, ci);
		return;
	}
	if (v->regression == VERDICT_REG_INTERMITTENT) {
		snprintf(buf, len, "intermittent: %zu of %zu instances of ours ran far slower "
			 "than its others and none of vs's did: an engine slow on some of its "
			 "starts, not a host glitch (which hits either side); the other "
			 "instances' interval %s", v->slow_ours, v->instances_ours, ci);
		return;
	}
	if (reason == ESTIMATE_REASON_ONE_INSTANCE) {
		snprintf(buf, len, "undecided: one instance a side, whose requests cannot show "
			 "the scatter between instances, and no evidence of this machine's "
			 "(environment facts of a quiet machine on both, with a stored A/A floor "
			 "or earlier clean batches within the default); --rounds 2 or more (or a "
			 "stored A/A floor, tpsdb calibrate) would decide it (requests' interval "
			 "%s)", ci);
		return;
	}
	if (reason == ESTIMATE_REASON_SLOW_ONCE) {
		snprintf(buf, len, "undecided: one instance of ours ran far slower than its "
			 "others and none of vs's did: a host glitch or an engine slow on some "
			 "starts; more rounds would tell (a second slow start of ours answers "
			 "intermittent), interval of the others %s", ci);
		return;
	}
	if (reason == ESTIMATE_REASON_SLOW_EARLIER) {
		snprintf(buf, len, "undecided: an earlier batch of this cell had instances of "
			 "ours far slower than its others and none of vs's, and an engine slow on "
			 "some starts need not be slow in every batch; more rounds would tell (a "
			 "slow start of vs says the host glitches, two of ours in this batch "
			 "answer intermittent), interval %s", ci);
		return;
	}
	if (reason == ESTIMATE_REASON_DISAGREE) {
		snprintf(buf, len, "undecided: a side's instances disagree with no clear majority, "
			 "so which of them measured the engine is not known; more rounds (or "
			 "finding what slowed the odd instances) would decide it (interval %s)",
			 ci);
		return;
	}
	if (reason == ESTIMATE_REASON_ORDER) {
		snprintf(buf, len, "undecided: every round started with the same side, so a "
			 "first-start edge cannot be told from a difference (interval %s)", ci);
		return;
	}
	switch (v->regression) {
	case VERDICT_REG_NO:
		snprintf(buf, len, "no (interval %s above %+.2f%%)", ci, edge);
		break;
	case VERDICT_REG_YES:
		snprintf(buf, len, "yes (interval %s below %+.2f%%)", ci, edge);
		break;
	case VERDICT_REG_UNDECIDED:
		if (isfinite(v->ci_lo_pct) && isfinite(v->ci_hi_pct))
			snprintf(buf, len, "undecided: interval %s holds %+.2f%%; its lower end is "
				 "%.2f points short of 'no', its upper end %.2f of 'yes'", ci, edge,
				 edge - v->ci_lo_pct, v->ci_hi_pct - edge);
		else
			snprintf(buf, len, "undecided: no interval (fewer than two instances or "
				 "requests a side)");
		break;
	case VERDICT_REG_SPOILED:
	case VERDICT_REG_INTERMITTENT:
	case VERDICT_REG_UNKNOWN:
		snprintf(buf, len, "unknown: no usable value");
		return;
	}
	evidence_text(v, buf, len);
}

void parity_row_outliers_text(const struct parity_row *w, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	if (!w->n_out_ours && !w->n_out_vs)
		return;
	at += (size_t)snprintf(buf, len, "left out as outlier instances:");
	for (i = 0; i < w->n_out_ours && i < 4 && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, " %s %.8s", w->ours, w->out_ours[i]);
	for (i = 0; i < w->n_out_vs && i < 4 && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, " %s %.8s", w->vs, w->out_vs[i]);
}

void parity_env_names(unsigned flags, char *buf, size_t len)
{
	unsigned b;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (b = 1; b < RUN_ENV_FLAGS_END && len; b <<= 1) {
		int n;
		if (!(flags & b))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			     record_env_flag_name(b));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

char *parity_env_text(const struct parity_row *w)
{
	char name[256], a[160], b[160], what[512] = "", out[160] = "";
	size_t n = 0;

	if (!w->env_flags && w->degenerate <= 0)
		return NULL;
	parity_row_name(w, name, sizeof(name));
	parity_env_names(w->env_ours, a, sizeof(a));
	parity_env_names(w->env_vs, b, sizeof(b));
	if (*a)
		n += (size_t)snprintf(what + n, sizeof(what) - n, "%s (%s)", a, w->ours);
	if (*b && n < sizeof(what))
		snprintf(what + n, sizeof(what) - n, "%s%s (%s)", n ? ", " : "", b, w->vs);
	/* Degenerate output is the output's finding: a loop decodes at the same
	 * rate, so it says nothing of the environment and spoils no rate. */
	if (w->degenerate > 0)
		snprintf(out, sizeof(out), "%lld degenerate-output sample(s), an output "
			 "finding that leaves the rates standing", (long long)w->degenerate);
	if (!*what)
		return tps_xasprintf("cell '%s': the runs carry %s; 'tpsdb check' says more",
				     name, out);
	return tps_xasprintf("cell '%s': the runs carry %s: the delta may be the environment's, "
			     "not the engine's%s%s; 'tpsdb check' says more", name, what,
			     *out ? "; and " : "", out);
}

const char *parity_question_name(unsigned question)
{
	if (question == 1u << RUN_PP)
		return "pp";
	if (question == 1u << RUN_TG)
		return "tg";
	return NULL;
}

void parity_question_text(unsigned question, char *buf, size_t len)
{
	const char *m = parity_question_name(question);
	const char *other = m && !strcmp(m, "pp") ? "tg" : "pp";

	if (len)
		buf[0] = 0;
	if (m)
		snprintf(buf, len, "decided on %s only: %s not watched by this batch (--metric "
			 "%s); %s's interval still pays for its looks", m, other, m, other);
}
