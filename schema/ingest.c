/* ingest.c: writing runs and samples. Identity rows (host, engine, model, prompt)
 * are found or created on their identifying columns, so a re-import or a merge
 * reuses them. All of it runs inside the caller's BEGIN IMMEDIATE transaction. */
#include "schema/record_check.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* One identifying column: its parameter and its value, text or (text NULL) an integer. */
struct ident_col {
	const char *param;
	const char *text;
	int64_t i64;
};

/* Binds the columns to both statements, runs the find; if it gives no row, the
 * insert, and takes the new row's id. Returns the id or -1. */
static int64_t find_or_insert(struct store *s, const char *find_sql, const char *ins_sql,
			      const struct ident_col *cols, size_t ncols, const char *what)
{
	sqlite3_stmt *find = store_stmt(s, find_sql), *ins = store_stmt(s, ins_sql);
	sqlite3_stmt *sts[2] = { find, ins };
	size_t i, c;
	int rc;

	if (!find || !ins)
		return -1;
	for (i = 0; i < 2; i++)
		for (c = 0; c < ncols; c++)
			if (cols[c].text)
				store_bind_text(sts[i], cols[c].param, cols[c].text);
			else
				store_bind_i64(sts[i], cols[c].param, cols[c].i64);
	rc = sqlite3_step(find);
	if (rc == SQLITE_ROW)
		return sqlite3_column_int64(find, 0);
	if (rc != SQLITE_DONE)
		return store_fail(s, what);
	if (sqlite3_step(ins) != SQLITE_DONE)
		return store_fail(s, what);
	return sqlite3_last_insert_rowid(store_db(s));
}

static int64_t host_id(struct store *s, const struct host_rec *h)
{
	static const char find_sql[] =
		"SELECT id FROM host WHERE name=:name AND gpu=:gpu AND driver=:driver "
		"AND cuda=:cuda";
	static const char ins_sql[] =
		"INSERT INTO host(name, gpu, driver, cuda) VALUES(:name,:gpu,:driver,:cuda)";
	const struct ident_col cols[] = {
		{ ":name", h->name && *h->name ? h->name : "unknown", 0 },
		{ ":gpu", nz(h->gpu), 0 },
		{ ":driver", nz(h->driver), 0 },
		{ ":cuda", nz(h->cuda), 0 },
	};

	return find_or_insert(s, find_sql, ins_sql, cols, sizeof(cols) / sizeof(cols[0]),
			      "cannot record the host");
}

static int64_t engine_id(struct store *s, const struct engine_rec *e)
{
	static const char find_sql[] =
		"SELECT id FROM engine WHERE label=:label AND role=:role AND "
		"version=:version AND sha256=:sha256";
	static const char ins_sql[] =
		"INSERT INTO engine(label, role, version, sha256) "
		"VALUES(:label,:role,:version,:sha256)";
	const struct ident_col cols[] = {
		{ ":label", e->label && *e->label ? e->label : "unknown", 0 },
		{ ":role", e->role && *e->role ? e->role : "other", 0 },
		{ ":version", nz(e->version), 0 },
		{ ":sha256", nz(e->sha256), 0 },
	};

	return find_or_insert(s, find_sql, ins_sql, cols, sizeof(cols) / sizeof(cols[0]),
			      "cannot record the engine");
}

static int64_t model_id(struct store *s, const struct model_rec *m)
{
	static const char find_sql[] =
		"SELECT id FROM model WHERE label=:label AND file=:file AND bytes IS :bytes "
		"AND sha256=:sha256 AND quant=:quant";
	static const char ins_sql[] =
		"INSERT INTO model(label, file, bytes, sha256, quant) "
		"VALUES(:label,:file,:bytes,:sha256,:quant)";
	const struct ident_col cols[] = {
		{ ":label", m->label && *m->label ? m->label : "unknown", 0 },
		{ ":file", nz(m->file), 0 },
		{ ":bytes", NULL, m->bytes },
		{ ":sha256", nz(m->sha256), 0 },
		{ ":quant", nz(m->quant), 0 },
	};

	return find_or_insert(s, find_sql, ins_sql, cols, sizeof(cols) / sizeof(cols[0]),
			      "cannot record the model");
}

int store_run_exists(struct store *s, const char *uuid)
{
	static const char sql[] = "SELECT 1 FROM run WHERE uuid=:uuid";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_text(st, ":uuid", uuid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail(s, "cannot look up a run");
}

int64_t store_run_insert(struct store *s, const struct run_rec *r)
{
	static const char sql[] =
		"INSERT INTO run(uuid, started_at, ended_at, status, source, host_id, "
		"engine_id, model_id, ctx, n_predict, ignore_eos, temperature, seed, endpoint, "
		"spec_type, n_max, drafter, extra_args, tag, notes, load_error, log_path, "
		"warmup, prompt_set, round, batch, config, cpu, model_type, model_n_params, "
		"looks_to, looks_metric, env, env_flags, collector_host, collector_boot, "
		"collector_pid, collector_start, spec_settings) "
		"VALUES(:uuid,:started_at,:ended_at,:status,"
		":source,:host,:engine,:model,:ctx,:n_predict,:ignore_eos,:temperature,:seed,"
		":endpoint,:spec_type,:n_max,:drafter,:extra_args,:tag,:notes,:load_error,"
		":log_path,:warmup,:prompt_set,:round,:batch,:config,:cpu,:model_type,"
		":model_n_params,:looks_to,:looks_metric,:env,:env_flags,:collector_host,"
		":collector_boot,:collector_pid,:collector_start,:spec_settings)";
	int64_t h, e, m;
	sqlite3_stmt *st;
	char now[32], why[256];

	/* Labels, tags and notes are valid UTF-8 whoever writes the run (collect's
	 * --engine, --tag and --notes included); import checks every rule before this. */
	if (record_check_run_text(r, why, sizeof(why)) < 0) {
		tps_error("cannot store run '%s': %s", r->uuid, why);
		return -1;
	}

	if ((h = host_id(s, &r->host)) < 0 || (e = engine_id(s, &r->engine)) < 0 ||
	    (m = model_id(s, &r->model)) < 0)
		return -1;
	if (!(st = store_stmt(s, sql)))
		return -1;
	tps_now_iso(now, sizeof(now));
	store_bind_text(st, ":uuid", r->uuid);
	store_bind_text(st, ":started_at", r->started_at ? r->started_at : now);
	store_bind_text(st, ":ended_at", r->ended_at);
	store_bind_text(st, ":status", r->status ? r->status : "running");
	store_bind_text(st, ":source", r->source ? r->source : "import");
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":host"), h);
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":engine"), e);
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":model"), m);
	store_bind_i64(st, ":ctx", r->ctx);
	store_bind_i64(st, ":n_predict", r->n_predict);
	store_bind_i64(st, ":ignore_eos", r->ignore_eos < 0 ? TPS_NULL : r->ignore_eos);
	store_bind_double(st, ":temperature", r->temperature);
	store_bind_i64(st, ":seed", r->seed);
	store_bind_text(st, ":endpoint", r->endpoint ? r->endpoint : "completion");
	store_bind_text(st, ":spec_type", nz(r->spec_type));
	store_bind_i64(st, ":n_max", r->n_max);
	store_bind_text(st, ":drafter", nz(r->drafter));
	store_bind_text(st, ":extra_args", nz(r->extra_args));
	store_bind_text(st, ":tag", nz(r->tag));
	store_bind_text(st, ":notes", nz(r->notes));
	store_bind_text(st, ":load_error", r->load_error);
	store_bind_text(st, ":log_path", r->log_path);
	store_bind_i64(st, ":warmup", r->warmup);
	store_bind_text(st, ":prompt_set", nz(r->prompt_set));
	store_bind_i64(st, ":round", r->round);
	store_bind_text(st, ":batch", r->batch);
	store_bind_text(st, ":config", nz(r->config));
	store_bind_text(st, ":cpu", nz(r->cpu));
	store_bind_text(st, ":model_type", nz(r->model_type));
	store_bind_i64(st, ":model_n_params", r->model_n_params);
	store_bind_i64(st, ":looks_to", r->looks_to);
	store_bind_text(st, ":looks_metric", r->looks_metric);
	store_bind_text(st, ":env", r->env);
	store_bind_i64(st, ":env_flags", (int64_t)r->env_flags);
	store_bind_text(st, ":collector_host", r->collector_host);
	store_bind_text(st, ":collector_boot", r->collector_boot);
	store_bind_i64(st, ":collector_pid", r->collector_pid);
	store_bind_i64(st, ":collector_start", r->collector_start);
	store_bind_text(st, ":spec_settings", nz(r->spec_settings));
	if (sqlite3_step(st) != SQLITE_DONE) {
		if (sqlite3_extended_errcode(store_db(s)) == SQLITE_CONSTRAINT_UNIQUE)
			return tps_error("run '%s' is already in '%s'", r->uuid, store_path(s));
		return store_fail(s, "cannot record the run");
	}
	return sqlite3_last_insert_rowid(store_db(s));
}

static int64_t prompt_id(struct store *s, const struct sample_rec *smp)
{
	static const char find_sql[] = "SELECT id, n_tokens FROM prompt WHERE text_hash=:hash";
	static const char ins_sql[] =
		"INSERT INTO prompt(name, text_hash, n_tokens) VALUES(:name,:hash,:n_tokens)";
	static const char tok_sql[] =
		"UPDATE prompt SET n_tokens=:n_tokens WHERE id=:id AND n_tokens IS NULL";
	sqlite3_stmt *find = store_stmt(s, find_sql), *ins, *tok;
	int64_t id;
	int rc;

	if (!find)
		return -1;
	store_bind_text(find, ":hash", smp->prompt_hash);
	rc = sqlite3_step(find);
	if (rc == SQLITE_ROW) {
		/* The common case on a bulk import: known, with its token count. */
		id = sqlite3_column_int64(find, 0);
		if (sqlite3_column_type(find, 1) != SQLITE_NULL || smp->prompt_n == TPS_NULL)
			return id;
		if (!(tok = store_stmt(s, tok_sql)))
			return -1;
		store_bind_i64(tok, ":n_tokens", smp->prompt_n);
		store_bind_i64(tok, ":id", id);
		if (sqlite3_step(tok) != SQLITE_DONE)
			return store_fail(s, "cannot record the prompt");
		return id;
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot record the prompt");
	if (!(ins = store_stmt(s, ins_sql)))
		return -1;
	store_bind_text(ins, ":hash", smp->prompt_hash);
	store_bind_text(ins, ":name", smp->prompt_name ? smp->prompt_name : smp->prompt_hash);
	store_bind_i64(ins, ":n_tokens", smp->prompt_n);
	if (sqlite3_step(ins) != SQLITE_DONE)
		return store_fail(s, "cannot record the prompt");
	return sqlite3_last_insert_rowid(store_db(s));
}

/* Positional binds with store_bind_*'s conventions, for the one statement that runs
 * once per sample: looking parameters up by name was a few percent of an import.
 * Strings are bound SQLITE_STATIC: they outlive the sqlite3_step() below. */
static void bind_i64_at(sqlite3_stmt *st, int i, int64_t v)
{
	if (v == TPS_NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

static void bind_dbl_at(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static void bind_text_at(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

int store_sample_insert(struct store *s, int64_t run_id, const struct sample_rec *smp)
{
	/* Parameters are numbered in this order: ?1 is the run ... ?20 the flags, ?21
	 * the repeat share, ?22 and ?23 the rates, ?24 to ?26 the client's clock. */
	static const char sql[] =
		"INSERT INTO sample(run_id, prompt_id, rep, seq, cache_n, prompt_n, prompt_ms, "
		"prompt_per_second, predicted_n, predicted_ms, predicted_per_second, draft_n, "
		"draft_n_accepted, wall_ms, http_status, error, stop_type, output_hash, timings, "
		"flags, repeat_share, pp_rate, tg_rate, client_ttft_ms, client_decode_per_second, "
		"client_e2e_ms) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,"
		"?18,?19,?20,?21,?22,?23,?24,?25,?26)";
	sqlite3_stmt *st;
	int64_t pid;
	int rc;

	if ((pid = prompt_id(s, smp)) < 0)
		return -1;
	if (!(st = store_stmt(s, sql)))
		return -1;
	bind_i64_at(st, 1, run_id);
	bind_i64_at(st, 2, pid);
	bind_i64_at(st, 3, smp->rep == TPS_NULL ? 1 : smp->rep);
	bind_i64_at(st, 4, smp->seq);
	bind_i64_at(st, 5, smp->cache_n);
	bind_i64_at(st, 6, smp->prompt_n);
	bind_dbl_at(st, 7, smp->prompt_ms);
	bind_dbl_at(st, 8, smp->prompt_per_second);
	bind_i64_at(st, 9, smp->predicted_n);
	bind_dbl_at(st, 10, smp->predicted_ms);
	bind_dbl_at(st, 11, smp->predicted_per_second);
	bind_i64_at(st, 12, smp->draft_n);
	bind_i64_at(st, 13, smp->draft_n_accepted);
	bind_dbl_at(st, 14, smp->wall_ms);
	bind_i64_at(st, 15, smp->http_status);
	bind_text_at(st, 16, smp->error);
	bind_text_at(st, 17, smp->stop_type);
	bind_text_at(st, 18, smp->output_hash);
	bind_text_at(st, 19, smp->timings);
	bind_i64_at(st, 20, (int64_t)smp->flags);
	bind_dbl_at(st, 21, smp->repeat_share);
	/* Computed here from the raw facts, whoever filled the record: an import
	 * never brings its own idea of the rate. */
	bind_dbl_at(st, 22, record_pp_rate(smp));
	bind_dbl_at(st, 23, record_tg_rate(smp));
	bind_dbl_at(st, 24, smp->client_ttft_ms);
	bind_dbl_at(st, 25, smp->client_decode_per_second);
	bind_dbl_at(st, 26, smp->client_e2e_ms);
	rc = sqlite3_step(st);
	/* Nothing may keep pointing at the caller's strings once this returns. */
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		if (sqlite3_extended_errcode(store_db(s)) == SQLITE_CONSTRAINT_UNIQUE)
			return tps_error("prompt '%s' repetition %lld appears twice in one run",
					 smp->prompt_name ? smp->prompt_name : smp->prompt_hash,
					 (long long)smp->rep);
		return store_fail(s, "cannot record a sample");
	}
	return 0;
}

/* quiet: no error line (store_run_abandon()'s caller has printed the one that matters). */
static int run_finish(struct store *s, int64_t run_id, const char *status,
		      const char *ended_at, const char *load_error, int quiet)
{
	static const char hashes_sql[] =
		"SELECT DISTINCT p.text_hash FROM sample x JOIN prompt p ON p.id=x.prompt_id "
		"WHERE x.run_id=:run ORDER BY 1";
	static const char upd_sql[] =
		"UPDATE run SET status=:status, ended_at=:ended, prompt_set=:set, "
		"load_error=coalesce(:load_error, load_error) WHERE id=:run";
	sqlite3_stmt *st = store_stmt(s, hashes_sql);
	struct sha256 c;
	char set[65], now[32];
	int rc, n = 0;

	if (!st)
		return -1;
	sha256_init(&c);
	store_bind_i64(st, ":run", run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sha256_update(&c, sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0));
		sha256_update(&c, "\n", 1);
		n++;
	}
	if (rc != SQLITE_DONE) {
		sha256_release(&c);
		return quiet ? -1 : store_fail(s, "cannot read a run's prompts");
	}
	sha256_final_hex(&c, set);
	if (!(st = store_stmt(s, upd_sql)))
		return -1;
	tps_now_iso(now, sizeof(now));
	store_bind_text(st, ":status", status);
	store_bind_text(st, ":ended", ended_at ? ended_at : now);
	store_bind_text(st, ":set", n ? set : "");
	store_bind_text(st, ":load_error", load_error);
	store_bind_i64(st, ":run", run_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		return quiet ? -1 : store_fail(s, "cannot finish the run");
	return 0;
}

int store_run_finish(struct store *s, int64_t run_id, const char *status,
		     const char *ended_at, const char *load_error)
{
	return run_finish(s, run_id, status, ended_at, load_error, 0);
}

int store_run_abandon(struct store *s, int64_t run_id)
{
	return run_finish(s, run_id, "failed", NULL, NULL, 1);
}

int store_run_env(struct store *s, int64_t run_id, const char *env)
{
	static const char sql[] = "UPDATE run SET env=:env, env_flags=0 WHERE id=:run";
	sqlite3_stmt *st = store_stmt(s, sql);

	if (!st)
		return -1;
	store_bind_text(st, ":env", env);
	store_bind_i64(st, ":run", run_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_fail(s, "cannot record the run's environment");
	return 0;
}

int store_run_restore(struct store *s, const struct run_rec *r, const struct sample_rec *smp,
		      size_t n)
{
	int64_t id;
	size_t i;
	int have = store_run_exists(s, r->uuid);

	if (have != 0)
		return have; /* 1: already here, nothing to do; -1: error */
	if ((id = store_run_insert(s, r)) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (store_sample_insert(s, id, &smp[i]) < 0)
			return -1;
	}
	return 0;
}
