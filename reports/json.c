/* json.c: the absent-value rules of json.h, and the one way a JSON document is
 * printed. The writers build their own objects with cJSON; these decide between a
 * value and null, which is where they used to differ, and repair invalid UTF-8. */
#include "reports/json.h"

#include "analyze/cellset.h"
#include "analyze/verdict.h"
#include "escape.h"
#include "analyze/sweep.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_put_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v + 0.0);
	else
		cJSON_AddNullToObject(o, k);
}

void json_put_regression(cJSON *o, int regression)
{
	json_put_str(o, "regression", verdict_regression_name((enum verdict_regression)regression));
}

void json_put_evidence(cJSON *o, const struct verdict *v)
{
	json_put_num(o, "scatter_pct", v->scatter_pct);
	cJSON_AddStringToObject(o, "history", verdict_history_name(v->history));
	cJSON_AddNumberToObject(o, "hist_batches", (double)v->hist_batches);
	cJSON_AddNumberToObject(o, "hist_df", v->hist_df);
	/* Of ours' instances left out, those far slower: with none of vs's, two
	 * answer intermittent, one holds a "no" open (analyze/estimate.h). */
	cJSON_AddNumberToObject(o, "slow_instances_ours", (double)v->slow_ours);
	json_put_str(o, "scatter_source", verdict_scatter_name(v->scatter_source));
	json_put_num(o, "round_scatter_pct", v->scatter_source != VERDICT_SCATTER_NONE ?
		     v->round_scatter_pct : NAN);
}

void json_put_i64(cJSON *o, const char *k, int64_t v)
{
	if (v == TPS_NULL)
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, (double)v);
}

void json_put_rung(cJSON *o, const char *k, int64_t n_max)
{
	if (sweep_rung_is_base(n_max))
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, (double)n_max);
}

void json_put_str(cJSON *o, const char *k, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, k, s);
	else
		cJSON_AddNullToObject(o, k);
}

/* A copy of s in cJSON's allocator when s is not valid UTF-8, else NULL. */
static char *repaired(const char *s)
{
	char *fix = NULL, *out = NULL;
	size_t n;

	if (!s)
		goto out;
	fix = escape_utf8(s);
	if (!strcmp(s, fix))
		goto out;
	n = strlen(fix) + 1;
	if ((out = cJSON_malloc(n)))
		memcpy(out, fix, n);
out:
	free(fix);
	return out;
}

static void repair(cJSON *item)
{
	char *fix;

	for (; item; item = item->next) {
		if (item->string && !(item->type & cJSON_StringIsConst) &&
		    (fix = repaired(item->string))) {
			cJSON_free(item->string);
			item->string = fix;
		}
		if (cJSON_IsString(item) && (fix = repaired(item->valuestring))) {
			cJSON_free(item->valuestring);
			item->valuestring = fix;
		}
		repair(item->child);
	}
}

char *json_print(cJSON *root)
{
	repair(root);
	return cJSON_Print(root);
}

int json_write(FILE *f, cJSON *root)
{
	char *text = json_print(root);

	cJSON_Delete(root);
	if (!text)
		return tps_error("out of memory writing JSON");
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	return 0;
}

void json_put_clean(cJSON *o, const struct clean_answer *c)
{
	cJSON *x;

	if (!c || !c->found) {
		cJSON_AddNullToObject(o, "newest_clean");
		return;
	}
	x = cJSON_AddObjectToObject(o, "newest_clean");
	json_put_regression(x, c->v.regression);
	cJSON_AddStringToObject(x, "verdict", verdict_kind_name(c->v.kind));
	json_put_num(x, "delta_pct", c->v.delta_pct);
	json_put_num(x, "ci_lo_pct", c->v.ci_lo_pct);
	json_put_num(x, "ci_hi_pct", c->v.ci_hi_pct);
	json_put_num(x, "ci_level", c->v.ci_level);
	cJSON_AddBoolToObject(x, "decided", c->v.decided);
	cJSON_AddNumberToObject(x, "rounds", (double)c->v.rounds);
	json_put_str(x, "batch", c->batch);
	json_put_str(x, "date", c->started_at);
}
