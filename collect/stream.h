/* stream.h: reading a streamed llama-server answer ("stream": true: server-sent
 * events, one `data: {...}` per token, then a final message with the timings) as
 * it arrives, each piece stamped with the collector's monotonic clock. The client
 * clock sees every engine the same way, so its rates are the witness when engines
 * define their own timings differently. Never prints. */
#ifndef COLLECT_STREAM_H
#define COLLECT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "collect/response.h"
#include "strbuf.h"

/* Tokens that arrive within this of the first share its arrival: libcurl hands
 * each HTTP chunk of one socket read to its own callback, microseconds apart, so a
 * burst (speculative decoding, a client that read late) is stamped as several
 * arrivals that no decode could have made. */
#define STREAM_BURST_MS 0.5
/* No decode rate from a span shorter than this: a few late pieces timed against
 * each other would read a rate no engine decodes at. */
#define STREAM_MIN_SPAN_MS 10.0

struct stream {
	struct strbuf line;      /* the line being read, carried across pieces */
	int cr;                  /* the last piece ended in a CR that ended a line:
				    an LF opening the next is the same line end */
	struct strbuf data;      /* the data: lines of the event being read */
	struct strbuf text;      /* the generated text, the events' pieces in order */
	char *final;             /* the final message's JSON (stop true, or a chat
				    choice's finish_reason), owned; NULL until seen */
	size_t final_len;
	char *error;             /* what an error event said; NULL none */
	int bad;                 /* an event that was not a JSON object */
	int64_t tokens;          /* tokens streamed: the `tokens` arrays' lengths, or
				    one per chat delta that carries text */
	int64_t tokens_first;    /* of them, those that arrived with the first */
	double t_first, t_last;  /* when the first and the last token arrived; NAN */
};

void stream_init(struct stream *s);
void stream_release(struct stream *s);

/* Feeds n bytes of the body that arrived at t_ms (tps_mono_ms()). Events may be
 * split anywhere across calls, a CRLF too; lines end in CRLF, LF or CR alone, as
 * the SSE format says. Never fails: what a piece holds is judged by
 * stream_finish(). */
void stream_feed(struct stream *s, const char *p, size_t n, double t_ms);

/* The sample of a finished stream: the final message parsed as a plain answer
 * (response_parse(): timings, stop_type, prompt, generation settings), the output
 * hash and repeat share of the streamed text, and the client's clock: ttft from
 * t_sent to the first token, e2e from t_sent to t_end (the last byte), the decode
 * rate over the tokens that arrived after the first (NAN with none, or when all
 * arrived at once). out is the caller's, released with response_release(). -1 with
 * a message in err (no prefix) when the stream carried an error event, an event
 * that is not JSON, or ended without a final message; nothing is set then. */
int stream_finish(struct stream *s, double t_sent, double t_end, struct response *out,
		  char *err, size_t errlen);

#endif
