/* runs_write.c: renders `tpsdb runs` from catalog_runs() rows. The medians are taken
 * here over the samples no flag spoils, which catalog.c already chose. */
#include "reports/runs_write.h"
#include "analyze/cellset.h"
#include "analyze/stats.h"
#include "analyze/trend.h"
#include "reports/json.h"
#include "reports/table.h"
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
		json_put_str(o, "engine_sha256", r->engine_sha256 ? r->engine_sha256 : "");
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
		json_put_str(o, "load_error_line", r->load_line);
		json_put_str(o, "config", r->config ? r->config : "");
		json_put_str(o, "cpu", r->cpu ? r->cpu : "");
		json_put_str(o, "gpu", r->gpu ? r->gpu : "");
		json_put_str(o, "driver", r->driver ? r->driver : "");
		json_put_str(o, "cuda", r->cuda ? r->cuda : "");
		{
			char *m = machine_text(r->host, r->gpu, r->driver, r->cuda, r->cpu);
			json_put_str(o, "machine", m);
			free(m);
		}
		json_put_i64(o, "n_samples", r->n_samples);
		json_put_i64(o, "n_failed", r->n_failed);
		json_put_i64(o, "n_flagged", r->n_flagged);
		json_put_num(o, "pp_median", stats_median(r->pp, r->npp));
		json_put_num(o, "tg_median", stats_median(r->tg, r->ntg));
	}
	return json_write(f, arr);
}

enum { COL_STARTED, COL_UUID, COL_STATUS, COL_HOST, COL_MACHINE, COL_ENGINE, COL_VERSION, COL_MODEL, COL_TAG,
       COL_SPEC, COL_NMAX, COL_ROUND, COL_SAMPLES, COL_FAILED, COL_PP, COL_TG, COL_CONFIG,
       NCOLS };

void runs_write(FILE *f, const struct catalog_run *runs, size_t n, enum table_format fmt)
{
	struct table t;

	if (!n) {
		/* No table at all: the text is silent, the CSV a header alone. */
		if (fmt == TABLE_FMT_MD)
			fprintf(f, "_No runs._\n");
		if (fmt != TABLE_FMT_CSV)
			return;
	}
	runs_table(&t, runs, n);
	table_write(f, &t, fmt);
	table_release(&t);
	/* The medians are one run's, not a cell's: the markdown, a document, says
	 * so where a reader would hold them against compare's pooled estimate; the
	 * text stays one line per run for scripts, its header naming them. */
	if (n && fmt == TABLE_FMT_MD)
		fprintf(f, "\n_PP_RUN_MED, TG_RUN_MED: prefill and decode tok/s, the median of "
			   "this run's requests (its samples no flag spoils), one run alone; a "
			   "cell's answer pools its runs and takes the geometric mean of their "
			   "requests: 'tpsdb compare'._\n");
}

/* The physical column of logical column c, or -1 when hidden: the row writers
 * below skip a hidden one. */
struct runs_cols {
	int at[NCOLS];
};

static void put(struct table *t, const struct runs_cols *m, size_t row, int c, const char *v)
{
	if (m->at[c] >= 0)
		table_set(t, row, (size_t)m->at[c], v);
}

void runs_table(struct table *t, const struct catalog_run *runs, size_t n)
{
	static const char *const head[NCOLS] = { "STARTED", "UUID", "STATUS", "HOST", "MACHINE",
		"ENGINE", "VERSION", "MODEL", "TAG", "SPEC", "N_MAX", "ROUND", "SAMPLES", "FAILED",
		"PP_RUN_MED", "TG_RUN_MED", "CONFIG" };
	struct runs_cols m;
	size_t i, ncols = 0;
	int config = 0, several = 0, j;
	char buf[32], **mach = tps_xcalloc(n + 1, sizeof(*mach));

	/* The CONFIG column (llama-bench's test and settings) only when a run has one,
	 * so a store of server runs reads as before; the MACHINE column (host, GPU,
	 * driver, CUDA, CPU: machine_text()) where the runs listed come from more
	 * than one machine ('runs --json' has it always). */
	for (i = 0; i < n; i++) {
		config |= runs[i].config && *runs[i].config;
		mach[i] = machine_text(runs[i].host, runs[i].gpu, runs[i].driver, runs[i].cuda,
				       runs[i].cpu);
		several |= strcmp(mach[i], mach[0]) != 0;
	}
	for (j = 0; j < NCOLS; j++)
		m.at[j] = (j == COL_CONFIG && !config) || (j == COL_MACHINE && !several) ? -1 :
			  (int)ncols++;
	table_init(t, ncols);
	for (j = 0; j < NCOLS; j++) /* numbers right, words left */
		if (m.at[j] >= 0)
			table_col(t, (size_t)m.at[j], j >= COL_NMAX && j != COL_CONFIG ?
				  TABLE_NUMBER : TABLE_LABEL, head[j], 0);
	for (i = 0; i < n; i++) {
		const struct catalog_run *r = &runs[i];
		double pp = stats_median(r->pp, r->npp), tg = stats_median(r->tg, r->ntg);
		char started[20], *build;
		size_t row = table_add_row(t);

		snprintf(started, sizeof(started), "%s", r->started_at ? r->started_at : "");
		if (strlen(started) > 10 && started[10] == 'T')
			started[10] = ' '; /* to the second */
		put(t, &m, row, COL_STARTED, started);
		put(t, &m, row, COL_UUID, r->uuid);
		put(t, &m, row, COL_STATUS, r->status);
		put(t, &m, row, COL_HOST, r->host);
		put(t, &m, row, COL_MACHINE, mach[i]);
		put(t, &m, row, COL_ENGINE, r->engine);
		build = trend_build_label(r->engine_version, r->engine_sha256);
		put(t, &m, row, COL_VERSION, *build ? build : "-");
		free(build);
		put(t, &m, row, COL_MODEL, r->model);
		put(t, &m, row, COL_TAG, r->tag && *r->tag ? r->tag : "-");
		put(t, &m, row, COL_SPEC, r->spec_type && *r->spec_type ? r->spec_type : "-");
		snprintf(buf, sizeof(buf), "%lld", (long long)r->n_max);
		put(t, &m, row, COL_NMAX, r->n_max == TPS_NULL ? "-" : buf);
		snprintf(buf, sizeof(buf), "%lld", (long long)r->round);
		put(t, &m, row, COL_ROUND, r->round == TPS_NULL ? "-" : buf);
		snprintf(buf, sizeof(buf), "%lld", (long long)r->n_samples);
		put(t, &m, row, COL_SAMPLES, buf);
		snprintf(buf, sizeof(buf), "%lld", (long long)r->n_failed);
		put(t, &m, row, COL_FAILED, buf);
		snprintf(buf, sizeof(buf), "%.2f", pp);
		put(t, &m, row, COL_PP, isnan(pp) ? "-" : buf);
		snprintf(buf, sizeof(buf), "%.2f", tg);
		put(t, &m, row, COL_TG, isnan(tg) ? "-" : buf);
		put(t, &m, row, COL_CONFIG, r->config && *r->config ? r->config : "-");
	}
	for (i = 0; i < n; i++)
		free(mach[i]);
	free(mach);
}
