/* props.c: parses GET /props into struct props. The cJSON tree stays in here. */
#include "collect/props.h"
#include "schema/json_strict.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

void props_init(struct props *p)
{
	memset(p, 0, sizeof(*p));
	p->n_ctx = TPS_NULL;
}

void props_release(struct props *p)
{
	if (!p)
		return;
	free(p->build_info);
	free(p->model_path);
	props_init(p);
}

int props_parse(const char *json, size_t len, struct props *p, char *err, size_t errlen)
{
	cJSON *root = cJSON_ParseWithLength(json, len);
	const cJSON *v, *gs;
	int ret = -1;

	props_init(p);
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "/props is not a JSON object");
		goto out;
	}
	/* The server's words go into the store, which keeps UTF-8 only: a model file
	 * named in Latin-1 is kept with U+FFFD for its odd bytes, not refused. */
	v = cJSON_GetObjectItemCaseSensitive(root, "build_info");
	if (cJSON_IsString(v) && *v->valuestring)
		p->build_info = json_utf8_repair(v->valuestring, strlen(v->valuestring));
	v = cJSON_GetObjectItemCaseSensitive(root, "model_path");
	if (cJSON_IsString(v) && *v->valuestring)
		p->model_path = json_utf8_repair(v->valuestring, strlen(v->valuestring));
	gs = cJSON_GetObjectItemCaseSensitive(root, "default_generation_settings");
	v = cJSON_GetObjectItemCaseSensitive(gs, "n_ctx");
	if (cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble < 1e9)
		p->n_ctx = (int64_t)v->valuedouble;
	ret = 0;
out:
	cJSON_Delete(root);
	return ret;
}
