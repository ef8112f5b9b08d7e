/* catalog.h: the read side of the store that is not whole runs: the list of runs
 * with their sample counts, the model registry with its identity alarms, and the
 * data-quality findings per run. reports/ renders these; nothing here prints. */
#ifndef SCHEMA_CATALOG_H
#define SCHEMA_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/envrule.h"
#include "schema/record.h"

struct store;
struct run_filter;

/* One run as `tpsdb runs` lists it. */
struct catalog_run {
	char *uuid, *started_at, *ended_at, *status, *source;
	char *host, *engine, *role, *model, *tag, *spec_type, *endpoint, *load_error;
	char *load_line;                       /* load_error's error line: left NULL
						  here, set by the command
						  (collect/loaderr.h); freed here */
	int64_t ctx, n_predict, n_max, warmup; /* TPS_NULL when absent */
	int64_t round;                         /* in its collect invocation; TPS_NULL */
	char *batch;                           /* that invocation's id; NULL unknown */
	char *config, *cpu;                    /* migration 0005; "" when none */
	char *gpu, *driver, *cuda;             /* the host row's; "" when unknown */
	char *engine_version;                  /* engine.version; "" when unknown */
	char *engine_sha256;                   /* engine.sha256, the binary's; "" unknown */
	int64_t n_samples, n_failed, n_flagged;
	/* The prefill and decode tok/s of the samples whose flags do not spoil that
	 * metric (SAMPLE_SPOILS_PP / _TG), in sample order; heap, NULL when none. */
	double *pp, *tg;
	size_t npp, ntg;
};

/* Lists the runs that match f (NULL: all) in start order into *out, a heap array of
 * *n runs that the caller frees with catalog_runs_free(). 0 ok, -1 after an error
 * line (then *out is NULL and *n 0). */
int catalog_runs(struct store *s, const struct run_filter *f, struct catalog_run **out,
		 size_t *n);
void catalog_runs_free(struct catalog_run *r, size_t n);
/* Frees what one run of a listing holds and zeroes it. */
void catalog_run_release(struct catalog_run *r);

/* A list of host names, sorted, each once. */
struct catalog_hosts {
	char **name;
	size_t n;
};

/* One row of the model registry: a distinct (label, file, bytes, sha256, quant). */
struct catalog_model {
	char *label, *file, *sha256, *quant; /* "" when unknown */
	int64_t bytes;                       /* TPS_NULL when unknown */
	struct catalog_hosts hosts;          /* where its runs were measured */
	int64_t runs;
};

/* The registry, ordered by label, file and quant, into a heap array the caller frees
 * with catalog_models_free(). 0 ok, -1 after an error line. */
int catalog_models(struct store *s, struct catalog_model **out, size_t *n);
void catalog_models_free(struct catalog_model *m, size_t n);

/* Model-identity alarms: two files of one name that hold different bytes, or one
 * label measured at different quants. Either makes a comparison across them a
 * comparison of different models. reports/alarms.h words and renders them. */
#define CATALOG_ALARM_FILE_SHA256 "file-sha256-mismatch"
#define CATALOG_ALARM_LABEL_QUANT "label-quant-mismatch"

struct catalog_variant {
	char *value;                /* the sha256 or the quant */
	struct catalog_hosts hosts; /* the hosts whose runs used it */
};

struct catalog_alarm {
	const char *kind; /* CATALOG_ALARM_*, static */
	char *subject;    /* the file name or the model label */
	struct catalog_variant *v;
	size_t nv;        /* >= 2 */
};

/* Finds the alarms: for each file name (not "") the distinct sha256 values other
 * than "" when there are two or more, and for each label the distinct quants other
 * than "" when there are two or more; unknown values never raise an alarm. Heap
 * array, caller frees with catalog_alarms_free(). 0 ok, -1 after an error line. */
int catalog_alarms(struct store *s, struct catalog_alarm **out, size_t *n);
void catalog_alarms_free(struct catalog_alarm *a, size_t n);

/* The data-quality summary of one run: what check turns into findings. */
#define CATALOG_NFLAGS 7 /* the SAMPLE_* bits, 1 << 0 .. 1 << 6 */
struct catalog_quality {
	char *uuid, *engine, *model, *status, *load_error;
	char *load_line;                 /* load_error's error line: left NULL here,
					    set by the command (collect/loaderr.h);
					    freed here */
	int orphaned;                    /* stored 'running', its collector gone: status
					    says 'interrupted' */
	int64_t n_predict;               /* the run's requested n_predict, TPS_NULL */
	int64_t total;                   /* samples in the run */
	int64_t count[CATALOG_NFLAGS];   /* samples carrying flag 1 << i */
	int64_t trunc_min_predicted_n;   /* smallest predicted_n of truncated samples */
	int64_t trunc_early_stops;       /* truncated samples that stopped on eos/word */
	int64_t cache_max_n;             /* largest cache_n of cache-inflated samples */
	int64_t short_min_prompt_n;      /* smallest prompt_n of short-prompt samples */
	char *failed_example;            /* an error text, or "HTTP <status>", or NULL */
	double degen_max_share;          /* largest repeat_share of degenerate samples, NAN */
	unsigned env_flags;              /* the run's RUN_ENV_* findings as stored (migration
					    0007); analyze/envrule.h derives them from facts */
	char *env;                       /* the run's environment facts (JSON), or NULL */
	struct env_facts facts;          /* ... as a rule reads them */
	/* Migration 0010: the decode rates of its samples that have both the server's
	 * and the client clock's and spoil no decode (SAMPLE_SPOILS_TG), pairwise;
	 * analyze/clock.h judges them. Heap arrays of n_clock, NULL when none. */
	double *tg_server, *tg_client;
	size_t n_clock;
};

/* The summary of every run that matches f, in start order, heap array freed with
 * catalog_quality_free(). Absent example values are TPS_NULL. 0 ok, -1 after an
 * error line. */
int catalog_quality(struct store *s, const struct run_filter *f,
		    struct catalog_quality **out, size_t *n);
void catalog_quality_free(struct catalog_quality *q, size_t n);

#endif
