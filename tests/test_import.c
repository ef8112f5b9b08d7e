/* test_import.c: `tpsdb import` over recorded llama-server and llama-bench output
 * (tests/data/import/) and one-edit broken copies of it (tests/data/import-bad/).
 * A bad input is one error line, exit 3, and a store exactly as before, including a
 * run imported earlier; good inputs get the right repetitions and quality flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "collect/import_int.h"
#include "schema/record_json.h"
#include "schema/store_int.h"
#include "tests/db_scalar.h"
#include "tpsdb.h"

int cmd_import(int argc, char **argv, struct tps_ctx *ctx);

struct fixture {
	struct store *s;
	char err[4096]; /* what the last import printed on stderr */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || !(f->s = store_open(":memory:", 0)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	store_close(f->s);
	free(f);
	return 0;
}

static char *data_path(const char *rel)
{
	const char *dir = getenv("TPSDB_TEST_DATA");
	return tps_xasprintf("%s/%s", dir ? dir : "tests/data", rel);
}

/* Runs `tpsdb import <args...>` (NULL-terminated, "@x" is tests/data/x) on the
 * fixture's store; returns the exit code and keeps stderr in f->err. */
static int run_import(struct fixture *f, const char *const *args)
{
	char *argv[32];
	int argc = 0, rc, saved, i;
	FILE *tmp = tmpfile();
	struct tps_ctx ctx = { .db_path = ":memory:", .store = f->s };
	size_t n;

	assert_non_null(tmp);
	argv[argc++] = tps_xstrdup("import");
	for (i = 0; args[i]; i++)
		argv[argc++] = args[i][0] == '@' ? data_path(args[i] + 1) : tps_xstrdup(args[i]);
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	optind = 0;
	rc = cmd_import(argc, argv, &ctx);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(f->err, 1, sizeof(f->err) - 1, tmp);
	f->err[n] = '\0';
	fclose(tmp);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	return rc;
}

static int64_t scalar(struct store *s, const char *sql)
{
	return db_scalar(store_db(s), sql);
}

static void exec_sql(struct store *s, const char *sql)
{
	assert_int_equal(sqlite3_exec(store_db(s), sql, NULL, NULL, NULL), SQLITE_OK);
}

/* The first column of the first row as text, "NULL" for SQL NULL; caller frees. */
static char *text(struct store *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;

	assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = tps_xstrdup(sqlite3_column_text(st, 0) ?
				(const char *)sqlite3_column_text(st, 0) : "NULL");
	sqlite3_finalize(st);
	assert_non_null(v);
	return v;
}

static void assert_text(struct store *s, const char *sql, const char *want)
{
	char *got = text(s, sql);
	if (strcmp(got, want))
		fail_msg("%s: got '%s', want '%s'", sql, got, want);
	free(got);
}

/* The flags of every sample, in insertion order, e.g. "16,0,0". */
#define FLAGS_SQL "SELECT coalesce(group_concat(flags, ','), '') FROM (SELECT flags FROM sample ORDER BY id)"

static int append_line(const struct run_rec *r, const struct sample_rec *smp, size_t n,
		       void *arg)
{
	char **all = arg, *line = record_json_write(r, smp, n), *more;

	if (!line)
		return -1;
	more = tps_xasprintf("%s%s\n", *all, line);
	free(*all);
	free(line);
	*all = more;
	return 0;
}

/* Everything the store holds that an import touches, as one string. */
static char *snapshot(struct store *s)
{
	char *all = tps_xstrdup(""), *more;

	assert_int_equal(store_runs_foreach(s, NULL, append_line, &all), 0);
	more = tps_xasprintf("%s runs=%lld samples=%lld hosts=%lld engines=%lld models=%lld "
			     "prompts=%lld", all, (long long)scalar(s, "SELECT count(*) FROM run"),
			     (long long)scalar(s, "SELECT count(*) FROM sample"),
			     (long long)scalar(s, "SELECT count(*) FROM host"),
			     (long long)scalar(s, "SELECT count(*) FROM engine"),
			     (long long)scalar(s, "SELECT count(*) FROM model"),
			     (long long)scalar(s, "SELECT count(*) FROM prompt"));
	free(all);
	return more;
}

struct bad_case {
	const char *args[6];
	const char *why; /* a substring of the one error line */
};

static const struct bad_case bad_cases[] = {
	{ { "@import-bad/malformed.json" }, "not valid JSON" },
	{ { "@import-bad/missing-timings.json" }, "no 'timings' block" },
	{ { "@import-bad/error-response.json" }, "the server answered an error: Failed to load model" },
	{ { "@import-bad/timings-not-object.json" }, "'timings' is not an object" },
	{ { "@import-bad/timings-null.json" }, "'timings' is not an object" },
	{ { "@import-bad/string-number.json" }, "'prompt_n' is not a number" },
	{ { "@import-bad/negative.json" }, "'predicted_ms' is negative" },
	{ { "@import-bad/huge.json" }, "'prompt_ms' is absurd" },
	{ { "@import-bad/infinite.json" }, "'prompt_ms' is negative or not finite" },
	{ { "@import-bad/absurd-rate.json" }, "'predicted_per_second' is absurd" },
	{ { "@import-bad/draft-exceeds.json" }, "'draft_n_accepted' (12) exceeds 'draft_n' (10)" },
	{ { "@import-bad/non-integer-count.json" }, "'predicted_n' is not a whole number" },
	{ { "@import-bad/no-rates.json" }, "neither prompt_per_second nor predicted_per_second" },
	{ { "@import-bad/empty.json" }, "holds no results" },
	{ { "@import-bad/blank.jsonl" }, "holds no results" },
	{ { "@import-bad/not-object.json" }, "not a JSON object" },
	{ { "@import-bad/mixed-kinds.jsonl" }, ":2: mixes llama-bench with responses" },
	{ { "--prompt", "p", "@import-bad/mixed-endpoints.jsonl" }, ":2: mixes /completion and /v1/chat/completions" },
	{ { "@import-bad/bad-line.jsonl" }, "bad-line.jsonl:2: not valid JSON (RFC 8259)" },
	{ { "@import/chat.json" }, "does not echo its prompt: name it with --prompt" },
	{ { "@import-bad/bench-bad-ts.jsonl" }, ":2: a 'samples_ts', 'samples_ns' or 'avg_ts' value" },
	{ { "@import-bad/bench-inf-count.jsonl" }, ":2: 'n_prompt', 'n_gen' or 'n_depth' is out of range" },
	{ { "@import-bad/bench-string-ts.jsonl" }, "a 'samples_ts', 'samples_ns' or 'avg_ts' value" },
	{ { "@import-bad/bench-two-models.jsonl" }, ":2: llama-bench results for more than one model" },
	{ { "@import-bad/speed-bench-accepted.json" }, "speed-bench-accepted.json:1: speed-bench results[4]: 'draft_n_accepted' exceeds 'draft_n'" },
	{ { "@import-bad/speed-bench-turns.jsonl" }, "speed-bench-turns.jsonl:1: speed-bench results[0]: 'turns' is not a whole number above 0" },
	{ { "@speed-bench/plain-1.json", "@import/eos.json" }, "eos.json:1: mixes responses with speed-bench" },
	{ { "@import-bad/export-bad.jsonl" }, "'prompt_hash' is missing or malformed" },
	{ { "@import-bad/no-such-file.json" }, "cannot open" },
	/* tpsdb's own export lines meet the same rules, named by file and line (issue 12,
	 * defect 4): */
	{ { "@import-bad/export-rate.jsonl" }, "export-rate.jsonl:1: sample 1: 'predicted_per_second' is negative, not finite or above 1e+07" },
	{ { "@import-bad/export-count.jsonl" }, "export-count.jsonl:1: sample 1: 'prompt_n' is negative" },
	{ { "@import-bad/export-draft.jsonl" }, "export-draft.jsonl:1: sample 1: 'draft_n_accepted' (12) exceeds 'draft_n' (10)" },
	{ { "@import-bad/export-nmax.jsonl" }, "export-nmax.jsonl:1: 'run.n_max' is below 1" },
	{ { "@import-bad/export-sha.jsonl" }, "export-sha.jsonl:1: 'model.sha256' is not 64 hex digits" },
	{ { "@import-bad/export-started.jsonl" }, "export-started.jsonl:1: 'run.started_at' is not an ISO 8601 time" },
	{ { "@import-bad/export-status.jsonl" }, "export-status.jsonl:1: 'run.status' is not running" },
	{ { "@import-bad/export-role.jsonl" }, "export-role.jsonl:1: 'engine.role' is not ours" },
	{ { "@import-bad/export-rep.jsonl" }, "export-rep.jsonl:1: repetition 1 of prompt" },
	/* Numbers are range-checked before they are narrowed (issue 29, item 1): 2^32 + 8
	 * was stored as 8 (the failed bit), 2^40 as 0, null as 0, 2^32 + 1 as 1. */
	{ { "@import-bad/export-flags-wide.jsonl" }, "export-flags-wide.jsonl:1: a sample's 'flags' is out of range (4294967304)" },
	{ { "@import-bad/export-flags-2p40.jsonl" }, "export-flags-2p40.jsonl:1: a sample's 'flags' is out of range (1099511627776)" },
	{ { "@import-bad/export-flags-null.jsonl" }, "export-flags-null.jsonl:1: a sample's 'flags' is null" },
	{ { "@import-bad/export-env-flags-null.jsonl" }, "export-env-flags-null.jsonl:1: 'run.env_flags' is null" },
	{ { "@import-bad/export-ignore-eos-wide.jsonl" }, "export-ignore-eos-wide.jsonl:1: 'run.ignore_eos' is not 0 or 1" },
	{ { "@import-bad/bench-negative-size.jsonl" }, "bench-negative-size.jsonl:1: 'model_size' is negative or out of range" },
	/* Strict JSON (RFC 8259), whatever the format: */
	{ { "@import-bad/export-leading-zero.jsonl" }, "export-leading-zero.jsonl:1: not valid JSON (RFC 8259): leading zero in a number" },
	{ { "@import-bad/leading-zero.json" }, "leading-zero.json:1: not valid JSON (RFC 8259): leading zero in a number" },
	{ { "@import-bad/nul-key.json" }, "nul-key.json:1: not valid JSON (RFC 8259): NUL byte in a string" },
	{ { "@import-bad/bad-utf8.json" }, "bad-utf8.json:1: not valid JSON (RFC 8259): invalid UTF-8 in a string" },
	{ { "@import-bad/lone-surrogate.json" }, "lone-surrogate.json:1: not valid JSON (RFC 8259): lone surrogate in a string" },
	{ { "@import-bad/trailing.json" }, "trailing.json:1: not valid JSON (RFC 8259): text after the value" },
	/* Strict input, round 3: RFC white space only, one key once, NUL in no text
	 * format, whole counts. */
	{ { "@import-bad/formfeed.json" }, "formfeed.json:1: not valid JSON (RFC 8259): white space other than space, tab, LF or CR at byte 1" },
	{ { "@import-bad/vtab-line.jsonl" }, "vtab-line.jsonl:2: not valid JSON (RFC 8259): unexpected character at byte 1" },
	{ { "@import-bad/dup-timings.json" }, "dup-timings.json:1: not valid JSON (RFC 8259): duplicate key in an object" },
	{ { "@import-bad/bench-nul.csv" }, "bench-nul.csv:2: not a readable llama-bench csv or sql file: a NUL byte" },
	{ { "@import-bad/bench-nul.sql" }, "bench-nul.sql:45: not a readable llama-bench csv or sql file: a NUL byte" },
	{ { "@import-bad/bench-frac.jsonl" }, "bench-frac.jsonl:1: 'n_prompt', 'n_gen' or 'n_depth' is not a whole number" },
	{ { "@import-bad/bench-frac.csv" }, "bench-frac.csv:2: 'n_prompt', 'n_gen' or 'n_depth' is not a whole number" },
	{ { "@import-bad/bench-frac-params.jsonl" }, "bench-frac-params.jsonl:1: 'model_n_params' is not a whole number" },
	/* UTF-8 at ingest: labels, tags, hosts and notes (issue 12, defect 7). */
	{ { "--engine", "e\xff", "@import/eos.json" }, "--engine is not valid UTF-8" },
	{ { "--tag", "\xc3\x28", "@import/eos.json" }, "--tag is not valid UTF-8" },
	{ { "--host", "\xed\xa0\x80", "@import/eos.json" }, "--host is not valid UTF-8" },
	{ { "--notes", "\xc0\xaf", "@import/eos.json" }, "--notes is not valid UTF-8" },
	/* Size limits: "too large", not "not valid JSON" (issue 12, defect 9). */
	{ { "--max-bytes", "100", "@import/eos.json" }, "eos.json: too large: " },
	{ { "--max-bytes", "100", "/dev/zero" }, "/dev/zero: too large: more than 100 bytes" },
	/* A good file before a bad one: neither lands. */
	{ { "@import/completion.json", "@import-bad/negative.json" }, "negative" },
	{ { "@import/eos.json", "@import-bad/mixed-kinds.jsonl" }, "mixes llama-bench" },
};

static void test_import_bad_inputs_change_nothing(void **state)
{
	struct fixture *f = *state;
	const char *const first[] = { "--engine", "ours", "--host", "a", "@import/completion.json", NULL };
	char *before, *after;
	size_t i;

	/* A run imported before the bad ones must survive each of them intact. */
	assert_int_equal(run_import(f, first), TPS_EXIT_OK);
	before = snapshot(f->s);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM sample"), 1);
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		int rc = run_import(f, c->args);
		char *nl = strchr(f->err, '\n');

		if (rc != TPS_EXIT_ERROR)
			fail_msg("case %zu (%s): exit %d, want 3", i, c->args[0], rc);
		if (strncmp(f->err, "tpsdb: error: ", 14) || !nl || nl[1] != '\0')
			fail_msg("case %zu (%s): not one error line: '%s'", i, c->args[0], f->err);
		if (!strstr(f->err, c->why))
			fail_msg("case %zu (%s): '%s' does not say '%s'", i, c->args[0], f->err,
				 c->why);
		after = snapshot(f->s);
		if (strcmp(before, after))
			fail_msg("case %zu (%s) changed the store", i, c->args[0]);
		free(after);
	}
	free(before);
}

static void test_import_usage_errors(void **state)
{
	struct fixture *f = *state;
	static const char *const cases[][4] = {
		{ "--n-predict", "many", "@import/eos.json", NULL },
		{ "--warmup", "-1", "@import/eos.json", NULL },
		{ "--model-sha256", "XYZ", "@import/eos.json", NULL },
		{ "--role", "boss", "@import/eos.json", NULL },
		{ "--no-such-option", "@import/eos.json", NULL, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(run_import(f, cases[i]), TPS_EXIT_USAGE);
		assert_non_null(strstr(f->err, "tpsdb: error: "));
		assert_non_null(strstr(f->err, "see 'tpsdb import --help'"));
	}
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run"), 0);
}

static void test_import_repetitions(void **state)
{
	struct fixture *f = *state;
	const char *const args[] = { "--engine", "ours", "--role", "ours", "--model", "q35",
		"@import/completion.json", "@import/completion-reps.jsonl", NULL };
	const char *const dup[] = { "--allow-duplicate", "--engine", "ours", "--role", "ours",
		"--model", "q35", "@import/completion.json", "@import/completion-reps.jsonl", NULL };

	assert_int_equal(run_import(f, args), TPS_EXIT_OK);
	/* One prompt, four responses: repetitions 1..4, in the order they came. */
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM prompt"), 1);
	assert_text(f->s, "SELECT group_concat(rep) FROM (SELECT rep FROM sample ORDER BY id)",
		    "1,2,3,4");
	assert_text(f->s, "SELECT group_concat(seq) FROM (SELECT seq FROM sample ORDER BY id)",
		    "0,1,2,3");
	assert_text(f->s, "SELECT n_tokens FROM prompt", "1802");
	/* The run's config comes from generation_settings. */
	assert_text(f->s, "SELECT n_predict || ' ' || ignore_eos || ' ' || temperature || ' ' || "
		    "seed || ' ' || status || ' ' || endpoint FROM run",
		    "512 1 0.0 42 complete completion");
	assert_int_equal(scalar(f->s, "SELECT length(prompt_set) FROM run"), 64);
	assert_text(f->s, "SELECT e.label || '/' || e.role || ' ' || m.label || ' ' || m.file "
		    "FROM run r JOIN engine e ON e.id=r.engine_id JOIN model m ON m.id=r.model_id",
		    "ours/ours q35 tiny.gguf");
	/* The same bytes again are skipped with a warning, exit 0 (issue 12, defect 6)... */
	assert_int_equal(run_import(f, args), TPS_EXIT_OK);
	assert_non_null(strstr(f->err, "tpsdb: warning: "));
	assert_non_null(strstr(f->err, "already imported on "));
	assert_non_null(strstr(f->err, "(--allow-duplicate imports it again)"));
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run"), 1);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM imported_file"), 2);
	/* ...unless --allow-duplicate: a second run, with its own repetition count. */
	assert_int_equal(run_import(f, dup), TPS_EXIT_OK);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run"), 2);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM imported_file"), 4);
	assert_int_equal(scalar(f->s, "SELECT max(rep) FROM sample"), 4);
}

/* The writing pass replays what the checking pass kept: with the first file
 * skipped as a duplicate, the run comes from the next file and its repetitions
 * and seq count from 1 and 0 again, as if the skipped file had never been given. */
static void test_import_skip_replays(void **state)
{
	struct fixture *f = *state;
	const char *const first[] = { "--engine", "ours", "--model", "q35",
		"@import/completion.json", NULL };
	const char *const both[] = { "--engine", "ours", "--model", "q35",
		"@import/completion.json", "@import/completion-reps.jsonl", NULL };

	assert_int_equal(run_import(f, first), TPS_EXIT_OK);
	assert_int_equal(run_import(f, both), TPS_EXIT_OK);
	assert_non_null(strstr(f->err, "already imported on "));
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run"), 2);
	assert_text(f->s, "SELECT group_concat(rep) FROM (SELECT rep FROM sample WHERE run_id = "
		    "(SELECT max(id) FROM run) ORDER BY id)", "1,2,3");
	assert_text(f->s, "SELECT group_concat(seq) FROM (SELECT seq FROM sample WHERE run_id = "
		    "(SELECT max(id) FROM run) ORDER BY id)", "0,1,2");
	/* The new run's row is its own: made from the first file it imported. */
	assert_text(f->s, "SELECT count(DISTINCT uuid) FROM run", "2");
	assert_text(f->s, "SELECT samples FROM imported_file ORDER BY id DESC LIMIT 1", "3");
}

/* Each input is parsed once: once import_read() has checked a batch, its bytes are
 * gone and the records it kept are all import_write() has to store. */
static void test_import_parses_once(void **state)
{
	struct fixture *f = *state;
	char *files[3] = { data_path("import/completion-reps.jsonl"),
			   data_path("import/llama-bench.json"), data_path("import/eos.json") };
	struct import_result res;
	struct import_opts o;
	struct import_batch *b;
	int i;

	import_opts_init(&o);
	o.engine = "ours";
	/* Two kinds cannot share one import: responses, then llama-bench alone. */
	b = import_read(&o, files, 1);
	assert_non_null(b);
	assert_null(b->in[0].buf);
	assert_int_equal(b->in[0].nrecs, 3);
	assert_int_equal(import_write(f->s, b, &res), 0);
	assert_int_equal(res.samples, 3);
	import_batch_free(b);
	b = import_read(&o, files + 1, 1);
	assert_non_null(b);
	assert_null(b->in[0].buf);
	assert_true(b->in[0].nrecs > 0 && b->in[0].ntrees == 1);
	assert_int_equal(import_write(f->s, b, &res), 0);
	assert_true(res.samples > 0);
	import_batch_free(b);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM sample"), 3 + res.samples);
	for (i = 0; i < 3; i++)
		free(files[i]);
}

/* What an import stored, without what differs between two imports of the same
 * input (uuids, times): every sample's columns, the runs' settings, the files'
 * hashes and sizes; caller frees. */
static char *stored(struct store *s)
{
	char *a = text(s, "SELECT group_concat(x, '|') FROM (SELECT quote(prompt_id) || ',' || "
			  "quote(rep) || ',' || quote(seq) || ',' || quote(cache_n) || ',' || "
			  "quote(prompt_n) || ',' || quote(prompt_ms) || ',' || "
			  "quote(prompt_per_second) || ',' || quote(predicted_n) || ',' || "
			  "quote(predicted_ms) || ',' || quote(predicted_per_second) || ',' || "
			  "quote(draft_n) || ',' || quote(draft_n_accepted) || ',' || quote(wall_ms) "
			  "|| ',' || quote(http_status) || ',' || quote(error) || ',' || "
			  "quote(stop_type) || ',' || quote(output_hash) || ',' || quote(timings) || "
			  "',' || quote(flags) AS x FROM sample ORDER BY id)");
	char *b = text(s, "SELECT group_concat(x, '|') FROM (SELECT quote(status) || ',' || "
			  "quote(n_predict) || ',' || quote(spec_type) || ',' || quote(n_max) || "
			  "',' || quote(warmup) || ',' || quote(prompt_set) || ',' || quote(config) "
			  "AS x FROM run ORDER BY id)");
	char *c = text(s, "SELECT group_concat(x, '|') FROM (SELECT quote(sha256) || ',' || "
			  "quote(name) || ',' || quote(bytes) || ',' || quote(kind) || ',' || "
			  "quote(samples) AS x FROM imported_file ORDER BY id)");
	char *all = tps_xasprintf("%s\n%s\n%s", a, b, c);

	free(a);
	free(b);
	free(c);
	return all;
}

/* JSONL is read a piece at a time, every other input whole: with pieces of 1, 2,
 * 7, 64 and 300 bytes (lines cut at every offset, CRLF split, a line longer than
 * the piece) every file of tests/data/import and tests/data/import-bad stores
 * the same rows, or fails with the same error line and exit code, as when read
 * in one piece; and a JSONL file read in pieces holds a tenth of its size at most. */
static void test_import_streams_as_whole(void **state)
{
	static const char *const files[] = {
		"import/completion-reps.jsonl", "import/spec.jsonl", "import/llama-bench.jsonl",
		"import/llama-bench.json", "import/completion.json", "import/chat.json",
		"import/eos.json", "import-bad/bad-line.jsonl", "import-bad/blank.jsonl",
		"import-bad/vtab-line.jsonl", "import-bad/mixed-endpoints.jsonl",
		"import-bad/mixed-kinds.jsonl", "import-bad/good-export.jsonl",
		"import-bad/export-bad.jsonl", "import-bad/export-rep.jsonl",
		"import-bad/bench-two-models.jsonl", "import-bad/malformed.json",
		"import-bad/trailing.json", "import-bad/formfeed.json",
		"import-bad/good-bench-pg.jsonl", "import-bad/bench-frac.csv",
	};
	static const size_t chunks[] = { 1, 2, 7, 64, 300 };
	struct fixture *f = *state;
	size_t i, k;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char at[300];
		const char *const args[] = { "--engine", "ours", "--host", "a", at, NULL };
		char *want, *want_err, *got;
		int want_rc, rc;

		snprintf(at, sizeof(at), "@%s", files[i]);
		store_close(f->s);
		assert_non_null(f->s = store_open(":memory:", 0));
		import_chunk_bytes = IMPORT_READ_CHUNK;
		want_rc = run_import(f, args);
		want = stored(f->s);
		want_err = tps_xstrdup(f->err);
		for (k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
			store_close(f->s);
			assert_non_null(f->s = store_open(":memory:", 0));
			import_chunk_bytes = chunks[k];
			rc = run_import(f, args);
			got = stored(f->s);
			if (rc != want_rc || strcmp(got, want) || strcmp(f->err, want_err))
				fail_msg("%s in pieces of %zu: exit %d, '%s'; whole: exit %d, '%s'",
					 files[i], chunks[k], rc, f->err, want_rc, want_err);
			free(got);
		}
		free(want);
		free(want_err);
	}
	import_chunk_bytes = IMPORT_READ_CHUNK;

	/* The memory: twenty copies of completion-reps.jsonl's lines (60 responses of
	 * about 12 kB) read in pieces of 4 kB hold a line or two, not the file. */
	{
		char *src = data_path("import/completion-reps.jsonl"), *line = NULL;
		char path[] = "/tmp/tpsdb-test-stream-XXXXXX";
		char *paths[1] = { path };
		struct import_opts o;
		struct import_batch *b;
		size_t cap = 0, size = 0;
		ssize_t n;
		int fd = mkstemp(path), rep;
		FILE *in, *out;

		assert_true(fd >= 0);
		assert_non_null(out = fdopen(fd, "wb"));
		for (rep = 0; rep < 20; rep++) {
			assert_non_null(in = fopen(src, "rb"));
			while ((n = getline(&line, &cap, in)) > 0) {
				fwrite(line, 1, (size_t)n, out);
				size += (size_t)n;
			}
			fclose(in);
		}
		fclose(out);
		free(line);
		import_opts_init(&o);
		o.engine = "ours";
		import_chunk_bytes = 4096;
		b = import_read(&o, paths, 1);
		import_chunk_bytes = IMPORT_READ_CHUNK;
		assert_non_null(b);
		assert_int_equal(b->in[0].len, size);
		assert_int_equal(b->in[0].nrecs, 60);
		if (b->in[0].peak * 10 > size)
			fail_msg("held %zu bytes at once of a %zu-byte file", b->in[0].peak, size);
		import_batch_free(b);
		/* Read whole, the file is held whole. */
		b = import_read(&o, paths, 1);
		assert_non_null(b);
		assert_true(b->in[0].peak >= size);
		import_batch_free(b);
		unlink(path);
		free(src);
	}
}

static void test_import_cold_start(void **state)
{
	struct fixture *f = *state;
	const char *const w0[] = { "--warmup", "0", "@import/completion-reps.jsonl", NULL };
	const char *const w1[] = { "--allow-duplicate", "--warmup", "1", "@import/completion-reps.jsonl", NULL };
	const char *const dflt[] = { "@import/completion.json", NULL };

	assert_int_equal(run_import(f, w0), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "16,0,0"); /* SAMPLE_COLD on the first only */
	exec_sql(f->s, "DELETE FROM sample");
	assert_int_equal(run_import(f, w1), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "0,0,0");
	assert_text(f->s, "SELECT group_concat(seq) FROM (SELECT seq FROM sample ORDER BY id)",
		    "1,2,3");
	exec_sql(f->s, "DELETE FROM sample");
	assert_int_equal(run_import(f, dflt), TPS_EXIT_OK); /* no --warmup: 0 */
	assert_text(f->s, FLAGS_SQL, "16");
}

static void test_import_truncated(void **state)
{
	struct fixture *f = *state;
	const char *const eos[] = { "--warmup", "1", "@import/eos.json", NULL };
	const char *const eos_unknown[] = { "--warmup", "1",
		"@import-bad/good-eos-unknown-n-predict.json", NULL };
	const char *const full[] = { "--warmup", "1", "@import/completion.json", NULL };
	const char *const asked_more[] = { "--allow-duplicate", "--warmup", "1", "--n-predict", "1024",
		"@import/completion.json", NULL };

	/* predicted_n 4 < n_predict 32 (and a 6-token prompt). */
	assert_int_equal(run_import(f, eos), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "5"); /* TRUNCATED | SHORT_PROMPT */
	assert_text(f->s, "SELECT stop_type FROM sample", "eos");
	exec_sql(f->s, "DELETE FROM sample");
	/* No n_predict to compare with: the EOS stop alone says truncated. */
	assert_int_equal(run_import(f, eos_unknown), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "5");
	assert_text(f->s, "SELECT coalesce(n_predict, 'NULL') FROM run ORDER BY id DESC LIMIT 1",
		    "NULL");
	exec_sql(f->s, "DELETE FROM sample");
	/* 512 of 512 with stop "limit" is whole... */
	assert_int_equal(run_import(f, full), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "0");
	exec_sql(f->s, "DELETE FROM sample");
	/* ...unless more was asked for. */
	assert_int_equal(run_import(f, asked_more), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "1");
}

static void test_import_cache_and_short_prompt(void **state)
{
	struct fixture *f = *state;
	const char *const cached[] = { "--warmup", "1", "@import-bad/good-cached.json", NULL };

	assert_int_equal(run_import(f, cached), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "2"); /* SAMPLE_CACHED, prompt_n 1802 is not short */
	assert_text(f->s, "SELECT cache_n FROM sample", "1712");
}

static void test_import_llama_bench(void **state)
{
	struct fixture *f = *state;
	const char *const json[] = { "--host", "h", "@import/llama-bench.json", NULL };
	const char *const jsonl[] = { "--host", "h", "@import/llama-bench.jsonl", NULL };
	const char *const pg[] = { "@import-bad/good-bench-pg.jsonl", NULL };

	assert_int_equal(run_import(f, json), TPS_EXIT_OK);
	assert_int_equal(run_import(f, jsonl), TPS_EXIT_OK);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM sample"), 12);
	/* One run per test (configuration): pp512 and tg128 of each file. */
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run"), 4);
	assert_text(f->s, "SELECT group_concat(x, ' ') FROM (SELECT p.name || '#' || s.rep AS x "
		    "FROM sample s JOIN prompt p ON p.id=s.prompt_id WHERE s.run_id=1 ORDER BY s.id)",
		    "pp512#1 pp512#2 pp512#3");
	assert_text(f->s, "SELECT group_concat(x, ' ') FROM (SELECT p.name || '#' || s.rep AS x "
		    "FROM sample s JOIN prompt p ON p.id=s.prompt_id WHERE s.run_id=2 ORDER BY s.id)",
		    "tg128#1 tg128#2 tg128#3");
	assert_text(f->s, FLAGS_SQL, "0,0,0,0,0,0,0,0,0,0,0,0");
	assert_text(f->s, "SELECT e.version || ' ' || r.source || ' ' || r.endpoint || ' ' || "
		    "m.label FROM run r JOIN engine e ON e.id=r.engine_id "
		    "JOIN model m ON m.id=r.model_id WHERE r.id=1",
		    "b1-80fb11a llama-bench llama-bench tiny");
	assert_text(f->s, "SELECT prompt_n || ' ' || prompt_per_second FROM sample WHERE id=2",
		    "512 119313.0");
	assert_text(f->s, "SELECT coalesce(prompt_n, '-') || ' ' || predicted_n FROM sample "
		    "WHERE id=4", "- 128");
	/* A combined pp+tg test has no prefill or decode rate of its own: failed. */
	exec_sql(f->s, "DELETE FROM sample");
	assert_int_equal(run_import(f, pg), TPS_EXIT_OK);
	assert_text(f->s, FLAGS_SQL, "8,8,8"); /* SAMPLE_FAILED */
	assert_text(f->s, "SELECT DISTINCT p.name FROM sample s JOIN prompt p ON p.id=s.prompt_id",
		    "pp512+tg128");
}

/* The same real llama-bench run (-fa 0,1 -p 64,128 -n 16 -d 0,512 -r 3) in each of
 * its formats: one run per configuration, the depth, build, test_time, host and
 * model kept; csv and sql hold averages, stored as one aggregate-only sample. */
static void check_bench_file(struct fixture *f, const char *file, int per_rep)
{
	const char *const args[] = { "--engine", "lb", file, NULL };

	exec_sql(f->s, "DELETE FROM sample; DELETE FROM run; DELETE FROM imported_file");
	assert_int_equal(run_import(f, args), TPS_EXIT_OK);
	/* 2 fa x (2 pp + 1 tg) x 2 depths. */
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run"), 12);
	assert_int_equal(scalar(f->s, "SELECT count(DISTINCT config) FROM run"), 12);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM sample"), per_rep ? 36 : 12);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run WHERE config LIKE "
				      "'pp64@d512 fa=1 ngl=-1 b=2048 ub=512 ctk=f16 ctv=f16 t=1 "
				      "sm=layer nkvo=0 backend=CPU'"), 1);
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM sample s JOIN prompt p ON "
				      "p.id=s.prompt_id WHERE p.name='tg16@d512'"), per_rep ? 6 : 2);
	assert_text(f->s, "SELECT DISTINCT e.version FROM run r JOIN engine e ON "
		    "e.id=r.engine_id", "b1-80fb11a");
	assert_text(f->s, "SELECT DISTINCT r.cpu || '|' || r.model_type || '|' || "
		    "r.model_n_params || '|' || m.bytes || '|' || m.file FROM run r "
		    "JOIN model m ON m.id=r.model_id",
		    "Intel(R) Xeon(R) Processor|llama ?B F16|4178240|8357120|tiny.gguf");
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run WHERE started_at NOT LIKE "
				      "'2026-11-30T18:28:2_Z'"), 0);
	/* pp64 is a declared test: not short-prompt; csv/sql: aggregate-only. */
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM sample WHERE flags != 0"),
			 per_rep ? 0 : 12);
	if (!per_rep) {
		assert_int_equal(scalar(f->s, "SELECT count(*) FROM sample WHERE flags = 32 "
					      "AND rep = 1 AND timings LIKE "
					      "'{\"llama_bench_avg_ts\":%,\"llama_bench_stddev_ts\":%}'"),
				 12);
	}
}

static void test_import_llama_bench_formats(void **state)
{
	struct fixture *f = *state;

	check_bench_file(f, "@llama-bench/lb.json", 1);
	check_bench_file(f, "@llama-bench/lb.jsonl", 1);
	check_bench_file(f, "@llama-bench/lb.csv", 0);
	check_bench_file(f, "@llama-bench/lb.sql", 0);
}

/* -o md, and text that is no format at all: refused, the formats named. */
static void test_import_llama_bench_refused(void **state)
{
	struct fixture *f = *state;
	const char *const md[] = { "@llama-bench/lb.md", NULL };
	const char *const other[] = { "@llama-bench/README.md", NULL };

	assert_int_equal(run_import(f, md), TPS_EXIT_ERROR);
	assert_non_null(strstr(f->err, "lb.md: a markdown table (llama-bench -o md) is not "
				       "importable: import reads tpsdb export JSONL, llama-server "
				       "responses (JSON or JSONL), llama-bench -o json, -o jsonl, "
				       "-o csv or -o sql, speed_bench.py --output; nothing was "
				       "imported"));
	assert_int_equal(run_import(f, other), TPS_EXIT_ERROR);
	assert_non_null(strstr(f->err, "not a format import reads (tpsdb export JSONL"));
	assert_int_equal(scalar(f->s, "SELECT count(*) FROM run"), 0);
}

static void test_import_spec_and_chat(void **state)
{
	struct fixture *f = *state;
	const char *const spec[] = { "--spec-type", "draft-simple", "--n-max", "8",
		"@import/spec.jsonl", NULL };
	const char *const chat[] = { "--prompt", "fox-150", "@import/chat.json", NULL };

	assert_int_equal(run_import(f, spec), TPS_EXIT_OK);
	assert_text(f->s, "SELECT group_concat(draft_n || '/' || draft_n_accepted) FROM sample",
		    "468/452,468/452");
	assert_text(f->s, "SELECT spec_type || ' ' || n_max FROM run", "draft-simple 8");
	assert_int_equal(run_import(f, chat), TPS_EXIT_OK);
	assert_text(f->s, "SELECT r.endpoint || ' ' || p.name || ' ' || s.stop_type || ' ' || "
		    "s.prompt_n FROM sample s JOIN run r ON r.id=s.run_id JOIN prompt p ON "
		    "p.id=s.prompt_id WHERE r.id=2", "chat fox-150 limit 1828");
}

static void test_import_export_restores(void **state)
{
	struct fixture *f = *state;
	const char *const args[] = { "--tag", "a,b \"c\"", "@import/completion.json",
		"@import/completion-reps.jsonl", NULL };
	char *before, *after, path[] = "/tmp/tpsdb-export-XXXXXX";
	const char *again[] = { path, NULL };
	FILE *fp;
	int fd;

	assert_int_equal(run_import(f, args), TPS_EXIT_OK);
	before = snapshot(f->s);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	{
		char *all = tps_xstrdup("");
		assert_int_equal(store_runs_foreach(f->s, NULL, append_line, &all), 0);
		fputs(all, fp);
		free(all);
	}
	fclose(fp);
	/* Already present: skipped, nothing changes. */
	assert_int_equal(run_import(f, again), TPS_EXIT_OK);
	after = snapshot(f->s);
	assert_string_equal(before, after);
	free(after);
	/* Into an empty store: the same runs, byte for byte. */
	store_close(f->s);
	f->s = store_open(":memory:", 0);
	assert_int_equal(run_import(f, again), TPS_EXIT_OK);
	after = snapshot(f->s);
	assert_string_equal(before, after);
	free(after);
	free(before);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_import_bad_inputs_change_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_usage_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_repetitions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_skip_replays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_parses_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_streams_as_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_cold_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_cache_and_short_prompt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_llama_bench, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_llama_bench_formats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_llama_bench_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_spec_and_chat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_export_restores, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
