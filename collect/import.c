/* import.c: the driver of `tpsdb import`: reads response files, llama-bench output
 * and tpsdb exports into the store in two passes, parsing each input once. The
 * first (import_read) reads every file whole within the size limits, checks it as
 * strict JSON, parses it and checks every value, without a store, so a slow pipe
 * never holds the write lock; it keeps what it parsed as records (struct
 * import_rec) and frees each file's bytes once checked. The second (import_write)
 * replays the records inside one transaction, computing again only what depends
 * on the items before (files skipped as duplicates change it). Responses are kept
 * as samples, not as cJSON, so a million-sample import never sits in memory as a
 * tree. The kind of input is recognised from the first object, and each kind has
 * its file (import_response.c, import_bench.c, import_export.c, import_speed.c);
 * the records they keep and the error line they refuse with are import_rec.c's,
 * below them all, so no part calls back into this file. */
#include "collect/import_int.h"
#include "schema/imported.h"
#include "schema/json_span.h"
#include "schema/json_strict.h"
#include "schema/record_check.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const import_kind_names[] = { "nothing", "responses", "llama-bench", "export",
					   "speed-bench" };

void import_opts_init(struct import_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->n_predict = o->n_max = o->ctx = o->warmup = TPS_NULL;
	o->max_file = IMPORT_MAX_FILE;
	o->max_value = IMPORT_MAX_VALUE;
}

/* The kind of one value by its members: an export line carries RECORD_JSON_MARK,
 * a llama-bench result its rates, speed_bench.py's --output file its 'config'
 * and per-request 'results' (a response has neither); anything else is taken for
 * a response (whose reader says what is missing). */
static enum kind kind_by(int object, int mark, int samples_ts, int avg_ts, int n_prompt,
			 int speed)
{
	if (!object)
		return KIND_NONE;
	if (mark)
		return KIND_EXPORT;
	if (samples_ts || (avg_ts && n_prompt))
		return KIND_BENCH;
	if (speed)
		return KIND_SPEED;
	return KIND_RESPONSE;
}

static enum kind kind_of(const cJSON *obj)
{
	return kind_by(cJSON_IsObject(obj),
		       cJSON_GetObjectItemCaseSensitive(obj, RECORD_JSON_MARK) != NULL,
		       cJSON_GetObjectItemCaseSensitive(obj, "samples_ts") != NULL,
		       cJSON_GetObjectItemCaseSensitive(obj, "avg_ts") != NULL,
		       cJSON_GetObjectItemCaseSensitive(obj, "n_prompt") != NULL,
		       cJSON_GetObjectItemCaseSensitive(obj, "config") != NULL &&
		       cJSON_GetObjectItemCaseSensitive(obj, "results") != NULL);
}

/* The members of a checked top-level value a response is read from
 * (response_members[], into m) and the kind they say, in one walk. */
static enum kind read_members(struct json_span v, struct json_span *m)
{
	const char *keys[RESPONSE_N_MEMBERS + 6];
	struct json_span all[RESPONSE_N_MEMBERS + 6], *kind = all + RESPONSE_N_MEMBERS;
	size_t i;

	for (i = 0; i < RESPONSE_N_MEMBERS; i++)
		keys[i] = response_members[i];
	keys[i++] = RECORD_JSON_MARK;
	keys[i++] = "samples_ts";
	keys[i++] = "avg_ts";
	keys[i++] = "n_prompt";
	keys[i++] = "config";
	keys[i++] = "results";
	json_span_members(v, keys, i, all);
	memcpy(m, all, RESPONSE_N_MEMBERS * sizeof(*m));
	return kind_by(json_span_type(v) == JSON_OBJECT, kind[0].p != NULL, kind[1].p != NULL,
		       kind[2].p != NULL, kind[3].p != NULL, kind[4].p && kind[5].p);
}

/* Holds the import to kind k, the kind of its first value. -1 after an error line. */
static int kind_take(struct importer *im, enum kind k)
{
	char msg[128];

	if (k == KIND_NONE)
		return import_bad(im, "not a JSON object");
	if (im->kind == KIND_NONE)
		im->kind = k;
	else if (im->kind != k) {
		snprintf(msg, sizeof(msg), "mixes %s with %s in one import", import_kind_names[k],
			 import_kind_names[im->kind]);
		return import_bad(im, msg);
	}
	return 0;
}

/* An element of a parsed array (llama-bench's -o json, its csv and sql files). A
 * response there is read from its text printed again, the only text it has. */
static int import_object(struct importer *im, const cJSON *obj)
{
	struct json_span m[RESPONSE_N_MEMBERS];
	enum kind k = kind_of(obj);
	char *text;
	int rc;

	if (kind_take(im, k) < 0)
		return -1;
	switch (k) {
	case KIND_RESPONSE:
		if (!(text = cJSON_PrintUnformatted(obj)))
			return import_bad(im, "out of memory printing JSON");
		read_members(json_span_of(text, strlen(text)), m);
		rc = import_response(im, m);
		cJSON_free(text);
		return rc;
	case KIND_BENCH: return import_bench(im, obj);
	case KIND_EXPORT: return import_export(im, obj);
	case KIND_SPEED: return import_speed(im, obj);
	default: return -1;
	}
}

/* A file that is not JSON (llama-bench's -o csv or -o sql, import_bench_text()):
 * each object is read as an element of a parsed array is. The objects' array is
 * kept in in->trees. */
static int import_text_file(struct importer *im, struct input *in, const char *first)
{
	long *lines = NULL;
	const cJSON *it;
	cJSON *arr;
	int i = 0, rc = 0;

	if (!(arr = import_bench_text(im, in, first, &lines)))
		return -1;
	cJSON_ArrayForEach(it, arr) {
		im->line = lines[i++];
		if ((rc = import_object(im, it)) < 0)
			break;
	}
	if (rc == 0 && i == 0) {
		im->line = 0;
		rc = import_bad(im, "holds no results");
	}
	free(lines);
	import_tree_keep(in, arr);
	return rc;
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

/* Checks [p, p + n) as one strict JSON value within the size limit, or says why
 * not with bad(); checked: json_strict_check() has accepted it already (the
 * whole file's value), only the limit is left. */
static int check_value(struct importer *im, const char *p, size_t n, int checked)
{
	char why[96], msg[160];
	size_t at;

	if ((int64_t)n > im->o->max_value) {
		snprintf(msg, sizeof(msg), "too large: a JSON value of %zu bytes (the limit is %lld)",
			 n, (long long)im->o->max_value);
		return import_bad(im, msg);
	}
	if (!checked && json_strict_check(p, n, &at, why, sizeof(why)) < 0) {
		snprintf(msg, sizeof(msg), "not valid JSON (RFC 8259): %s at byte %zu", why, at + 1);
		return import_bad(im, msg);
	}
	return 0;
}

/* One JSONL line or the whole file's value, checked (checked: it was, as a whole
 * file), then read: a response where it lies, anything else through cJSON. A
 * whole-file value (im->line 0) that is not an array is named by the line it
 * starts on, line0. */
static int import_text(struct importer *im, const char *p, size_t n, long line0, int checked,
		       int *any)
{
	struct json_span root = json_span_of(p, n), m[RESPONSE_N_MEMBERS];
	const cJSON *it;
	enum kind k;
	int rc = 0;
	cJSON *v;

	if (!im->line && n > (size_t)im->o->max_value)
		im->line = line0;
	if (check_value(im, p, n, checked) < 0)
		return -1;
	if (json_span_type(root) != JSON_ARRAY || im->line != 0) {
		if (!im->line)
			im->line = line0;
		*any = 1;
		k = read_members(root, m);
		if (k == KIND_RESPONSE)
			return kind_take(im, k) < 0 ? -1 : import_response(im, m);
	}
	if (!(v = cJSON_ParseWithLength(p, n)))
		return import_bad(im, "out of memory parsing JSON");
	if (cJSON_IsArray(v) && im->line == 0) {
		/* A whole file that is an array: llama-bench's -o json. */
		cJSON_ArrayForEach(it, v) {
			im->line++;
			if ((rc = import_object(im, it)) < 0)
				break;
			*any = 1;
		}
	} else {
		rc = import_object(im, v);
	}
	/* llama-bench and speed-bench records point into the tree; the others own
	 * what they keep. */
	if (im->kind == KIND_BENCH || im->kind == KIND_SPEED)
		import_tree_keep(im->in, v);
	else
		cJSON_Delete(v);
	return rc;
}

/* RFC 8259's white space: space, tab, line feed, carriage return. A form feed or
 * vertical tab (isspace()) before a value is not JSON, and is refused as such. */
static int json_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The JSONL lines of buf[0..len) into records, counting lines in im->line: every
 * line that ends in LF, and with last the one after the final LF too. *used gets
 * the bytes taken (up to the start of an unfinished line). -1 after an error line. */
static int import_lines(struct importer *im, const char *buf, size_t len, int last, int *any,
			size_t *used)
{
	const char *p = buf, *stop = buf + len;

	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		const char *eol = nl ? nl : stop, *q = p;

		if (!nl && !last)
			break;
		p = nl ? nl + 1 : stop;
		im->line++;
		while (q < eol && json_ws(*q))
			q++;
		if (q == eol)
			continue;
		if (import_text(im, q, (size_t)(eol - q), im->line, 0, any) < 0)
			return -1;
	}
	*used = (size_t)(p - buf);
	return 0;
}

/* The checking pass over one whole file: its records into in. */
static int import_one_file(struct importer *im, struct input *in)
{
	const char *buf = in->buf, *stop = buf + in->len, *p, *first;
	char why[96], msg[160];
	size_t at;
	int any = 0;

	im->in = in;
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
		return import_bad(im, msg);
	}
	if (first < stop && *first != '{' && *first != '[')
		return import_text_file(im, in, first);
	if (first < stop && json_strict_check(buf, in->len, &at, why, sizeof(why)) == 0) {
		if (import_text(im, buf, in->len, line_of(buf, (size_t)(first - buf)), 1, &any) < 0)
			return -1;
	} else if (first < stop && strncmp(why, "text after", 10) &&
		   line_of(buf, at) > line_of(buf, (size_t)(first - buf))) {
		/* One value over several lines, broken inside: name the line it breaks on. */
		im->line = line_of(buf, at);
		snprintf(msg, sizeof(msg), "not valid JSON (RFC 8259): %s", why);
		return import_bad(im, msg);
	} else if (import_lines(im, buf, in->len, 1, &any, &at) < 0) {
		return -1;
	}
	if (!any) {
		im->line = 0;
		return import_bad(im, "holds no results");
	}
	return 0;
}

/* Whether an input that starts with buf[0..len) (more to come) is JSONL to read a
 * piece at a time: after white space of RFC 8259 only, an object complete on its
 * first line. Anything else (one value over many lines, an array, llama-bench's
 * csv or sql, odd white space) is read whole and judged as a whole. */
static int jsonl_start(const char *buf, size_t len)
{
	const char *p = buf, *stop = buf + len, *nl;
	char why[96];
	size_t at;

	while (p < stop && json_ws(*p))
		p++;
	if (p == stop || *p != '{' || !(nl = memchr(p, '\n', (size_t)(stop - p))))
		return 0;
	return json_strict_check(p, (size_t)(nl - p), &at, why, sizeof(why)) == 0;
}

/* Whether buf[0..len) holds enough to judge the input by: a LF after the first
 * byte that is not RFC 8259 white space (the first value's line, a csv header, a
 * sql line), or that byte alone when it opens an array (llama-bench -o json,
 * read whole and checked by element). */
static int first_line_held(const char *buf, size_t len)
{
	const char *p = buf, *stop = buf + len;

	while (p < stop && json_ws(*p))
		p++;
	return p < stop && (*p == '[' || memchr(p, '\n', (size_t)(stop - p)));
}

/* How much more to read while a first line or a JSONL line is unfinished: a
 * piece, or as much as is held (doubling), but never past one byte over the
 * value limit (then a piece at a time), so that a line without its end is
 * refused holding about the limit and not the whole input. */
static size_t bounded_want(const struct importer *im, const struct file_reader *r, size_t chunk)
{
	size_t want = r->len > chunk ? r->len : chunk;
	uint64_t cap = (uint64_t)im->o->max_value + 1;

	if ((uint64_t)r->len >= cap)
		return chunk; /* white space before the value: a piece at a time */
	if ((uint64_t)(r->len + want) > cap)
		want = (size_t)(cap - r->len);
	return want;
}

/* Refuses the unfinished line held in r (r->len bytes, no LF yet) once its value
 * is longer than the value limit, as check_value() would at the line's end:
 * white space before the value is dropped (it is no part of it); first: r holds
 * the input's start, where a value that begins with '{' is one the limit covers
 * whether the input turns out to be JSONL or one whole-file value, and any other
 * first line but an array's (a csv header, a sql line) is held to the same
 * limit. -1 after an error line naming the line. */
static int line_too_long(struct importer *im, struct file_reader *r, int first)
{
	size_t ws = 0;
	long line = first ? 1 : im->line + 1;
	char msg[160];

	/* (past a LF only at the start: in a JSONL input a LF ends the line) */
	while (ws < r->len && json_ws(r->buf[ws]) && (first || r->buf[ws] != '\n')) {
		if (r->buf[ws] == '\n')
			line++;
		ws++;
	}
	if (!first) {
		import_file_drop(r, ws);
		ws = 0;
	}
	if (ws < r->len && memchr(r->buf + ws, '\n', r->len - ws))
		return 0;
	if ((first && (ws == r->len || r->buf[ws] == '[')) ||
	    (int64_t)(r->len - ws) <= im->o->max_value)
		return 0;
	im->file = r->path;
	im->line = line;
	snprintf(msg, sizeof(msg), "too large: a %s of more than %lld bytes (the limit is %lld)",
		 !first || r->buf[ws] == '{' ? "JSON value" : "line", (long long)im->o->max_value,
		 (long long)im->o->max_value);
	return import_bad(im, msg);
}

/* The checking pass over one input: read, hashed and checked into records in,
 * whole, or a piece at a time when it is JSONL larger than a piece (only the
 * unfinished line is held between pieces). -1 after an error line. */
static int import_input(struct importer *im, struct input *in, int64_t max)
{
	struct file_reader r;
	size_t chunk = import_chunk_bytes ? import_chunk_bytes : 1, used;
	int any = 0, ret = -1;

	if (import_file_open(&r, in->path, max) < 0)
		return -1;
	/* Enough to judge by: the first value's line (or the end). */
	do {
		if (import_file_more(&r, bounded_want(im, &r, chunk)) < 0 ||
		    line_too_long(im, &r, 1) < 0)
			goto out;
	} while (!r.eof && !first_line_held(r.buf, r.len));
	if (r.eof || !jsonl_start(r.buf, r.len)) {
		if (import_file_all(&r) < 0 || import_file_end(&r, in->sha256) < 0)
			goto out;
		in->buf = r.buf;
		in->len = r.len;
		in->peak = r.peak;
		r.buf = NULL;
		ret = import_one_file(im, in);
		goto out;
	}
	im->in = in;
	im->file = in->path;
	im->line = 0;
	im->file_uuid = NULL;
	for (;;) {
		if (import_lines(im, r.buf, r.len, r.eof, &any, &used) < 0)
			goto out;
		import_file_drop(&r, used);
		if (r.eof)
			break;
		/* A line longer than a piece: read on until it ends, or until it is
		 * too large for a value, holding no more than the limit meanwhile. */
		if (line_too_long(im, &r, 0) < 0 ||
		    import_file_more(&r, bounded_want(im, &r, chunk)) < 0 ||
		    line_too_long(im, &r, 0) < 0)
			goto out;
	}
	if (import_file_end(&r, in->sha256) < 0)
		goto out;
	in->len = (size_t)r.total;
	in->peak = r.peak;
	if (!any) {
		im->line = 0;
		import_bad(im, "holds no results");
		goto out;
	}
	ret = 0;
out:
	import_file_close(&r);
	return ret;
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
			import_file_release(&b->in[i]);
		import_recs_release(&b->in[i]);
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
	/* One input's bytes at a time: read, hashed, checked into records, freed, so
	 * the peak is the largest whole file (a JSONL one: a piece) beside the records
	 * of all. */
	for (i = 0; i < n; i++) {
		struct input *in = &b->in[i];
		in->path = files[i];
		if (import_input(&im, in, o->max_file) < 0)
			goto out;
		/* Its records own all the writing pass needs. */
		import_file_release(in);
	}
	b->kind = import_kind_names[im.kind];
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

/* The writing pass over one file's records. */
static int import_replay(struct importer *im, const struct input *in)
{
	size_t i;
	int rc = 0;

	im->file = in->path;
	im->file_uuid = NULL;
	for (i = 0; i < in->nrecs && rc == 0; i++) {
		const struct import_rec *rec = &in->recs[i];
		im->line = rec->line;
		im->kind = rec->kind;
		switch (rec->kind) {
		case KIND_RESPONSE: rc = import_response_add(im, &rec->u.resp); break;
		case KIND_BENCH: rc = import_bench_add(im, rec->u.bench); break;
		case KIND_EXPORT: rc = import_export_add(im, rec->u.exp); break;
		case KIND_SPEED: rc = import_speed_add(im, rec->u.bench); break;
		default: rc = -1;
		}
	}
	return rc;
}

int import_write(struct store *s, struct import_batch *b, struct import_result *res)
{
	struct importer im;
	int i, rc, ret = -1;

	importer_init(&im, s, b->o, res, 0);
	for (i = 0; i < b->n; i++) {
		struct imported_rec rec;
		long before = res->samples;

		if ((rc = is_duplicate(s, b, i)) < 0)
			goto out;
		if (rc == 1) {
			res->skipped++;
			continue;
		}
		if (import_replay(&im, &b->in[i]) < 0)
			goto out;
		rec.sha256 = b->in[i].sha256;
		rec.name = b->in[i].path;
		rec.kind = import_kind_names[im.kind];
		rec.run_uuid = im.kind == KIND_EXPORT ? NULL :
			       im.kind == KIND_BENCH || im.kind == KIND_SPEED ? im.file_uuid :
			       im.run.uuid;
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
	res->kind = b->kind;
	ret = 0;
out:
	if (ret < 0)
		memset(res, 0, sizeof(*res));
	importer_release(&im);
	return ret;
}
