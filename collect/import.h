/* import.h: ingesting files that other tools wrote: raw llama-server responses (one
 * JSON object per file or one per line), llama-bench's -o json / -o jsonl output, and
 * tpsdb's own export. One invocation is one transaction: all of it lands or none. */
#ifndef COLLECT_IMPORT_H
#define COLLECT_IMPORT_H

#include <stdint.h>

struct store;

struct import_opts {
	const char *engine, *role, *engine_version, *model, *model_file, *model_sha256;
	const char *quant, *host, *gpu, *driver, *cuda, *tag, *spec_type, *prompt, *notes;
	int64_t n_predict, n_max, ctx, warmup; /* TPS_NULL when not given */
};

struct import_result {
	char uuid[40];     /* the run created from responses or llama-bench output */
	long samples;      /* samples written */
	long runs_new;     /* export lines: runs restored */
	long runs_known;   /* export lines: runs already in the store, skipped */
	long flagged;      /* samples with a data-quality flag */
	const char *kind;  /* "responses", "llama-bench" or "export", static */
};

void import_opts_init(struct import_opts *o);

/* Imports files into s inside one BEGIN IMMEDIATE transaction. On any malformed file
 * or line, missing timings, or bad value it prints one error line naming the file and
 * line, rolls back (the store is as before) and returns -1. 0 ok, with res filled. */
int import_files(struct store *s, const struct import_opts *o, char *const *files, int n,
		 struct import_result *res);

#endif
