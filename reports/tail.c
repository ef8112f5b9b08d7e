/* tail.c: cuts the last line out of a log. Trailing newlines, carriage returns
 * and blanks go first, so a log that ends in "\n\n" still yields its last words;
 * a line longer than the limit keeps its end, where the error usually is. */
#include "reports/tail.h"
#include "tpsdb.h"

#include <string.h>

char *tail_line(const char *text, size_t max)
{
	const char *end, *start;

	if (!text)
		return tps_xstrdup("");
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	if ((size_t)(end - start) > max)
		start = end - max;
	return tps_xstrndup(start, (size_t)(end - start));
}
