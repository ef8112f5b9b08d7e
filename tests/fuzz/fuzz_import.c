/* fuzz_import.c: libFuzzer target for `tpsdb import`: the input is written to a file
 * and imported (as responses, llama-bench output or an export, by content) into one
 * in-memory store kept across runs, exercising format detection and all-or-nothing
 * rollback. Every other input is read in small pieces (JSONL lines cut anywhere),
 * the others whole. After an import that added runs, every run of the store is
 * written as an export line (through the store's loaders, so every column: the
 * client's clock, rates, env facts, the collector, spec_settings, the speed-bench
 * source), which must pass the strict check and the value rules and write the same
 * bytes again: what import stores, export gives back in a form import takes. The
 * store starts afresh once it holds more than 64 runs. Built with -DTPSDB_FUZZ=ON
 * under clang. */
#include "collect/import.h"
#include "tests/import_fixture.h"
#include "collect/import_int.h"
#include "schema/json_strict.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One stored run as an export line, read back and written again: the same bytes. */
static int exported(const struct run_rec *r, const struct sample_rec *smp, size_t n, void *arg)
{
	struct run_rec back;
	struct sample_rec *bs = NULL;
	size_t bn = 0, at, i;
	char err[256], why[96];
	char *line = record_json_write(r, smp, n), *again = NULL;
	cJSON *root;

	if (!line || json_strict_check(line, strlen(line), &at, why, sizeof(why)) < 0 ||
	    !(root = cJSON_Parse(line)))
		abort();
	run_rec_init(&back);
	if (record_json_read(root, &back, &bs, &bn, err, sizeof(err)) < 0 || bn != n ||
	    !(again = record_json_write(&back, bs, bn)) || strcmp(line, again))
		abort(); /* a stored run whose export import refuses or changes */
	for (i = 0; i < bn; i++)
		sample_rec_release(&bs[i]);
	free(bs);
	run_rec_release(&back);
	cJSON_Delete(root);
	free(line);
	free(again);
	++*(int *)arg;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store *s;
	static char path[] = "/tmp/tpsdb-fuzz-import-XXXXXX";
	static int fd = -1;
	struct import_opts o;
	struct import_result res;
	char *files[1] = { path };

	fuzz_store_once(&s, path, &fd);
	fuzz_write_input(path, data, size);
	import_opts_init(&o);
	o.prompt = "fuzz";
	import_chunk_bytes = size % 2 ? IMPORT_READ_CHUNK : 1 + size % 61;
	/* Errors are expected; stderr is noise here. */
	if (import_files(s, &o, files, 1, &res) == 0 && res.runs_made + res.runs_new > 0) {
		struct run_filter all;
		int runs = 0;

		memset(&all, 0, sizeof(all));
		if (store_runs_foreach(s, &all, exported, &runs) < 0)
			abort();
		if (runs > 64) {
			store_close(s);
			s = NULL;
		}
	}
	return 0;
}
