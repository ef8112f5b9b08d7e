/* runs_write.c: renders `tpsdb runs` from catalog_runs() rows. The medians are taken
 * here over the samples no flag spoils, which catalog.c already chose. */
#include "reports/runs_write.h"
#include "analyze/stats.h"
#include "reports/json.h"
#include "reports/md.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int runs_write_json(FILE *f, const struct catalog_run *runs, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++) {
		const struct catalog_run *r = &runs[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(arr, o);
		json_put_str(o, "uuid", r->uuid);
		json_put_str(o, "started_at", r->started_at);
		json_put_str(o, "ended_at", r->ended_at);
		json_put_str(o, "status", r->status);
		json_put_str(o, "source", r->source);
		json_put_str(o, "host", r->host);
		json_put_str(o, "engine", r->engine);
		json_put_str(o, "engine_version", r->engine_version ? r->engine_version : "");
		json_put_str(o, "role", r->role);
		json_put_str(o, "model", r->model);
		json_put_str(o, "tag", r->tag);
		json_put_str(o, "endpoint", r->endpoint);
		json_put_str(o, "spec_type", r->spec_type);
		json_put_i64(o, "n_max", r->n_max);
		json_put_i64(o, "ctx", r->ctx);
		json_put_i64(o, "n_predict", r->n_predict);
		json_put_i64(o, "warmup", r->warmup);
		json_put_i64(o, "round", r->round);
		json_put_str(o, "batch", r->batch);
		json_put_str(o, "load_error", r->load_error);
		json_put_str(o, "config", r->config ? r->config : "");
		json_put_str(o, "cpu", r->cpu ? r->cpu : "");
		json_put_i64(o, "n_samples", r->n_samples);
		json_put_i64(o, "n_failed", r->n_failed);
		json_put_i64(o, "n_flagged", r->n_flagged);
		json_put_num(o, "pp_median", stats_median(r->pp, r->npp));
		json_put_num(o, "tg_median", stats_median(r->tg, r->ntg));
	}
	return json_write(f, arr);
}

/* A table cell: control characters (a tag may hold a newline) become '?'. */
static char *cell(const char *s)
{
	char *c = tps_xstrdup(s ? s : ""), *p;
	for (p = c; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	return c;
}

static void set(struct md_table *t, size_t row, size_t col, char *text)
{
	md_table_set(t, row, col, text);
	free(text);
}

enum { COL_STARTED, COL_UUID, COL_STATUS, COL_HOST, COL_ENGINE, COL_VERSION, COL_MODEL, COL_TAG,
       COL_SPEC, COL_NMAX, COL_ROUND, COL_SAMPLES, COL_FAILED, COL_PP, COL_TG, COL_CONFIG,
       NCOLS };

void runs_write_table(FILE *f, const struct catalog_run *runs, size_t n)
{
	static const struct md_text_style style = { .align_header = 1, .raw = 1 };
	struct md_table t;

	runs_write_fill(&t, runs, n);
	md_table_write_styled(f, &t, &style);
	md_table_release(&t);
}

void runs_write_fill(struct md_table *tp, const struct catalog_run *runs, size_t n)
{
	static const char *const head[NCOLS] = { "STARTED", "UUID", "STATUS", "HOST", "ENGINE", "VERSION",
		"MODEL", "TAG", "SPEC", "N_MAX", "ROUND", "SAMPLES", "FAILED", "PP_MED", "TG_MED",
		"CONFIG" };
	struct md_table t;
	size_t i, j, ncols = COL_CONFIG;

	/* The CONFIG column (llama-bench's test and settings) only when a run has one,
	 * so a store of server runs reads as before. */
	for (i = 0; i < n; i++) {
		if (runs[i].config && *runs[i].config)
			ncols = NCOLS;
	}
	md_table_init(&t, ncols);
	for (j = 0; j < ncols; j++) {
		md_table_set(&t, 0, j, head[j]);
		t.right[j] = j >= COL_NMAX && j != COL_CONFIG; /* numbers right, words left */
	}
	for (i = 0; i < n; i++) {
		const struct catalog_run *r = &runs[i];
		double pp = stats_median(r->pp, r->npp), tg = stats_median(r->tg, r->ntg);
		char *started = cell(r->started_at);
		size_t row = md_table_add_row(&t);

		if (strlen(started) > 19)
			started[19] = '\0'; /* to the second */
		if (strlen(started) > 10 && started[10] == 'T')
			started[10] = ' ';
		set(&t, row, COL_STARTED, started);
		set(&t, row, COL_UUID, cell(r->uuid));
		set(&t, row, COL_STATUS, cell(r->status));
		set(&t, row, COL_HOST, cell(r->host));
		set(&t, row, COL_ENGINE, cell(r->engine));
		set(&t, row, COL_VERSION, cell(r->engine_version && *r->engine_version ?
						r->engine_version : "-"));
		set(&t, row, COL_MODEL, cell(r->model));
		set(&t, row, COL_TAG, cell(r->tag && *r->tag ? r->tag : "-"));
		set(&t, row, COL_SPEC, cell(r->spec_type && *r->spec_type ? r->spec_type : "-"));
		if (r->n_max == TPS_NULL)
			md_table_set(&t, row, COL_NMAX, "-");
		else
			md_table_setf(&t, row, COL_NMAX, "%lld", (long long)r->n_max);
		if (r->round == TPS_NULL)
			md_table_set(&t, row, COL_ROUND, "-");
		else
			md_table_setf(&t, row, COL_ROUND, "%lld", (long long)r->round);
		md_table_setf(&t, row, COL_SAMPLES, "%lld", (long long)r->n_samples);
		md_table_setf(&t, row, COL_FAILED, "%lld", (long long)r->n_failed);
		if (isnan(pp))
			md_table_set(&t, row, COL_PP, "-");
		else
			md_table_setf(&t, row, COL_PP, "%.2f", pp);
		if (isnan(tg))
			md_table_set(&t, row, COL_TG, "-");
		else
			md_table_setf(&t, row, COL_TG, "%.2f", tg);
		if (ncols == NCOLS)
			set(&t, row, COL_CONFIG, cell(r->config && *r->config ? r->config : "-"));
	}
	*tp = t;
}
