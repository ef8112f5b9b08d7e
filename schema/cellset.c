/* cellset.c: the one loader of runs for a decision (cellset.h). The run listing
 * reads no sample but one index probe per run (has it answered?), and the cell's
 * newest A/A floors; a pooled run's samples are then read in one pass that yields
 * every metric's values, the flag counts, the sums and the output hashes at once,
 * so a store of a million samples hands over only the runs a decision pools. */
#include "schema/cellset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schema/record.h"
#include "schema/record_json.h"
#include "schema/store_int.h"
#include "tpsdb.h"

/* The newest stored floor of a run's cell (any engine or host) for one metric. */
#define FLOOR_SQL(metric)                                                                \
	"(SELECT f.noise_pct FROM noise_floor f JOIN model fm ON fm.id=f.model_id"       \
	" WHERE fm.label=m.label AND f.spec_type=r.spec_type AND f.n_max IS r.n_max"      \
	" AND f.ctx IS r.ctx AND f.n_predict IS r.n_predict AND f.endpoint=r.endpoint"     \
	" AND f.metric='" metric "' ORDER BY f.measured_at DESC, f.id DESC LIMIT 1)"

static const char runs_sql[] =
	"SELECT r.id, r.uuid, e.label, e.role, e.version, e.sha256, m.label, m.sha256, m.quant, h.name,"
	" h.gpu, h.driver, h.cuda, r.cpu, r.tag, r.batch, r.started_at, r.ended_at, " RUN_STATUS_SQL ", r.spec_type,"
	" r.endpoint, r.prompt_set, r.config, r.n_max, r.ctx, r.n_predict, r.warmup,"
	" (SELECT max(x.rep) FROM sample x WHERE x.run_id=r.id), r.round,"
	" r.looks_to, r.looks_metric, r.env_flags, r.env, r.temperature, r.spec_settings, r.source, "
	FLOOR_SQL("pp") ","
	" " FLOOR_SQL("tg") ","
	/* SQLite keeps a time as whole milliseconds; rounding each julianday back to
	 * them makes the difference exact, where subtracting two julian days of
	 * about 2.46e6 would lose some 0.04 ms. */
	" CASE WHEN r.status='complete' AND r.ended_at IS NOT NULL"
	" THEN round(julianday(r.ended_at) * 86400000.0) -"
	" round(julianday(r.started_at) * 86400000.0) END"
	" FROM run r JOIN engine e ON e.id=r.engine_id JOIN model m ON m.id=r.model_id"
	" JOIN host h ON h.id=r.host_id"
	/* With :bench (run_filter.bench_rates), a llama-bench run whatever its
	 * samples: a combined pp+tg test has no separate rate (every sample
	 * failed), but its avg_ts is a speedup. */
	" WHERE (EXISTS (SELECT 1 FROM sample x WHERE x.run_id=r.id AND x.flags & :failed = 0)"
	" OR (:bench AND r.endpoint='llama-bench'))"
	" AND " RUN_FILTER_SQL
	" ORDER BY m.label, r.spec_type, r.n_max IS NOT NULL, r.n_max, r.config, r.endpoint, e.label,"
	" r.started_at, r.id";

static char *text_or_empty(sqlite3_stmt *st, int i)
{
	char *t = store_col_text(st, i);

	return t ? t : tps_xstrdup("");
}

/* run.looks_metric as struct run holds it: 0 for NULL (both metrics). */
static unsigned looks_metric_bit(const char *m)
{
	if (!strcmp(m, "pp"))
		return 1u << RUN_PP;
	if (!strcmp(m, "tg"))
		return 1u << RUN_TG;
	return 0;
}

static void read_run(sqlite3_stmt *st, struct run *r)
{
	int c = 0;

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, c++);
	snprintf(r->uuid, sizeof(r->uuid), "%s", store_col_str(st, c++));
	r->engine = text_or_empty(st, c++);
	r->role = text_or_empty(st, c++);
	r->engine_version = text_or_empty(st, c++);
	r->engine_sha256 = text_or_empty(st, c++);
	r->model = text_or_empty(st, c++);
	r->model_sha256 = text_or_empty(st, c++);
	r->model_quant = text_or_empty(st, c++);
	r->host = text_or_empty(st, c++);
	r->gpu = text_or_empty(st, c++);
	r->driver = text_or_empty(st, c++);
	r->cuda = text_or_empty(st, c++);
	r->cpu = text_or_empty(st, c++);
	r->tag = text_or_empty(st, c++);
	r->batch = text_or_empty(st, c++);
	r->started_at = text_or_empty(st, c++);
	r->ended_at = store_col_text(st, c++);
	r->status = text_or_empty(st, c++);
	r->spec_type = text_or_empty(st, c++);
	r->endpoint = text_or_empty(st, c++);
	r->prompt_set = text_or_empty(st, c++);
	r->config = text_or_empty(st, c++);
	r->n_max = store_col_i64(st, c++);
	r->ctx = store_col_i64(st, c++);
	r->n_predict = store_col_i64(st, c++);
	r->warmup = store_col_i64(st, c++);
	r->reps = store_col_i64(st, c++);
	r->round = store_col_i64(st, c++);
	r->looks_to = store_col_i64(st, c++);
	if (r->looks_to == TPS_NULL || r->looks_to < 0)
		r->looks_to = 0;
	r->looks_metric = looks_metric_bit(store_col_str(st, c++));
	r->env_flags = (unsigned)sqlite3_column_int64(st, c++);
	record_env_facts(store_col_str(st, c++), &r->env);
	r->temperature = store_col_double(st, c++);
	r->spec_settings = text_or_empty(st, c++);
	r->source = text_or_empty(st, c++);
	r->floor_pct[0] = store_col_double(st, c++);
	r->floor_pct[1] = store_col_double(st, c++);
	r->duration_ms = store_col_double(st, c++);
	r->bench_ts = NAN;
}

int store_cellset_load(struct store *s, const struct run_filter *f, struct cellset *set)
{
	sqlite3_stmt *st = store_stmt(s, runs_sql);
	size_t had = set->n, cap = set->n;
	int rc;

	if (!st)
		return -1;
	store_bind_i64(st, ":failed", SAMPLE_FAILED);
	store_bind_i64(st, ":bench", f && f->bench_rates ? 1 : 0);
	store_bind_run_filter(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		size_t i;

		for (i = 0; i < had && set->runs[i].id != id; i++)
			;
		if (i < had)
			continue;
		if (set->n == cap) {
			cap = cap ? 2 * cap : 32;
			set->runs = tps_xrealloc(set->runs, cap * sizeof(*set->runs));
		}
		read_run(st, &set->runs[set->n++]);
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot list runs");
	return 0;
}

static void push_value(struct run_values *vs, size_t *cap, int64_t prompt, int64_t rep,
		       double value)
{
	if (vs->n == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		vs->v = tps_xrealloc(vs->v, *cap * sizeof(*vs->v));
	}
	vs->v[vs->n].prompt_id = prompt;
	vs->v[vs->n].rep = rep;
	vs->v[vs->n++].value = value;
}

/* One pass over a run's samples: with values, every metric's values, counts,
 * sums and hashes; with wall, every request's wall time. */
static int read_samples(struct store *s, struct run *r, int values, int wall)
{
	static const char sql[] =
		"SELECT prompt_id, rep, flags, pp_rate, tg_rate, draft_n,"
		" draft_n_accepted, predicted_n, predicted_ms, output_hash, wall_ms"
		" FROM sample WHERE run_id=:run ORDER BY prompt_id, rep";
	sqlite3_stmt *st = store_stmt(s, sql);
	size_t cap[RUN_N_METRICS] = { 0 }, cap_out = 0, cap_wall = 0;
	int64_t last_prompt = 0;
	int rc, i;

	if (!st)
		return -1;
	store_bind_i64(st, ":run", r->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t prompt = sqlite3_column_int64(st, 0), rep = sqlite3_column_int64(st, 1);
		int64_t flags = sqlite3_column_int64(st, 2);
		int has_tg = sqlite3_column_type(st, 4) != SQLITE_NULL;

		if (wall && sqlite3_column_type(st, 10) != SQLITE_NULL) {
			if (r->n_wall == cap_wall) {
				cap_wall = cap_wall ? 2 * cap_wall : 16;
				r->wall_ms = tps_xrealloc(r->wall_ms, cap_wall * sizeof(*r->wall_ms));
			}
			r->wall_ms[r->n_wall++] = sqlite3_column_double(st, 10);
		}
		if (!values)
			continue;
		if (!r->n_samples || prompt != last_prompt)
			r->n_prompts_asked++;
		last_prompt = prompt;
		r->n_samples++;
		for (i = 0; i < RUN_N_FLAGS; i++)
			if (flags & ((int64_t)1 << i))
				r->flag_counts[i]++;
		r->n_degenerate += (flags & SAMPLE_DEGENERATE) != 0;
		if (!(flags & SAMPLE_SPOILS_PP) && sqlite3_column_type(st, 3) != SQLITE_NULL)
			push_value(&r->values[RUN_PP], &cap[RUN_PP], prompt, rep,
				   sqlite3_column_double(st, 3));
		else
			r->values[RUN_PP].excluded++;
		if (!(flags & SAMPLE_SPOILS_TG) && has_tg) {
			push_value(&r->values[RUN_TG], &cap[RUN_TG], prompt, rep,
				   sqlite3_column_double(st, 4));
			/* The sums cover the samples decode uses. */
			r->agg.n++;
			r->agg.predicted_n += sqlite3_column_int64(st, 7);
			r->agg.draft_n += sqlite3_column_int64(st, 5);
			r->agg.draft_n_accepted += sqlite3_column_int64(st, 6);
			r->agg.predicted_ms += sqlite3_column_double(st, 8);
			r->agg.has_draft |= sqlite3_column_type(st, 5) != SQLITE_NULL;
		} else {
			r->values[RUN_TG].excluded++;
		}
		/* A sample that drafted nothing has no acceptance to speak of; counting
		 * it as 0 would read as a drafter that rejects everything. */
		if (!(flags & SAMPLE_SPOILS_TG) && sqlite3_column_type(st, 5) != SQLITE_NULL &&
		    sqlite3_column_type(st, 6) != SQLITE_NULL && sqlite3_column_int64(st, 5) > 0)
			push_value(&r->values[RUN_ACCEPT], &cap[RUN_ACCEPT], prompt, rep,
				   (double)sqlite3_column_int64(st, 6) /
				   (double)sqlite3_column_int64(st, 5));
		else
			r->values[RUN_ACCEPT].excluded++;
		if (!(flags & SAMPLE_FAILED) && sqlite3_column_type(st, 9) != SQLITE_NULL) {
			if (r->n_outputs == cap_out) {
				cap_out = cap_out ? 2 * cap_out : 16;
				r->outputs = tps_xrealloc(r->outputs, cap_out * sizeof(*r->outputs));
			}
			r->outputs[r->n_outputs].prompt_id = prompt;
			r->outputs[r->n_outputs].rep = rep;
			r->outputs[r->n_outputs++].hash = store_col_text(st, 9);
		}
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read samples");
	return 0;
}

/* A llama-bench run's avg_ts, as compare-llama-bench.py reads it: the
 * llama_bench_avg_ts its samples keep (every sample of a -o json test holds the
 * test's avg_ts; the one sample of a csv or sql test its average), or for an
 * older import the mean of the samples_ts it kept. Failed and flagged samples
 * count too: a combined pp+tg test and an aggregate have no other rate. */
static int read_bench_ts(struct store *s, struct run *r)
{
	static const char sql[] =
		"SELECT avg(coalesce(json_extract(timings, '$.llama_bench_avg_ts'),"
		" json_extract(timings, '$.llama_bench_ts')))"
		" FROM sample WHERE run_id=:run AND json_valid(timings)";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_i64(st, ":run", r->id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		r->bench_ts = store_col_double(st, 0);
	else if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read llama-bench rates");
	return 0;
}

/* The per-prompt figures of a run's decode samples, in prompt name order. */
static int read_prompts(struct store *s, struct run *r)
{
	static const char sql[] =
		"SELECT p.name, avg(x.tg_rate), total(x.draft_n),"
		" total(x.draft_n_accepted) FROM sample x JOIN prompt p ON p.id=x.prompt_id"
		" WHERE x.run_id=:run AND x.flags & :spoils = 0"
		" AND x.tg_rate IS NOT NULL GROUP BY p.id ORDER BY p.name";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_i64(st, ":run", r->id);
	store_bind_i64(st, ":spoils", SAMPLE_SPOILS_TG);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_prompt *p;

		r->prompts = tps_xrealloc(r->prompts, (r->n_prompts + 1) * sizeof(*r->prompts));
		p = &r->prompts[r->n_prompts++];
		p->name = text_or_empty(st, 0);
		p->tg = sqlite3_column_double(st, 1);
		p->draft_n = (int64_t)sqlite3_column_double(st, 2);
		p->draft_n_accepted = (int64_t)sqlite3_column_double(st, 3);
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read per-prompt figures");
	return 0;
}

int store_cellset_samples(struct store *s, struct cellset *set)
{
	const unsigned one_pass = RUN_LOAD_VALUES | RUN_LOAD_ACCEPT;

	for (size_t i = 0; i < set->n; i++) {
		struct run *r = &set->runs[i];
		unsigned todo = r->want & ~r->loaded;
		/* One pass reads every metric: asking for one reads them all. */
		int values = (todo & one_pass) && !(r->loaded & one_pass);
		int wall = (todo & RUN_LOAD_WALL) != 0;

		if ((values || wall) && read_samples(s, r, values, wall) < 0)
			return -1;
		if (values && !strcmp(r->endpoint, "llama-bench") && read_bench_ts(s, r) < 0)
			return -1;
		if (values)
			r->loaded |= one_pass;
		if ((todo & RUN_LOAD_PROMPTS) && read_prompts(s, r) < 0)
			return -1;
		r->loaded |= r->want;
	}
	return 0;
}
