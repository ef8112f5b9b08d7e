/* cells.c: the queries behind compare, sweep, gate, trend and report. Picking runs
 * and aggregating happen in SQL over indexed columns, so a store of a million samples
 * hands over only the few rows a verdict needs. */
#include "schema/cells.h"
#include "schema/record.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

static const char runs_sql[] =
	"SELECT id, uuid, engine, role, model, msha, mquant, host, tag, started_at, status, "
	"spec_type, endpoint, prompt_set, n_max, ctx, n_predict, warmup, nsamp, config, round,"
	" batch, ended_at, looks_to, env_flags, ndegen, temperature FROM ("
	" SELECT r.id, r.uuid, e.label AS engine, e.role, m.label AS model, m.sha256 AS msha,"
	" m.quant AS mquant, h.name AS host, r.tag, r.started_at, " RUN_STATUS_SQL " AS status,"
	" r.spec_type,"
	" r.endpoint, r.prompt_set, r.n_max, r.ctx, r.n_predict, r.warmup, r.config, r.round,"
	" r.batch, r.ended_at, r.looks_to, r.env_flags, r.temperature,"
	" (SELECT count(*) FROM sample x WHERE x.run_id=r.id) AS nsamp,"
	" (SELECT count(*) FROM sample x WHERE x.run_id=r.id AND x.flags & :degen) AS ndegen,"
	" row_number() OVER (PARTITION BY e.label, m.label, r.spec_type, r.n_max, r.endpoint,"
	"   r.config"
	"   ORDER BY r.started_at DESC, r.id DESC) AS rn"
	" FROM run r JOIN engine e ON e.id=r.engine_id JOIN model m ON m.id=r.model_id"
	" JOIN host h ON h.id=r.host_id"
	" WHERE (:engine IS NULL OR e.label=:engine) AND (:model IS NULL OR m.label=:model)"
	" AND (:tag IS NULL OR r.tag=:tag) AND (:host IS NULL OR h.name=:host)"
	" AND (:batch IS NULL OR r.batch=:batch)"
	" AND (:baseline IS NULL OR r.id IN (SELECT br.run_id FROM baseline_run br"
	"   JOIN baseline b ON b.id=br.baseline_id WHERE b.name=:baseline))"
	" AND EXISTS (SELECT 1 FROM sample x WHERE x.run_id=r.id AND x.flags & :failed = 0)"
	" AND " RUN_FILTER_SQL
	") WHERE rn=1 OR :all "
	"ORDER BY model, spec_type, n_max IS NOT NULL, n_max, config, engine, started_at, id";

int store_cell_runs(struct store *s, const struct cell_filter *f, struct cell_run **out,
		    size_t *n)
{
	sqlite3_stmt *st = store_stmt(s, runs_sql);
	struct cell_run *v = NULL;
	size_t len = 0, cap = 0;
	int rc, ret = -1;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	store_bind_text(st, ":engine", f->engine);
	store_bind_text(st, ":model", f->model);
	store_bind_text(st, ":tag", f->tag);
	store_bind_text(st, ":host", f->host);
	store_bind_text(st, ":baseline", f->baseline);
	store_bind_text(st, ":batch", f->batch);
	store_bind_i64(st, ":failed", SAMPLE_FAILED);
	store_bind_i64(st, ":degen", SAMPLE_DEGENERATE);
	store_bind_i64(st, ":all", f->all ? 1 : 0);
	store_bind_run_filter(st, f->run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cell_run *r;
		int c = 0;
		if (len == cap) {
			cap = cap ? 2 * cap : 32;
			v = tps_xrealloc(v, cap * sizeof(*v));
		}
		r = &v[len++];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, c++);
		snprintf(r->uuid, sizeof(r->uuid), "%s", store_col_str(st, c++));
		r->engine = store_col_text(st, c++);
		r->role = store_col_text(st, c++);
		r->model = store_col_text(st, c++);
		r->model_sha256 = store_col_text(st, c++);
		r->model_quant = store_col_text(st, c++);
		r->host = store_col_text(st, c++);
		r->tag = store_col_text(st, c++);
		r->started_at = store_col_text(st, c++);
		r->status = store_col_text(st, c++);
		r->spec_type = store_col_text(st, c++);
		r->endpoint = store_col_text(st, c++);
		r->prompt_set = store_col_text(st, c++);
		r->n_max = store_col_i64(st, c++);
		r->ctx = store_col_i64(st, c++);
		r->n_predict = store_col_i64(st, c++);
		r->warmup = store_col_i64(st, c++);
		r->n_samples = store_col_i64(st, c++);
		r->config = store_col_text(st, c++);
		r->round = store_col_i64(st, c++);
		r->batch = store_col_text(st, c++);
		r->ended_at = store_col_text(st, c++);
		r->looks_to = store_col_i64(st, c++);
		r->env_flags = (unsigned)sqlite3_column_int64(st, c++);
		r->n_degenerate = sqlite3_column_int64(st, c++);
		r->temperature = store_col_double(st, c++);
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "cannot list runs");
		goto out;
	}
	*out = v;
	*n = len;
	v = NULL;
	len = 0;
	ret = 0;
out:
	cell_runs_free(v, len);
	return ret;
}

void cell_run_release(struct cell_run *r)
{
	if (!r)
		return;
	free(r->engine); free(r->role); free(r->model); free(r->model_sha256);
	free(r->model_quant); free(r->host); free(r->tag); free(r->started_at);
	free(r->status); free(r->spec_type); free(r->endpoint); free(r->prompt_set);
	free(r->config);
	free(r->batch);
	free(r->ended_at);
	for (size_t i = 0; i < r->n_outputs; i++)
		free((char *)r->outputs[i].hash);
	free(r->outputs);
	memset(r, 0, sizeof(*r));
}

int store_cell_outputs(struct store *s, struct cell_run *r)
{
	static const char sql[] =
		"SELECT prompt_id, rep, output_hash FROM sample WHERE run_id=:run AND "
		"output_hash IS NOT NULL AND flags & :failed = 0 ORDER BY prompt_id, rep";
	sqlite3_stmt *st = store_stmt(s, sql);
	size_t cap = 0;
	int rc;

	if (!st)
		return -1;
	if (r->outputs)
		return 0;
	store_bind_i64(st, ":run", r->id);
	store_bind_i64(st, ":failed", SAMPLE_FAILED);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct parity_output *o;
		if (r->n_outputs == cap) {
			cap = cap ? 2 * cap : 16;
			r->outputs = tps_xrealloc(r->outputs, cap * sizeof(*r->outputs));
		}
		o = &r->outputs[r->n_outputs++];
		o->prompt_id = sqlite3_column_int64(st, 0);
		o->rep = sqlite3_column_int64(st, 1);
		o->hash = store_col_text(st, 2);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read output hashes");
	return 0;
}

void cell_runs_free(struct cell_run *runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cell_run_release(&runs[i]);
	free(runs);
}

int store_cell_values(struct store *s, int64_t run_id, enum cell_metric m,
		      struct cell_value **out, size_t *n, size_t *excluded)
{
	static const char pp_sql[] =
		"SELECT prompt_id, rep, prompt_per_second, flags & :spoils FROM sample "
		"WHERE run_id=:run ORDER BY prompt_id, rep";
	static const char tg_sql[] =
		"SELECT prompt_id, rep, predicted_per_second, flags & :spoils FROM sample "
		"WHERE run_id=:run ORDER BY prompt_id, rep";
	sqlite3_stmt *st = store_stmt(s, m == CELL_PP ? pp_sql : tg_sql);
	struct cell_value *v = NULL;
	size_t len = 0, cap = 0, bad = 0;
	int rc;

	*out = NULL;
	*n = 0;
	*excluded = 0;
	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	store_bind_i64(st, ":spoils", m == CELL_PP ? SAMPLE_SPOILS_PP : SAMPLE_SPOILS_TG);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 3) || sqlite3_column_type(st, 2) == SQLITE_NULL) {
			bad++;
			continue;
		}
		if (len == cap) {
			cap = cap ? 2 * cap : 32;
			v = tps_xrealloc(v, cap * sizeof(*v));
		}
		v[len].prompt_id = sqlite3_column_int64(st, 0);
		v[len].rep = sqlite3_column_int64(st, 1);
		v[len].value = sqlite3_column_double(st, 2);
		len++;
	}
	if (rc != SQLITE_DONE) {
		free(v);
		return store_fail(s, "cannot read samples");
	}
	*out = v;
	*n = len;
	*excluded = bad;
	return 0;
}

int store_cell_agg(struct store *s, int64_t run_id, struct cell_agg *out)
{
	static const char sql[] =
		"SELECT count(*), total(predicted_n), total(draft_n), total(draft_n_accepted), "
		"total(predicted_ms), count(draft_n) FROM sample "
		"WHERE run_id=:run AND flags & :spoils = 0 AND predicted_per_second IS NOT NULL";
	sqlite3_stmt *st = store_stmt(s, sql);

	memset(out, 0, sizeof(*out));
	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	store_bind_i64(st, ":spoils", SAMPLE_SPOILS_TG);
	if (sqlite3_step(st) != SQLITE_ROW)
		return store_fail(s, "cannot aggregate samples");
	out->n = sqlite3_column_int64(st, 0);
	out->predicted_n = (int64_t)sqlite3_column_double(st, 1);
	out->draft_n = (int64_t)sqlite3_column_double(st, 2);
	out->draft_n_accepted = (int64_t)sqlite3_column_double(st, 3);
	out->predicted_ms = sqlite3_column_double(st, 4);
	out->has_draft = sqlite3_column_int64(st, 5) > 0;
	return 0;
}

int store_cell_prompts(struct store *s, int64_t run_id,
		       void (*cb)(const char *prompt, double tg, int64_t draft_n,
				  int64_t draft_n_accepted, void *arg),
		       void *arg)
{
	static const char sql[] =
		"SELECT p.name, avg(x.predicted_per_second), total(x.draft_n), "
		"total(x.draft_n_accepted) FROM sample x JOIN prompt p ON p.id=x.prompt_id "
		"WHERE x.run_id=:run AND x.flags & :spoils = 0 "
		"AND x.predicted_per_second IS NOT NULL GROUP BY p.id ORDER BY p.name";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	store_bind_i64(st, ":spoils", SAMPLE_SPOILS_TG);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cb(store_col_str(st, 0), sqlite3_column_double(st, 1),
		   (int64_t)sqlite3_column_double(st, 2), (int64_t)sqlite3_column_double(st, 3),
		   arg);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read per-prompt figures");
	return 0;
}

int store_cell_accept_values(struct store *s, int64_t run_id, struct cell_value **out,
			     size_t *n, size_t *excluded)
{
	static const char sql[] =
		"SELECT prompt_id, rep, draft_n, draft_n_accepted, flags & :spoils FROM sample "
		"WHERE run_id=:run ORDER BY prompt_id, rep";
	sqlite3_stmt *st = store_stmt(s, sql);
	struct cell_value *v = NULL;
	size_t len = 0, cap = 0, bad = 0;
	int rc;

	*out = NULL;
	*n = 0;
	*excluded = 0;
	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	store_bind_i64(st, ":spoils", SAMPLE_SPOILS_TG);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t dn = sqlite3_column_int64(st, 2);
		/* A sample that drafted nothing has no acceptance to speak of; counting it
		 * as 0 would read as a drafter that rejects everything. */
		if (sqlite3_column_int64(st, 4) || sqlite3_column_type(st, 2) == SQLITE_NULL ||
		    sqlite3_column_type(st, 3) == SQLITE_NULL || dn <= 0) {
			bad++;
			continue;
		}
		if (len == cap) {
			cap = cap ? 2 * cap : 32;
			v = tps_xrealloc(v, cap * sizeof(*v));
		}
		v[len].prompt_id = sqlite3_column_int64(st, 0);
		v[len].rep = sqlite3_column_int64(st, 1);
		v[len].value = (double)sqlite3_column_int64(st, 3) / (double)dn;
		len++;
	}
	if (rc != SQLITE_DONE) {
		free(v);
		return store_fail(s, "cannot read samples");
	}
	*out = v;
	*n = len;
	*excluded = bad;
	return 0;
}

int store_cell_flag_counts(struct store *s, int64_t run_id, int64_t *counts, size_t n_flags,
			   int64_t *n_samples)
{
	static const char sql[] =
		"SELECT flags, count(*) FROM sample WHERE run_id=:run GROUP BY flags";
	sqlite3_stmt *st = store_stmt(s, sql);
	int64_t total = 0;
	size_t i;
	int rc;

	for (i = 0; i < n_flags; i++)
		counts[i] = 0;
	if (n_samples)
		*n_samples = 0;
	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t flags = sqlite3_column_int64(st, 0), k = sqlite3_column_int64(st, 1);
		total += k;
		for (i = 0; i < n_flags && i < 63; i++)
			if (flags & ((int64_t)1 << i))
				counts[i] += k;
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot count sample flags");
	if (n_samples)
		*n_samples = total;
	return 0;
}
