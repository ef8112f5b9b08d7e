/* labels.h: the names a user may pass to --engine, --model, --tag, --host, --batch
 * and --baseline,
 * as the store holds them, so that a name matching nothing can be refused with the
 * known ones listed instead of an empty answer. */
#ifndef SCHEMA_LABELS_H
#define SCHEMA_LABELS_H

#include <stddef.h>

struct store;

enum store_label_kind {
	STORE_LABEL_ENGINE,   /* engine labels that have a run */
	STORE_LABEL_MODEL,    /* model labels that have a run */
	STORE_LABEL_TAG,      /* non-empty run tags */
	STORE_LABEL_BASELINE, /* baseline names */
	STORE_LABEL_HOST,     /* host names that have a run */
	STORE_LABEL_BATCH,    /* collect batch ids */
};

/* The distinct names of kind k in the store, sorted: *out gets a heap array of *n
 * heap strings, freed with store_labels_free(). 0 ok, -1 after an error line. */
int store_labels(struct store *s, enum store_label_kind k, char ***out, size_t *n);

/* Frees what store_labels() returned; accepts NULL. */
void store_labels_free(char **v, size_t n);

/* Checks that name is a known name of kind k: 1 when it is, 0 when it is not
 * (after an error line naming the option and listing the known names, closest to
 * name first: "no engine 'llama.cp' in the store (known: llama.cpp, ours)"), -1
 * after a store error line. opt names the option in the message ("--engine"). */
int store_label_check(struct store *s, enum store_label_kind k, const char *name,
		      const char *opt);

#endif
