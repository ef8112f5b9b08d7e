/* json_span.h: reading values out of JSON text that json_strict_check() accepted,
 * without building a tree. A span is one value's bytes inside that text; members
 * are found at one level only, strings are decoded on request and numbers read as
 * cJSON reads them. The hot path of an import (one llama-server response per line)
 * reads a handful of fields this way instead of allocating a node per value. */
#ifndef SCHEMA_JSON_SPAN_H
#define SCHEMA_JSON_SPAN_H

#include <stddef.h>

/* One JSON value's bytes; p NULL (n 0) when absent. */
struct json_span {
	const char *p;
	size_t n;
};

enum json_type { JSON_ABSENT, JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
		 JSON_ARRAY, JSON_OBJECT };

/* The type of a span's value, from its first byte. */
enum json_type json_span_type(struct json_span v);

/* The value that starts at text[0] (after white space) within len bytes. */
struct json_span json_span_of(const char *text, size_t len);

/* The members of object v named keys[0..n), in one walk over its members: out[k]
 * is the value of the member whose (decoded) name is keys[k], absent when there is
 * none or v is not an object. The checked text has no duplicate keys. Names past
 * the first JSON_SPAN_MAX_KEYS are never found. */
#define JSON_SPAN_MAX_KEYS 32
void json_span_members(struct json_span v, const char *const *keys, size_t n,
		       struct json_span *out);

/* The first element of array v; absent when v is not an array or is empty. */
struct json_span json_span_first(struct json_span v);

/* The number v as a double (strtod over its bytes, as cJSON reads it); 0 when v is
 * not a number. */
double json_span_number(struct json_span v);

/* The decoded bytes of string v, NUL-terminated and owned by the caller (the
 * checked text holds no "\u0000", so there is no NUL inside), with *len set when len
 * is not NULL; NULL when v is not a string. */
char *json_span_string(struct json_span v, size_t *len);

#endif
