/* request.c: builds request bodies and reads error answers, both through cJSON,
 * whose trees never leave these functions. */
#include "collect/request.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

const char *request_path(const struct request_opts *o)
{
	return o->chat ? "/v1/chat/completions" : "/completion";
}

char *request_body(const struct request_opts *o, const char *text)
{
	cJSON *root = cJSON_CreateObject(), *bias, *msgs, *m;
	char *printed, *ret;
	int id;

	if (o->chat) {
		msgs = cJSON_AddArrayToObject(root, "messages");
		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", "user");
		cJSON_AddStringToObject(m, "content", text);
		cJSON_AddItemToArray(msgs, m);
		cJSON_AddNumberToObject(root, "max_tokens", (double)o->n_predict);
	} else {
		cJSON_AddStringToObject(root, "prompt", text);
	}
	cJSON_AddNumberToObject(root, "n_predict", (double)o->n_predict);
	cJSON_AddTrueToObject(root, "ignore_eos");
	cJSON_AddNumberToObject(root, "temperature", 0);
	cJSON_AddNumberToObject(root, "seed", (double)o->seed);
	cJSON_AddFalseToObject(root, "cache_prompt");
	/* Streamed, so that the collector's own clock sees each token arrive
	 * (collect/stream.h); the final message carries the same timings. */
	cJSON_AddTrueToObject(root, "stream");
	if (o->ban_byte_tokens) {
		/* [id, false] is llama-server's "never sample this token". */
		bias = cJSON_AddArrayToObject(root, "logit_bias");
		for (id = REQUEST_BAN_FIRST; id <= REQUEST_BAN_LAST; id++) {
			cJSON *pair = cJSON_CreateArray();
			cJSON_AddItemToArray(pair, cJSON_CreateNumber(id));
			cJSON_AddItemToArray(pair, cJSON_CreateFalse());
			cJSON_AddItemToArray(bias, pair);
		}
	}
	printed = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!printed) {
		fprintf(stderr, "tpsdb: error: out of memory building a request\n");
		exit(TPS_EXIT_ERROR);
	}
	ret = tps_xstrdup(printed);
	cJSON_free(printed);
	return ret;
}

char *request_error_text(const char *body, size_t len)
{
	cJSON *root = body && len ? cJSON_ParseWithLength(body, len) : NULL;
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "message");
	char *ret = NULL;
	size_t i, n;

	if (cJSON_IsString(msg))
		ret = tps_xstrdup(msg->valuestring);
	else if (cJSON_IsString(e))
		ret = tps_xstrdup(e->valuestring);
	cJSON_Delete(root);
	if (ret)
		return ret;
	if (!body || !len)
		return tps_xstrdup("empty body");
	n = len < 200 ? len : 200;
	ret = tps_xstrndup(body, n);
	for (i = 0; i < n; i++) {
		if ((unsigned char)ret[i] < 0x20 || ret[i] == 0x7f)
			ret[i] = ' ';
	}
	return ret;
}
