/* test_stream.c: the reader of streamed answers on streams recorded from a real
 * llama-server (tests/data/stream/, README there says how): cut anywhere and
 * whatever its line ends (LF, CRLF, CR alone, a mix), the same sample; the text
 * hashed as the plain answer's; the client's clock from the arrival times it is
 * handed; and a clear error for a stream that breaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/stream.h"
#include "tpsdb.h"

static char *fixture(const char *name, size_t *len)
{
	const char *dir = getenv("TPSDB_TEST_DATA");
	char path[4096], *text;

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/stream/%s", dir, name);
	text = tps_read_file(path, len);
	assert_non_null(text);
	return text;
}

/* The events of text (each ends in a blank line), one per element; caller frees
 * the array, the pieces point into text. */
static size_t events(const char *text, const char **at, size_t *len, size_t max)
{
	const char *p = text, *e;
	size_t n = 0;

	while (*p && n < max && (e = strstr(p, "\n\n"))) {
		at[n] = p;
		len[n++] = (size_t)(e + 2 - p);
		p = e + 2;
	}
	return n;
}

/* Feeds event k of the stream at times[k]. */
static int run(const char *text, const double *times, size_t upto, struct response *r,
	       char *err, size_t errlen)
{
	const char *at[64];
	size_t len[64], n = events(text, at, len, 64), k;
	struct stream s;
	int rc;

	stream_init(&s);
	for (k = 0; k < n && k < upto; k++)
		stream_feed(&s, at[k], len[k], times[k]);
	rc = stream_finish(&s, 0, times[k - 1] + 1, r, err, errlen);
	stream_release(&s);
	return rc;
}

static void test_stream_completion_clock(void **state)
{
	char *text = fixture("completion.sse", NULL), *plain;
	double t[64];
	char err[256];
	struct response r, p;
	size_t k, n;

	(void)state;
	/* 16 token events, then the final one: one event every 10 ms from 10 ms. */
	for (k = 0; k < 64; k++)
		t[k] = 10.0 * (double)(k + 1);
	response_init(&r);
	assert_int_equal(run(text, t, 64, &r, err, sizeof(err)), 0);
	assert_int_equal(r.sample.predicted_n, 16);
	assert_string_equal(r.sample.stop_type, "limit");
	assert_non_null(r.sample.timings);
	assert_float_equal(r.sample.client_ttft_ms, 10, 1e-9);
	/* 15 tokens after the first over 150 ms. */
	assert_float_equal(r.sample.client_decode_per_second, 100, 1e-9);
	assert_float_equal(r.sample.client_e2e_ms, 171, 1e-9);
	/* The same text as the plain answer to the same request: the same hash. */
	plain = fixture("completion.json", &n);
	response_init(&p);
	assert_int_equal(response_parse(plain, n, &p, err, sizeof(err)), 0);
	assert_string_equal(r.sample.output_hash, p.sample.output_hash);
	assert_float_equal(r.sample.repeat_share, p.sample.repeat_share, 1e-12);
	response_release(&p);
	response_release(&r);
	free(plain);
	free(text);
}

/* Cut at every byte, CRLF line ends, pings: the same sample as whole. */
static void test_stream_cut_anywhere(void **state)
{
	char *text = fixture("completion.sse", NULL), err[256];
	struct strbuf crlf = { 0 };
	struct response whole, cut;
	struct stream s;
	size_t i;

	(void)state;
	stream_init(&s);
	stream_feed(&s, text, strlen(text), 5);
	response_init(&whole);
	assert_int_equal(stream_finish(&s, 0, 5, &whole, err, sizeof(err)), 0);
	/* Everything arrived at once: a time to the first token, no rate. */
	assert_float_equal(whole.sample.client_ttft_ms, 5, 1e-9);
	assert_true(isnan(whole.sample.client_decode_per_second));
	stream_release(&s);

	strbuf_put(&crlf, ":\r\n\r\n", 5);
	for (i = 0; text[i]; i++) {
		if (text[i] == '\n')
			strbuf_put(&crlf, "\r", 1);
		strbuf_put(&crlf, &text[i], 1);
	}
	stream_init(&s);
	for (i = 0; i < crlf.len; i++)
		stream_feed(&s, &crlf.p[i], 1, (double)i);
	response_init(&cut);
	assert_int_equal(stream_finish(&s, 0, (double)crlf.len, &cut, err, sizeof(err)), 0);
	assert_string_equal(cut.sample.output_hash, whole.sample.output_hash);
	assert_string_equal(cut.sample.timings, whole.sample.timings);
	assert_int_equal(s.tokens, 16);
	assert_int_equal(s.tokens_first, 1);
	stream_release(&s);
	response_release(&whole);
	response_release(&cut);
	free(crlf.p);
	free(text);
}

/* text with each LF replaced by the line end `eol` names: "lf", "crlf", "cr", or
 * "mixed" (LF, CR, CRLF in turn, a CR never followed by an LF that would make the
 * two one CRLF). Caller frees. */
static char *reframe(const char *text, const char *eol)
{
	static const char *const turn[] = { "\n", "\r", "\r\n" };
	struct strbuf b = { 0 };
	size_t i, k = 0;

	for (i = 0; text[i]; i++) {
		const char *e;

		if (text[i] != '\n') {
			strbuf_put(&b, &text[i], 1);
			continue;
		}
		e = !strcmp(eol, "lf") ? "\n" : !strcmp(eol, "crlf") ? "\r\n" :
		    !strcmp(eol, "cr") ? "\r" : turn[k++ % 3];
		if (*e == '\n' && b.len && b.p[b.len - 1] == '\r')
			e = "\r";
		strbuf_put(&b, e, strlen(e));
	}
	strbuf_put(&b, "", 0);
	return b.p;
}

/* The sample of a stream fed in pieces of `step` bytes (0: whole). */
static void feed_finish(const char *text, size_t step, struct response *r)
{
	size_t n = strlen(text), i;
	struct stream s;
	char err[256];

	stream_init(&s);
	if (!step)
		step = n;
	for (i = 0; i < n; i += step)
		stream_feed(&s, text + i, n - i < step ? n - i : step, (double)i);
	response_init(r);
	if (stream_finish(&s, 0, (double)n, r, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(s.tokens, 16);
	stream_release(&s);
}

/* Lines ended by LF, CRLF, CR alone or a mix of them (the SSE grammar), fed whole,
 * a byte at a time (every CRLF split between two pieces) and in pieces of 7: the
 * same sample as the LF stream llama-server sends. CR alone failed "the stream
 * ended without a final message (after 0 tokens)". */
static void test_stream_line_ends(void **state)
{
	static const char *const eols[] = { "lf", "crlf", "cr", "mixed" };
	static const size_t steps[] = { 0, 1, 7 };
	char *text = fixture("completion.sse", NULL);
	struct response want, got;
	size_t i, j;

	(void)state;
	feed_finish(text, 0, &want);
	for (i = 0; i < sizeof(eols) / sizeof(eols[0]); i++) {
		char *framed = reframe(text, eols[i]);

		assert_true(!strcmp(eols[i], "lf") == !strchr(framed, '\r'));
		assert_true(!strcmp(eols[i], "cr") == !strchr(framed, '\n'));
		for (j = 0; j < sizeof(steps) / sizeof(steps[0]); j++) {
			feed_finish(framed, steps[j], &got);
			assert_string_equal(got.sample.output_hash, want.sample.output_hash);
			assert_string_equal(got.sample.timings, want.sample.timings);
			assert_int_equal(got.sample.predicted_n, want.sample.predicted_n);
			response_release(&got);
		}
		free(framed);
	}
	response_release(&want);
	free(text);
}

/* A CR that ends one piece and an LF that opens the next are one line end, not
 * two: each event's JSON is cut over two data: lines (which the reader joins with
 * an LF), the first ended by a CR at the end of a piece. Read as two line ends,
 * the blank line between would dispatch half an object. */
static void test_stream_crlf_across_pieces(void **state)
{
	char *text = fixture("completion.sse", NULL), err[256];
	const char *at[64];
	size_t len[64], n = events(text, at, len, 64), k;
	struct response want, got;
	struct stream s;

	(void)state;
	assert_true(n >= 17);
	feed_finish(text, 0, &want);
	stream_init(&s);
	for (k = 0; k < n; k++) {
		/* "data: {A,B}\n\n" -> "data: {A,\r" | "\ndata: B}\r\n\r\n" */
		const char *comma = memchr(at[k], ',', len[k]);
		char *one, *two;

		assert_non_null(comma);
		one = tps_xasprintf("%.*s\r", (int)(comma + 1 - at[k]), at[k]);
		two = tps_xasprintf("\ndata:%.*s\r\n\r\n", (int)(at[k] + len[k] - 2 - comma - 1),
				    comma + 1);
		stream_feed(&s, one, strlen(one), (double)k);
		stream_feed(&s, "", 0, (double)k); /* an empty piece changes nothing */
		stream_feed(&s, two, strlen(two), (double)k + 0.5);
		free(one);
		free(two);
	}
	response_init(&got);
	if (stream_finish(&s, 0, (double)n, &got, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(s.tokens, 16);
	assert_string_equal(got.sample.output_hash, want.sample.output_hash);
	assert_string_equal(got.sample.timings, want.sample.timings);
	stream_release(&s);
	response_release(&want);
	response_release(&got);
	free(text);
}

/* completion.sse read whole, its 64 pieces stamped at t (ms), into r (the caller
 * releases it). */
static void run_timed(const double *t, struct response *r)
{
	char *text = fixture("completion.sse", NULL), err[256];

	response_init(r);
	assert_int_equal(run(text, t, 64, r, err, sizeof(err)), 0);
	free(text);
}

/* Speculative decoding sends accepted drafts in bursts: the tokens that arrive
 * with the first are not timed against it. */
static void test_stream_burst(void **state)
{
	double t[64];
	struct response r;
	size_t k;

	(void)state;
	for (k = 0; k < 64; k++)
		t[k] = k < 3 ? 10 : k < 8 ? 20 : 30; /* 3 at 10 ms, 5 at 20, the rest at 30 */
	run_timed(t, &r);
	assert_float_equal(r.sample.client_decode_per_second, 13.0 / 20 * 1000, 1e-9);
	response_release(&r);
}

/* Pieces of one read stamped microseconds apart are one burst; late pieces timed
 * against each other over a few ms give no rate, not an absurd one. */
static void test_stream_late_read(void **state)
{
	double t[64];
	struct response r;
	size_t k;

	(void)state;
	for (k = 0; k < 64; k++)
		t[k] = 10 + 0.001 * (double)k; /* the whole answer in one read */
	run_timed(t, &r);
	assert_true(isnan(r.sample.client_decode_per_second));
	assert_float_equal(r.sample.client_ttft_ms, 10, 1e-9);
	response_release(&r);
	for (k = 0; k < 64; k++)
		t[k] = k < 8 ? 10 + 0.001 * (double)k : 15 + 0.001 * (double)k; /* two reads 5 ms apart */
	run_timed(t, &r);
	assert_true(isnan(r.sample.client_decode_per_second));
	response_release(&r);
}

static void test_stream_chat(void **state)
{
	char *text = fixture("chat.sse", NULL), err[256];
	double t[64];
	struct response r;
	size_t k;

	(void)state;
	for (k = 0; k < 64; k++)
		t[k] = 4.0 * (double)(k + 1);
	response_init(&r);
	assert_int_equal(run(text, t, 64, &r, err, sizeof(err)), 0);
	assert_string_equal(r.endpoint, "chat");
	assert_string_equal(r.sample.stop_type, "limit");
	assert_int_equal(r.sample.predicted_n, 8);
	/* The role chunk carries no text: the first token is the second event. */
	assert_float_equal(r.sample.client_ttft_ms, 8, 1e-9);
	assert_float_equal(r.sample.client_decode_per_second, 7.0 / 28 * 1000, 1e-9);
	assert_non_null(r.sample.output_hash);
	response_release(&r);
	free(text);
}

static void test_stream_broken(void **state)
{
	static const struct {
		const char *tail;     /* appended to the first 5 token events */
		const char *error;
	} cases[] = {
		{ "", "the stream ended without a final message (after 5 tokens)" },
		{ "data: {\"stop\":true,\"timi", "the stream ended without a final message "
		  "(after 5 tokens)" },
		{ "data: {\"error\":{\"code\":500,\"message\":\"boom\"}}\n\n",
		  "the server sent an error mid-stream: boom" },
		{ "data: <html>\n\n", "a streamed event is not a JSON object" },
		{ "data: {\"stop\":true,\"content\":\"\"}\n\n",
		  "the stream's final message: no 'timings' block" },
	};
	char *text = fixture("completion.sse", NULL), err[256];
	const char *at[64];
	size_t len[64], k, i;
	struct response r;
	struct stream s;

	(void)state;
	assert_true(events(text, at, len, 64) >= 5);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		stream_init(&s);
		for (k = 0; k < 5; k++)
			stream_feed(&s, at[k], len[k], (double)k);
		stream_feed(&s, cases[i].tail, strlen(cases[i].tail), 9);
		response_init(&r);
		assert_int_equal(stream_finish(&s, 0, 9, &r, err, sizeof(err)), -1);
		assert_string_equal(err, cases[i].error);
		/* Nothing half-written: the sample is as response_init() left it. */
		assert_null(r.sample.timings);
		assert_true(isnan(r.sample.client_e2e_ms));
		response_release(&r);
		stream_release(&s);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_completion_clock),
		cmocka_unit_test(test_stream_cut_anywhere),
		cmocka_unit_test(test_stream_line_ends),
		cmocka_unit_test(test_stream_crlf_across_pieces),
		cmocka_unit_test(test_stream_burst),
		cmocka_unit_test(test_stream_late_read),
		cmocka_unit_test(test_stream_chat),
		cmocka_unit_test(test_stream_broken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
