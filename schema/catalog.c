/* catalog.c: the SQL behind `tpsdb runs`, `tpsdb models` and `tpsdb check`: runs
 * with their sample counts and unspoiled rates, the model registry and the two
 * identity alarms, and per-run data-quality counts. Flag bits are bound from
 * schema/record.h rather than spelled in the SQL, so the two cannot disagree. */
#include "schema/catalog.h"
#include "schema/record_json.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Appends to a growing array of elem-sized items; returns the new slot, zeroed. */
static void *grow(void *arr, size_t *n, size_t *cap, size_t elem)
{
	char *p = arr;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		p = tps_xrealloc(p, *cap * elem);
	}
	memset(p + *n * elem, 0, elem);
	(*n)++;
	return p;
}

static void hosts_add(struct catalog_hosts *h, const char *name)
{
	size_t i;
	for (i = 0; i < h->n; i++) {
		if (!strcmp(h->name[i], name))
			return;
	}
	h->name = tps_xrealloc(h->name, (h->n + 1) * sizeof(*h->name));
	h->name[h->n++] = tps_xstrdup(name);
}

static void hosts_release(struct catalog_hosts *h)
{
	size_t i;
	for (i = 0; i < h->n; i++)
		free(h->name[i]);
	free(h->name);
	h->name = NULL;
	h->n = 0;
}

/* --- runs --- */

/* --limit keeps the latest runs: numbered newest first, listed oldest first. */
static const char runs_sql[] =
	"SELECT * FROM (SELECT r.id, r.uuid, r.started_at, r.ended_at, " RUN_STATUS_SQL ", "
	"r.source, "
	"h.name, e.label, e.role, m.label, r.tag, r.spec_type, r.endpoint, r.load_error, "
	"r.ctx, r.n_predict, r.n_max, r.warmup, r.round, r.batch, r.config, r.cpu, e.version, "
	"e.sha256, h.gpu, h.driver, h.cuda, "
	"row_number() OVER (ORDER BY r.started_at DESC, r.id DESC) AS rn "
	"FROM run r JOIN host h ON h.id=r.host_id JOIN engine e ON e.id=r.engine_id "
	"JOIN model m ON m.id=r.model_id WHERE " RUN_FILTER_SQL
	") WHERE :f_limit < 0 OR rn <= :f_limit ORDER BY rn DESC";

static const char rates_sql[] =
	"SELECT pp_rate, tg_rate, flags, prompt_n, predicted_n FROM sample "
	"WHERE run_id=:run ORDER BY id";

static int run_rates(struct store *s, int64_t run_id, struct catalog_run *r)
{
	sqlite3_stmt *st = store_stmt(s, rates_sql);
	size_t cpp = 0, ctg = 0;
	int rc;

	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double pp = store_col_double(st, 0), tg = store_col_double(st, 1);
		unsigned flags = (unsigned)sqlite3_column_int64(st, 2);
		unsigned found = record_finding_flags(r->endpoint, store_col_i64(st, 3),
						      store_col_i64(st, 4), flags);

		r->n_samples++;
		if (found & SAMPLE_FAILED)
			r->n_failed++;
		if (found)
			r->n_flagged++;
		if (!isnan(pp) && !(flags & SAMPLE_SPOILS_PP)) {
			r->pp = grow(r->pp, &r->npp, &cpp, sizeof(*r->pp));
			r->pp[r->npp - 1] = pp;
		}
		if (!isnan(tg) && !(flags & SAMPLE_SPOILS_TG)) {
			r->tg = grow(r->tg, &r->ntg, &ctg, sizeof(*r->tg));
			r->tg[r->ntg - 1] = tg;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read a run's samples");
	return 0;
}

int catalog_runs(struct store *s, const struct run_filter *f, struct catalog_run **out,
		 size_t *n)
{
	struct catalog_run *runs = NULL;
	size_t nruns = 0, cap = 0;
	sqlite3_stmt *st = store_stmt(s, runs_sql);
	int rc, ret = -1;

	*out = NULL;
	*n = 0;
	if (!st)
		goto out;
	store_bind_run_filter(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct catalog_run *r;
		int c = 1;

		runs = grow(runs, &nruns, &cap, sizeof(*runs));
		r = &runs[nruns - 1];
		r->uuid = store_col_text(st, c++);
		r->started_at = store_col_text(st, c++);
		r->ended_at = store_col_text(st, c++);
		r->status = store_col_text(st, c++);
		r->source = store_col_text(st, c++);
		r->host = store_col_text(st, c++);
		r->engine = store_col_text(st, c++);
		r->role = store_col_text(st, c++);
		r->model = store_col_text(st, c++);
		r->tag = store_col_text(st, c++);
		r->spec_type = store_col_text(st, c++);
		r->endpoint = store_col_text(st, c++);
		r->load_error = store_col_text(st, c++);
		r->ctx = store_col_i64(st, c++);
		r->n_predict = store_col_i64(st, c++);
		r->n_max = store_col_i64(st, c++);
		r->warmup = store_col_i64(st, c++);
		r->round = store_col_i64(st, c++);
		r->batch = store_col_text(st, c++);
		r->config = store_col_text(st, c++);
		r->cpu = store_col_text(st, c++);
		r->engine_version = store_col_text(st, c++);
		r->engine_sha256 = store_col_text(st, c++);
		r->gpu = store_col_text(st, c++);
		r->driver = store_col_text(st, c++);
		r->cuda = store_col_text(st, c++);
		if (run_rates(s, sqlite3_column_int64(st, 0), r) < 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "cannot list runs");
		goto out;
	}
	*out = runs;
	*n = nruns;
	runs = NULL;
	ret = 0;
out:
	if (st)
		sqlite3_reset(st);
	catalog_runs_free(runs, nruns);
	return ret;
}

void catalog_run_release(struct catalog_run *r)
{
	free(r->uuid);
	free(r->started_at);
	free(r->ended_at);
	free(r->status);
	free(r->source);
	free(r->host);
	free(r->engine);
	free(r->engine_version);
	free(r->engine_sha256);
	free(r->gpu);
	free(r->driver);
	free(r->cuda);
	free(r->role);
	free(r->model);
	free(r->tag);
	free(r->spec_type);
	free(r->endpoint);
	free(r->load_error);
	free(r->load_line);
	free(r->batch);
	free(r->config);
	free(r->cpu);
	free(r->pp);
	free(r->tg);
	memset(r, 0, sizeof(*r));
}

void catalog_runs_free(struct catalog_run *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		catalog_run_release(&r[i]);
	free(r);
}

/* --- the model registry --- */

/* One row per model and host; a model no run uses yet has one row with host NULL. */
static const char models_sql[] =
	"SELECT m.id, m.label, m.file, m.bytes, m.sha256, m.quant, h.name, count(r.id) "
	"FROM model m LEFT JOIN run r ON r.model_id=m.id LEFT JOIN host h ON h.id=r.host_id "
	"GROUP BY m.id, h.name ORDER BY m.label, m.file, m.quant, m.sha256, m.id, h.name";

int catalog_models(struct store *s, struct catalog_model **out, size_t *n)
{
	struct catalog_model *ms = NULL, *m = NULL;
	size_t nm = 0, cap = 0;
	sqlite3_stmt *st = store_stmt(s, models_sql);
	int64_t last = -1;
	int rc, ret = -1;

	*out = NULL;
	*n = 0;
	if (!st)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id != last) {
			ms = grow(ms, &nm, &cap, sizeof(*ms));
			m = &ms[nm - 1];
			m->label = tps_xstrdup(store_col_str(st, 1));
			m->file = tps_xstrdup(store_col_str(st, 2));
			m->bytes = store_col_i64(st, 3);
			m->sha256 = tps_xstrdup(store_col_str(st, 4));
			m->quant = tps_xstrdup(store_col_str(st, 5));
			last = id;
		}
		if (sqlite3_column_type(st, 6) != SQLITE_NULL)
			hosts_add(&m->hosts, store_col_str(st, 6));
		m->runs += sqlite3_column_int64(st, 7);
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "cannot list models");
		goto out;
	}
	*out = ms;
	*n = nm;
	ms = NULL;
	ret = 0;
out:
	if (st)
		sqlite3_reset(st);
	catalog_models_free(ms, nm);
	return ret;
}

void catalog_models_free(struct catalog_model *m, size_t n)
{
	size_t i;

	for (i = 0; m && i < n; i++) {
		free(m[i].label);
		free(m[i].file);
		free(m[i].sha256);
		free(m[i].quant);
		hosts_release(&m[i].hosts);
	}
	free(m);
}

/* Each returns (subject, value, host) for the subjects with two or more distinct
 * known values, ordered so that one pass can group them. */
static const char file_sha_sql[] =
	"SELECT m.file, m.sha256, h.name FROM model m "
	"LEFT JOIN run r ON r.model_id=m.id LEFT JOIN host h ON h.id=r.host_id "
	"WHERE m.sha256<>'' AND m.file IN (SELECT file FROM model WHERE file<>'' AND "
	"sha256<>'' GROUP BY file HAVING count(DISTINCT sha256)>1) "
	"GROUP BY m.file, m.sha256, h.name ORDER BY 1, 2, 3";

static const char label_quant_sql[] =
	"SELECT m.label, m.quant, h.name FROM model m "
	"LEFT JOIN run r ON r.model_id=m.id LEFT JOIN host h ON h.id=r.host_id "
	"WHERE m.quant<>'' AND m.label IN (SELECT label FROM model WHERE quant<>'' "
	"GROUP BY label HAVING count(DISTINCT quant)>1) "
	"GROUP BY m.label, m.quant, h.name ORDER BY 1, 2, 3";

static int alarms_of(struct store *s, const char *sql, const char *kind,
		     struct catalog_alarm **arr, size_t *n, size_t *cap)
{
	sqlite3_stmt *st = store_stmt(s, sql);
	struct catalog_alarm *a = NULL;
	struct catalog_variant *v = NULL;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *subject = store_col_str(st, 0), *value = store_col_str(st, 1);

		if (!a || strcmp(a->subject, subject)) {
			*arr = grow(*arr, n, cap, sizeof(**arr));
			a = &(*arr)[*n - 1];
			a->kind = kind;
			a->subject = tps_xstrdup(subject);
			v = NULL;
		}
		if (!v || strcmp(v->value, value)) {
			a->v = tps_xrealloc(a->v, (a->nv + 1) * sizeof(*a->v));
			v = &a->v[a->nv++];
			memset(v, 0, sizeof(*v));
			v->value = tps_xstrdup(value);
		}
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			hosts_add(&v->hosts, store_col_str(st, 2));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot check model identities");
	return 0;
}

int catalog_alarms(struct store *s, struct catalog_alarm **out, size_t *n)
{
	struct catalog_alarm *a = NULL;
	size_t na = 0, cap = 0;

	*out = NULL;
	*n = 0;
	if (alarms_of(s, file_sha_sql, CATALOG_ALARM_FILE_SHA256, &a, &na, &cap) < 0 ||
	    alarms_of(s, label_quant_sql, CATALOG_ALARM_LABEL_QUANT, &a, &na, &cap) < 0) {
		catalog_alarms_free(a, na);
		return -1;
	}
	*out = a;
	*n = na;
	return 0;
}

void catalog_alarms_free(struct catalog_alarm *a, size_t n)
{
	size_t i, j;

	for (i = 0; a && i < n; i++) {
		free(a[i].subject);
		for (j = 0; j < a[i].nv; j++) {
			free(a[i].v[j].value);
			hosts_release(&a[i].v[j].hosts);
		}
		free(a[i].v);
	}
	free(a);
}

/* --- data-quality summaries --- */

/* A sample's flags as findings: a llama-bench pp+tg test's failed bit is none. */
#define F FINDING_FLAGS_SQL
static const char quality_sql[] =
	"SELECT r.uuid, e.label, m.label, " RUN_STATUS_SQL ", " RUN_ORPHANED_SQL ", "
	"r.load_error, r.n_predict, count(x.id), "
	"total((" F " & :f0)<>0), total((" F " & :f1)<>0), total((" F " & :f2)<>0), "
	"total((" F " & :f3)<>0), total((" F " & :f4)<>0), total((" F " & :f5)<>0), "
	"total((" F " & :f6)<>0), "
	"min(CASE WHEN " F " & :trunc THEN x.predicted_n END), "
	"total(CASE WHEN " F " & :trunc AND x.stop_type IN ('eos','word') THEN 1 END), "
	"max(CASE WHEN " F " & :cached THEN x.cache_n END), "
	"min(CASE WHEN " F " & :short THEN x.prompt_n END), "
	"min(CASE WHEN " F " & :failed THEN coalesce(x.error, 'HTTP ' || x.http_status) END), "
	"max(CASE WHEN " F " & :degen THEN x.repeat_share END), r.env_flags, r.env, r.id "
	"FROM run r JOIN host h ON h.id=r.host_id JOIN engine e ON e.id=r.engine_id "
	"JOIN model m ON m.id=r.model_id LEFT JOIN sample x ON x.run_id=r.id "
	"WHERE " RUN_FILTER_SQL "GROUP BY r.id ORDER BY r.started_at, r.id";
#undef F

static const char clock_sql[] =
	"SELECT predicted_per_second, client_decode_per_second FROM sample "
	"WHERE run_id=:run AND predicted_per_second IS NOT NULL "
	"AND client_decode_per_second IS NOT NULL AND flags & :spoils = 0 ORDER BY id";

/* The pairs of decode rates of run_id into q. */
static int quality_clock(struct store *s, int64_t run_id, struct catalog_quality *q)
{
	sqlite3_stmt *st = store_stmt(s, clock_sql);
	size_t cap = 0;
	int rc;

	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	store_bind_i64(st, ":spoils", SAMPLE_SPOILS_TG);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (q->n_clock == cap) {
			cap = cap ? 2 * cap : 16;
			q->tg_server = tps_xrealloc(q->tg_server, cap * sizeof(double));
			q->tg_client = tps_xrealloc(q->tg_client, cap * sizeof(double));
		}
		q->tg_server[q->n_clock] = sqlite3_column_double(st, 0);
		q->tg_client[q->n_clock++] = sqlite3_column_double(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the decode rates of the client's clock");
	return 0;
}

int catalog_quality(struct store *s, const struct run_filter *f,
		    struct catalog_quality **out, size_t *n)
{
	int64_t *ids = NULL;
	size_t k;
	static const char *const fnames[CATALOG_NFLAGS] = { ":f0", ":f1", ":f2", ":f3", ":f4",
								     ":f5", ":f6" };
	struct catalog_quality *qs = NULL;
	size_t nq = 0, cap = 0;
	sqlite3_stmt *st = store_stmt(s, quality_sql);
	int rc, i, ret = -1;

	*out = NULL;
	*n = 0;
	if (!st)
		goto out;
	store_bind_run_filter(st, f);
	for (i = 0; i < CATALOG_NFLAGS; i++)
		store_bind_i64(st, fnames[i], (int64_t)1 << i);
	store_bind_i64(st, ":trunc", SAMPLE_TRUNCATED);
	store_bind_i64(st, ":cached", SAMPLE_CACHED);
	store_bind_i64(st, ":short", SAMPLE_SHORT_PROMPT);
	store_bind_i64(st, ":failed", SAMPLE_FAILED);
	store_bind_i64(st, ":degen", SAMPLE_DEGENERATE);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct catalog_quality *q;
		int c = 0;

		qs = grow(qs, &nq, &cap, sizeof(*qs));
		q = &qs[nq - 1];
		q->uuid = store_col_text(st, c++);
		q->engine = store_col_text(st, c++);
		q->model = store_col_text(st, c++);
		q->status = store_col_text(st, c++);
		q->orphaned = sqlite3_column_int(st, c++) != 0;
		q->load_error = store_col_text(st, c++);
		q->n_predict = store_col_i64(st, c++);
		q->total = sqlite3_column_int64(st, c++);
		for (i = 0; i < CATALOG_NFLAGS; i++)
			q->count[i] = sqlite3_column_int64(st, c++);
		q->trunc_min_predicted_n = store_col_i64(st, c++);
		q->trunc_early_stops = sqlite3_column_int64(st, c++);
		q->cache_max_n = store_col_i64(st, c++);
		q->short_min_prompt_n = store_col_i64(st, c++);
		q->failed_example = store_col_text(st, c++);
		q->degen_max_share = store_col_double(st, c++);
		q->env_flags = (unsigned)sqlite3_column_int64(st, c++);
		q->env = store_col_text(st, c++);
		record_env_facts(q->env, &q->facts);
		ids = tps_xrealloc(ids, nq * sizeof(*ids));
		ids[nq - 1] = sqlite3_column_int64(st, c++);
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "cannot read data-quality findings");
		goto out;
	}
	sqlite3_reset(st);
	st = NULL;
	for (k = 0; k < nq; k++) {
		if (quality_clock(s, ids[k], &qs[k]) < 0)
			goto out;
	}
	*out = qs;
	*n = nq;
	qs = NULL;
	ret = 0;
out:
	if (st)
		sqlite3_reset(st);
	free(ids);
	catalog_quality_free(qs, nq);
	return ret;
}

void catalog_quality_free(struct catalog_quality *q, size_t n)
{
	size_t i;

	for (i = 0; q && i < n; i++) {
		free(q[i].uuid);
		free(q[i].engine);
		free(q[i].model);
		free(q[i].status);
		free(q[i].load_error);
		free(q[i].load_line);
		free(q[i].failed_example);
		free(q[i].env);
		free(q[i].tg_server);
		free(q[i].tg_client);
	}
	free(q);
}
