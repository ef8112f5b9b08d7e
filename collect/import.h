/* import.h: ingesting files that other tools wrote: raw llama-server responses (one
 * JSON object per file or one per line), llama-bench's -o json / -o jsonl output, and
 * tpsdb's own export. One invocation is one transaction: all of it lands or none. */
#ifndef COLLECT_IMPORT_H
#define COLLECT_IMPORT_H

#include <stdint.h>

struct store;

/* The input limits (README "Import limits"): a file or stdin above
 * IMPORT_MAX_FILE bytes, or one JSON value (a whole-file value or one line) above
 * IMPORT_MAX_VALUE, is refused as "too large" before it is parsed. An export line
 * carries a whole run, hence a value limit well above any single response. */
#define IMPORT_MAX_FILE ((int64_t)1 << 30)  /* 1 GiB */
#define IMPORT_MAX_VALUE ((int64_t)64 << 20) /* 64 MiB */

struct import_opts {
	const char *engine, *role, *engine_version, *model, *model_file, *model_sha256;
	const char *quant, *host, *gpu, *driver, *cuda, *tag, *spec_type, *prompt, *notes;
	int64_t n_predict, n_max, ctx, warmup; /* TPS_NULL when not given */
	int allow_duplicate;  /* import bytes the store has imported before */
	int64_t max_file;     /* IMPORT_MAX_FILE unless lowered (--max-bytes) */
	int64_t max_value;    /* IMPORT_MAX_VALUE; tests lower it */
};

/* The files of one import, read, parsed and checked, not yet written. */
struct import_batch;

struct import_result {
	char uuid[40];     /* the run created from responses or llama-bench output */
	long samples;      /* samples written */
	long runs_made;    /* responses, llama-bench: runs created (llama-bench makes
			      one per configuration and build) */
	long runs_new;     /* export lines: runs restored */
	long runs_known;   /* export lines: runs already in the store, skipped */
	long flagged;      /* samples with a data-quality flag */
	long skipped;      /* files skipped: their bytes were imported before */
	const char *kind;  /* "responses", "llama-bench" or "export", static */
};

void import_opts_init(struct import_opts *o);

/* Reads every file ("-" is stdin) whole, within the limits, and checks all of it
 * as import_write() will store it: strict JSON (RFC 8259), the kind of input, and
 * every value (schema/record_check.h). One file's bytes are held at a time: each
 * is read, hashed, checked into its records and freed before the next. Touches no
 * store, so a slow pipe holds no lock. On any problem it prints one error line, "<file>:<line>: <why>; nothing was
 * imported", and returns NULL. o and files must outlive the batch. */
struct import_batch *import_read(const struct import_opts *o, char *const *files, int n);

/* Writes a batch into s inside the caller's transaction (store_begin(); the
 * command owns it, and rolls it back after -1), with the sha256 of each file's
 * bytes in imported_file. A file whose bytes the store (or an earlier file of the
 * batch) already holds is skipped with a warning line unless o->allow_duplicate.
 * On a store error it prints one line and returns -1. 0 ok, with res filled. */
int import_write(struct store *s, struct import_batch *b, struct import_result *res);

/* Frees a batch; accepts NULL. */
void import_batch_free(struct import_batch *b);

#endif
