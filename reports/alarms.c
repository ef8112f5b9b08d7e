/* alarms.c: renders the model-identity alarms of schema/catalog.c. The store only
 * finds them; the sentence and the JSON object are written once, here, for every
 * command that shows them. */
#include "reports/alarms.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static int is_file_alarm(const struct catalog_alarm *a)
{
	return !strcmp(a->kind, CATALOG_ALARM_FILE_SHA256);
}

char *alarms_text(const struct catalog_alarm *a)
{
	char *text, *more;
	size_t i, j;

	if (is_file_alarm(a))
		text = tps_xasprintf("file '%s' holds different bytes under one name:", a->subject);
	else
		text = tps_xasprintf("model '%s' was measured at different quants:", a->subject);
	for (i = 0; i < a->nv; i++) {
		const struct catalog_variant *v = &a->v[i];
		more = tps_xasprintf("%s%s %s%s %s", text, i ? ";" : "",
				     is_file_alarm(a) ? "sha256 " : "", v->value,
				     v->hosts.n ? "on" : "(no runs)");
		free(text);
		text = more;
		for (j = 0; j < v->hosts.n; j++) {
			more = tps_xasprintf("%s%s%s", text, j ? ", " : " ", v->hosts.name[j]);
			free(text);
			text = more;
		}
	}
	return text;
}

cJSON *alarms_json(const struct catalog_alarm *a, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject(), *vs = cJSON_CreateArray();
		char *msg = alarms_text(&a[i]);

		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "kind", a[i].kind);
		cJSON_AddStringToObject(o, is_file_alarm(&a[i]) ? "file" : "label", a[i].subject);
		cJSON_AddStringToObject(o, "message", msg);
		free(msg);
		cJSON_AddItemToObject(o, "variants", vs);
		for (j = 0; j < a[i].nv; j++) {
			cJSON *v = cJSON_CreateObject(), *hosts = cJSON_CreateArray();
			cJSON_AddItemToArray(vs, v);
			cJSON_AddStringToObject(v, is_file_alarm(&a[i]) ? "sha256" : "quant",
						a[i].v[j].value);
			cJSON_AddItemToObject(v, "hosts", hosts);
			for (k = 0; k < a[i].v[j].hosts.n; k++)
				cJSON_AddItemToArray(hosts,
						     cJSON_CreateString(a[i].v[j].hosts.name[k]));
		}
	}
	return arr;
}
