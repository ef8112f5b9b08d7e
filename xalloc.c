/* xalloc.c: allocation that cannot fail (tps_xmalloc and friends of tpsdb.h). The
 * lowest file of the tree: it calls nothing of tpsdb's, so strbuf.c, escape.c and
 * util.c can all allocate through it without a circle. Out of memory is one error
 * line, written directly, and exit 3. */
#include "tpsdb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die_oom(size_t n)
{
	fprintf(stderr, "tpsdb: error: out of memory allocating %zu bytes\n", n);
	exit(TPS_EXIT_ERROR);
}

void *tps_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *tps_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_oom(n * size);
	return p;
}

void *tps_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

char *tps_xstrdup(const char *s)
{
	if (!s)
		return NULL;
	return tps_xstrndup(s, strlen(s));
}

char *tps_xstrndup(const char *s, size_t n)
{
	char *p = tps_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *tps_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p = NULL;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die_oom(strlen(fmt));
	va_end(ap);
	return p;
}

