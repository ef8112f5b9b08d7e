/* strbuf.h: a growing NUL-terminated string that the escapers and markdown
 * helpers build their output in. Start it zeroed; the caller frees p. */
#ifndef TPSDB_STRBUF_H
#define TPSDB_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *p;
	size_t len, cap;
};

/* Appends n bytes of s and keeps p NUL-terminated; n 0 makes p "" on a zeroed
 * buffer. Dies with an error line (exit 3) when out of memory, as tps_xrealloc. */
void strbuf_put(struct strbuf *b, const char *s, size_t n);

#endif
