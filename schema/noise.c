/* noise.c: writing and looking up A/A noise floors. A floor belongs to a model and a
 * config cell; which engine measured it does not matter, since it estimates what a
 * restart alone does on that host. */
#include "schema/noise.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <math.h>

int store_noise_put(struct store *s, const struct noise_rec *n)
{
	static const char sql[] =
		"INSERT INTO noise_floor(measured_at, host_id, engine_id, model_id, ctx, "
		"n_predict, endpoint, spec_type, n_max, metric, noise_pct, n_pairs, run_a, run_b) "
		"SELECT :now, a.host_id, a.engine_id, a.model_id, a.ctx, a.n_predict, a.endpoint, "
		"a.spec_type, a.n_max, :metric, :pct, :n, a.id, b.id FROM run a, run b "
		"WHERE a.uuid=:a AND b.uuid=:b";
	sqlite3_stmt *st = store_stmt(s, sql);
	char now[32];

	if (!st)
		return -1;
	tps_now_iso(now, sizeof(now));
	store_bind_text(st, ":now", now);
	store_bind_text(st, ":metric", n->metric);
	store_bind_double(st, ":pct", n->noise_pct);
	store_bind_i64(st, ":n", n->n_pairs);
	store_bind_text(st, ":a", n->run_a);
	store_bind_text(st, ":b", n->run_b);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_fail(s, "cannot store the noise floor");
	if (sqlite3_changes(store_db(s)) != 1)
		return tps_error("cannot store the noise floor: run '%s' or '%s' is not in '%s'",
				 n->run_a, n->run_b, store_path(s));
	return 0;
}

int store_noise_put_pairs(struct store *s, const struct noise_pair *p, size_t n)
{
	struct noise_rec rec;
	size_t i;
	int m;

	for (i = 0; i < n; i++) {
		for (m = 0; m < PARITY_N_METRICS; m++) {
			if (p[i].diff.kind != RUN_DIFF_NONE || isnan(p[i].pct[m]))
				continue;
			rec.run_a = p[i].a->uuid;
			rec.run_b = p[i].b->uuid;
			rec.metric = m == PARITY_METRIC_PP ? "pp" : "tg";
			rec.noise_pct = p[i].pct[m];
			rec.n_pairs = (int64_t)p[i].n_pairs[m];
			if (store_noise_put(s, &rec) < 0)
				return -1;
		}
	}
	return 0;
}

int store_noise_get(struct store *s, const char *model, const char *spec_type, int64_t n_max,
		    int64_t ctx, int64_t n_predict, const char *endpoint, const char *metric,
		    double *pct, int64_t *n_pairs)
{
	static const char sql[] =
		"SELECT f.noise_pct, f.n_pairs FROM noise_floor f JOIN model m ON m.id=f.model_id "
		"WHERE m.label=:model AND f.spec_type=:spec AND f.n_max IS :n_max "
		"AND f.ctx IS :ctx AND f.n_predict IS :n_predict AND f.endpoint=:endpoint "
		"AND f.metric=:metric ORDER BY f.measured_at DESC, f.id DESC LIMIT 1";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_text(st, ":model", model);
	store_bind_text(st, ":spec", spec_type ? spec_type : "");
	store_bind_i64(st, ":n_max", n_max);
	store_bind_i64(st, ":ctx", ctx);
	store_bind_i64(st, ":n_predict", n_predict);
	store_bind_text(st, ":endpoint", endpoint ? endpoint : "completion");
	store_bind_text(st, ":metric", metric);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return store_fail(s, "cannot read the noise floor");
	*pct = sqlite3_column_double(st, 0);
	if (n_pairs)
		*n_pairs = sqlite3_column_int64(st, 1);
	return 1;
}
