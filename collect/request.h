/* request.h: the body the collector POSTs for one prompt, and the error text it
 * keeps when a server answers with something other than a result. */
#ifndef COLLECT_REQUEST_H
#define COLLECT_REQUEST_H

#include <stddef.h>
#include <stdint.h>

struct request_opts {
	int chat;            /* 1: /v1/chat/completions, 0: /completion */
	int64_t n_predict;
	int64_t seed;
	int ban_byte_tokens; /* logit_bias bans ids 3..258 (llama-spm byte tokens) */
};

/* The first and last token id banned by ban_byte_tokens. */
#define REQUEST_BAN_FIRST 3
#define REQUEST_BAN_LAST 258

/* "/completion" or "/v1/chat/completions", static. */
const char *request_path(const struct request_opts *o);
/* The JSON body for text: prompt (or one user message), n_predict (and max_tokens
 * on the chat route), ignore_eos true, temperature 0, the seed, cache_prompt false,
 * stream true (server-sent events, collect/stream.h) and, when asked, the
 * logit_bias ban. Caller frees. Pure. */
char *request_body(const struct request_opts *o, const char *text);
/* What an error answer says: error.message (or a string "error") of a JSON body,
 * else the body itself cut to 200 bytes with control characters blanked, else
 * "empty body". Caller frees. Pure. */
char *request_error_text(const char *body, size_t len);

#endif
