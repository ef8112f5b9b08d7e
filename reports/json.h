/* json.h: how the JSON writers of reports/ put a value that may be absent, so
 * that every command says "absent" the same way: null, never NaN, a sentinel or
 * a missing key. */
#ifndef REPORTS_JSON_H
#define REPORTS_JSON_H

#include <stdint.h>
#include <stdio.h>

struct cJSON;

/* v, or null when it is not finite. A negative zero is written as 0: "-0" would
 * read as a direction. */
void json_put_num(struct cJSON *o, const char *k, double v);
/* v, or null when it is TPS_NULL. */
void json_put_i64(struct cJSON *o, const char *k, int64_t v);
/* A rung's n_max, or null for the base (TPS_NULL, or 0 and below). */
void json_put_rung(struct cJSON *o, const char *k, int64_t n_max);
/* s, or null when it is NULL. s need not be valid UTF-8: json_print() repairs it. */
void json_put_str(struct cJSON *o, const char *k, const char *s);

/* "regression": "yes", "no", "undecided", or null when unknown. */
void json_put_regression(struct cJSON *o, int regression);

struct verdict;
/* What an answer's scatter rests on besides its own rounds: "scatter_pct" (one
 * instance a side: the floor or default scatter it was judged against, else
 * null), "history" ("none", "pooled" or "rejected"), "hist_batches" and
 * "hist_df" (the earlier batches' degrees of freedom, 0 none), "scatter_source"
 * (a rounds interval: what set its round scatter, "rounds", "instances",
 * "floor" or "drift"; else null) and "round_scatter_pct" (that scatter, the sd
 * of one round's log ratio in percent; null when not rounds). */
void json_put_evidence(struct cJSON *o, const struct verdict *v);

struct clean_answer;
/* "newest_clean": null when c is NULL or found none, else an object of the
 * newest clean batch's answer: "regression", "verdict", "delta_pct",
 * "ci_lo_pct", "ci_hi_pct", "ci_level", "decided", "rounds", "batch" and
 * "date" (its newest run's start, ISO 8601). */
void json_put_clean(struct cJSON *o, const struct clean_answer *c);

/* The one way reports/ turns a tree into text: every string value and key in root
 * that is not valid UTF-8 (a label of a store written before ingest checked it) is
 * first rewritten in place with U+FFFD for each bad byte (escape_utf8()), because
 * cJSON copies bytes and its output would not parse. Formatted as cJSON_Print()
 * does. Returns text the caller frees with cJSON_free(), or NULL when out of memory. */
char *json_print(struct cJSON *root);
/* Writes json_print(root) and a newline to f, and deletes root (also on failure).
 * 0 ok, -1 after an error line when out of memory (a stream in error is the
 * caller's to report, as for any other write). */
int json_write(FILE *f, struct cJSON *root);

#endif
