/* test_rate.c: the one definition of a sample's rates (schema/record.h
 * record_rate()): tokens over the engine's time, n / ms * 1000, the reported rate
 * only where the counts cannot give one. Checked on real answers of two llama.cpp
 * servers whose self-reported decode rates differ in definition
 * (tests/data/versions/README.md), and through the store, where ingest fills
 * sample.pp_rate and tg_rate with it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/response.h"
#include "schema/record_check.h"
#include "schema/store_int.h"
#include "tpsdb.h"

/* Which rate comes out: the counts', the reported one, or none. */
static void test_rate_rule(void **state)
{
	static const struct {
		int64_t n;
		double ms, reported;
		unsigned flags;
		double want;
	} cases[] = {
		{ 128, 166.805, 761.3680645064596, 0, 128 / 166.805 * 1000.0 },
		{ 128, 200, 640, SAMPLE_CACHED | SAMPLE_COLD, 640 },  /* other flags: counts */
		{ TPS_NULL, 200, 635, 0, 635 },                      /* no count */
		{ 0, 200, 0, 0, 0 },                                 /* nothing generated */
		{ 128, 0, 700, 0, 700 },                             /* no time */
		{ 128, NAN, 700, 0, 700 },
		{ -5, 200, 700, 0, 700 },
		{ 128, 200, NAN, 0, 640 },                           /* counts alone suffice */
		{ TPS_NULL, NAN, NAN, 0, NAN },                      /* nothing known */
		/* An aggregate's rate is a mean of per-repetition rates, which no count
		 * over a mean time gives back: the reported one stays. */
		{ 128, 200, 650, SAMPLE_AGGREGATE, 650 },
		{ 128, 200, NAN, SAMPLE_AGGREGATE, NAN },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double got = record_rate(cases[i].n, cases[i].ms, cases[i].reported,
					 cases[i].flags);
		if (isnan(cases[i].want) ? !isnan(got) : got != cases[i].want)
			fail_msg("case %zu: got %.17g, want %.17g", i, got, cases[i].want);
	}
}

/* A count over a near-zero time is a damaged answer, not a fast one: refused by
 * the response reader and by the one validator, as an absurd reported rate is. */
static void test_rate_absurd(void **state)
{
	static const char body[] =
		"{\"content\":\"x\",\"timings\":{\"prompt_n\":600,\"prompt_ms\":1e-6,"
		"\"prompt_per_second\":5000,\"predicted_n\":4,\"predicted_ms\":8,"
		"\"predicted_per_second\":500}}";
	struct response r;
	char err[256];

	(void)state;
	response_init(&r);
	assert_int_equal(response_parse(body, strlen(body), &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gives a rate above"));
	response_release(&r);

	response_init(&r);
	r.sample.prompt_n = 600;
	r.sample.prompt_ms = 1e-6;
	r.sample.prompt_per_second = 5000;
	memset(r.sample.prompt_hash, 'a', 64);
	assert_int_equal(record_check_sample(&r.sample, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'prompt_n / prompt_ms'"));
	r.sample.prompt_ms = 60;
	assert_int_equal(record_check_sample(&r.sample, err, sizeof(err)), 0);
	response_release(&r);
}

/* The parsed answer of tests/data/versions/<name>; the caller releases it. */
static void parse_version(const char *name, struct response *r)
{
	const char *dir = getenv("TPSDB_TEST_DATA");
	char path[512], err[256];
	size_t len = 0;
	char *body;

	snprintf(path, sizeof(path), "%s/versions/%s", dir ? dir : "tests/data", name);
	body = tps_read_file(path, &len);
	assert_non_null(body);
	response_init(r);
	if (response_parse(body, len, r, err, sizeof(err)) < 0)
		fail_msg("%s: %s", name, err);
	free(body);
}

/* Real answers of llama.cpp v0.4.0 and b8390 to one request: each one's decode
 * is its predicted_n over its predicted_ms, exactly, while the servers' own
 * words differ: v0.4.0 says (n - 1) / ms, 127/128 of it at 128 tokens, b8390
 * says n / ms. Prefill is n / ms in both. */
static void test_rate_real_versions(void **state)
{
	static const struct {
		const char *file;
		double tg_said; /* reported decode over n / ms */
	} v[] = {
		{ "v0.4.0-completion.json", 127.0 / 128.0 },
		{ "b8390-completion.json", 1.0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct response r;
		const struct sample_rec *s = &r.sample;
		double tg, pp;

		parse_version(v[i].file, &r);
		assert_int_equal(s->predicted_n, 128);
		assert_true(s->prompt_n >= SAMPLE_MIN_PROMPT_N);
		tg = record_tg_rate(s);
		pp = record_pp_rate(s);
		assert_true(tg == (double)s->predicted_n / s->predicted_ms * 1000.0);
		assert_true(pp == (double)s->prompt_n / s->prompt_ms * 1000.0);
		/* The servers print 16 or 17 digits: the ratios hold to rounding. */
		if (fabs(s->predicted_per_second / tg - v[i].tg_said) > 1e-12)
			fail_msg("%s: reported decode / n over ms = %.17g, want %.17g", v[i].file,
				 s->predicted_per_second / tg, v[i].tg_said);
		assert_true(fabs(s->prompt_per_second / pp - 1.0) < 1e-12);
		response_release(&r);
	}
}

static double col(struct store *s, const char *sql, int64_t id)
{
	sqlite3_stmt *st = NULL;
	double v = NAN;

	assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Ingest stores the rates of the definition beside the reported ones, which stay
 * as they came; a sample without counts keeps its reported rate. */
static void test_rate_stored(void **state)
{
	static const char *const files[] = { "v0.4.0-completion.json", "b8390-completion.json" };
	struct store *s = store_open(":memory:", 0);
	struct run_rec run;
	struct sample_rec bare;
	int64_t run_id;
	size_t i;

	(void)state;
	assert_non_null(s);
	run_rec_init(&run);
	snprintf(run.uuid, sizeof(run.uuid), "00000000-0000-4000-8000-000000000950");
	assert_int_equal(store_begin(s), 0);
	assert_true((run_id = store_run_insert(s, &run)) > 0);
	for (i = 0; i < 2; i++) {
		struct response r;

		parse_version(files[i], &r);
		snprintf(r.sample.prompt_hash, sizeof(r.sample.prompt_hash), "%064zu", i);
		assert_int_equal(store_sample_insert(s, run_id, &r.sample), 0);
		assert_true(col(s, "SELECT tg_rate FROM sample WHERE id=?1", (int64_t)i + 1) ==
			    (double)r.sample.predicted_n / r.sample.predicted_ms * 1000.0);
		assert_true(col(s, "SELECT pp_rate FROM sample WHERE id=?1", (int64_t)i + 1) ==
			    (double)r.sample.prompt_n / r.sample.prompt_ms * 1000.0);
		assert_true(col(s, "SELECT predicted_per_second FROM sample WHERE id=?1",
				(int64_t)i + 1) == r.sample.predicted_per_second);
		response_release(&r);
	}
	sample_rec_init(&bare);
	snprintf(bare.prompt_hash, sizeof(bare.prompt_hash), "%064d", 7);
	bare.predicted_per_second = 123.25;
	bare.prompt_per_second = 4567.5;
	assert_int_equal(store_sample_insert(s, run_id, &bare), 0);
	assert_true(col(s, "SELECT tg_rate FROM sample WHERE id=?1", 3) == 123.25);
	assert_true(col(s, "SELECT pp_rate FROM sample WHERE id=?1", 3) == 4567.5);
	assert_int_equal(store_commit(s), 0);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_rule),
		cmocka_unit_test(test_rate_absurd),
		cmocka_unit_test(test_rate_real_versions),
		cmocka_unit_test(test_rate_stored),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
