/* csv.c: quoting of one CSV field (csv.h). Only the four characters that RFC 4180
 * says end or break a field force quotes; everything else is written verbatim, but
 * for bytes that are not UTF-8 (a store another tool wrote), which become U+FFFD so
 * that every CSV tpsdb writes is valid UTF-8. */
#include "reports/csv.h"
#include "escape.h"

#include <stdlib.h>
#include <string.h>

void csv_put(FILE *f, const char *s)
{
	char *fixed = NULL;
	const char *p;
	unsigned cp;

	if (!s)
		return;
	for (p = s; *p; p += escape_utf8_seq(p, &cp)) {
		if (!escape_utf8_seq(p, &cp)) {
			s = fixed = escape_utf8(s);
			break;
		}
	}
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		goto out;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
out:
	free(fixed);
}
