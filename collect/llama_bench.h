/* llama_bench.h: llama-bench's text outputs (-o csv and -o sql) read into the same
 * JSON objects its -o json writes, so one importer handles every format. Neither
 * text format carries the per-repetition samples: the rows hold avg_ts/stddev_ts. */
#ifndef COLLECT_LLAMA_BENCH_H
#define COLLECT_LLAMA_BENCH_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* The formats import names when it refuses a file. */
#define LLAMA_BENCH_FORMATS                                                             \
	"tpsdb export JSONL, llama-server responses (JSON or JSONL), llama-bench -o json, " \
	"-o jsonl, -o csv or -o sql, speed_bench.py --output"

/* Parses buf as llama-bench -o csv (a header line naming build_commit ... avg_ts)
 * or -o sql (CREATE TABLE <any name>(...) and INSERT INTO <that name>(...) VALUES
 * (...); lines: the table name changed across versions, so any name whose columns
 * hold n_prompt, n_gen and avg_ts is taken). Numbers become JSON numbers: in sql by
 * the declared column type, in csv by the column (the text columns are known).
 * Returns a cJSON array of row objects the caller frees with cJSON_Delete, and in
 * *lines a heap array (caller frees) of each row's 1-based line. Returns NULL and
 * fills err (and *errline, 0 for the whole file) when the text is csv or sql but
 * broken; NULL with err "" when it is neither. */
cJSON *llama_bench_text_parse(const char *buf, size_t len, long **lines, char *err,
			      size_t errlen, long *errline);

#endif
