/* repeat.c: the repeat share of a text (repeat.h). One pass per period, so a
 * 512-token answer costs a few hundred kilobytes of byte comparisons. Each pass
 * compares eight bytes at a time in a 64-bit word (a zero byte of a ^ b is an
 * equal pair) and counts them in eight byte-wide lanes, summed every 255 words
 * before a lane can overflow: 4.4 times the speed of a byte loop at -O2, the
 * project's default build, where the compiler does not vectorise one
 * (bench/bench_repeat.c, docs/PERFORMANCE.md). */
#include "collect/repeat.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define LOW7 UINT64_C(0x7f7f7f7f7f7f7f7f)
#define LANE1 UINT64_C(0x0101010101010101)
#define EVEN16 UINT64_C(0x00ff00ff00ff00ff)

/* The eight byte lanes of acc (each at most 255) summed. */
static size_t lanes_sum(uint64_t acc)
{
	acc = (acc & EVEN16) + ((acc >> 8) & EVEN16);
	return (size_t)((acc * UINT64_C(0x0001000100010001)) >> 48);
}

/* How many of the bytes t[i], from..len-1, equal t[i - p]. */
static size_t same_count(const unsigned char *t, size_t len, size_t p, size_t from)
{
	size_t i = from, same = 0, words;
	uint64_t a, b, x, acc;

	while (len - i >= 8) {
		for (acc = 0, words = 0; words < 255 && len - i >= 8; words++, i += 8) {
			memcpy(&a, t + i, 8);
			memcpy(&b, t + i - p, 8);
			x = a ^ b;
			/* each lane's top bit set where its byte of x is zero, then moved to bit 0 */
			acc += (~(((x & LOW7) + LOW7) | x | LOW7) >> 7) & LANE1;
		}
		same += lanes_sum(acc);
	}
	for (; i < len; i++)
		same += t[i] == t[i - p];
	return same;
}

double repeat_share(const char *text, size_t len)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t p, same, best = 0;

	if (!text || len < REPEAT_MIN_BYTES)
		return NAN;
	for (p = 1; p <= REPEAT_MAX_PERIOD && p < len; p++) {
		same = same_count(t, len, p, p);
		if (same > best)
			best = same;
	}
	return (double)best / (double)len;
}
