/* import_export.c: one line of tpsdb's own export (schema/record_json.c reads it),
 * restored as the run it was, or skipped when the store holds that run already.
 * The checking pass reads and keeps the run; the writing pass restores it. */
#include "collect/import_int.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <stdlib.h>

int import_export_add(struct importer *im, const struct import_export_rec *e)
{
	int rc = im->dry ? 0 : store_run_restore(im->s, &e->run, e->smp, e->n);
	size_t i;

	if (rc == 0) {
		im->res->runs_new++;
		im->res->samples += (long)e->n;
		for (i = 0; i < e->n; i++)
			im->res->flagged += e->smp[i].flags != 0;
	} else if (rc == 1) {
		im->res->runs_known++;
		rc = 0;
	}
	return rc;
}

int import_export(struct importer *im, const cJSON *obj)
{
	struct import_export_rec *e = tps_xcalloc(1, sizeof(*e));
	char err[256];

	run_rec_init(&e->run);
	/* Kept at once: the records' release frees it whatever happens next. */
	import_rec_add(im, KIND_EXPORT)->u.exp = e;
	if (record_json_read(obj, &e->run, &e->smp, &e->n, err, sizeof(err)) < 0)
		return import_bad(im, err);
	return import_export_add(im, e);
}
