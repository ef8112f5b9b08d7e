/* repeat_ref.h: repeat_share()'s definition (collect/repeat.h) one byte at a time,
 * the plain loop its word-at-a-time count must equal: tests/test_runenv.c checks it
 * against it, bench/bench_repeat.c times it beside it. Header-only, as reference.h is. */
#ifndef TESTS_REPEAT_REF_H
#define TESTS_REPEAT_REF_H

#include <stddef.h>

#include "collect/repeat.h"

static inline double repeat_share_by_definition(const char *text, size_t len)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t p, i, same, best = 0;

	for (p = 1; p <= REPEAT_MAX_PERIOD && p < len; p++) {
		for (same = 0, i = p; i < len; i++)
			same += t[i] == t[i - p];
		if (same > best)
			best = same;
	}
	return (double)best / (double)len;
}

#endif
