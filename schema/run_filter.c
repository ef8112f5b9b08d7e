/* run_filter.c: binding the one run filter (struct run_filter, RUN_FILTER_SQL) that
 * every listing of runs shares, so `runs`, `check`, `export`, `trend` and `report`
 * cannot disagree on what --engine, --since or --batch select. */
#include "schema/store_int.h"
#include "tpsdb.h"

void store_bind_run_filter(sqlite3_stmt *st, const struct run_filter *f)
{
	store_bind_text(st, ":f_engine", f ? f->engine : NULL);
	store_bind_text(st, ":f_model", f ? f->model : NULL);
	store_bind_text(st, ":f_tag", f ? f->tag : NULL);
	store_bind_text(st, ":f_host", f ? f->host : NULL);
	store_bind_text(st, ":f_uuid", f ? f->uuid : NULL);
	store_bind_text(st, ":f_version", f ? f->engine_version : NULL);
	store_bind_text(st, ":f_batch", f ? f->batch : NULL);
	store_bind_text(st, ":f_since", f ? f->since : NULL);
	store_bind_text(st, ":f_until", f ? f->until : NULL);
	store_bind_i64(st, ":f_limit", f && f->limit > 0 ? f->limit : -1);
}
