/* fuzz_import.c: libFuzzer target for `tpsdb import`: the input is written to a file
 * and imported (as responses, llama-bench output or an export, by content) into one
 * in-memory store kept across runs, exercising format detection and all-or-nothing
 * rollback. Every other input is read in small pieces (JSONL lines cut anywhere),
 * the others whole. Built with -DTPSDB_FUZZ=ON under clang. */
#include "collect/import.h"
#include "tests/import_fixture.h"
#include "collect/import_int.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store *s;
	static char path[] = "/tmp/tpsdb-fuzz-import-XXXXXX";
	static int fd = -1;
	struct import_opts o;
	struct import_result res;
	char *files[1] = { path };
	FILE *f;

	if (!s) {
		s = store_open(":memory:", 0);
		fd = mkstemp(path);
		if (!s || fd < 0)
			abort();
	}
	f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	import_opts_init(&o);
	o.prompt = "fuzz";
	import_chunk_bytes = size % 2 ? IMPORT_READ_CHUNK : 1 + size % 61;
	/* Errors are expected; stderr is noise here. */
	import_files(s, &o, files, 1, &res);
	return 0;
}
