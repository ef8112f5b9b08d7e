/* stream.c: server-sent events of llama-server's streamed answers, read as they
 * arrive. A line ends in CRLF, LF or CR alone (the SSE rule: llama-server sends
 * LF, a proxy may not). An event is its data: lines up to a blank line; a comment
 * (":" ping) or an event cut off by the end of the body is dropped. /completion
 * sends one {"content", "tokens": [id], "stop": false} per token and a last
 * {"stop": true, "timings", ...} whose content is empty (the text was streamed);
 * the chat route sends OpenAI chunks, a delta per token, the timings beside the
 * choice whose finish_reason is set, then "[DONE]". cJSON trees stay in here. */
#include "collect/stream.h"
#include "collect/repeat.h"
#include "schema/json_strict.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void stream_init(struct stream *s)
{
	memset(s, 0, sizeof(*s));
	s->t_first = s->t_last = NAN;
}

void stream_release(struct stream *s)
{
	if (!s)
		return;
	free(s->line.p);
	free(s->data.p);
	free(s->text.p);
	free(s->final);
	free(s->error);
	stream_init(s);
}

/* k tokens arrived at t. Those that share the first one's arrival (within
 * STREAM_BURST_MS) cannot be timed against it: a speculative burst lands as one
 * read. */
static void add_tokens(struct stream *s, int64_t k, double t)
{
	if (k <= 0)
		return;
	if (!s->tokens) {
		s->t_first = t;
		s->tokens_first = k;
	} else if (t - s->t_first < STREAM_BURST_MS) {
		s->tokens_first += k;
	}
	s->t_last = t;
	s->tokens += k;
}

static void add_text(struct stream *s, const cJSON *content)
{
	if (cJSON_IsString(content))
		strbuf_put(&s->text, content->valuestring, strlen(content->valuestring));
}

static void keep_final(struct stream *s, const char *json, size_t len)
{
	s->final = tps_xstrndup(json, len);
	s->final_len = len;
}

static void on_error_event(struct stream *s, const cJSON *e)
{
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "message");

	if (s->error)
		return;
	if (cJSON_IsString(msg))
		s->error = tps_xstrdup(msg->valuestring);
	else if (cJSON_IsString(e))
		s->error = tps_xstrdup(e->valuestring);
	else
		s->error = tps_xstrdup("an error event without a message");
}

/* One chat chunk: a delta's text is one token; the choice with a finish_reason is
 * the final message (its timings beside it). */
static void on_chat(struct stream *s, const cJSON *choices, const char *json, size_t len,
		    double t)
{
	const cJSON *c0 = cJSON_GetArrayItem(choices, 0);
	const cJSON *delta = cJSON_GetObjectItemCaseSensitive(c0, "delta");
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(delta, "content");

	add_text(s, content);
	if (cJSON_IsString(content) && *content->valuestring)
		add_tokens(s, 1, t);
	if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c0, "finish_reason")))
		keep_final(s, json, len);
}

static void on_event(struct stream *s, const char *json, size_t len, double t)
{
	cJSON *root = NULL;
	const cJSON *v, *choices;
	size_t at;
	char why[96];

	if (len == 6 && !memcmp(json, "[DONE]", 6))
		return;
	if (json_strict_check(json, len, &at, why, sizeof(why)) < 0 ||
	    !(root = cJSON_ParseWithLength(json, len)) || !cJSON_IsObject(root)) {
		s->bad = 1;
		goto out;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "error"))) {
		on_error_event(s, v);
		goto out;
	}
	if (s->final)
		goto out; /* a usage chunk after the chat's final one */
	choices = cJSON_GetObjectItemCaseSensitive(root, "choices");
	if (cJSON_IsArray(choices)) {
		on_chat(s, choices, json, len, t);
		goto out;
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "stop"))) {
		keep_final(s, json, len);
		goto out;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "content");
	add_text(s, v);
	if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "tokens")))
		add_tokens(s, cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "tokens")),
			   t);
	else if (cJSON_IsString(v) && *v->valuestring)
		add_tokens(s, 1, t); /* a server that leaves the ids out */
out:
	cJSON_Delete(root);
}

/* One whole line (without its end): a data field, a blank line that dispatches
 * the event, or something else (comment, event:, id:) that is skipped. */
static void on_line(struct stream *s, const char *l, size_t n, double t)
{
	if (!n) {
		if (s->data.len)
			on_event(s, s->data.p, s->data.len, t);
		s->data.len = 0;
		return;
	}
	if (n >= 5 && !memcmp(l, "data:", 5)) {
		l += 5;
		n -= 5;
		if (n && *l == ' ') {
			l++;
			n--;
		}
		if (s->data.len)
			strbuf_put(&s->data, "\n", 1);
		strbuf_put(&s->data, l, n);
	}
}

/* The first CR or LF in [p, end), or NULL. */
static const char *line_end(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == '\n' || *p == '\r')
			return p;
	return NULL;
}

/* Lines end in CRLF, LF or CR alone (the SSE grammar's end-of-line); a CR that
 * ended the last piece and an LF that opens this one are one CRLF. */
void stream_feed(struct stream *s, const char *p, size_t n, double t_ms)
{
	const char *end = p + n, *eol;

	if (s->cr && p < end) {
		if (*p == '\n')
			p++;
		s->cr = 0;
	}
	while (p < end && (eol = line_end(p, end))) {
		if (s->line.len) {
			strbuf_put(&s->line, p, (size_t)(eol - p));
			on_line(s, s->line.p, s->line.len, t_ms);
			s->line.len = 0;
		} else {
			on_line(s, p, (size_t)(eol - p), t_ms);
		}
		p = eol + 1;
		if (*eol == '\r' && p == end)
			s->cr = 1;
		else if (*eol == '\r' && *p == '\n')
			p++;
	}
	if (p < end)
		strbuf_put(&s->line, p, (size_t)(end - p));
}

int stream_finish(struct stream *s, double t_sent, double t_end, struct response *out,
		  char *err, size_t errlen)
{
	struct response r;
	char hex[65], why[200];
	int64_t after = s->tokens - s->tokens_first;

	if (s->error)
		return tps_fail(err, errlen, "the server sent an error mid-stream: %s", s->error);
	if (s->bad)
		return tps_fail(err, errlen, "a streamed event is not a JSON object");
	if (!s->final)
		return tps_fail(err, errlen, "the stream ended without a final message (after "
				"%lld tokens)", (long long)s->tokens);
	response_init(&r);
	if (response_parse(s->final, s->final_len, &r, why, sizeof(why)) < 0) {
		response_release(&r);
		return tps_fail(err, errlen, "the stream's final message: %s", why);
	}
	if (s->text.p) {
		/* The final message's content is empty: the text came piece by piece. */
		sha256_hex(s->text.p, s->text.len, hex);
		free(r.sample.output_hash);
		r.sample.output_hash = tps_xstrdup(hex);
		r.sample.repeat_share = repeat_share(s->text.p, s->text.len);
	}
	if (s->tokens)
		r.sample.client_ttft_ms = s->t_first - t_sent;
	if (after > 0 && s->t_last - s->t_first >= STREAM_MIN_SPAN_MS)
		r.sample.client_decode_per_second = (double)after / (s->t_last - s->t_first) * 1000;
	r.sample.client_e2e_ms = t_end - t_sent;
	response_release(out);
	*out = r;
	return 0;
}
