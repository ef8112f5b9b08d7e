/* check_write.c: renders `tpsdb check`. The findings and the alarms use the same
 * words as `tpsdb report` and `tpsdb models` (findings.c, alarms.c). */
#include "reports/check_write.h"
#include "escape.h"
#include "reports/json.h"
#include "reports/alarms.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

int check_write_json(FILE *f, const struct check_result *r)
{
	cJSON *root = cJSON_CreateObject();
	size_t i;

	cJSON_AddItemToObject(root, "findings", findings_json(r->fs));
	cJSON_AddItemToObject(root, "alarms", alarms_json(r->alarm, r->nalarm));
	if (r->nproblem) {
		cJSON *p = cJSON_CreateArray();
		cJSON_AddItemToObject(root, "integrity", p);
		for (i = 0; i < r->nproblem; i++)
			cJSON_AddItemToArray(p, cJSON_CreateString(r->problem[i]));
	} else {
		cJSON_AddStringToObject(root, "integrity", "ok");
	}
	if (r->incomplete) /* only then: a sound store's document keeps its three keys */
		cJSON_AddBoolToObject(root, "complete", 0);
	return json_write(f, root);
}

void check_write_text(FILE *f, const struct check_result *r)
{
	size_t i;

	for (i = 0; i < r->fs->n; i++) {
		char *l = findings_line(&r->fs->v[i]), *e = escape_text(l);
		fprintf(f, "%s\n", e);
		free(l);
		free(e);
	}
	for (i = 0; i < r->nalarm; i++) {
		char *t = alarms_text(&r->alarm[i]), *e = escape_text(t);
		fprintf(f, "ALARM: %s\n", e);
		free(t);
		free(e);
	}
	for (i = 0; i < r->nproblem; i++) {
		char *e = escape_text(r->problem[i]);
		fprintf(f, "integrity: %s\n", e);
		free(e);
	}
	if (!r->fs->n && !r->nalarm && !r->nproblem)
		fprintf(f, "no findings; integrity ok\n");
	else
		fprintf(f, "%zu finding(s), %zu alarm(s), integrity %s\n", r->fs->n, r->nalarm,
			r->nproblem ? "FAILED" : "ok");
	if (r->incomplete)
		fprintf(f, "the store could not be read whole: findings and alarms are "
			   "incomplete\n");
}
