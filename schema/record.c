/* record.c: initialisation and release of the records every path in and out of the
 * store passes around, the names of the data-quality flags, and the one definition
 * of a sample's rates. */
#include "schema/record.h"

#include <stdlib.h>
#include <string.h>

unsigned record_finding_flags(const char *endpoint, int64_t prompt_n, int64_t predicted_n,
			      unsigned flags)
{
	if (endpoint && !strcmp(endpoint, "llama-bench") && prompt_n != TPS_NULL &&
	    prompt_n > 0 && predicted_n != TPS_NULL && predicted_n > 0)
		return flags & ~(unsigned)SAMPLE_FAILED;
	return flags;
}

const char *record_flag_name(unsigned flag)
{
	switch (flag) {
	case SAMPLE_TRUNCATED: return "truncated";
	case SAMPLE_CACHED: return "cache-inflated";
	case SAMPLE_SHORT_PROMPT: return "short-prompt";
	case SAMPLE_FAILED: return "failed";
	case SAMPLE_COLD: return "cold-start";
	case SAMPLE_AGGREGATE: return "aggregate-only";
	case SAMPLE_DEGENERATE: return "degenerate-output";
	}
	return "unknown";
}

const char *record_env_flag_name(unsigned flag)
{
	switch (flag) {
	case RUN_ENV_HOST_BUSY: return "host-busy";
	case RUN_ENV_GPU_CONTENDED: return "gpu-contended";
	case RUN_ENV_GPU_THROTTLED: return "gpu-throttled";
	case RUN_ENV_CLOCKS_CHANGED: return "clocks-changed";
	case RUN_ENV_PARTIAL_OFFLOAD: return "partial-offload";
	case RUN_ENV_KV_ON_HOST: return "kv-on-host";
	}
	return "unknown";
}

void run_rec_init(struct run_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->model.bytes = TPS_NULL;
	r->ctx = r->n_predict = r->n_max = r->seed = r->warmup = r->round = r->looks_to = TPS_NULL;
	r->model_n_params = TPS_NULL;
	r->collector_pid = r->collector_start = TPS_NULL;
	r->ignore_eos = -1;
	r->temperature = NAN;
}

void sample_rec_init(struct sample_rec *s)
{
	memset(s, 0, sizeof(*s));
	s->rep = s->seq = TPS_NULL;
	s->cache_n = s->prompt_n = s->predicted_n = s->draft_n = s->draft_n_accepted = TPS_NULL;
	s->prompt_ms = s->prompt_per_second = s->predicted_ms = s->predicted_per_second = NAN;
	s->wall_ms = NAN;
	s->client_ttft_ms = s->client_decode_per_second = s->client_e2e_ms = NAN;
	s->repeat_share = NAN;
	s->http_status = TPS_NULL;
}

void run_rec_release(struct run_rec *r)
{
	char **strs[] = {
		&r->started_at, &r->ended_at, &r->status, &r->source,
		&r->host.name, &r->host.gpu, &r->host.driver, &r->host.cuda,
		&r->engine.label, &r->engine.role, &r->engine.version, &r->engine.sha256,
		&r->model.label, &r->model.file, &r->model.sha256, &r->model.quant,
		&r->endpoint, &r->spec_type, &r->drafter, &r->extra_args, &r->tag, &r->notes,
		&r->load_error, &r->log_path, &r->prompt_set, &r->batch, &r->looks_metric,
		&r->config, &r->cpu, &r->model_type, &r->env, &r->collector_host, &r->collector_boot,
		&r->spec_settings,
	};
	size_t i;

	if (!r)
		return;
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(*strs[i]);
	run_rec_init(r);
}

void sample_rec_release(struct sample_rec *s)
{
	if (!s)
		return;
	free(s->prompt_name);
	free(s->error);
	free(s->stop_type);
	free(s->output_hash);
	free(s->timings);
	sample_rec_init(s);
}

double record_rate(int64_t n, double ms, double reported, unsigned flags)
{
	/* An integer count and a double time: a count of 2^53 or more would round,
	 * but RECORD_MAX_COUNT keeps every stored count far below that. */
	if (!(flags & SAMPLE_AGGREGATE) && n != TPS_NULL && n > 0 && isfinite(ms) && ms > 0)
		return (double)n / ms * 1000.0;
	return reported;
}

double record_pp_rate(const struct sample_rec *s)
{
	return record_rate(s->prompt_n, s->prompt_ms, s->prompt_per_second, s->flags);
}

double record_tg_rate(const struct sample_rec *s)
{
	return record_rate(s->predicted_n, s->predicted_ms, s->predicted_per_second, s->flags);
}
