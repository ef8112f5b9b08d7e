/* import_run.c: the runs and samples an import makes, whatever the input kind: the
 * run row from the options and the first item, repetitions counted per prompt, the
 * prompt hashes (memoised: an import repeats a few prompts many times), each
 * sample's flags, its check and its insert. */
#include "collect/import_int.h"
#include "collect/quality.h"
#include "collect/quant.h"
#include "schema/record_check.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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

int import_start_run(struct importer *im, const char *model_path, const char *endpoint)
{
	return import_start_run_rec(im, &im->run, &im->run_id, model_path, endpoint);
}

/* The run row of r, created from the options and what the first item said. */
int import_start_run_rec(struct importer *im, struct run_rec *r, int64_t *run_id,
			 const char *model_path, const char *endpoint)
{
	const struct import_opts *o = im->o;
	char err[256];

	if (tps_uuid4(r->uuid, sizeof(r->uuid)) < 0)
		return -1;
	r->status = tps_xstrdup("running");
	r->source = tps_xstrdup(im->kind == KIND_BENCH ? "llama-bench" :
				im->kind == KIND_SPEED ? "speed-bench" : "import");
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
		return import_bad(im, err);
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

/* The memo's key of text (len bytes): FNV-1a of its length and of its first and
 * last 64 bytes. Texts that share those still meet: the memo compares them whole. */
static uint64_t memo_key(const char *text, size_t len)
{
	uint64_t key = 14695981039346656037ULL ^ len;
	size_t i, head = len < 128 ? len : 64;

	for (i = 0; i < head; i++)
		key = (key ^ (unsigned char)text[i]) * 1099511628211ULL;
	for (i = len < 128 ? len : len - 64; i < len; i++)
		key = (key ^ (unsigned char)text[i]) * 1099511628211ULL;
	return key;
}

/* sha256_hex(text) through the memo. */
static void text_sha256(struct importer *im, const char *text, char hash[65])
{
	size_t len = strlen(text), i;
	uint64_t key = memo_key(text, len);
	struct text_hash *e;

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
int import_sample_write_to(struct importer *im, const struct run_rec *run, int64_t run_id,
			   struct sample_rec *smp, const char *count_key, unsigned extra)
{
	char err[256];

	smp->rep = next_rep(im, count_key ? count_key : smp->prompt_hash);
	smp->flags = quality_assess(run, smp) | extra;
	if (record_check_sample(smp, err, sizeof(err)) < 0)
		return import_bad(im, err);
	if (!im->dry && store_sample_insert(im->s, run_id, smp) < 0)
		return -1;
	im->res->samples++;
	if (record_finding_flags(run->endpoint, smp->prompt_n, smp->predicted_n, smp->flags))
		im->res->flagged++;
	return 0;
}

int import_sample_write(struct importer *im, struct sample_rec *smp)
{
	return import_sample_write_to(im, &im->run, im->run_id, smp, NULL, 0);
}

void import_name_prompt(struct importer *im, struct sample_rec *smp, const char *text)
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
