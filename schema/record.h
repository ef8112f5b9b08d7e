/* record.h: the in-memory shape of what the store holds, shared by every path that
 * moves runs in or out: the collector, import, export and merge. A run_rec carries
 * its host, engine, model and config by value; a sample_rec is one request. */
#ifndef SCHEMA_RECORD_H
#define SCHEMA_RECORD_H

#include "envlimits.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* "Absent" for integer fields; doubles use NAN. Both are stored as SQL NULL. */
#define TPS_NULL INT64_MIN

/* Data-quality findings, computed at ingest (collect/quality.c) and stored in
 * sample.flags. Each spoils one metric; analysis leaves the sample out of it. */
enum sample_flag {
	SAMPLE_TRUNCATED = 1 << 0,    /* predicted_n < requested n_predict, or EOS: spoils tg */
	SAMPLE_CACHED = 1 << 1,       /* cache_n > 0: prefill inflated by the prompt cache: pp */
	SAMPLE_SHORT_PROMPT = 1 << 2, /* prompt_n < 512: prefill measures overhead: pp */
	SAMPLE_FAILED = 1 << 3,       /* HTTP error, no timings, transport error: both */
	SAMPLE_COLD = 1 << 4,         /* first request the server saw: pp */
	SAMPLE_AGGREGATE = 1 << 5,    /* an average over repetitions (llama-bench -o csv/sql),
					 not one repetition: no per-repetition pair, both */
	SAMPLE_DEGENERATE = 1 << 6,   /* the output text is mostly one short repeated piece
					 (repeat_share >= SAMPLE_DEGENERATE_SHARE): the decode
					 rate of a loop, not of text; spoils no metric by
					 itself, compare and gate warn (--strict fails) */
};
#define SAMPLE_SPOILS_PP \
	(SAMPLE_CACHED | SAMPLE_SHORT_PROMPT | SAMPLE_FAILED | SAMPLE_COLD | SAMPLE_AGGREGATE)
#define SAMPLE_SPOILS_TG (SAMPLE_TRUNCATED | SAMPLE_FAILED | SAMPLE_AGGREGATE)
/* One past the highest flag bit: a stored or imported flags value below it is known. */
#define SAMPLE_FLAGS_END (1u << 7)
/* SAMPLE_SHORT_PROMPT's threshold: a prefill over fewer prompt tokens than this
 * measures overhead, not throughput. Here, beside the bit, so that collect/ (which
 * sets the flag) and reports/ (which explains it) read one number. */
#define SAMPLE_MIN_PROMPT_N 512

/* The short names used in output and JSON ("truncated", "cache-inflated", ...), in
 * bit order; record_flag_name(SAMPLE_CACHED) == "cache-inflated". */
const char *record_flag_name(unsigned flag);

/* The flags of a sample that are findings (check, runs' FAILED, import's count of
 * flagged samples): all of them, but for a llama-bench pp+tg test's sample
 * (endpoint "llama-bench", prompt_n and predicted_n both above 0; collect/
 * import_bench.c) its SAMPLE_FAILED. Such a test reports one combined rate, no
 * prefill or decode of its own, so it is stored failed (neither metric reads it)
 * but was no failed request: compare's speedup table reads it. The store's
 * queries spell the same rule as FINDING_FLAGS_SQL (schema/store_int.h). */
unsigned record_finding_flags(const char *endpoint, int64_t prompt_n, int64_t predicted_n,
			      unsigned flags);

/* SAMPLE_DEGENERATE's threshold on sample_rec.repeat_share (collect/repeat.h). */
#define SAMPLE_DEGENERATE_SHARE 0.5

/* Environment findings of a whole run (migration 0007, run.env_flags): the
 * RUN_ENV_* bits of envlimits.h, derived from the run's facts (run.env)
 * when it is read; env_flags keeps the findings of a run stored without facts. */
/* The short names of the RUN_ENV_* bits ("host-busy", ...), "unknown" otherwise. */
const char *record_env_flag_name(unsigned flag);

struct host_rec {
	char *name, *gpu, *driver, *cuda;
};

struct engine_rec {
	char *label;
	char *role;    /* "ours", "upstream" or "other" */
	char *version; /* build info */
	char *sha256;  /* of the binary, "" when unknown */
};

struct model_rec {
	char *label, *file, *sha256, *quant;
	int64_t bytes; /* TPS_NULL when unknown */
};

struct run_rec {
	char uuid[40];
	char *started_at, *ended_at, *status, *source;
	struct host_rec host;
	struct engine_rec engine;
	struct model_rec model;
	int64_t ctx, n_predict, n_max, seed, warmup; /* TPS_NULL when absent */
	int ignore_eos;                              /* -1 unknown */
	double temperature;                          /* NAN unknown */
	char *endpoint, *spec_type, *drafter, *extra_args, *tag, *notes;
	char *load_error, *log_path, *prompt_set;
	int64_t round;  /* 1.. within its collect invocation; TPS_NULL unknown */
	int64_t looks_to; /* migration 0006: an --until-decided batch's --max-rounds;
			     TPS_NULL for a fixed design */
	char *looks_metric; /* migration 0011: "pp" or "tg", the one metric that
			       batch's stopping rule watched (--metric); NULL both */
	char *spec_settings; /* migration 0012: the settled speculative knobs,
				"n_min=0 p_min=0.75"; NULL or "" unknown */
	char *batch;    /* uuid shared by the runs of one collect invocation; NULL */
	/* Migration 0005. config: the benchmark configuration a run measured, as one
	 * canonical text (llama-bench: "pp64@d0 fa=0 ngl=99 ..."), part of the cell key;
	 * "" for server runs, whose config is the columns above. cpu: the host's CPU
	 * ("" unknown). model_type and model_n_params: what the engine reported of the
	 * model ("" and TPS_NULL unknown). */
	char *config, *cpu, *model_type;
	int64_t model_n_params;
	/* Migration 0007. env: a JSON object of the facts recorded about the run's
	 * environment (docs/ENVIRONMENT.md), NULL when none; env_flags: RUN_ENV_* bits. */
	char *env;
	unsigned env_flags;
	/* Migration 0008: the process that collects the run (schema/collector.h): host
	 * name, boot id, pid and start time (clock ticks since boot); NULL/TPS_NULL for
	 * runs no collector wrote. */
	char *collector_host, *collector_boot;
	int64_t collector_pid, collector_start;
};

struct sample_rec {
	char *prompt_name;
	char prompt_hash[65];
	int64_t rep, seq;
	int64_t cache_n, prompt_n, predicted_n, draft_n, draft_n_accepted;
	double prompt_ms, prompt_per_second, predicted_ms, predicted_per_second;
	double wall_ms;       /* client: the whole exchange, connection set-up included */
	/* Migration 0010: the collector's monotonic clock over a streamed answer
	 * (collect/stream.h); NAN when not measured (old runs, plain responses). */
	double client_ttft_ms;           /* request sent -> first streamed token */
	double client_decode_per_second; /* tokens after the first / (last - first token) */
	double client_e2e_ms;            /* request sent -> last byte; <= wall_ms */
	int64_t http_status;
	char *error, *stop_type, *output_hash;
	char *timings; /* raw JSON of the timings object */
	unsigned flags;
	double repeat_share; /* migration 0007: collect/repeat.h's measure; NAN unknown */
};

/* Initialise to all-absent (strings NULL, integers TPS_NULL, doubles NAN). */
void run_rec_init(struct run_rec *r);
void sample_rec_init(struct sample_rec *s);
/* Free the strings a record owns and re-initialise it. Accept NULL. */
void run_rec_release(struct run_rec *r);
void sample_rec_release(struct sample_rec *s);

/* The one definition of the rates tpsdb compares, in tokens per second: tokens
 * over the time the engine took for them, n / ms * 1000, prefill from prompt_n and
 * prompt_ms, decode from predicted_n and predicted_ms. This is llama-bench's
 * definition (its pp and tg: n_prompt or n_gen over the test's time) and that of
 * llama.cpp b8390's server; the server of llama.cpp v0.4.0 reports decode as
 * (n - 1) / ms. Engines' self-reported rates so differ in definition, and a
 * comparison of them would measure the definitions (n / (n - 1): 0.79% at 128
 * tokens); the same n / t on both sides of every comparison leaves only the times.
 * The self-reported rates stay stored as they came (prompt_per_second,
 * predicted_per_second); the rate is the reported one only where the counts cannot
 * give it: n or ms missing or not above zero, or an aggregate (SAMPLE_AGGREGATE in
 * flags), whose reported rate is a mean over repetitions that no count and mean
 * time give back. NAN when neither is known. Ingest stores its result in
 * sample.pp_rate and sample.tg_rate, which the loaders read; migration 0009 fills
 * them for stored samples through SQL as tps_rate(n, ms, reported, flags). */
double record_rate(int64_t n, double ms, double reported, unsigned flags);
/* record_rate() of a sample's prefill and of its decode. */
double record_pp_rate(const struct sample_rec *s);
double record_tg_rate(const struct sample_rec *s);

#endif
