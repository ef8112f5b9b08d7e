/* csv.c: quoting of one CSV field (csv.h). Only the four characters that RFC 4180
 * says end or break a field force quotes; everything else is written verbatim. */
#include "reports/csv.h"

#include <string.h>

void csv_put(FILE *f, const char *s)
{
	const char *p;

	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}
