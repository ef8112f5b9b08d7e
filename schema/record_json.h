/* record_json.h: tpsdb's own interchange format, one JSON line per run with its
 * samples, written by `tpsdb export` and read back by `tpsdb import`. Every column
 * of run and sample travels, so export then import is a lossless round trip. */
#ifndef SCHEMA_RECORD_JSON_H
#define SCHEMA_RECORD_JSON_H

#include <stddef.h>

#include "schema/record.h"

struct cJSON;

/* The key that marks an export line: {"tpsdb_run": 1, "run": {...}, "samples": [...]}. */
#define RECORD_JSON_MARK "tpsdb_run"

/* Serialises one run and its samples as one line of JSON (no newline). Returns a
 * heap string the caller frees with free(), or NULL after an error line when cJSON
 * runs out of memory. */
char *record_json_write(const struct run_rec *run, const struct sample_rec *smp, size_t n);

/* Parses an export line (already parsed to cJSON) into run and a heap array of n
 * samples; the caller releases run, each sample, and frees the array, whatever this
 * returns. -1 with a message in err on a malformed record. */
int record_json_read(const struct cJSON *root, struct run_rec *run, struct sample_rec **smp,
		     size_t *n, char *err, size_t errlen);

struct env_facts; /* analyze/envrule.h */

/* The facts a rule reads from a run's environment (run.env, the JSON object
 * docs/ENVIRONMENT.md describes) into f; f->known 0 when json is NULL or not an
 * object. Keys it lacks stay unknown. */
void record_env_facts(const char *json, struct env_facts *f);

#endif
