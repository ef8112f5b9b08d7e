/* import_response.c: one raw llama-server response (collect/response.c reads it)
 * into a sample of the import's one run; the first response makes the run. */
#include "collect/import_int.h"
#include "collect/response.h"
#include "tpsdb.h"

#include <string.h>

int import_response(struct importer *im, const cJSON *obj, const char *raw,
			   size_t rawlen)
{
	struct response resp;
	char err[256];
	int ret = -1;

	response_init(&resp);
	if (response_from_json(obj, raw, rawlen, &resp, err, sizeof(err)) < 0) {
		import_bad(im, err);
		goto out;
	}
	if (!resp.prompt && !im->o->prompt) {
		import_bad(im, "the response does not echo its prompt: name it with --prompt <name>");
		goto out;
	}
	if (im->run_id < 0) {
		struct run_rec *r = &im->run;
		if (im->o->n_predict == TPS_NULL)
			r->n_predict = resp.n_predict;
		r->ignore_eos = resp.ignore_eos;
		r->temperature = resp.temperature;
		r->seed = resp.seed;
		if (import_start_run(im, resp.model, resp.endpoint) < 0)
			goto out;
	} else if (strcmp(im->run.endpoint, resp.endpoint)) {
		import_bad(im, "mixes /completion and /v1/chat/completions responses in one run");
		goto out;
	}
	import_name_prompt(im, &resp.sample, resp.prompt);
	resp.sample.seq = im->seq++;
	ret = import_sample_write(im, &resp.sample);
out:
	response_release(&resp);
	return ret;
}
