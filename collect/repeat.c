/* repeat.c: the repeat share of a text (repeat.h). One pass per period, so a
 * 512-token answer costs a few hundred kilobytes of byte comparisons. */
#include "collect/repeat.h"

#include <math.h>

double repeat_share(const char *text, size_t len)
{
	size_t p, i, same, best = 0;

	if (!text || len < REPEAT_MIN_BYTES)
		return NAN;
	for (p = 1; p <= REPEAT_MAX_PERIOD && p < len; p++) {
		same = 0;
		for (i = p; i < len; i++)
			same += text[i] == text[i - p];
		if (same > best)
			best = same;
	}
	return (double)best / (double)len;
}
