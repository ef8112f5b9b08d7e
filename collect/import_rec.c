/* import_rec.c: the records and the error line every part of `tpsdb import`
 * shares (import_int.h): what the checking pass keeps of an input, and the one
 * way a part refuses it. Below the driver (import.c) and its parts: it calls
 * neither. */
#include "collect/import_int.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

int import_bad(struct importer *im, const char *msg)
{
	if (im->line > 0)
		return tps_error("%s:%ld: %s; nothing was imported", im->file, im->line, msg);
	return tps_error("%s: %s; nothing was imported", im->file, msg);
}

struct import_rec *import_rec_add(struct importer *im, enum kind kind)
{
	struct input *in = im->in;
	struct import_rec *rec;

	if (in->nrecs == in->arecs) {
		in->arecs = in->arecs ? 2 * in->arecs : 64;
		in->recs = tps_xrealloc(in->recs, in->arecs * sizeof(*in->recs));
	}
	rec = &in->recs[in->nrecs++];
	memset(rec, 0, sizeof(*rec));
	rec->kind = kind;
	rec->line = im->line;
	return rec;
}

void import_tree_keep(struct input *in, cJSON *v)
{
	in->trees = tps_xrealloc(in->trees, (in->ntrees + 1) * sizeof(*in->trees));
	in->trees[in->ntrees++] = v;
}

void import_recs_release(struct input *in)
{
	size_t i, j;

	for (i = 0; i < in->nrecs; i++) {
		struct import_rec *rec = &in->recs[i];
		if (rec->kind == KIND_RESPONSE) {
			response_release(&rec->u.resp);
		} else if (rec->kind == KIND_EXPORT && rec->u.exp) {
			for (j = 0; j < rec->u.exp->n; j++)
				sample_rec_release(&rec->u.exp->smp[j]);
			free(rec->u.exp->smp);
			run_rec_release(&rec->u.exp->run);
			free(rec->u.exp);
		}
	}
	free(in->recs);
	for (i = 0; i < in->ntrees; i++)
		cJSON_Delete(in->trees[i]);
	free(in->trees);
	in->recs = NULL;
	in->trees = NULL;
	in->nrecs = in->arecs = in->ntrees = 0;
}
