/* bench_repeat.c: the rate of repeat_share() (collect/repeat.c, the degenerate-
 * output measure the import runs on every response) against the plain byte loop
 * of its definition and the byte-wide blocks it counted in before, side by side in
 * one run: the same texts, the three taken in turn, best of five rounds each, with
 * their results compared. The texts are
 * 2 kB answers (a 512-token decode) of prose-like words, plus one in four a loop.
 * Usage: bench_repeat [<texts, default 200000>] */
#include "collect/repeat.h"
#include "tests/repeat_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEXT_BYTES 2048
#define N_TEXTS 64

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The byte loop counted in blocks of 255 into a byte-wide counter, which the
 * compiler vectorises at -O3 but not at -O2 (the code before the words). */
static double share_blocks(const char *text, size_t len)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t p, i, end, same, best = 0;

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

/* Seconds for count texts through fn; *sum collects the results. */
static double run(double (*fn)(const char *, size_t), char texts[][TEXT_BYTES], long count,
		  double *sum)
{
	double t0 = now_s();
	long i;

	*sum = 0;
	for (i = 0; i < count; i++)
		*sum += fn(texts[i % N_TEXTS], TEXT_BYTES);
	return now_s() - t0;
}

int main(int argc, char **argv)
{
	static const char *const words[] = { "the ", "model ", "token ", "speed ", "cache ",
					     "draft ", "layer ", "tensor ", "batch ", "decode " };
	static char texts[N_TEXTS][TEXT_BYTES];
	long count = argc > 1 ? atol(argv[1]) : 200000;
	double best_w = 1e30, best_b = 1e30, best_k = 1e30, sum_w = 0, sum_b = 0, sum_k = 0, t;
	unsigned seed = 1;
	int k, r;

	if (count <= 0) {
		fprintf(stderr, "bench_repeat: usage: bench_repeat [<texts>]\n");
		return 2;
	}
	for (k = 0; k < N_TEXTS; k++) {
		size_t at = 0;

		while (at < TEXT_BYTES) {
			const char *w;
			size_t n;

			seed = seed * 1103515245u + 12345u;
			w = k % 4 == 3 ? "</u>" : words[(seed >> 16) % 10];
			n = strlen(w);
			if (n > TEXT_BYTES - at)
				n = TEXT_BYTES - at;
			memcpy(texts[k] + at, w, n);
			at += n;
		}
	}
	for (r = 0; r < 5; r++) {
		if ((t = run(repeat_share, texts, count, &sum_w)) < best_w)
			best_w = t;
		if ((t = run(repeat_share_by_definition, texts, count, &sum_b)) < best_b)
			best_b = t;
		if ((t = run(share_blocks, texts, count, &sum_k)) < best_k)
			best_k = t;
	}
	if (sum_w != sum_b || sum_k != sum_b) {
		fprintf(stderr, "bench_repeat: they disagree: %.17g, %.17g, %.17g\n", sum_w, sum_b,
			sum_k);
		return 1;
	}
	printf("%ld texts of %d bytes, best of 5\n", count, TEXT_BYTES);
	printf("%-28s %8.3f s %10.0f texts/s\n", "repeat_share (words)", best_w,
	       (double)count / best_w);
	printf("%-28s %8.3f s %10.0f texts/s\n", "byte loop (the definition)", best_b,
	       (double)count / best_b);
	printf("%-28s %8.3f s %10.0f texts/s\n", "byte-wide blocks (before)", best_k,
	       (double)count / best_k);
	printf("ratio: %.2fx the byte loop's speed, %.2fx the blocks'\n", best_b / best_w,
	       best_k / best_w);
	return 0;
}
