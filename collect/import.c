/* import.c: reads response files, llama-bench output and tpsdb exports into the
 * store. Each line is parsed, checked and written inside one transaction, so a bad
 * line anywhere rolls everything back and a million-sample import never has to sit in
 * memory. The kind of input is recognised from the first object. */
#include "collect/import.h"
#include "collect/quality.h"
#include "collect/quant.h"
#include "collect/response.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum kind { KIND_NONE, KIND_RESPONSE, KIND_BENCH, KIND_EXPORT };
static const char *kind_names[] = { "nothing", "responses", "llama-bench", "export" };

/* Repetition counting: the k-th sample of a prompt is repetition k. An
 * open-addressing table keyed by the prompt hash, so a million samples over as many
 * distinct prompts stay linear. */
struct prompt_count {
	char hash[65]; /* "" marks a free slot */
	int64_t n;
};

/* The sha256 of prompt texts already seen: an import repeats a handful of prompts
 * many times, and hashing a 7 kB prompt per sample was a tenth of the import. Keyed
 * by a cheap FNV-1a of the text; bounded, then it simply stops remembering. */
struct text_hash {
	char *text; /* NULL marks a free slot */
	size_t len;
	uint64_t key;
	char hash[65];
};
#define TEXT_MEMO_SLOTS 1024     /* power of two */
#define TEXT_MEMO_MAX 512        /* entries, at most half the slots */
#define TEXT_MEMO_BYTES (16 << 20)

struct importer {
	struct store *s;
	const struct import_opts *o;
	struct import_result *res;
	enum kind kind;
	struct run_rec run;
	int64_t run_id;   /* -1 until the run row exists */
	int64_t seq;      /* requests the server answered before the next sample */
	struct prompt_count *counts;
	size_t ncounts, acounts; /* used and allocated slots; acounts a power of two */
	struct text_hash *memo;  /* TEXT_MEMO_SLOTS slots once used */
	size_t nmemo, memo_bytes;
	char *bench_model; /* llama-bench: the one model_filename this run holds */
	const char *file;
	long line;
};

void import_opts_init(struct import_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->n_predict = o->n_max = o->ctx = o->warmup = TPS_NULL;
}

static int bad(struct importer *im, const char *msg)
{
	if (im->line > 0)
		return tps_error("'%s' line %ld: %s; nothing was imported", im->file, im->line, msg);
	return tps_error("'%s': %s; nothing was imported", im->file, msg);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static char *label_from_path(const char *path)
{
	const char *b = base_name(path);
	size_t n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".gguf"))
		n -= 5;
	return tps_xstrndup(b, n);
}

/* The run row is created from the first item, once its kind is known. */
static int start_run(struct importer *im, const char *model_path, const char *endpoint)
{
	const struct import_opts *o = im->o;
	struct run_rec *r = &im->run;

	if (tps_uuid4(r->uuid, sizeof(r->uuid)) < 0)
		return -1;
	r->status = tps_xstrdup("running");
	r->source = tps_xstrdup(im->kind == KIND_BENCH ? "llama-bench" : "import");
	r->host.name = tps_xstrdup(o->host ? o->host : "unknown");
	if (o->gpu) {
		free(r->host.gpu);
		r->host.gpu = tps_xstrdup(o->gpu);
	}
	r->host.driver = tps_xstrdup(o->driver);
	r->host.cuda = tps_xstrdup(o->cuda);
	r->engine.label = tps_xstrdup(o->engine ? o->engine : "unknown");
	r->engine.role = tps_xstrdup(o->role ? o->role : "other");
	if (o->engine_version) {
		free(r->engine.version);
		r->engine.version = tps_xstrdup(o->engine_version);
	}
	if (o->model)
		r->model.label = tps_xstrdup(o->model);
	else if (model_path && *model_path)
		r->model.label = label_from_path(model_path);
	else
		r->model.label = tps_xstrdup("unknown");
	r->model.file = tps_xstrdup(o->model_file ? base_name(o->model_file) :
				    model_path ? base_name(model_path) : "");
	r->model.sha256 = tps_xstrdup(o->model_sha256);
	if (o->quant)
		r->model.quant = tps_xstrdup(o->quant);
	else if (*quant_guess(r->model.file))
		r->model.quant = tps_xstrdup(quant_guess(r->model.file));
	else
		r->model.quant = tps_xstrdup(quant_guess(r->model.label));
	if (o->n_predict != TPS_NULL)
		r->n_predict = o->n_predict;
	r->ctx = o->ctx;
	r->n_max = o->n_max;
	r->endpoint = tps_xstrdup(endpoint);
	r->spec_type = tps_xstrdup(o->spec_type ? o->spec_type : (o->n_max != TPS_NULL ? "unknown" : ""));
	r->tag = tps_xstrdup(o->tag);
	r->notes = tps_xstrdup(o->notes);
	r->warmup = o->warmup == TPS_NULL ? 0 : o->warmup;
	im->seq = r->warmup;
	im->run_id = store_run_insert(im->s, r);
	if (im->run_id < 0)
		return -1;
	snprintf(im->res->uuid, sizeof(im->res->uuid), "%s", r->uuid);
	return 0;
}

/* The slot of hash in a table of cap slots: its own, or the free one to take. */
static struct prompt_count *count_slot(struct prompt_count *t, size_t cap, const char *hash)
{
	/* A sha256 in hex is already uniform: its first 16 digits are the key. */
	uint64_t key = 0;
	size_t i;

	for (i = 0; i < 16 && hash[i]; i++)
		key = key << 4 | (uint64_t)(isdigit((unsigned char)hash[i]) ? hash[i] - '0' :
					   (tolower((unsigned char)hash[i]) - 'a' + 10) & 15);
	i = (size_t)key & (cap - 1);

	while (t[i].hash[0] && strcmp(t[i].hash, hash))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int64_t next_rep(struct importer *im, const char *hash)
{
	struct prompt_count *c;
	size_t i;

	if (2 * (im->ncounts + 1) > im->acounts) {
		size_t cap = im->acounts ? 2 * im->acounts : 64;
		struct prompt_count *t = tps_xcalloc(cap, sizeof(*t));
		for (i = 0; i < im->acounts; i++) {
			if (im->counts[i].hash[0])
				*count_slot(t, cap, im->counts[i].hash) = im->counts[i];
		}
		free(im->counts);
		im->counts = t;
		im->acounts = cap;
	}
	c = count_slot(im->counts, im->acounts, hash);
	if (!c->hash[0]) {
		memcpy(c->hash, hash, 65);
		im->ncounts++;
	}
	return ++c->n;
}

/* sha256_hex(text) through the memo. */
static void text_sha256(struct importer *im, const char *text, char hash[65])
{
	size_t len = strlen(text), i;
	uint64_t key = 14695981039346656037ULL;
	struct text_hash *e;

	for (i = 0; i < len; i++)
		key = (key ^ (unsigned char)text[i]) * 1099511628211ULL;
	if (!im->memo)
		im->memo = tps_xcalloc(TEXT_MEMO_SLOTS, sizeof(*im->memo));
	for (i = (size_t)key & (TEXT_MEMO_SLOTS - 1); im->memo[i].text;
	     i = (i + 1) & (TEXT_MEMO_SLOTS - 1)) {
		e = &im->memo[i];
		if (e->key == key && e->len == len && !memcmp(e->text, text, len)) {
			memcpy(hash, e->hash, 65);
			return;
		}
	}
	sha256_hex(text, len, hash);
	if (im->nmemo < TEXT_MEMO_MAX && im->memo_bytes + len <= TEXT_MEMO_BYTES) {
		e = &im->memo[i];
		e->text = tps_xstrndup(text, len);
		e->len = len;
		e->key = key;
		memcpy(e->hash, hash, 65);
		im->nmemo++;
		im->memo_bytes += len;
	}
}

static int write_sample(struct importer *im, struct sample_rec *smp)
{
	smp->rep = next_rep(im, smp->prompt_hash);
	smp->flags = quality_assess(&im->run, smp);
	if (store_sample_insert(im->s, im->run_id, smp) < 0)
		return -1;
	im->res->samples++;
	if (smp->flags)
		im->res->flagged++;
	return 0;
}

static void name_prompt(struct importer *im, struct sample_rec *smp, const char *text)
{
	const char *name = im->o->prompt;
	if (text) {
		text_sha256(im, text, smp->prompt_hash);
		smp->prompt_name = name ? tps_xstrdup(name) : tps_xasprintf("p-%.8s", smp->prompt_hash);
	} else {
		/* No text to hash: the user's name is the identity (docs/SCHEMA.md). */
		char *key = tps_xasprintf("tpsdb-prompt-name:%s", name);
		sha256_hex(key, strlen(key), smp->prompt_hash);
		smp->prompt_name = tps_xstrdup(name);
		free(key);
	}
}

static int import_response(struct importer *im, const cJSON *obj, const char *raw,
			   size_t rawlen)
{
	struct response resp;
	char err[256];
	int ret = -1;

	response_init(&resp);
	if (response_from_json(obj, raw, rawlen, &resp, err, sizeof(err)) < 0) {
		bad(im, err);
		goto out;
	}
	if (!resp.prompt && !im->o->prompt) {
		bad(im, "the response does not echo its prompt: name it with --prompt <name>");
		goto out;
	}
	if (im->run_id < 0) {
		struct run_rec *r = &im->run;
		if (im->o->n_predict == TPS_NULL)
			r->n_predict = resp.n_predict;
		r->ignore_eos = resp.ignore_eos;
		r->temperature = resp.temperature;
		r->seed = resp.seed;
		if (start_run(im, resp.model, resp.endpoint) < 0)
			goto out;
	} else if (strcmp(im->run.endpoint, resp.endpoint)) {
		bad(im, "mixes /completion and /v1/chat/completions responses in one run");
		goto out;
	}
	name_prompt(im, &resp.sample, resp.prompt);
	resp.sample.seq = im->seq++;
	ret = write_sample(im, &resp.sample);
out:
	response_release(&resp);
	return ret;
}

/* One llama-bench result object: a pp, tg or pp+tg test with per-repetition
 * samples_ts (tok/s) and samples_ns. */
static int import_bench(struct importer *im, const cJSON *obj)
{
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(obj, "samples_ts");
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(obj, "samples_ns");
	const cJSON *np = cJSON_GetObjectItemCaseSensitive(obj, "n_prompt");
	const cJSON *ng = cJSON_GetObjectItemCaseSensitive(obj, "n_gen");
	const cJSON *mf = cJSON_GetObjectItemCaseSensitive(obj, "model_filename");
	const char *model = cJSON_IsString(mf) ? mf->valuestring : "";
	int64_t n_prompt, n_gen;
	char name[64], key[96];
	int i, n;

	if (!cJSON_IsArray(ts) || !cJSON_IsNumber(np) || !cJSON_IsNumber(ng))
		return bad(im, "a llama-bench result needs 'samples_ts', 'n_prompt' and 'n_gen'");
	n_prompt = (int64_t)np->valuedouble;
	n_gen = (int64_t)ng->valuedouble;
	if (n_prompt < 0 || n_gen < 0 || n_prompt > RESPONSE_MAX_COUNT || n_gen > RESPONSE_MAX_COUNT)
		return bad(im, "'n_prompt' or 'n_gen' is out of range");
	if (im->run_id < 0) {
		const cJSON *bc = cJSON_GetObjectItemCaseSensitive(obj, "build_commit");
		const cJSON *bn = cJSON_GetObjectItemCaseSensitive(obj, "build_number");
		const cJSON *gi = cJSON_GetObjectItemCaseSensitive(obj, "gpu_info");
		if (!im->o->engine_version && cJSON_IsString(bc))
			im->run.engine.version = cJSON_IsNumber(bn) ?
				tps_xasprintf("b%d-%s", bn->valueint, bc->valuestring) :
				tps_xstrdup(bc->valuestring);
		if (!im->o->gpu && cJSON_IsString(gi))
			im->run.host.gpu = tps_xstrdup(gi->valuestring);
		im->bench_model = tps_xstrdup(model);
		if (start_run(im, model, "llama-bench") < 0)
			return -1;
	} else if (strcmp(im->bench_model, model)) {
		return bad(im, "llama-bench results for more than one model: import each model's file separately");
	}
	if (n_prompt && n_gen)
		snprintf(name, sizeof(name), "pp%lld+tg%lld", (long long)n_prompt, (long long)n_gen);
	else if (n_prompt)
		snprintf(name, sizeof(name), "pp%lld", (long long)n_prompt);
	else
		snprintf(name, sizeof(name), "tg%lld", (long long)n_gen);
	n = cJSON_GetArraySize(ts);
	for (i = 0; i < n; i++) {
		const cJSON *t = cJSON_GetArrayItem(ts, i);
		const cJSON *d = cJSON_IsArray(ns) ? cJSON_GetArrayItem(ns, i) : NULL;
		struct sample_rec smp;
		double ms = cJSON_IsNumber(d) ? d->valuedouble / 1e6 : NAN;
		int rc;

		if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0 ||
		    t->valuedouble > RESPONSE_MAX_RATE || (!isnan(ms) && (ms < 0 || ms > RESPONSE_MAX_MS)))
			return bad(im, "a 'samples_ts' or 'samples_ns' value is negative, not a number or absurd");
		sample_rec_init(&smp);
		smp.prompt_name = tps_xstrdup(name);
		snprintf(key, sizeof(key), "llama-bench:%s", name);
		sha256_hex(key, strlen(key), smp.prompt_hash);
		if (n_prompt && !n_gen) {
			smp.prompt_n = n_prompt;
			smp.prompt_per_second = t->valuedouble;
			smp.prompt_ms = ms;
		} else if (n_gen && !n_prompt) {
			smp.predicted_n = n_gen;
			smp.predicted_per_second = t->valuedouble;
			smp.predicted_ms = ms;
		} else {
			/* A pp+tg test reports one combined rate: neither prefill nor decode. */
			smp.prompt_n = n_prompt;
			smp.predicted_n = n_gen;
			smp.error = tps_xstrdup("combined pp+tg test: no separate prefill or decode rate");
		}
		smp.timings = tps_xasprintf("{\"llama_bench_ts\":%.17g}", t->valuedouble);
		smp.cache_n = 0;
		rc = write_sample(im, &smp);
		sample_rec_release(&smp);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int import_export(struct importer *im, const cJSON *obj)
{
	struct run_rec r;
	struct sample_rec *smp = NULL;
	size_t n = 0, i;
	char err[256];
	int rc = -1;

	run_rec_init(&r);
	if (record_json_read(obj, &r, &smp, &n, err, sizeof(err)) < 0) {
		bad(im, err);
		goto out;
	}
	rc = store_run_restore(im->s, &r, smp, n);
	if (rc == 0) {
		im->res->runs_new++;
		im->res->samples += (long)n;
		for (i = 0; i < n; i++)
			im->res->flagged += smp[i].flags != 0;
	} else if (rc == 1) {
		im->res->runs_known++;
		rc = 0;
	}
out:
	for (i = 0; i < n; i++)
		sample_rec_release(&smp[i]);
	free(smp);
	run_rec_release(&r);
	return rc;
}

static enum kind kind_of(const cJSON *obj)
{
	if (!cJSON_IsObject(obj))
		return KIND_NONE;
	if (cJSON_GetObjectItemCaseSensitive(obj, RECORD_JSON_MARK))
		return KIND_EXPORT;
	if (cJSON_GetObjectItemCaseSensitive(obj, "samples_ts"))
		return KIND_BENCH;
	return KIND_RESPONSE; /* response_from_json says what is missing */
}

/* raw/rawlen: the text obj was parsed from, or NULL (an element of an array). */
static int import_object(struct importer *im, const cJSON *obj, const char *raw,
			 size_t rawlen)
{
	enum kind k = kind_of(obj);
	char msg[128];

	if (k == KIND_NONE)
		return bad(im, "not a JSON object");
	if (im->kind == KIND_NONE)
		im->kind = k;
	else if (im->kind != k) {
		snprintf(msg, sizeof(msg), "mixes %s with %s in one import", kind_names[k],
			 kind_names[im->kind]);
		return bad(im, msg);
	}
	switch (k) {
	case KIND_RESPONSE: return import_response(im, obj, raw, rawlen);
	case KIND_BENCH: return import_bench(im, obj);
	case KIND_EXPORT: return import_export(im, obj);
	default: return -1;
	}
}

/* A value that fills [p, stop) but for white space, or NULL. cJSON stops after the
 * first value, so without this check "{...} trailing" or a JSONL file would pass. */
static cJSON *parse_exact(const char *p, const char *stop)
{
	const char *end = NULL;
	cJSON *v = cJSON_ParseWithLengthOpts(p, (size_t)(stop - p), &end, 0);

	if (!v)
		return NULL;
	while (end < stop && isspace((unsigned char)*end))
		end++;
	if (end < stop) {
		cJSON_Delete(v);
		return NULL;
	}
	return v;
}

/* The file's bytes: mapped when it is a regular file (a million-sample JSONL is read
 * once, not copied into a growing buffer), else read whole (stdin, pipes). *mapped
 * says which, for release_file(). NULL after an error line. */
static const char *load_file(const char *path, size_t *len, int *mapped)
{
	struct stat st;
	void *p;
	int fd;

	*mapped = 0;
	if (!strcmp(path, "-"))
		return tps_read_file(path, len);
	if ((fd = open(path, O_RDONLY)) < 0) {
		tps_error("cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return tps_read_file(path, len);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return tps_read_file(path, len);
	madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	*len = (size_t)st.st_size;
	*mapped = 1;
	return p;
}

static void release_file(const char *buf, size_t len, int mapped)
{
	if (mapped)
		munmap((void *)buf, len);
	else
		free((void *)buf);
}

static int import_one_file(struct importer *im, const char *path)
{
	size_t len = 0;
	int mapped = 0;
	const char *buf = load_file(path, &len, &mapped), *p, *stop;
	cJSON *whole = NULL;
	int ret = -1, any = 0;

	im->file = path;
	im->line = 0;
	if (!buf)
		goto out;
	stop = buf + len;
	/* A whole-file JSON value first: one response, or llama-bench's -o json array. */
	whole = parse_exact(buf, stop);
	if (whole) {
		const cJSON *it;
		if (cJSON_IsArray(whole)) {
			cJSON_ArrayForEach(it, whole) {
				im->line++;
				if (import_object(im, it, NULL, 0) < 0)
					goto out;
				any = 1;
			}
		} else {
			if (import_object(im, whole, buf, len) < 0)
				goto out;
			any = 1;
		}
	} else {
		for (p = buf; p < stop;) {
			const char *nl = memchr(p, '\n', (size_t)(stop - p));
			const char *eol = nl ? nl : stop, *q = p;
			cJSON *obj;
			int rc;

			p = nl ? nl + 1 : stop;
			im->line++;
			while (q < eol && isspace((unsigned char)*q))
				q++;
			if (q == eol)
				continue;
			if (!(obj = parse_exact(q, eol))) {
				bad(im, "not valid JSON");
				goto out;
			}
			rc = import_object(im, obj, q, (size_t)(eol - q));
			cJSON_Delete(obj);
			if (rc < 0)
				goto out;
			any = 1;
		}
	}
	if (!any) {
		im->line = 0;
		bad(im, "holds no results");
		goto out;
	}
	ret = 0;
out:
	cJSON_Delete(whole);
	if (buf)
		release_file(buf, len, mapped);
	return ret;
}

int import_files(struct store *s, const struct import_opts *o, char *const *files, int n,
		 struct import_result *res)
{
	struct importer im;
	int i, ret = -1;
	size_t m;

	memset(&im, 0, sizeof(im));
	memset(res, 0, sizeof(*res));
	im.s = s;
	im.o = o;
	im.res = res;
	im.run_id = -1;
	run_rec_init(&im.run);
	if (store_begin(s) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (import_one_file(&im, files[i]) < 0)
			goto out;
	}
	if (im.run_id >= 0 && store_run_finish(s, im.run_id, "complete", NULL, NULL) < 0)
		goto out;
	if (store_commit(s) < 0)
		goto out;
	res->kind = kind_names[im.kind];
	ret = 0;
out:
	if (ret < 0) {
		store_rollback(s);
		memset(res, 0, sizeof(*res));
	}
	run_rec_release(&im.run);
	free(im.counts);
	for (m = 0; im.memo && m < TEXT_MEMO_SLOTS; m++)
		free(im.memo[m].text);
	free(im.memo);
	free(im.bench_model);
	return ret;
}
