/* csv.c: writing one CSV field (csv.h) through escape_csv() (escape.h), where the
 * quoting lives beside every other sink's escape: only the four characters that RFC
 * 4180 says end or break a field force quotes; everything else is written verbatim,
 * but for bytes that are not UTF-8 (a store another tool wrote), which become
 * U+FFFD so that every CSV tpsdb writes is valid UTF-8. */
#include "reports/csv.h"
#include "escape.h"

#include <stdlib.h>

void csv_put(FILE *f, const char *s)
{
	char *e = escape_csv(s);

	if (e)
		fputs(e, f);
	free(e);
}
