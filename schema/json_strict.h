/* json_strict.h: an RFC 8259 check over raw bytes, run before cJSON parses them.
 * cJSON is lenient: it takes leading zeros ("007"), stops a string at a NUL byte,
 * and passes invalid UTF-8 and lone surrogates through to the store. Every reader
 * of outside JSON (import, responses, export lines) checks the bytes here first. */
#ifndef SCHEMA_JSON_STRICT_H
#define SCHEMA_JSON_STRICT_H

#include <stddef.h>

/* Deeper nesting is refused (cJSON's own limit is 1000; nothing tpsdb reads nests
 * beyond a handful of levels). */
#define JSON_STRICT_MAX_DEPTH 256

/* Checks that buf[0, len) is exactly one JSON value (RFC 8259), with only white
 * space around it (RFC white space only: SP, TAB, LF, CR). Also refused, beyond the
 * RFC's grammar: "\u0000" (cJSON would cut the string there), a key that appears
 * twice in one object (escapes read: "a" and "\u0061" are one key; cJSON would read
 * the first, a raw copy keep both), and nesting deeper than JSON_STRICT_MAX_DEPTH. Returns 0
 * when it is. Else -1, with *at set to the offset of the first bad byte and a short
 * reason ("leading zero in a number", ...) in why. When the value is whole and only
 * more text follows it, *at is that text's offset and the reason starts with
 * "text after the value". */
int json_strict_check(const char *buf, size_t len, size_t *at, char *why, size_t whylen);

/* The bytes a checked string's body (between its quotes, len bytes) stands for,
 * escapes decoded: heap, never longer than len, with room for a NUL at [*n]
 * (not written). Caller frees. */
char *json_strict_unescape(const char *body, size_t len, size_t *n);

/* 1 when s[0, len) is valid UTF-8 (no overlong forms, no surrogates, at most
 * U+10FFFF), else 0. */
int json_utf8_valid(const char *s, size_t len);

/* s[0, len) with every byte that does not belong to a valid UTF-8 sequence
 * replaced by U+FFFD, everything else kept (NUL bytes included). Applied to a
 * printed JSON text it keeps it JSON: an invalid byte can only sit in a string.
 * Caller frees. */
char *json_utf8_repair(const char *s, size_t len);

#endif
