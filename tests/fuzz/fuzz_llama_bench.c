/* fuzz_llama_bench.c: libFuzzer target for llama-bench's formats: the input goes to
 * the -o csv / -o sql reader directly (collect/llama_bench.c), then through import
 * into an in-memory store, which covers -o json/jsonl and the per-config runs too.
 * Built with -DTPSDB_FUZZ=ON under clang. */
#include "collect/import.h"
#include "tests/import_fixture.h"
#include "collect/llama_bench.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store *s;
	static char path[] = "/tmp/tpsdb-fuzz-llama-bench-XXXXXX";
	static int fd = -1;
	struct import_opts o;
	struct import_result res;
	char *files[1] = { path };
	char err[160];
	long *lines = NULL, errline = 0;
	cJSON *rows;

	fuzz_store_once(&s, path, &fd);
	rows = llama_bench_text_parse((const char *)data, size, &lines, err, sizeof(err),
				      &errline);
	if (rows && cJSON_GetArraySize(rows) > 0 && !lines)
		abort(); /* every row has its line */
	cJSON_Delete(rows);
	free(lines);
	fuzz_write_input(path, data, size);
	import_opts_init(&o);
	o.allow_duplicate = 1;
	/* Errors are expected; stderr is noise here. */
	import_files(s, &o, files, 1, &res);
	return 0;
}
