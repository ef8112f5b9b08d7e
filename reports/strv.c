/* strv.c: the string lists of strv.h. Appending reallocates one slot at a time;
 * the lists hold a handful of warnings or files, never enough for that to show. */
#include "reports/strv.h"
#include "tpsdb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void strv_add(char ***v, size_t *n, const char *s)
{
	*v = tps_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = tps_xstrdup(s);
}

void strv_addf(char ***v, size_t *n, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	strv_add(v, n, buf);
}

void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
