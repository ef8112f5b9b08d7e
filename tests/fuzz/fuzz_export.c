/* fuzz_export.c: libFuzzer target for tpsdb's own export lines, the format `tpsdb
 * import` restores runs from: the strict JSON check, then the export codec and the
 * shared value rules (record_json_read), then a write back when it was accepted,
 * which must give a line that reads back the same and writes the same bytes again:
 * every field the codec carries (the client's clock, env facts, the collector,
 * looks_metric, spec_settings, the speed-bench source) survives a round trip, not
 * only the sample count. The corpus holds lines with each of them
 * (tests/fuzz/corpus/export-*.jsonl). Built with -DTPSDB_FUZZ=ON. */
#include "schema/json_strict.h"
#include "schema/record_json.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void release(struct run_rec *r, struct sample_rec *smp, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sample_rec_release(&smp[i]);
	free(smp);
	run_rec_release(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_rec r, back;
	struct sample_rec *smp = NULL, *bs = NULL;
	size_t n = 0, bn = 0, at;
	char err[256], why[96];
	cJSON *root, *again;
	char *line, *line2;

	if (json_strict_check((const char *)data, size, &at, why, sizeof(why)) < 0)
		return 0;
	if (!(root = cJSON_ParseWithLength((const char *)data, size)))
		abort(); /* strict JSON that cJSON refuses: the two disagree */
	run_rec_init(&r);
	if (record_json_read(root, &r, &smp, &n, err, sizeof(err)) == 0) {
		line = record_json_write(&r, smp, n);
		if (!line)
			abort();
		/* What was accepted writes a line that is accepted again. */
		if (json_strict_check(line, strlen(line), &at, why, sizeof(why)) < 0 ||
		    !(again = cJSON_Parse(line)))
			abort();
		run_rec_init(&back);
		if (record_json_read(again, &back, &bs, &bn, err, sizeof(err)) < 0 || bn != n)
			abort();
		if (!(line2 = record_json_write(&back, bs, bn)) || strcmp(line, line2))
			abort(); /* a field lost or changed on the way */
		free(line2);
		release(&back, bs, bn);
		cJSON_Delete(again);
		free(line);
	}
	release(&r, smp, n);
	cJSON_Delete(root);
	return 0;
}
