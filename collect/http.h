/* http.h: the collector's HTTP client, a thin layer over one reused libcurl easy
 * handle per server, so that keep-alive holds the loopback connection open and a
 * request costs the server's time plus very little of ours. Nothing here prints:
 * failures come back in the reply, in libcurl's own words (CURLOPT_ERRORBUFFER). */
#ifndef COLLECT_HTTP_H
#define COLLECT_HTTP_H

#include <stddef.h>

/* Why a request got no HTTP response. */
enum http_fail {
	HTTP_FAIL_NONE = 0,   /* a response came back (any status) */
	HTTP_FAIL_REFUSED,    /* nothing listens on the port */
	HTTP_FAIL_TIMEOUT,    /* the per-request timeout passed */
	HTTP_FAIL_TRANSPORT,  /* reset, empty reply, broken connection, ... */
	HTTP_FAIL_ABORTED,    /* a signal is pending (collect/interrupt.h) */
};

/* The default cap on one response body, in MiB ($TPSDB_MAX_RESPONSE_MB changes
 * it): a longer body is cut off and the request fails as a transport error, so an
 * endless answer costs at most this much memory and becomes a failed sample. */
#define HTTP_MAX_BODY_MB 64

struct http_reply {
	long status;          /* HTTP status, 0 when none came back */
	char *body;           /* NUL-terminated, owned; "" when empty */
	size_t len;
	double wall_ms;       /* client wall time of the whole exchange: from the call
				 to its return, connection set-up included */
	double sent_ms;       /* tps_mono_ms() when the request went out: the call's
				 start plus libcurl's pre-transfer time (connected) */
	double last_ms;       /* tps_mono_ms() when the last body byte arrived; NAN
				 when none did */
	int event_stream;     /* Content-Type text/event-stream: a streamed answer */
	enum http_fail fail;
	char error[256];      /* libcurl's message when fail != NONE, else "" */
};

struct http;

/* Calls curl_global_init() once; the command calls it before any thread exists. */
void http_global_init(void);

/* A client for base_url (e.g. "http://127.0.0.1:8080", no trailing slash needed).
 * Caller frees with http_free(). NULL after an error line. */
struct http *http_new(const char *base_url);
/* Closes the connection and frees; accepts NULL. */
void http_free(struct http *h);
/* The base URL without a trailing slash, borrowed. */
const char *http_base(const struct http *h);

/* GET base+path, waiting at most timeout_ms for the whole exchange and keeping at most HTTP_MAX_BODY_MB (or $TPSDB_MAX_RESPONSE_MB)
 * MiB of its body. r is initialised here; the caller releases it with
 * http_reply_release() whatever happens. Returns 0 when a response came back (any
 * status), -1 when not (r->fail and r->error say why). */
int http_get(struct http *h, const char *path, long timeout_ms, struct http_reply *r);

/* POST body as application/json, as http_get(), handing each piece of the body to
 * on_piece as it arrives, with the tps_mono_ms() of its arrival; the body is kept in r as well
 * (under the same cap), and the same timeout_ms bounds the whole stream, so a
 * server that stops sending mid-stream fails as HTTP_FAIL_TIMEOUT. The connection
 * is closed after it (llama-server closes it after a stream anyway): the next
 * request connects afresh, which wall_ms counts and sent_ms leaves out. */
typedef void (*http_piece_fn)(void *arg, const char *p, size_t n, double t_ms);
int http_post_stream(struct http *h, const char *path, const char *body, long timeout_ms,
		     http_piece_fn on_piece, void *arg, struct http_reply *r);

void http_reply_release(struct http_reply *r);

#endif
