/* run_filter.c: binding the one run filter (struct run_filter, RUN_FILTER_SQL) that
 * every listing of runs and the cell set's loader share, so `runs`, `check`,
 * `export`, `trend`, `compare`, `gate`, `sweep`, `report` and `plan` cannot
 * disagree on what --engine, --tag a,b or --batch select. */
#include <stdlib.h>
#include <string.h>

#include "schema/store_int.h"
#include "tpsdb.h"

int run_filter_chooses(const struct run_filter *f)
{
	return f && (f->tag.n || f->batch.n || f->baseline);
}

/* A list as tps_in() reads it: every label followed by a NUL byte. */
static void bind_list(sqlite3_stmt *st, const char *name, const struct label_list *l)
{
	int i = sqlite3_bind_parameter_index(st, name);
	size_t len = 0, k, at = 0;
	char *blob;

	if (!i)
		return;
	if (!l || !l->n) {
		sqlite3_bind_null(st, i);
		return;
	}
	for (k = 0; k < l->n; k++)
		len += strlen(l->v[k]) + 1;
	blob = tps_xmalloc(len);
	for (k = 0; k < l->n; k++) {
		size_t n = strlen(l->v[k]) + 1;
		memcpy(blob + at, l->v[k], n);
		at += n;
	}
	sqlite3_bind_blob(st, i, blob, (int)len, free);
}

void store_bind_run_filter(sqlite3_stmt *st, const struct run_filter *f)
{
	bind_list(st, ":f_engine", f ? &f->engine : NULL);
	bind_list(st, ":f_model", f ? &f->model : NULL);
	bind_list(st, ":f_tag", f ? &f->tag : NULL);
	bind_list(st, ":f_host", f ? &f->host : NULL);
	bind_list(st, ":f_batch", f ? &f->batch : NULL);
	store_bind_text(st, ":f_uuid", f ? f->uuid : NULL);
	store_bind_text(st, ":f_version", f ? f->engine_version : NULL);
	store_bind_text(st, ":f_baseline", f ? f->baseline : NULL);
	store_bind_text(st, ":f_since", f ? f->since : NULL);
	store_bind_text(st, ":f_until", f ? f->until : NULL);
	store_bind_i64(st, ":f_limit", f && f->limit > 0 ? f->limit : -1);
}
