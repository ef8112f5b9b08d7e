/* alarms.h: the words and the JSON of the model-identity alarms (schema/catalog.h).
 * `tpsdb models`, `tpsdb check` and `tpsdb report` all render an alarm through
 * here, straight from the structs, so the sentence and the JSON shape cannot drift. */
#ifndef REPORTS_ALARMS_H
#define REPORTS_ALARMS_H

#include <stddef.h>

#include "schema/catalog.h"

struct cJSON;

/* One line describing an alarm (no "ALARM: " prefix, no newline), e.g. "file
 * 'm.gguf' holds different bytes under one name: sha256 ab12... on a; sha256
 * cd34... on b". Caller frees. Never fails (aborts on out of memory). */
char *alarms_text(const struct catalog_alarm *a);

/* The n alarms as a JSON array of {"kind", "file" or "label", "message",
 * "variants": [{"sha256" or "quant", "hosts": [...]}]}; the caller owns the tree
 * (cJSON_Delete, or adds it to a document). */
struct cJSON *alarms_json(const struct catalog_alarm *a, size_t n);

#endif
