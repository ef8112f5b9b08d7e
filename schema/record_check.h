/* record_check.h: the one set of rules a run or sample must meet before it is
 * stored, whatever format it came in (llama-server responses, chat responses,
 * llama-bench output, tpsdb export lines) or whoever built it (collect, import,
 * merge). Parsers check types; these functions check values. */
#ifndef SCHEMA_RECORD_CHECK_H
#define SCHEMA_RECORD_CHECK_H

#include <stddef.h>

#include "schema/record.h"

/* Absurd values are refused rather than stored. */
#define RECORD_MAX_RATE 1e7    /* tok/s: prompt_per_second, predicted_per_second, record_rate() */
#define RECORD_MAX_COUNT 1e8   /* tokens: cache_n, prompt_n, predicted_n, draft_n, ... */
#define RECORD_MAX_MS 8.64e7   /* ms, a day: prompt_ms, predicted_ms, wall_ms */
/* The widest integer an export line carries exactly (a JSON number is a double):
 * a run that holds a wider one could be stored but its export would not import. */
#define RECORD_MAX_INT 9e15

/* 1 when s is NULL or valid UTF-8 (json_utf8_valid), else 0. */
int record_utf8_ok(const char *s);

/* 1 when s is an ISO 8601 date-time as tpsdb writes and reads them:
 * YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|+HH:MM|-HH:MM], with the fields in range. */
int record_time_ok(const char *s);

/* Checks that every text of a run is valid UTF-8. 0 ok; -1 naming the field in err. */
int record_check_run_text(const struct run_rec *r, char *err, size_t errlen);

/* Checks a run's values: every text valid UTF-8; uuid 8-4-4-4-12 hex; started_at
 * and ended_at ISO 8601 when present; status one of running, complete, partial,
 * failed, interrupted, and role one of ours, upstream, other when present; the
 * engine and model sha256 empty or 64 hex digits; ctx, n_predict (-1 allowed),
 * warmup and model bytes >= 0; n_max >= 1; temperature finite and >= 0; round >= 1;
 * looks_to in [1, 100000]; env one JSON object (RFC 8259); every integer within
 * RECORD_MAX_INT. A field that is absent (NULL, TPS_NULL, NAN) passes. 0 ok; -1 with
 * the reason in err. */
int record_check_run(const struct run_rec *r, char *err, size_t errlen);

/* Checks one sample: counts in [0, RECORD_MAX_COUNT], rates in [0,
 * RECORD_MAX_RATE], times in [0, RECORD_MAX_MS], all finite; draft_n_accepted <=
 * draft_n; prompt_hash 64 hex digits; output_hash absent or 64 hex; rep >= 1 and
 * seq >= 0 when present; http_status in [0, 999]; flags only known bits; texts
 * valid UTF-8. 0 ok; -1 with the reason in err. */
int record_check_sample(const struct sample_rec *s, char *err, size_t errlen);

/* record_check_sample on each of n samples of one run, and each (prompt_hash, rep)
 * at most once. 0 ok; -1 with the reason (naming the sample's index) in err. */
int record_check_samples(const struct sample_rec *s, size_t n, char *err, size_t errlen);

/* A whole run as it moves from store to store: an export line on import, another
 * store's run on merge. Its uuid, then record_check_run and record_check_samples;
 * one set of rules, so that whatever merge takes, its export imports. 0 ok; -1
 * with the reason in err. */
int record_check_whole(const struct run_rec *r, const struct sample_rec *smp, size_t n,
		       char *err, size_t errlen);

#endif
