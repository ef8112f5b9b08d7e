/* strbuf.c: the growing string of strbuf.h. The texts are short labels and cells,
 * so doubling is plenty. */
#include "strbuf.h"
#include "tpsdb.h"

#include <string.h>

void strbuf_put(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = tps_xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}
