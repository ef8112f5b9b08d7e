/* response.h: parsing one llama-server response (POST /completion or POST
 * /v1/chat/completions) into a sample. This is the parser the fuzz target drives:
 * it never prints, and reports a bad response through a caller buffer. */
#ifndef COLLECT_RESPONSE_H
#define COLLECT_RESPONSE_H

#include <stddef.h>
#include <stdint.h>

#include "schema/record.h"
#include "schema/record_check.h"

struct response {
	struct sample_rec sample; /* timings, stop_type, output_hash, raw timings JSON */
	char *prompt;             /* the prompt text when the response echoes it */
	char *model;              /* the response's "model" */
	const char *endpoint;     /* "completion" or "chat", static */
	int64_t n_predict, seed;  /* from generation_settings, TPS_NULL when absent */
	int ignore_eos;           /* -1 when absent */
	double temperature;       /* NAN when absent */
};

/* Absurd values are refused rather than stored: the one set of limits every input
 * format shares (schema/record_check.h). */
#define RESPONSE_MAX_RATE RECORD_MAX_RATE
#define RESPONSE_MAX_COUNT RECORD_MAX_COUNT
#define RESPONSE_MAX_MS RECORD_MAX_MS

/* Parses json (len bytes, need not be NUL-terminated) into out, which the caller
 * releases with response_release() whatever this returns. A missing or non-object
 * `timings`, a field of the wrong type, or a negative, non-finite or absurd value is
 * an error: -1 with a message (no prefix) in err. 0 ok. */
int response_parse(const char *json, size_t len, struct response *out, char *err,
		   size_t errlen);

/* The same over text json_strict_check() already accepted (import checks each
 * line once): read where it lies, the timings object kept as the server wrote it,
 * byte for byte. */
int response_from_checked(const char *json, size_t len, struct response *out, char *err,
			  size_t errlen);

/* The same from the values of the top-level members named response_members[]
 * (json_span_members() of the checked text; absent ones absent), for a caller
 * that walks the members once for its own names too. */
#define RESPONSE_N_MEMBERS 8
extern const char *const response_members[RESPONSE_N_MEMBERS];
struct json_span;
int response_from_members(const struct json_span *m, struct response *out, char *err,
			  size_t errlen);

void response_init(struct response *r);
void response_release(struct response *r);

#endif
