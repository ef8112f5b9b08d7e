/* import.c: reads response files, llama-bench output and tpsdb exports into the
 * store in two passes over the same bytes. The first (import_read) reads every file
 * whole within the size limits, checks it as strict JSON and checks every value,
 * without a store, so a slow pipe never holds the write lock. The second
 * (import_write) parses again and writes inside one transaction; parsed trees live
 * one line at a time, so a million-sample import never sits in memory as cJSON. The
 * kind of input is recognised from the first object. */
#include "collect/import.h"
#include "collect/llama_bench.h"
#include "collect/quality.h"
#include "collect/quant.h"
#include "collect/response.h"
#include "schema/imported.h"
#include "schema/json_strict.h"
#include "schema/record_check.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* One input file: its bytes (read whole, never mapped) and their digest. */
struct input {
	const char *path;
	const char *buf;
	size_t len;
	char sha256[65];
};

struct import_batch {
	const struct import_opts *o;
	struct input *in;
	int n;
	const char *kind; /* kind_names[], static */
};

/* A llama-bench run: the rows of one configuration and build. */
struct bench_run {
	char *key; /* config and build: rows with the same key share the run */
	struct run_rec run;
	int64_t run_id;
};

struct importer {
	int dry;          /* the checking pass: no store, nothing written */
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
	char *bench_model; /* llama-bench: the one model_filename this import holds */
	struct bench_run **bench; /* llama-bench: one run per configuration and build */
	size_t nbench;
	const char *file_uuid; /* the run the current file's first result went to */
	const char *file;
	long line;
};

void import_opts_init(struct import_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->n_predict = o->n_max = o->ctx = o->warmup = TPS_NULL;
	o->max_file = IMPORT_MAX_FILE;
	o->max_value = IMPORT_MAX_VALUE;
}

static int bad(struct importer *im, const char *msg)
{
	if (im->line > 0)
		return tps_error("%s:%ld: %s; nothing was imported", im->file, im->line, msg);
	return tps_error("%s: %s; nothing was imported", im->file, msg);
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
static int start_run_rec(struct importer *im, struct run_rec *r, int64_t *run_id,
			 const char *model_path, const char *endpoint);

static int start_run(struct importer *im, const char *model_path, const char *endpoint)
{
	return start_run_rec(im, &im->run, &im->run_id, model_path, endpoint);
}

/* The run row of r, created from the options and what the first item said. */
static int start_run_rec(struct importer *im, struct run_rec *r, int64_t *run_id,
			 const char *model_path, const char *endpoint)
{
	const struct import_opts *o = im->o;
	char err[256];

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
	if (record_check_run(r, err, sizeof(err)) < 0)
		return bad(im, err);
	if (im->dry) {
		*run_id = 0;
		return 0;
	}
	*run_id = store_run_insert(im->s, r);
	if (*run_id < 0)
		return -1;
	im->res->runs_made++;
	if (!im->res->uuid[0])
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

/* count_key: the hex key repetitions are counted under (NULL: the prompt hash);
 * extra: flags the caller knows beyond quality_assess()'s. */
static int write_sample_to(struct importer *im, const struct run_rec *run, int64_t run_id,
			   struct sample_rec *smp, const char *count_key, unsigned extra)
{
	char err[256];

	smp->rep = next_rep(im, count_key ? count_key : smp->prompt_hash);
	smp->flags = quality_assess(run, smp) | extra;
	if (record_check_sample(smp, err, sizeof(err)) < 0)
		return bad(im, err);
	if (!im->dry && store_sample_insert(im->s, run_id, smp) < 0)
		return -1;
	im->res->samples++;
	if (smp->flags)
		im->res->flagged++;
	return 0;
}

static int write_sample(struct importer *im, struct sample_rec *smp)
{
	return write_sample_to(im, &im->run, im->run_id, smp, NULL, 0);
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

/* The text of one configuration value: an integral number as an integer, a bool as
 * 0/1, a string as itself, "-" when absent. */
static void cfg_val(const cJSON *obj, const char *key, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (cJSON_IsBool(v))
		snprintf(buf, len, "%d", cJSON_IsTrue(v) ? 1 : 0);
	else if (cJSON_IsNumber(v) && fabs(v->valuedouble) < 9e15 &&
		 v->valuedouble == (double)(long long)v->valuedouble)
		snprintf(buf, len, "%lld", (long long)v->valuedouble);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%g", v->valuedouble);
	else if (cJSON_IsString(v) && *v->valuestring)
		snprintf(buf, len, "%s", v->valuestring);
	else
		snprintf(buf, len, "-");
}

/* The canonical configuration text of a result (schema/0005_run_config.sql): the
 * test, then the settings llama-bench varies, in a fixed order. Caller frees. */
static char *bench_config(const cJSON *obj, const char *test)
{
	static const struct { const char *name, *key; } k[] = {
		{ "fa", "flash_attn" }, { "ngl", "n_gpu_layers" }, { "b", "n_batch" },
		{ "ub", "n_ubatch" }, { "ctk", "type_k" }, { "ctv", "type_v" },
		{ "t", "n_threads" }, { "sm", "split_mode" }, { "nkvo", "no_kv_offload" },
	};
	char v[128], *out = tps_xstrdup(test), *t;
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		cfg_val(obj, k[i].key, v, sizeof(v));
		t = tps_xasprintf("%s %s=%s", out, k[i].name, v);
		free(out);
		out = t;
	}
	/* "backends" since 2024, "backend" before. */
	cfg_val(obj, cJSON_GetObjectItemCaseSensitive(obj, "backends") ? "backends" : "backend",
		v, sizeof(v));
	t = tps_xasprintf("%s backend=%s", out, v);
	free(out);
	return t;
}

static const char *obj_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int64_t obj_i64(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 9e15 ?
		(int64_t)v->valuedouble : TPS_NULL;
}

/* The run of obj's configuration and build, made on first sight. NULL after an
 * error line. */
static struct bench_run *bench_run_of(struct importer *im, const cJSON *obj,
				      const char *test, const char *model)
{
	const char *bc = obj_str(obj, "build_commit"), *tt = obj_str(obj, "test_time");
	const cJSON *bn = cJSON_GetObjectItemCaseSensitive(obj, "build_number");
	static const char *const whole[] = { "build_number", "model_n_params", "model_size" };
	char *config, *version, *key;
	struct bench_run *br = NULL;
	size_t i;

	/* Integer fields are integers: 8.5 parameters is a damaged file. */
	for (i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, whole[i]);
		if (cJSON_IsNumber(v) && v->valuedouble != floor(v->valuedouble)) {
			char msg[96];
			snprintf(msg, sizeof(msg), "'%s' is not a whole number", whole[i]);
			bad(im, msg);
			return NULL;
		}
	}
	config = bench_config(obj, test);
	if (im->o->engine_version)
		version = tps_xstrdup(im->o->engine_version);
	else if (bc && cJSON_IsNumber(bn) && fabs(bn->valuedouble) < 9e15)
		version = tps_xasprintf("b%lld-%s", (long long)bn->valuedouble, bc);
	else
		version = tps_xstrdup(bc ? bc : "");
	key = tps_xasprintf("%s\x1f%s", config, version);
	for (i = 0; i < im->nbench; i++) {
		if (!strcmp(im->bench[i]->key, key)) {
			br = im->bench[i];
			goto out;
		}
	}
	br = tps_xcalloc(1, sizeof(*br));
	br->key = key;
	key = NULL;
	run_rec_init(&br->run);
	im->bench = tps_xrealloc(im->bench, (im->nbench + 1) * sizeof(*im->bench));
	im->bench[im->nbench++] = br;
	br->run.engine.version = version;
	version = NULL;
	br->run.config = config;
	config = NULL;
	br->run.cpu = tps_xstrdup(obj_str(obj, "cpu_info"));
	if (!im->o->gpu && obj_str(obj, "gpu_info"))
		br->run.host.gpu = tps_xstrdup(obj_str(obj, "gpu_info"));
	br->run.model_type = tps_xstrdup(obj_str(obj, "model_type"));
	br->run.model_n_params = obj_i64(obj, "model_n_params");
	br->run.model.bytes = obj_i64(obj, "model_size");
	/* The test's own time, so that old results imported as history keep their order. */
	if (tt)
		br->run.started_at = tps_xstrdup(tt);
	if (start_run_rec(im, &br->run, &br->run_id, model, "llama-bench") < 0)
		br = NULL;
out:
	free(config);
	free(version);
	free(key);
	return br;
}

/* One llama-bench result object: a pp, tg or pp+tg test, at a depth, with
 * per-repetition samples_ts (tok/s) and samples_ns from -o json/jsonl, or only
 * avg_ts/stddev_ts from -o csv/sql, which becomes one sample flagged
 * aggregate-only. */
static int import_bench(struct importer *im, const cJSON *obj)
{
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(obj, "samples_ts");
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(obj, "samples_ns");
	const cJSON *avg = cJSON_GetObjectItemCaseSensitive(obj, "avg_ts");
	const cJSON *avg_ns = cJSON_GetObjectItemCaseSensitive(obj, "avg_ns");
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(obj, "stddev_ts");
	const cJSON *np = cJSON_GetObjectItemCaseSensitive(obj, "n_prompt");
	const cJSON *ng = cJSON_GetObjectItemCaseSensitive(obj, "n_gen");
	const cJSON *nd = cJSON_GetObjectItemCaseSensitive(obj, "n_depth");
	const char *model = obj_str(obj, "model_filename");
	int aggregate = !ts;
	int64_t n_prompt, n_gen, n_depth = 0;
	char test[96], name[128], key[160], count[65];
	struct bench_run *br;
	int i, n;

	if (!model)
		model = "";
	if ((!cJSON_IsArray(ts) && !(aggregate && cJSON_IsNumber(avg))) ||
	    !cJSON_IsNumber(np) || !cJSON_IsNumber(ng))
		return bad(im, "a llama-bench result needs 'samples_ts' (or 'avg_ts'), 'n_prompt' "
			  "and 'n_gen'");
	/* A count beyond RESPONSE_MAX_COUNT is refused below; cast only what fits
	 * (1e999 is inf to cJSON, and casting it is undefined). */
	if (!(fabs(np->valuedouble) < 9e15) || !(fabs(ng->valuedouble) < 9e15) ||
	    (cJSON_IsNumber(nd) && !(fabs(nd->valuedouble) < 9e15)))
		return bad(im, "'n_prompt', 'n_gen' or 'n_depth' is out of range");
	/* Counts are whole: 64.5 prompt tokens is a damaged file, not "pp64". */
	if (np->valuedouble != floor(np->valuedouble) || ng->valuedouble != floor(ng->valuedouble) ||
	    (cJSON_IsNumber(nd) && nd->valuedouble != floor(nd->valuedouble)))
		return bad(im, "'n_prompt', 'n_gen' or 'n_depth' is not a whole number");
	n_prompt = (int64_t)np->valuedouble;
	n_gen = (int64_t)ng->valuedouble;
	if (cJSON_IsNumber(nd))
		n_depth = (int64_t)nd->valuedouble;
	else if (nd && !cJSON_IsNull(nd))
		return bad(im, "'n_depth' is not a number");
	if (n_prompt < 0 || n_gen < 0 || n_prompt > RESPONSE_MAX_COUNT || n_gen > RESPONSE_MAX_COUNT ||
	    n_depth < 0 || n_depth > RESPONSE_MAX_COUNT || (!n_prompt && !n_gen))
		return bad(im, "'n_prompt', 'n_gen' or 'n_depth' is out of range");
	if (!im->bench_model)
		im->bench_model = tps_xstrdup(model);
	else if (strcmp(im->bench_model, model))
		return bad(im, "llama-bench results for more than one model: import each model's file separately");
	if (n_prompt && n_gen)
		snprintf(test, sizeof(test), "pp%lld+tg%lld", (long long)n_prompt, (long long)n_gen);
	else if (n_prompt)
		snprintf(test, sizeof(test), "pp%lld", (long long)n_prompt);
	else
		snprintf(test, sizeof(test), "tg%lld", (long long)n_gen);
	/* Depth 0 keeps the name llama-bench's table gives the test (and older imports). */
	if (n_depth)
		snprintf(name, sizeof(name), "%s@d%lld", test, (long long)n_depth);
	else
		snprintf(name, sizeof(name), "%s", test);
	if (!(br = bench_run_of(im, obj, name, model)))
		return -1;
	if (!im->file_uuid)
		im->file_uuid = br->run.uuid;
	n = aggregate ? 1 : cJSON_GetArraySize(ts);
	for (i = 0; i < n; i++) {
		const cJSON *t = aggregate ? avg : cJSON_GetArrayItem(ts, i);
		const cJSON *d = aggregate ? avg_ns : cJSON_IsArray(ns) ? cJSON_GetArrayItem(ns, i) : NULL;
		struct sample_rec smp;
		double ms = cJSON_IsNumber(d) ? d->valuedouble / 1e6 : NAN;
		int rc;

		if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0 ||
		    t->valuedouble > RESPONSE_MAX_RATE || (!isnan(ms) && (ms < 0 || ms > RESPONSE_MAX_MS)))
			return bad(im, "a 'samples_ts', 'samples_ns' or 'avg_ts' value is negative, not a number or absurd");
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
		if (aggregate)
			smp.timings = cJSON_IsNumber(sd) && isfinite(sd->valuedouble) ?
				tps_xasprintf("{\"llama_bench_avg_ts\":%.17g,\"llama_bench_stddev_ts\":%.17g}",
					      t->valuedouble, sd->valuedouble) :
				tps_xasprintf("{\"llama_bench_avg_ts\":%.17g}", t->valuedouble);
		else
			smp.timings = tps_xasprintf("{\"llama_bench_ts\":%.17g}", t->valuedouble);
		smp.cache_n = 0;
		/* Repetitions count within the run, not across the runs of one file. */
		snprintf(key, sizeof(key), "%s:%s", br->run.uuid, smp.prompt_hash);
		sha256_hex(key, strlen(key), count);
		rc = write_sample_to(im, &br->run, br->run_id, &smp, count,
				     aggregate ? SAMPLE_AGGREGATE : 0);
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
	rc = im->dry ? 0 : store_run_restore(im->s, &r, smp, n);
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
	if (cJSON_GetObjectItemCaseSensitive(obj, "samples_ts") ||
	    (cJSON_GetObjectItemCaseSensitive(obj, "avg_ts") &&
	     cJSON_GetObjectItemCaseSensitive(obj, "n_prompt")))
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

/* The line number of offset at in buf. */
static long line_of(const char *buf, size_t at)
{
	long line = 1;
	const char *p = buf, *nl;

	while ((nl = memchr(p, '\n', (size_t)(buf + at - p))))
		line++, p = nl + 1;
	return line;
}

/* Checks [p, p + n) as one strict JSON value and parses it, or says why not with
 * bad(). NULL after an error line. */
static cJSON *parse_value(struct importer *im, const char *p, size_t n)
{
	char why[96], msg[160];
	size_t at;
	cJSON *v;

	if ((int64_t)n > im->o->max_value) {
		snprintf(msg, sizeof(msg), "too large: a JSON value of %zu bytes (the limit is %lld)",
			 n, (long long)im->o->max_value);
		bad(im, msg);
		return NULL;
	}
	/* The checking pass vetted these very bytes; the writing pass only parses. */
	if (im->dry && json_strict_check(p, n, &at, why, sizeof(why)) < 0) {
		snprintf(msg, sizeof(msg), "not valid JSON (RFC 8259): %s at byte %zu", why, at + 1);
		bad(im, msg);
		return NULL;
	}
	if (!(v = cJSON_ParseWithLength(p, n)))
		bad(im, "out of memory parsing JSON");
	return v;
}

/* Reads fd to its end into a heap buffer, refusing more than max bytes without
 * holding more than max + 1 of them (/dev/zero, a FIFO that never ends): the buffer
 * grows to at most max + 1 and each read() asks for no more than that. hint is the
 * expected size (a regular file's), 0 when unknown. */
static char *read_capped(int fd, const char *path, int64_t max, size_t hint, size_t *len)
{
	size_t limit = (size_t)max + 1, cap = hint ? hint + 1 : 1 << 16, n = 0;
	char *buf;
	ssize_t got;

	if (cap > limit)
		cap = limit;
	buf = tps_xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			cap = cap > limit / 2 ? limit : 2 * cap;
			buf = tps_xrealloc(buf, cap + 1);
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			tps_error("cannot read '%s': %s", path, strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if ((int64_t)n > max) {
			tps_error("%s: too large: more than %lld bytes; nothing was imported", path,
				  (long long)max);
			goto fail;
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	return NULL;
}

/* The file's bytes, read with read() at most max of them (stdin, pipes, devices
 * and regular files alike). A regular file is not mapped: one that shrinks while it
 * is read would kill a mapping's reader with SIGBUS; here it is an error line, as is
 * one that changes size. -1 after an error line. */
static int load_file(struct input *in, int64_t max)
{
	struct stat st;
	int fd, ret = -1;

	if (!strcmp(in->path, "-"))
		fd = STDIN_FILENO;
	else if ((fd = open(in->path, O_RDONLY)) < 0)
		return tps_error("cannot open '%s': %s", in->path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		tps_error("cannot read '%s': %s", in->path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		tps_error("cannot read '%s': it is a directory", in->path);
		goto out;
	}
	if (S_ISREG(st.st_mode) && st.st_size > max) {
		tps_error("%s: too large: %lld bytes (the limit is %lld); nothing was imported",
			  in->path, (long long)st.st_size, (long long)max);
		goto out;
	}
	if (!(in->buf = read_capped(fd, in->path, max,
				    S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, &in->len)))
		goto out;
	if (S_ISREG(st.st_mode) && fd != STDIN_FILENO && (off_t)in->len != st.st_size) {
		tps_error("cannot read '%s': it changed size while it was read (%lld bytes, "
			  "then %zu); nothing was imported", in->path, (long long)st.st_size,
			  in->len);
		free((void *)in->buf);
		in->buf = NULL;
		goto out;
	}
	ret = 0;
out:
	if (fd != STDIN_FILENO)
		close(fd);
	return ret;
}

static void release_file(struct input *in)
{
	free((void *)in->buf);
	in->buf = NULL;
}

/* One JSONL line or the whole file's value, to import_object. A whole-file value
 * (im->line 0) that is not an array is named by the line it starts on, line0. */
static int import_text(struct importer *im, const char *p, size_t n, long line0, int *any)
{
	const cJSON *it;
	int rc = 0;
	cJSON *v;

	if (!im->line && n > (size_t)im->o->max_value)
		im->line = line0;
	if (!(v = parse_value(im, p, n)))
		return -1;
	if (cJSON_IsArray(v) && im->line == 0) {
		/* A whole file that is an array: llama-bench's -o json. */
		cJSON_ArrayForEach(it, v) {
			im->line++;
			if ((rc = import_object(im, it, NULL, 0)) < 0)
				break;
			*any = 1;
		}
	} else {
		if (!im->line)
			im->line = line0;
		rc = import_object(im, v, p, n);
		*any = 1;
	}
	cJSON_Delete(v);
	return rc;
}

/* A file that is not JSON: llama-bench's -o csv or -o sql, or refused with the
 * formats import reads. */
static int import_bench_text(struct importer *im, const struct input *in, const char *first)
{
	char err[160], msg[512];
	long *lines = NULL, errline = 0;
	const cJSON *it;
	cJSON *arr;
	int i = 0, rc = 0;

	arr = llama_bench_text_parse(in->buf, in->len, &lines, err, sizeof(err), &errline);
	if (!arr) {
		im->line = errline;
		if (*err)
			snprintf(msg, sizeof(msg), "not a readable llama-bench csv or sql file: %s",
				 err);
		else if (*first == '|')
			snprintf(msg, sizeof(msg), "a markdown table (llama-bench -o md) is not "
				 "importable: import reads " LLAMA_BENCH_FORMATS);
		else
			snprintf(msg, sizeof(msg), "not a format import reads (" LLAMA_BENCH_FORMATS
				 ")");
		return bad(im, msg);
	}
	cJSON_ArrayForEach(it, arr) {
		im->line = lines[i++];
		if ((rc = import_object(im, it, NULL, 0)) < 0)
			break;
	}
	if (rc == 0 && i == 0) {
		im->line = 0;
		rc = bad(im, "holds no results");
	}
	free(lines);
	cJSON_Delete(arr);
	return rc;
}

/* RFC 8259's white space: space, tab, line feed, carriage return. A form feed or
 * vertical tab (isspace()) before a value is not JSON, and is refused as such. */
static int json_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int import_one_file(struct importer *im, const struct input *in)
{
	const char *buf = in->buf, *stop = buf + in->len, *p, *first;
	char why[96], msg[160];
	size_t at;
	int any = 0;

	im->file = in->path;
	im->line = 0;
	im->file_uuid = NULL;
	/* A whole-file JSON value first: one response, or llama-bench's -o json array. */
	for (first = buf; first < stop && isspace((unsigned char)*first); first++)
		;
	for (p = buf; p < first && json_ws(*p); p++)
		;
	if (p < first && first < stop && (*first == '{' || *first == '[')) {
		im->line = line_of(buf, (size_t)(p - buf));
		snprintf(msg, sizeof(msg), "not valid JSON (RFC 8259): white space other than "
			 "space, tab, LF or CR at byte %zu", (size_t)(p - buf) + 1);
		return bad(im, msg);
	}
	if (first < stop && *first != '{' && *first != '[')
		return import_bench_text(im, in, first);
	if (first < stop && json_strict_check(buf, in->len, &at, why, sizeof(why)) == 0) {
		if (import_text(im, buf, in->len, line_of(buf, (size_t)(first - buf)), &any) < 0)
			return -1;
	} else if (first < stop && strncmp(why, "text after", 10) &&
		   line_of(buf, at) > line_of(buf, (size_t)(first - buf))) {
		/* One value over several lines, broken inside: name the line it breaks on. */
		im->line = line_of(buf, at);
		snprintf(msg, sizeof(msg), "not valid JSON (RFC 8259): %s", why);
		return bad(im, msg);
	} else {
		for (p = buf; p < stop;) {
			const char *nl = memchr(p, '\n', (size_t)(stop - p));
			const char *eol = nl ? nl : stop, *q = p;

			p = nl ? nl + 1 : stop;
			im->line++;
			while (q < eol && json_ws(*q))
				q++;
			if (q == eol)
				continue;
			if (import_text(im, q, (size_t)(eol - q), im->line, &any) < 0)
				return -1;
		}
	}
	if (!any) {
		im->line = 0;
		return bad(im, "holds no results");
	}
	return 0;
}

static void importer_init(struct importer *im, struct store *s, const struct import_opts *o,
			  struct import_result *res, int dry)
{
	memset(im, 0, sizeof(*im));
	memset(res, 0, sizeof(*res));
	im->dry = dry;
	im->s = s;
	im->o = o;
	im->res = res;
	im->run_id = -1;
	run_rec_init(&im->run);
}

static void importer_release(struct importer *im)
{
	size_t m;

	run_rec_release(&im->run);
	free(im->counts);
	for (m = 0; im->memo && m < TEXT_MEMO_SLOTS; m++)
		free(im->memo[m].text);
	free(im->memo);
	free(im->bench_model);
	for (m = 0; m < im->nbench; m++) {
		free(im->bench[m]->key);
		run_rec_release(&im->bench[m]->run);
		free(im->bench[m]);
	}
	free(im->bench);
	memset(im, 0, sizeof(*im));
}

/* The text options describe the run: they must be valid UTF-8. -1 after an error line. */
static int check_opts(const struct import_opts *o)
{
	const struct { const char *name, *v; } t[] = {
		{ "engine", o->engine }, { "engine-version", o->engine_version },
		{ "model", o->model }, { "model-file", o->model_file }, { "quant", o->quant },
		{ "host", o->host }, { "gpu", o->gpu }, { "driver", o->driver },
		{ "cuda", o->cuda }, { "tag", o->tag }, { "spec-type", o->spec_type },
		{ "prompt", o->prompt }, { "notes", o->notes },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!record_utf8_ok(t[i].v))
			return tps_error("--%s is not valid UTF-8; nothing was imported", t[i].name);
	}
	return 0;
}

void import_batch_free(struct import_batch *b)
{
	int i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++) {
		if (b->in[i].buf)
			release_file(&b->in[i]);
	}
	free(b->in);
	free(b);
}

struct import_batch *import_read(const struct import_opts *o, char *const *files, int n)
{
	struct import_batch *b = tps_xcalloc(1, sizeof(*b));
	struct import_result res;
	struct importer im;
	int i, ok = 0;

	b->o = o;
	b->in = tps_xcalloc((size_t)(n > 0 ? n : 1), sizeof(*b->in));
	b->n = n;
	importer_init(&im, NULL, o, &res, 1);
	if (check_opts(o) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		struct input *in = &b->in[i];
		in->path = files[i];
		if (load_file(in, o->max_file) < 0)
			goto out;
		sha256_hex(in->buf, in->len, in->sha256);
	}
	for (i = 0; i < n; i++) {
		if (import_one_file(&im, &b->in[i]) < 0)
			goto out;
	}
	b->kind = kind_names[im.kind];
	ok = 1;
out:
	importer_release(&im);
	if (!ok) {
		import_batch_free(b);
		return NULL;
	}
	return b;
}

/* 1 when file i's bytes were imported before (the store, or an earlier file of
 * this batch) and are to be skipped, after a warning line; 0 to import; -1 after
 * an error line. */
static int is_duplicate(struct store *s, const struct import_batch *b, int i)
{
	char when[64];
	int j, rc;

	if (b->o->allow_duplicate)
		return 0;
	for (j = 0; j < i; j++) {
		if (!strcmp(b->in[j].sha256, b->in[i].sha256)) {
			tps_warning("'%s' has the same bytes as '%s', given before it; skipped "
				    "(--allow-duplicate imports it again)", b->in[i].path, b->in[j].path);
			return 1;
		}
	}
	if ((rc = store_imported_find(s, b->in[i].sha256, when, sizeof(when))) != 1)
		return rc;
	tps_warning("'%s' was already imported on %s; skipped (--allow-duplicate imports it "
		    "again)", b->in[i].path, when);
	return 1;
}

int import_write(struct store *s, struct import_batch *b, struct import_result *res)
{
	struct importer im;
	int i, rc, ret = -1;

	importer_init(&im, s, b->o, res, 0);
	if (store_begin(s) < 0)
		goto out;
	for (i = 0; i < b->n; i++) {
		struct imported_rec rec;
		long before = res->samples;

		if ((rc = is_duplicate(s, b, i)) < 0)
			goto out;
		if (rc == 1) {
			res->skipped++;
			continue;
		}
		if (import_one_file(&im, &b->in[i]) < 0)
			goto out;
		rec.sha256 = b->in[i].sha256;
		rec.name = b->in[i].path;
		rec.kind = kind_names[im.kind];
		rec.run_uuid = im.kind == KIND_EXPORT ? NULL :
			       im.kind == KIND_BENCH ? im.file_uuid : im.run.uuid;
		rec.bytes = (int64_t)b->in[i].len;
		rec.samples = res->samples - before;
		if (store_imported_add(s, &rec) < 0)
			goto out;
	}
	if (im.run_id >= 0 && store_run_finish(s, im.run_id, "complete", NULL, NULL) < 0)
		goto out;
	for (i = 0; i < (int)im.nbench; i++) {
		if (store_run_finish(s, im.bench[i]->run_id, "complete", NULL, NULL) < 0)
			goto out;
	}
	if (store_commit(s) < 0)
		goto out;
	res->kind = b->kind;
	ret = 0;
out:
	if (ret < 0) {
		store_rollback(s);
		memset(res, 0, sizeof(*res));
	}
	importer_release(&im);
	return ret;
}

int import_files(struct store *s, const struct import_opts *o, char *const *files, int n,
		 struct import_result *res)
{
	struct import_batch *b = import_read(o, files, n);
	int ret;

	memset(res, 0, sizeof(*res));
	if (!b)
		return -1;
	ret = import_write(s, b, res);
	import_batch_free(b);
	return ret;
}
