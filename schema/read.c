/* read.c: reading runs back whole, with their host, engine, model and samples, for
 * export and merge. Runs stream one at a time, so an export of a million samples
 * holds one run's samples in memory, never the store. */
#include "schema/store_int.h"
#include "tpsdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char runs_sql[] =
	"SELECT r.id, r.uuid, r.started_at, r.ended_at, r.status, r.source, "
	"h.name, h.gpu, h.driver, h.cuda, e.label, e.role, e.version, e.sha256, "
	"m.label, m.file, m.bytes, m.sha256, m.quant, r.ctx, r.n_predict, r.ignore_eos, "
	"r.temperature, r.seed, r.endpoint, r.spec_type, r.n_max, r.drafter, r.extra_args, "
	"r.tag, r.notes, r.load_error, r.log_path, r.warmup, r.prompt_set, r.round, r.batch, "
	"r.config, r.cpu, r.model_type, r.model_n_params, r.looks_to, r.looks_metric, r.env, "
	"r.env_flags, r.collector_host, r.collector_boot, r.collector_pid, r.collector_start, r.spec_settings "
	"FROM run r JOIN host h ON h.id=r.host_id JOIN engine e ON e.id=r.engine_id "
	"JOIN model m ON m.id=r.model_id "
	"WHERE " RUN_FILTER_SQL "ORDER BY r.started_at, r.id";

static const char samples_sql[] =
	"SELECT p.name, p.text_hash, x.rep, x.seq, x.cache_n, x.prompt_n, x.prompt_ms, "
	"x.prompt_per_second, x.predicted_n, x.predicted_ms, x.predicted_per_second, "
	"x.draft_n, x.draft_n_accepted, x.wall_ms, x.http_status, x.error, x.stop_type, "
	"x.output_hash, x.timings, x.flags, x.repeat_share, x.client_ttft_ms, x.client_decode_per_second, "
	"x.client_e2e_ms FROM sample x JOIN prompt p ON p.id=x.prompt_id "
	"WHERE x.run_id=:run ORDER BY x.id";

/* A bit set as stored. One wider than 32 bits (another tool wrote it) becomes all
 * ones, which record_check_* refuses as unknown bits, rather than its low bits:
 * 2^32 + 8 must not read as 8, the failed bit. */
static unsigned col_bits(sqlite3_stmt *st, int i)
{
	int64_t v = sqlite3_column_int64(st, i);

	return v < 0 || v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
}

static void row_to_run(sqlite3_stmt *st, struct run_rec *r)
{
	int c = 1;
	int64_t ie;

	snprintf(r->uuid, sizeof(r->uuid), "%s", store_col_str(st, c++));
	r->started_at = store_col_text(st, c++);
	r->ended_at = store_col_text(st, c++);
	r->status = store_col_text(st, c++);
	r->source = store_col_text(st, c++);
	r->host.name = store_col_text(st, c++);
	r->host.gpu = store_col_text(st, c++);
	r->host.driver = store_col_text(st, c++);
	r->host.cuda = store_col_text(st, c++);
	r->engine.label = store_col_text(st, c++);
	r->engine.role = store_col_text(st, c++);
	r->engine.version = store_col_text(st, c++);
	r->engine.sha256 = store_col_text(st, c++);
	r->model.label = store_col_text(st, c++);
	r->model.file = store_col_text(st, c++);
	r->model.bytes = store_col_i64(st, c++);
	r->model.sha256 = store_col_text(st, c++);
	r->model.quant = store_col_text(st, c++);
	r->ctx = store_col_i64(st, c++);
	r->n_predict = store_col_i64(st, c++);
	ie = store_col_i64(st, c++);
	/* Not narrowed: 2^32 + 1 must not read as 1. Any other value is 2, which
	 * record_check_run() refuses (merge checks every run it reads). */
	r->ignore_eos = ie == TPS_NULL ? -1 : ie == 0 || ie == 1 ? (int)ie : 2;
	r->temperature = store_col_double(st, c++);
	r->seed = store_col_i64(st, c++);
	r->endpoint = store_col_text(st, c++);
	r->spec_type = store_col_text(st, c++);
	r->n_max = store_col_i64(st, c++);
	r->drafter = store_col_text(st, c++);
	r->extra_args = store_col_text(st, c++);
	r->tag = store_col_text(st, c++);
	r->notes = store_col_text(st, c++);
	r->load_error = store_col_text(st, c++);
	r->log_path = store_col_text(st, c++);
	r->warmup = store_col_i64(st, c++);
	r->prompt_set = store_col_text(st, c++);
	r->round = store_col_i64(st, c++);
	r->batch = store_col_text(st, c++);
	r->config = store_col_text(st, c++);
	r->cpu = store_col_text(st, c++);
	r->model_type = store_col_text(st, c++);
	r->model_n_params = store_col_i64(st, c++);
	r->looks_to = store_col_i64(st, c++);
	r->looks_metric = store_col_text(st, c++);
	r->env = store_col_text(st, c++);
	r->env_flags = col_bits(st, c++);
	r->collector_host = store_col_text(st, c++);
	r->collector_boot = store_col_text(st, c++);
	r->collector_pid = store_col_i64(st, c++);
	r->collector_start = store_col_i64(st, c++);
	r->spec_settings = store_col_text(st, c++);
}

static void row_to_sample(sqlite3_stmt *st, struct sample_rec *s)
{
	int c = 0;

	s->prompt_name = store_col_text(st, c++);
	snprintf(s->prompt_hash, sizeof(s->prompt_hash), "%s", store_col_str(st, c++));
	s->rep = store_col_i64(st, c++);
	s->seq = store_col_i64(st, c++);
	s->cache_n = store_col_i64(st, c++);
	s->prompt_n = store_col_i64(st, c++);
	s->prompt_ms = store_col_double(st, c++);
	s->prompt_per_second = store_col_double(st, c++);
	s->predicted_n = store_col_i64(st, c++);
	s->predicted_ms = store_col_double(st, c++);
	s->predicted_per_second = store_col_double(st, c++);
	s->draft_n = store_col_i64(st, c++);
	s->draft_n_accepted = store_col_i64(st, c++);
	s->wall_ms = store_col_double(st, c++);
	s->http_status = store_col_i64(st, c++);
	s->error = store_col_text(st, c++);
	s->stop_type = store_col_text(st, c++);
	s->output_hash = store_col_text(st, c++);
	s->timings = store_col_text(st, c++);
	s->flags = col_bits(st, c++);
	s->repeat_share = store_col_double(st, c++);
	s->client_ttft_ms = store_col_double(st, c++);
	s->client_decode_per_second = store_col_double(st, c++);
	s->client_e2e_ms = store_col_double(st, c++);
}

int store_runs_foreach(struct store *s, const struct run_filter *f,
		       int (*cb)(const struct run_rec *run, const struct sample_rec *smp,
				 size_t n, void *arg),
		       void *arg)
{
	/* The runs cursor stays open while the samples statement runs; each needs its
	 * own prepared statement, so these are not taken from the shared cache. */
	sqlite3_stmt *runs = NULL, *samples = NULL;
	struct sample_rec *smp = NULL;
	size_t n = 0, cap = 0, i;
	struct run_rec r;
	int rc, ret = -1;

	run_rec_init(&r);
	if (sqlite3_prepare_v2(store_db(s), runs_sql, -1, &runs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(store_db(s), samples_sql, -1, &samples, NULL) != SQLITE_OK) {
		store_fail(s, "cannot read runs");
		goto out;
	}
	store_bind_run_filter(runs, f);
	while ((rc = sqlite3_step(runs)) == SQLITE_ROW) {
		row_to_run(runs, &r);
		sqlite3_reset(samples);
		sqlite3_bind_int64(samples, 1, sqlite3_column_int64(runs, 0));
		n = 0;
		while ((rc = sqlite3_step(samples)) == SQLITE_ROW) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				smp = tps_xrealloc(smp, cap * sizeof(*smp));
			}
			sample_rec_init(&smp[n]);
			row_to_sample(samples, &smp[n++]);
		}
		if (rc != SQLITE_DONE) {
			store_fail(s, "cannot read samples");
			goto out;
		}
		rc = cb(&r, smp, n, arg);
		for (i = 0; i < n; i++)
			sample_rec_release(&smp[i]);
		n = 0;
		run_rec_release(&r);
		if (rc) {
			ret = rc;
			goto out;
		}
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "cannot read runs");
		goto out;
	}
	ret = 0;
out:
	for (i = 0; i < n; i++)
		sample_rec_release(&smp[i]);
	free(smp);
	run_rec_release(&r);
	sqlite3_finalize(runs);
	sqlite3_finalize(samples);
	return ret;
}
