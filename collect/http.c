/* http.c: libcurl behind collect/http.h. One easy handle per server keeps its
 * connection alive between requests; the progress callback lets a pending signal
 * abort a request that would otherwise wait out a long timeout. */
#include "collect/http.h"
#include "collect/interrupt.h"
#include "tpsdb.h"

#include <curl/curl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct http {
	CURL *curl;
	char *base;
	struct curl_slist *json_headers;
	char errbuf[CURL_ERROR_SIZE];
};

struct sink {
	char *buf;
	size_t len, cap;
	size_t max;   /* the most body bytes kept; more aborts the transfer */
	int over;     /* the body passed max */
	int stream;             /* a streamed answer: its connection is not reused */
	http_piece_fn on_piece; /* NULL, or told of each piece as it arrives */
	void *arg;
	double last_ms;         /* when the last piece arrived */
};

/* The cap on one response body, in MiB: $TPSDB_MAX_RESPONSE_MB (1 to 4096), else
 * HTTP_MAX_BODY_MB. A real /completion answer is a few kB; an endless or hostile
 * one must not take the collector's memory. */
static size_t max_body_bytes(void)
{
	return (size_t)tps_env_num("TPSDB_MAX_RESPONSE_MB", HTTP_MAX_BODY_MB) << 20;
}

void http_global_init(void)
{
	static int done;

	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = 1;
	}
}

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t add = size * n;

	if (add > s->max - s->len) {
		s->over = 1;
		return 0; /* libcurl ends the transfer with CURLE_WRITE_ERROR */
	}
	if (s->len + add + 1 > s->cap) {
		while (s->len + add + 1 > s->cap)
			s->cap = s->cap ? 2 * s->cap : 16384;
		s->buf = tps_xrealloc(s->buf, s->cap);
	}
	memcpy(s->buf + s->len, p, add);
	s->len += add;
	s->buf[s->len] = '\0';
	s->last_ms = tps_mono_ms();
	if (s->on_piece)
		s->on_piece(s->arg, p, add, s->last_ms);
	return add;
}

static int on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	(void)arg; (void)dt; (void)dn; (void)ut; (void)un;
	return interrupt_pending() ? 1 : 0;
}

struct http *http_new(const char *base_url)
{
	struct http *h = tps_xcalloc(1, sizeof(*h));
	size_t n = strlen(base_url);

	while (n > 0 && base_url[n - 1] == '/')
		n--;
	h->base = tps_xstrndup(base_url, n);
	h->curl = curl_easy_init();
	if (!h->curl) {
		tps_error("cannot start libcurl for '%s'", h->base);
		http_free(h);
		return NULL;
	}
	/* An empty Expect: stops libcurl waiting for "100 Continue" on large bodies. */
	h->json_headers = curl_slist_append(NULL, "Content-Type: application/json");
	h->json_headers = curl_slist_append(h->json_headers, "Expect:");
	curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h->curl, CURLOPT_ERRORBUFFER, h->errbuf);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h->curl, CURLOPT_TCP_NODELAY, 1L);
	/* A proxy from the environment must never sit between us and a loopback server. */
	curl_easy_setopt(h->curl, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1");
	return h;
}

void http_free(struct http *h)
{
	if (!h)
		return;
	if (h->curl)
		curl_easy_cleanup(h->curl);
	curl_slist_free_all(h->json_headers);
	free(h->base);
	free(h);
}

const char *http_base(const struct http *h)
{
	return h->base;
}

static enum http_fail classify(CURLcode rc)
{
	switch (rc) {
	case CURLE_OK:
		return HTTP_FAIL_NONE;
	case CURLE_COULDNT_CONNECT:
		return HTTP_FAIL_REFUSED;
	case CURLE_OPERATION_TIMEDOUT:
		return HTTP_FAIL_TIMEOUT;
	case CURLE_ABORTED_BY_CALLBACK:
		return HTTP_FAIL_ABORTED;
	default:
		return HTTP_FAIL_TRANSPORT;
	}
}

static int perform(struct http *h, const char *path, const char *body, long timeout_ms,
		   int stream, http_piece_fn on_piece, void *arg, struct http_reply *r)
{
	struct sink s = { 0 };
	char *url = tps_xasprintf("%s%s", h->base, path);
	curl_off_t pre_us = 0;
	const char *type = NULL;
	CURLcode rc;
	double t0;

	memset(r, 0, sizeof(*r));
	s.max = max_body_bytes();
	s.stream = stream;
	s.on_piece = on_piece;
	s.arg = arg;
	s.last_ms = NAN;
	h->errbuf[0] = '\0';
	curl_easy_setopt(h->curl, CURLOPT_URL, url);
	curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(h->curl, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 0L);
	/* llama-server closes the connection after a streamed answer; reusing it races
	 * that close ("Connection died"), so a stream gets a connection of its own. */
	curl_easy_setopt(h->curl, CURLOPT_FORBID_REUSE, s.stream ? 1L : 0L);
	curl_easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT_MS,
			 timeout_ms > 0 && timeout_ms < 10000 ? timeout_ms : 10000L);
	if (body) {
		curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
		curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, h->json_headers);
	} else {
		curl_easy_setopt(h->curl, CURLOPT_HTTPGET, 1L);
		curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, NULL);
	}
	t0 = tps_mono_ms();
	rc = curl_easy_perform(h->curl);
	r->wall_ms = tps_mono_ms() - t0;
	/* libcurl's own clock, relative to the same start: connected, request next. */
	if (curl_easy_getinfo(h->curl, CURLINFO_PRETRANSFER_TIME_T, &pre_us) != CURLE_OK)
		pre_us = 0;
	r->sent_ms = t0 + (double)pre_us / 1000;
	r->last_ms = s.last_ms;
	free(url);
	r->body = s.buf ? s.buf : tps_xstrdup("");
	r->len = s.len;
	r->fail = classify(rc);
	if (r->fail != HTTP_FAIL_NONE) {
		snprintf(r->error, sizeof(r->error), "%s",
			 h->errbuf[0] ? h->errbuf : curl_easy_strerror(rc));
		if (r->fail == HTTP_FAIL_ABORTED)
			snprintf(r->error, sizeof(r->error), "interrupted by a signal");
		if (s.over)
			snprintf(r->error, sizeof(r->error),
				 "the response body is larger than %zu MiB (TPSDB_MAX_RESPONSE_MB)",
				 s.max >> 20);
		/* A connection that failed mid-exchange is not worth keeping. */
		return -1;
	}
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &r->status);
	if (curl_easy_getinfo(h->curl, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type)
		r->event_stream = !strncasecmp(type, "text/event-stream", 17);
	return 0;
}

int http_get(struct http *h, const char *path, long timeout_ms, struct http_reply *r)
{
	return perform(h, path, NULL, timeout_ms, 0, NULL, NULL, r);
}

int http_post_stream(struct http *h, const char *path, const char *body, long timeout_ms,
		     http_piece_fn on_piece, void *arg, struct http_reply *r)
{
	return perform(h, path, body, timeout_ms, 1, on_piece, arg, r);
}

void http_reply_release(struct http_reply *r)
{
	if (!r)
		return;
	free(r->body);
	memset(r, 0, sizeof(*r));
}
