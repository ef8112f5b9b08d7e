/* import_response.c: one raw llama-server response (collect/response.c reads it)
 * into a sample of the import's one run; the first response makes the run. The
 * checking pass parses and keeps the response; the writing pass adds it. */
#include "collect/import_int.h"
#include "collect/response.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

/* The run from the first response, or the check that a later one is of its
 * endpoint; then the sample, numbered. Both passes. */
int import_response_add(struct importer *im, const struct response *resp)
{
	struct sample_rec smp = resp->sample;

	if (im->run_id < 0) {
		struct run_rec *r = &im->run;
		if (im->o->n_predict == TPS_NULL)
			r->n_predict = resp->n_predict;
		r->ignore_eos = resp->ignore_eos;
		r->temperature = resp->temperature;
		r->seed = resp->seed;
		if (import_start_run(im, resp->model, resp->endpoint) < 0)
			return -1;
	} else if (strcmp(im->run.endpoint, resp->endpoint)) {
		return import_bad(im, "mixes /completion and /v1/chat/completions responses in one run");
	}
	/* A copy that borrows the record's strings: rep, seq and flags are this pass's. */
	smp.seq = im->seq++;
	return import_sample_write(im, &smp);
}

int import_response(struct importer *im, const struct json_span *m)
{
	struct import_rec *rec;
	struct response resp;
	char err[256];
	int ret = -1;

	response_init(&resp);
	if (response_from_members(m, &resp, err, sizeof(err)) < 0) {
		import_bad(im, err);
		goto out;
	}
	if (!resp.prompt && !im->o->prompt) {
		import_bad(im, "the response does not echo its prompt: name it with --prompt <name>");
		goto out;
	}
	import_name_prompt(im, &resp.sample, resp.prompt);
	if (import_response_add(im, &resp) < 0)
		goto out;
	/* Kept without its prompt text (hashed and named above), and with the model
	 * only where a run can start: the first response of a file. */
	free(resp.prompt);
	resp.prompt = NULL;
	if (im->in->nrecs) {
		free(resp.model);
		resp.model = NULL;
	}
	rec = import_rec_add(im, KIND_RESPONSE);
	rec->u.resp = resp;
	response_init(&resp);
	ret = 0;
out:
	response_release(&resp);
	return ret;
}
