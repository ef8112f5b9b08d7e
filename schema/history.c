/* history.c: the history query. It returns samples rather than per-run medians
 * because SQLite has no median; the rows arrive grouped by series and run, so the
 * grouping below is a single pass with no lookups. */
#include "schema/history.h"
#include "schema/record.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The statements differ only in the value read; a column name cannot be bound, so
 * each metric has its own static SQL. */
#define HISTORY_SQL(value, usable)                                                           \
	"SELECT r.id, r.uuid, r.tag, r.started_at, e.label, e.role, m.label, r.spec_type, "   \
	"r.n_max, r.endpoint, " value ", e.version "                                          \
	"FROM run r JOIN engine e ON e.id=r.engine_id JOIN model m ON m.id=r.model_id "       \
	"JOIN host h ON h.id=r.host_id JOIN sample x ON x.run_id=r.id "                       \
	"WHERE (:engine IS NULL OR e.label=:engine) AND (:model IS NULL OR m.label=:model) "  \
	"AND (:tag IS NULL OR r.tag=:tag) AND (:host IS NULL OR h.name=:host) "               \
	"AND (:baseline IS NULL OR r.id IN (SELECT br.run_id FROM baseline_run br "           \
	"  JOIN baseline b ON b.id=br.baseline_id WHERE b.name=:baseline)) "                  \
	"AND x.flags & :spoils = 0 AND " usable " AND " RUN_FILTER_SQL                        \
	"ORDER BY m.label, r.spec_type, r.n_max IS NOT NULL, r.n_max, r.endpoint, e.label, "  \
	"r.started_at, r.id"

static const char pp_sql[] =
	HISTORY_SQL("x.prompt_per_second", "x.prompt_per_second IS NOT NULL");
static const char tg_sql[] =
	HISTORY_SQL("x.predicted_per_second", "x.predicted_per_second IS NOT NULL");
/* As store_cell_accept_values(): a sample that drafted nothing has no acceptance. */
static const char accept_sql[] =
	HISTORY_SQL("CAST(x.draft_n_accepted AS REAL) / x.draft_n",
		    "x.draft_n > 0 AND x.draft_n_accepted IS NOT NULL");

static int same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Is the row at st in series se? Columns 4..9: engine, role, model, spec, n_max, endpoint. */
static int in_series(const struct history_series *se, sqlite3_stmt *st)
{
	return same(se->engine, store_col_str(st, 4)) && same(se->model, store_col_str(st, 6)) &&
	       same(se->spec_type, store_col_str(st, 7)) && se->n_max == store_col_i64(st, 8) &&
	       same(se->endpoint, store_col_str(st, 9));
}

int64_t history_build_number(const char *version)
{
	int64_t b = 0;
	const char *p;

	if (!version || version[0] != 'b' || !isdigit((unsigned char)version[1]))
		return -1;
	for (p = version + 1; isdigit((unsigned char)*p); p++) {
		if (b > (INT64_MAX - 9) / 10)
			return -1;
		b = b * 10 + (*p - '0');
	}
	return *p == '\0' || *p == '-' || *p == '+' ? b : -1;
}

/* Build order, then the start order the rows came in (id breaks a tie of times). */
static int by_build(const void *pa, const void *pb)
{
	const struct history_run *a = pa, *b = pb;
	int c;

	if (a->build != b->build)
		return a->build < b->build ? -1 : 1;
	if ((c = strcmp(a->started_at ? a->started_at : "", b->started_at ? b->started_at : "")))
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

static void run_release(struct history_run *r)
{
	free(r->tag);
	free(r->started_at);
	free(r->engine_version);
	free(r->values);
}

/* Puts se's runs in build order when every run names a build (else they stay in
 * start order), then keeps only the last limit of them (limit > 0). */
static void order_and_limit(struct history_series *se, int64_t limit)
{
	size_t i, drop;
	int builds = se->n > 0;

	for (i = 0; i < se->n; i++)
		builds = builds && se->runs[i].build >= 0;
	if (builds)
		qsort(se->runs, se->n, sizeof(*se->runs), by_build);
	if (limit <= 0 || (uint64_t)limit >= se->n)
		return;
	drop = se->n - (size_t)limit;
	for (i = 0; i < drop; i++)
		run_release(&se->runs[i]);
	memmove(se->runs, se->runs + drop, (size_t)limit * sizeof(*se->runs));
	se->n = (size_t)limit;
}

static int load(struct store *s, const struct cell_filter *f, const char *sql, int64_t spoils,
		struct history_series **out, size_t *n)
{
	sqlite3_stmt *st = store_stmt(s, sql);
	struct history_series *v = NULL, *se = NULL;
	struct history_run *run = NULL;
	size_t len = 0, cap = 0, rcap = 0, vcap = 0;
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
	store_bind_i64(st, ":spoils", spoils);
	store_bind_run_filter(st, f->run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (!se || !in_series(se, st)) {
			if (len == cap) {
				cap = cap ? 2 * cap : 16;
				v = tps_xrealloc(v, cap * sizeof(*v));
			}
			se = &v[len++];
			memset(se, 0, sizeof(*se));
			se->engine = store_col_text(st, 4);
			se->role = store_col_text(st, 5);
			se->model = store_col_text(st, 6);
			se->spec_type = tps_xstrdup(store_col_str(st, 7));
			se->n_max = store_col_i64(st, 8);
			se->endpoint = tps_xstrdup(store_col_str(st, 9));
			run = NULL;
			rcap = 0;
		}
		if (!run || run->id != id) {
			if (se->n == rcap) {
				rcap = rcap ? 2 * rcap : 16;
				se->runs = tps_xrealloc(se->runs, rcap * sizeof(*se->runs));
			}
			run = &se->runs[se->n++];
			memset(run, 0, sizeof(*run));
			run->id = id;
			snprintf(run->uuid, sizeof(run->uuid), "%s", store_col_str(st, 1));
			run->tag = tps_xstrdup(store_col_str(st, 2));
			run->started_at = store_col_text(st, 3);
			run->engine_version = tps_xstrdup(store_col_str(st, 11));
			run->build = history_build_number(run->engine_version);
			vcap = 0;
		}
		if (run->n == vcap) {
			vcap = vcap ? 2 * vcap : 8;
			run->values = tps_xrealloc(run->values, vcap * sizeof(*run->values));
		}
		run->values[run->n++] = sqlite3_column_double(st, 10);
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "cannot read the history");
		goto out;
	}
	for (size_t i = 0; i < len; i++)
		order_and_limit(&v[i], f->run ? f->run->limit : 0);
	*out = v;
	*n = len;
	v = NULL;
	len = 0;
	ret = 0;
out:
	sqlite3_reset(st);
	history_free(v, len);
	return ret;
}

int store_history(struct store *s, const struct cell_filter *f, enum cell_metric m,
		  struct history_series **out, size_t *n)
{
	if (m == CELL_PP)
		return load(s, f, pp_sql, SAMPLE_SPOILS_PP, out, n);
	return load(s, f, tg_sql, SAMPLE_SPOILS_TG, out, n);
}

int store_history_accept(struct store *s, const struct cell_filter *f,
			 struct history_series **out, size_t *n)
{
	return load(s, f, accept_sql, SAMPLE_SPOILS_TG, out, n);
}

const double *history_run_values(const void *se, size_t i, size_t *n)
{
	const struct history_run *r = &((const struct history_series *)se)->runs[i];

	*n = r->n;
	return r->values;
}

void history_free(struct history_series *v, size_t n)
{
	size_t i, j;

	for (i = 0; v && i < n; i++) {
		for (j = 0; j < v[i].n; j++)
			run_release(&v[i].runs[j]);
		free(v[i].runs);
		free(v[i].engine);
		free(v[i].role);
		free(v[i].model);
		free(v[i].spec_type);
		free(v[i].endpoint);
	}
	free(v);
}
