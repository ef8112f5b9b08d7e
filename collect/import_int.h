/* import_int.h: what the files of `tpsdb import` share and nothing else sees: the
 * importer's state over one pass, the input files and the records their checking
 * kept, and the steps each input kind (import_response.c, import_bench.c,
 * import_export.c, import_speed.c) calls to make runs and samples (import_run.c)
 * and to keep records (import_rec.c). The driver is import.c; no other file
 * calls into it. */
#ifndef COLLECT_IMPORT_INT_H
#define COLLECT_IMPORT_INT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/import.h"
#include "collect/response.h"
#include "schema/json_span.h"
#include "schema/record.h"
#include "tpsdb.h"

enum kind { KIND_NONE, KIND_RESPONSE, KIND_BENCH, KIND_EXPORT, KIND_SPEED };
/* The kinds by name, for messages and imported_file.kind. */
extern const char *const import_kind_names[];

/* Repetition counting: the k-th sample of a prompt is repetition k. An
 * open-addressing table keyed by the prompt hash, so a million samples over as many
 * distinct prompts stay linear. */
struct prompt_count {
	char hash[65]; /* "" marks a free slot */
	int64_t n;
};

/* The sha256 of prompt texts already seen: an import repeats a handful of prompts
 * many times, and hashing a 7 kB prompt per sample was a tenth of the import. Keyed
 * by a cheap FNV-1a of the text's length and ends (import_run.c), compared whole;
 * bounded, then it simply stops remembering. */
struct text_hash {
	char *text; /* NULL marks a free slot */
	size_t len;
	uint64_t key;
	char hash[65];
};
#define TEXT_MEMO_SLOTS 1024     /* power of two */
#define TEXT_MEMO_MAX 512        /* entries, at most half the slots */
#define TEXT_MEMO_BYTES (16 << 20)

/* One run of an export line, as schema/record_json.c read it. */
struct import_export_rec {
	struct run_rec run;
	struct sample_rec *smp;
	size_t n;
};

/* One item the checking pass parsed and checked, kept for the writing pass, which
 * replays it without parsing again: only what depends on the items before it
 * (the run row, repetitions, seq, flags) is computed anew, as files skipped as
 * duplicates change those. line: where the item is, for messages. */
struct import_rec {
	enum kind kind;
	long line;
	union {
		struct response resp;          /* KIND_RESPONSE: prompt text already hashed
						  and freed; model only in a file's first */
		const cJSON *bench;            /* KIND_BENCH, KIND_SPEED: an object of the
						  input's trees */
		struct import_export_rec *exp; /* KIND_EXPORT */
	} u;
};

/* One input file: its bytes (read whole, never mapped, freed once checked), their
 * digest and size, and what checking them kept. */
struct input {
	const char *path;
	const char *buf;      /* a whole input's bytes while it is checked; NULL after,
				 and for JSONL read a piece at a time */
	size_t len;           /* the input's size in bytes */
	size_t peak;          /* the most bytes of it held at once */
	char sha256[65];
	struct import_rec *recs;
	size_t nrecs, arecs;
	cJSON **trees; /* llama-bench: the parsed values recs[].u.bench point into */
	size_t ntrees;
};

struct import_batch {
	const struct import_opts *o;
	struct input *in;
	int n;
	const char *kind; /* import_kind_names[], static */
};

/* A llama-bench run: the rows of one configuration and build; or a speed-bench
 * file's one run (key NULL). */
struct bench_run {
	char *key; /* config and build: rows with the same key share the run */
	struct run_rec run;
	int64_t run_id;
};

struct importer {
	int dry;          /* the checking pass: no store, nothing written, records kept */
	struct store *s;
	const struct import_opts *o;
	struct import_result *res;
	enum kind kind;
	struct run_rec run;
	int64_t run_id;   /* -1 until the run row exists */
	int64_t seq;      /* requests the server answered before the next sample */
	struct prompt_count *counts;
	size_t ncounts, acounts; /* used and allocated slots; acounts a power of two */
	struct text_hash *memo;  /* TEXT_MEMO_SLOTS slots once used */
	size_t nmemo, memo_bytes;
	char *bench_model; /* llama-bench: the one model_filename this import holds */
	struct bench_run **bench; /* llama-bench: one run per configuration and build;
				     speed-bench: one per file */
	size_t nbench;
	const char *file_uuid; /* the run the current file's first result went to */
	struct input *in; /* the checking pass: the file whose records it keeps */
	const char *file;
	long line;
};

/* --- import_rec.c: the records and the error line, below the driver and every
 * part --- */

/* A new record of im->in at the current line, zeroed but for kind and line. */
struct import_rec *import_rec_add(struct importer *im, enum kind kind);
/* in keeps v (a parsed value its llama-bench records point into) until released. */
void import_tree_keep(struct input *in, cJSON *v);
/* Frees what the records and trees of in own. */
void import_recs_release(struct input *in);


/* Prints "<file>:<line>: <msg>; nothing was imported" (no line when im->line is 0)
 * and returns -1. */
int import_bad(struct importer *im, const char *msg);

/* The run row of r, created from the options and what the first item said
 * (model_path, endpoint): checked, and inserted unless im->dry. -1 after an error
 * line. import_start_run() makes im's own run. */
int import_start_run_rec(struct importer *im, struct run_rec *r, int64_t *run_id,
			 const char *model_path, const char *endpoint);
int import_start_run(struct importer *im, const char *model_path, const char *endpoint);

/* Numbers, flags, checks and (unless im->dry) inserts one sample of run (run_id);
 * count_key: the hex key repetitions are counted under (NULL: the prompt hash);
 * extra: flags the caller knows beyond quality_assess()'s. -1 after an error line.
 * import_sample_write() writes to im's own run. */
int import_sample_write_to(struct importer *im, const struct run_rec *run, int64_t run_id,
			   struct sample_rec *smp, const char *count_key, unsigned extra);
int import_sample_write(struct importer *im, struct sample_rec *smp);
/* The sample's prompt hash and name: from text, or from --prompt when text is NULL. */
void import_name_prompt(struct importer *im, struct sample_rec *smp, const char *text);

/* The input kinds, in the checking pass: one value each, checked and kept as a
 * record of im->in (a response from the values of response_members[] in its
 * checked text; the others from their parsed object). A llama-bench record points
 * into the parsed value, which the driver then keeps in im->in->trees. 0 ok, -1
 * after an error line. */
int import_response(struct importer *im, const struct json_span *m);
int import_bench(struct importer *im, const cJSON *obj);
int import_export(struct importer *im, const cJSON *obj);
int import_speed(struct importer *im, const cJSON *obj);
/* A whole non-JSON file, llama-bench csv or sql (first: its first byte that is not
 * white space), parsed into an array of objects, each the driver reads as a value
 * of its kind: the array (the caller keeps it) and each object's line in *lines
 * (caller frees), or NULL after an error line. */
cJSON *import_bench_text(struct importer *im, const struct input *in, const char *first,
			 long **lines);

/* The writing pass: one kept record into the store (the checks that depend on
 * the items before it run again). 0 ok, -1 after an error line. */
int import_response_add(struct importer *im, const struct response *resp);
int import_bench_add(struct importer *im, const cJSON *obj);
int import_export_add(struct importer *im, const struct import_export_rec *e);
int import_speed_add(struct importer *im, const cJSON *obj);

/* How many bytes a JSONL input is read at a time (IMPORT_READ_CHUNK; tests lower
 * it to cut lines at every offset). */
#define IMPORT_READ_CHUNK ((size_t)16 << 20)
extern size_t import_chunk_bytes;

/* An input being read: buf[0..len) the bytes held (NUL after them), those before
 * dropped; every byte read is hashed. */
struct file_reader {
	const char *path;
	int fd;
	int64_t max;          /* the most bytes the input may have */
	int64_t size;         /* a regular file's size when opened; -1 otherwise */
	int64_t total;        /* bytes read so far */
	struct sha256 hash;
	char *buf;
	size_t len, cap;
	size_t peak;          /* the largest buffer it held */
	int eof;
};

/* Opens path ("-" is stdin) for reading at most max bytes. -1 after an error line
 * (r closed). */
int import_file_open(struct file_reader *r, const char *path, int64_t max);
/* Reads want more bytes, fewer only where the input ends (r->eof), and never
 * more: a caller bounds what it holds through want. -1 after an error line: a
 * read error, or more than max bytes. */
int import_file_more(struct file_reader *r, size_t want);
/* Reads the rest of the input. -1 after an error line. */
int import_file_all(struct file_reader *r);
/* Forgets the first n bytes held. */
void import_file_drop(struct file_reader *r, size_t n);
/* At the end of the input: the sha256 of every byte read into hex, or -1 after an
 * error line when a regular file changed size while it was read. */
int import_file_end(struct file_reader *r, char hex[65]);
/* Closes the input and frees what is held; accepts a closed reader. */
void import_file_close(struct file_reader *r);
/* Frees in->buf, the bytes of a whole input. */
void import_file_release(struct input *in);

#endif
