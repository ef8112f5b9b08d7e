/* findings.h: the data-quality findings of runs, one per run and kind, built from
 * catalog_quality() rows. 'tpsdb check' prints them all and 'tpsdb report' those of
 * the runs it shows; both go through here, so the two say the same words about the
 * same run. */
#ifndef REPORTS_FINDINGS_H
#define REPORTS_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/cellset.h"
#include "schema/catalog.h"

struct cJSON;

struct finding {
	char *run, *engine, *model; /* copies of the row's uuid and labels */
	const char *kind;           /* static: a flag name of record_flag_name(), or
				       "load-failed", "partial", "interrupted",
				       "outlier-instance", "timings-disagree", or an
				       environment finding of
				       record_env_flag_name() */
	int64_t count, total;       /* samples; 1 of 1 for a finding about the run */
	char *detail;               /* e.g. "truncated decode (predicted_n 40 < n_predict 256)" */
	int run_level;              /* about the whole run, not a count of samples */
};

/* A growing list; start it zeroed, free it with findings_release(). */
struct findings {
	struct finding *v;
	size_t n;
};

/* Appends the findings of one run: its status (a load failure with its error line,
 * q->load_line, else the last line of the server log, a partial or an interrupted run) first, then one per
 * environment flag (host-busy, gpu-contended, ..., worded from run.env), then one
 * per sample flag it carries. Copies what it keeps from q. Never fails. */
void findings_add(struct findings *fs, const struct catalog_quality *q);

/* Appends an "outlier-instance" finding for each of the n outliers of o (an
 * instance far from its pool's others, analyze/cellset.h pools_outliers()): its
 * value of the metric against the pool's median. Copies what it keeps. */
void findings_add_outliers(struct findings *fs, const struct pool_outlier *o, size_t n);

/* Appends a "timings-disagree" finding about run: the medians of its server's
 * decode rate and of the client clock's, as analyze/clock.h judged them. */
struct clock_check;
void findings_add_clock(struct findings *fs, const char *run, const char *engine,
			const char *model, const struct clock_check *c);

/* findings_add() for each of the n rows of q, in their order. */
void findings_build(struct findings *fs, const struct catalog_quality *q, size_t n);

/* Frees the findings and zeroes fs; accepts a zeroed list. */
void findings_release(struct findings *fs);

/* One finding as the line 'tpsdb check' prints, without the newline:
 * "run <uuid> <engine>/<model>: <n> of <total> samples <detail>", or for a finding
 * about the run "run <uuid> <engine>/<model>: <detail>". Caller frees. */
char *findings_line(const struct finding *f);
/* The detail check gives environment finding flag (one RUN_ENV_* bit) of a run
 * whose facts are env (run.env as stored; NULL or unreadable: the sentence without
 * facts), e.g. "GPU shared: 1 other compute process(es) on the run's GPU". Heap;
 * the caller frees it. */
char *findings_env_detail(const char *env, unsigned flag);

/* The findings as a JSON array of {"run", "engine", "model", "kind", "count",
 * "total", "detail"}; the caller owns it (cJSON_Delete, or adds it to a tree). */
struct cJSON *findings_json(const struct findings *fs);

#endif
