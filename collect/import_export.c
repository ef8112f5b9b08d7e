/* import_export.c: one line of tpsdb's own export (schema/record_json.c reads it),
 * restored as the run it was, or skipped when the store holds that run already. */
#include "collect/import_int.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <stdlib.h>

int import_export(struct importer *im, const cJSON *obj)
{
	struct run_rec r;
	struct sample_rec *smp = NULL;
	size_t n = 0, i;
	char err[256];
	int rc = -1;

	run_rec_init(&r);
	if (record_json_read(obj, &r, &smp, &n, err, sizeof(err)) < 0) {
		import_bad(im, err);
		goto out;
	}
	rc = im->dry ? 0 : store_run_restore(im->s, &r, smp, n);
	if (rc == 0) {
		im->res->runs_new++;
		im->res->samples += (long)n;
		for (i = 0; i < n; i++)
			im->res->flagged += smp[i].flags != 0;
	} else if (rc == 1) {
		im->res->runs_known++;
		rc = 0;
	}
out:
	for (i = 0; i < n; i++)
		sample_rec_release(&smp[i]);
	free(smp);
	run_rec_release(&r);
	return rc;
}
