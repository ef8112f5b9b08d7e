/* record_check.c: the value rules shared by every input format. Each function
 * says what is wrong in words that name the field, so that the caller only adds
 * the file and line. */
#include "schema/record_check.h"
#include "schema/json_strict.h"
#include "tpsdb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int record_utf8_ok(const char *s)
{
	return !s || json_utf8_valid(s, strlen(s));
}

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return 0;
	}
	return s[n] == '\0';
}

static int sha_ok(const char *s)
{
	return !s || !*s || (strlen(s) == 64 && is_hex(s, 64));
}

/* n decimal digits at *p, in [lo, hi]; advances *p. */
static int field(const char **p, int n, int lo, int hi)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return 0;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	return v >= lo && v <= hi;
}

int record_time_ok(const char *s)
{
	const char *p = s;
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int month, day;

	if (!field(&p, 4, 0, 9999) || *p++ != '-')
		return 0;
	month = atoi(p);
	if (!field(&p, 2, 1, 12) || *p++ != '-')
		return 0;
	day = atoi(p);
	if (!field(&p, 2, 1, mdays[month - 1]) || day < 1 || (*p != 'T' && *p != ' '))
		return 0;
	p++;
	if (!field(&p, 2, 0, 23) || *p++ != ':' || !field(&p, 2, 0, 59) || *p++ != ':' ||
	    !field(&p, 2, 0, 60))
		return 0;
	if (*p == '.') {
		const char *d = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return 0;
	}
	if (*p == 'Z')
		p++;
	else if (*p == '+' || *p == '-') {
		p++;
		if (!field(&p, 2, 0, 23) || *p++ != ':' || !field(&p, 2, 0, 59))
			return 0;
	}
	return *p == '\0';
}

static int uuid_ok(const char *u)
{
	static const int dash[] = { 8, 13, 18, 23 };
	int i, k = 0;

	if (strlen(u) != 36)
		return 0;
	for (i = 0; i < 36; i++) {
		if (k < 4 && i == dash[k]) {
			if (u[i] != '-')
				return 0;
			k++;
		} else if (!((u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f') ||
			     (u[i] >= 'A' && u[i] <= 'F'))) {
			return 0;
		}
	}
	return 1;
}

static int one_of(const char *s, const char *const *set)
{
	for (; *set; set++) {
		if (!strcmp(s, *set))
			return 1;
	}
	return 0;
}

int record_check_run_text(const struct run_rec *r, char *err, size_t errlen)
{
	const struct { const char *name, *v; } texts[] = {
		{ "started_at", r->started_at }, { "ended_at", r->ended_at },
		{ "status", r->status }, { "source", r->source },
		{ "host name", r->host.name }, { "host gpu", r->host.gpu },
		{ "host driver", r->host.driver }, { "host cuda", r->host.cuda },
		{ "engine label", r->engine.label }, { "engine role", r->engine.role },
		{ "engine version", r->engine.version }, { "engine sha256", r->engine.sha256 },
		{ "model label", r->model.label }, { "model file", r->model.file },
		{ "model sha256", r->model.sha256 }, { "model quant", r->model.quant },
		{ "endpoint", r->endpoint }, { "spec_type", r->spec_type },
		{ "drafter", r->drafter }, { "extra_args", r->extra_args },
		{ "spec_settings", r->spec_settings }, { "tag", r->tag },
		{ "notes", r->notes }, { "load_error", r->load_error },
		{ "log_path", r->log_path }, { "prompt_set", r->prompt_set },
		{ "config", r->config }, { "cpu", r->cpu }, { "model_type", r->model_type },
		{ "collector_host", r->collector_host }, { "collector_boot", r->collector_boot },
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		if (!record_utf8_ok(texts[i].v))
			return tps_fail(err, errlen, "the run's %s is not valid UTF-8",
					texts[i].name);
	}
	return 0;
}

int record_check_run(const struct run_rec *r, char *err, size_t errlen)
{
	static const char *const statuses[] = { "running", "complete", "partial", "failed",
						"interrupted", NULL };
	static const char *const roles[] = { "ours", "upstream", "other", NULL };
	const struct { const char *name; int64_t v; } ints[] = {
		{ "model.bytes", r->model.bytes }, { "run.ctx", r->ctx }, { "run.seed", r->seed },
		{ "run.warmup", r->warmup }, { "run.round", r->round },
		{ "run.model_n_params", r->model_n_params },
		{ "run.collector_start", r->collector_start },
	};
	size_t i, at;
	char why[128];

	if (record_check_run_text(r, err, errlen) < 0)
		return -1;
	if (r->uuid[0] && !uuid_ok(r->uuid))
		return tps_fail(err, errlen, "'run.uuid' is not a uuid");
	if (r->started_at && !record_time_ok(r->started_at))
		return tps_fail(err, errlen, "'run.started_at' is not an ISO 8601 time");
	if (r->ended_at && !record_time_ok(r->ended_at))
		return tps_fail(err, errlen, "'run.ended_at' is not an ISO 8601 time");
	if (r->status && !one_of(r->status, statuses))
		return tps_fail(err, errlen, "'run.status' is not running, complete, partial, "
				"failed or interrupted");
	if (r->collector_pid != TPS_NULL && (r->collector_pid < 1 || r->collector_pid > INT32_MAX))
		return tps_fail(err, errlen, "'run.collector_pid' is not a process id");
	if (r->collector_start != TPS_NULL && r->collector_start < 0)
		return tps_fail(err, errlen, "'run.collector_start' is negative");
	/* A question of one metric belongs to a batch that looked (run.looks_metric). */
	if (r->looks_metric && strcmp(r->looks_metric, "pp") && strcmp(r->looks_metric, "tg"))
		return tps_fail(err, errlen, "'run.looks_metric' is not pp or tg");
	if (r->looks_metric && r->looks_to == TPS_NULL)
		return tps_fail(err, errlen, "'run.looks_metric' without 'run.looks_to': only "
				"an --until-decided batch watches one metric");
	if (r->engine.role && !one_of(r->engine.role, roles))
		return tps_fail(err, errlen, "'engine.role' is not ours, upstream or other");
	if (!sha_ok(r->engine.sha256))
		return tps_fail(err, errlen, "'engine.sha256' is not 64 hex digits");
	if (!sha_ok(r->model.sha256))
		return tps_fail(err, errlen, "'model.sha256' is not 64 hex digits");
	if (r->model.bytes != TPS_NULL && r->model.bytes < 0)
		return tps_fail(err, errlen, "'model.bytes' is negative");
	if (r->ctx != TPS_NULL && r->ctx < 0)
		return tps_fail(err, errlen, "'run.ctx' is negative");
	if (r->n_predict != TPS_NULL && (r->n_predict < -1 || r->n_predict > RECORD_MAX_COUNT))
		return tps_fail(err, errlen, "'run.n_predict' is out of range");
	if (r->n_max != TPS_NULL && (r->n_max < 1 || r->n_max > RECORD_MAX_COUNT))
		return tps_fail(err, errlen, "'run.n_max' is below 1 or absurd (%lld)",
				(long long)r->n_max);
	if (r->warmup != TPS_NULL && r->warmup < 0)
		return tps_fail(err, errlen, "'run.warmup' is negative");
	if (!isnan(r->temperature) && (!isfinite(r->temperature) || r->temperature < 0))
		return tps_fail(err, errlen, "'run.temperature' is negative or not finite");
	if (r->ignore_eos < -1 || r->ignore_eos > 1)
		return tps_fail(err, errlen, "'run.ignore_eos' is not 0 or 1");
	if (r->env_flags >= RUN_ENV_FLAGS_END)
		return tps_fail(err, errlen, "'run.env_flags' has unknown bits (%u)", r->env_flags);
	if (r->round != TPS_NULL && r->round < 1)
		return tps_fail(err, errlen, "'run.round' is below 1");
	if (r->looks_to != TPS_NULL && (r->looks_to < 1 || r->looks_to > 100000))
		return tps_fail(err, errlen, "'run.looks_to' is not a round number");
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (ints[i].v != TPS_NULL && (ints[i].v > RECORD_MAX_INT || ints[i].v < -RECORD_MAX_INT))
			return tps_fail(err, errlen, "'%s' is out of range (%lld)", ints[i].name,
					(long long)ints[i].v);
	}
	/* Checked whole, not by its first byte: export embeds it as JSON, and a text
	 * that is not one object (another tool's, or "{\"a\":NaN}") would make an
	 * export line that no longer imports. */
	if (r->env && (r->env[0] != '{' ||
		       json_strict_check(r->env, strlen(r->env), &at, why, sizeof(why)) < 0))
		return tps_fail(err, errlen, "'run.env' is not a JSON object");
	return 0;
}

static int count_ok(int64_t v)
{
	return v == TPS_NULL || (v >= 0 && v <= RECORD_MAX_COUNT);
}

static int num_ok(double v, double max)
{
	return isnan(v) || (isfinite(v) && v >= 0 && v <= max);
}

int record_check_sample(const struct sample_rec *s, char *err, size_t errlen)
{
	const struct { const char *name; int64_t v; } counts[] = {
		{ "cache_n", s->cache_n }, { "prompt_n", s->prompt_n },
		{ "predicted_n", s->predicted_n }, { "draft_n", s->draft_n },
		{ "draft_n_accepted", s->draft_n_accepted },
	};
	const struct { const char *name; double v, max; } nums[] = {
		{ "prompt_ms", s->prompt_ms, RECORD_MAX_MS },
		{ "prompt_per_second", s->prompt_per_second, RECORD_MAX_RATE },
		{ "predicted_ms", s->predicted_ms, RECORD_MAX_MS },
		{ "predicted_per_second", s->predicted_per_second, RECORD_MAX_RATE },
		{ "wall_ms", s->wall_ms, RECORD_MAX_MS },
		{ "client_ttft_ms", s->client_ttft_ms, RECORD_MAX_MS },
		{ "client_decode_per_second", s->client_decode_per_second, RECORD_MAX_RATE },
		{ "client_e2e_ms", s->client_e2e_ms, RECORD_MAX_MS },
		/* The rates tpsdb compares (record_rate()), bounded as the raw ones are:
		 * a count over a near-zero time is a damaged sample, not a fast one. */
		{ "prompt_n / prompt_ms", record_pp_rate(s), RECORD_MAX_RATE },
		{ "predicted_n / predicted_ms", record_tg_rate(s), RECORD_MAX_RATE },
	};
	size_t i;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (!count_ok(counts[i].v))
			return tps_fail(err, errlen, "'%s' is negative or above %.0f (%lld)",
					counts[i].name, RECORD_MAX_COUNT, (long long)counts[i].v);
	}
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (!num_ok(nums[i].v, nums[i].max))
			return tps_fail(err, errlen,
					"'%s' is negative, not finite or above %g (%g)",
					nums[i].name, nums[i].max, nums[i].v);
	}
	if (s->draft_n != TPS_NULL && s->draft_n_accepted != TPS_NULL &&
	    s->draft_n_accepted > s->draft_n)
		return tps_fail(err, errlen, "'draft_n_accepted' (%lld) exceeds 'draft_n' (%lld)",
				(long long)s->draft_n_accepted, (long long)s->draft_n);
	if (strlen(s->prompt_hash) != 64 || !is_hex(s->prompt_hash, 64))
		return tps_fail(err, errlen, "a sample's 'prompt_hash' is missing or malformed");
	if (s->output_hash && (strlen(s->output_hash) != 64 || !is_hex(s->output_hash, 64)))
		return tps_fail(err, errlen, "a sample's 'output_hash' is not 64 hex digits");
	if (s->rep != TPS_NULL && s->rep < 1)
		return tps_fail(err, errlen, "a sample's 'rep' is below 1");
	if (s->seq != TPS_NULL && s->seq < 0)
		return tps_fail(err, errlen, "a sample's 'seq' is negative");
	if ((s->rep != TPS_NULL && s->rep > RECORD_MAX_INT) ||
	    (s->seq != TPS_NULL && s->seq > RECORD_MAX_INT))
		return tps_fail(err, errlen, "a sample's 'rep' or 'seq' is out of range");
	if (s->http_status != TPS_NULL && (s->http_status < 0 || s->http_status > 999))
		return tps_fail(err, errlen, "a sample's 'http_status' is not an HTTP status");
	if (s->flags >= SAMPLE_FLAGS_END)
		return tps_fail(err, errlen, "a sample's 'flags' has unknown bits (%u)", s->flags);
	if (!isnan(s->repeat_share) && !(s->repeat_share >= 0 && s->repeat_share <= 1))
		return tps_fail(err, errlen, "a sample's 'repeat_share' is not between 0 and 1");
	if (!record_utf8_ok(s->prompt_name) || !record_utf8_ok(s->error) ||
	    !record_utf8_ok(s->stop_type) || !record_utf8_ok(s->timings))
		return tps_fail(err, errlen, "a sample's text is not valid UTF-8");
	return 0;
}

struct rep_key {
	const char *hash;
	int64_t rep;
};

static int rep_cmp(const void *a, const void *b)
{
	const struct rep_key *x = a, *y = b;
	int c = strcmp(x->hash, y->hash);

	if (c)
		return c;
	return x->rep < y->rep ? -1 : x->rep > y->rep;
}

int record_check_samples(const struct sample_rec *s, size_t n, char *err, size_t errlen)
{
	struct rep_key *keys;
	size_t i, k = 0;
	int ret = -1;
	char why[256];

	for (i = 0; i < n; i++) {
		if (record_check_sample(&s[i], why, sizeof(why)) < 0)
			return tps_fail(err, errlen, "sample %zu: %s", i + 1, why);
	}
	if (n < 2)
		return 0;
	keys = tps_xcalloc(n, sizeof(*keys));
	for (i = 0; i < n; i++) {
		if (s[i].rep != TPS_NULL) {
			keys[k].hash = s[i].prompt_hash;
			keys[k++].rep = s[i].rep;
		}
	}
	qsort(keys, k, sizeof(*keys), rep_cmp);
	for (i = 1; i < k; i++) {
		if (!rep_cmp(&keys[i - 1], &keys[i])) {
			tps_fail(err, errlen, "repetition %lld of prompt %.12s appears twice",
				 (long long)keys[i].rep, keys[i].hash);
			goto out;
		}
	}
	ret = 0;
out:
	free(keys);
	return ret;
}

int record_check_whole(const struct run_rec *r, const struct sample_rec *smp, size_t n,
		       char *err, size_t errlen)
{
	if (!uuid_ok(r->uuid))
		return tps_fail(err, errlen, "'run.uuid' is missing or not a uuid");
	if (!r->started_at)
		return tps_fail(err, errlen, "'run.started_at' is missing");
	if (record_check_run(r, err, errlen) < 0)
		return -1;
	return record_check_samples(smp, n, err, errlen);
}
