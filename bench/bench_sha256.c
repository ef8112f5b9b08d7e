/* bench_sha256.c: the rate of tpsdb's SHA-256 on its two paths: a file read in
 * 1 MiB chunks as collect/filehash.c reads a GGUF, and many short strings one at a
 * time as the import hashes prompts and outputs. It uses only tpsdb.h's sha256_*
 * API and libc, so bench_sha256.sh can also build it against an older hash.
 * Usage: bench_sha256 <file> | bench_sha256 --short <count> <bytes> */
#include "tpsdb.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_file(const char *path)
{
	unsigned char *buf = malloc(CHUNK);
	struct sha256 c;
	char hex[65];
	long long total = 0;
	double t0, dt;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf) {
		perror(path);
		free(buf);
		return 1;
	}
	t0 = now_s();
	sha256_init(&c);
	while ((n = read(fd, buf, CHUNK)) > 0) {
		sha256_update(&c, buf, (size_t)n);
		total += n;
	}
	sha256_final_hex(&c, hex);
	dt = now_s() - t0;
	close(fd);
	free(buf);
	if (n < 0) {
		perror(path);
		return 1;
	}
	printf("%s %lld bytes %.3f s %.1f MB/s\n", hex, total, dt, (double)total / dt / 1e6);
	return 0;
}

static int bench_short(long count, long len)
{
	char *buf = malloc((size_t)len + 1), hex[65];
	unsigned acc = 0;
	double t0, dt;

	if (!buf || count <= 0 || len < 0) {
		free(buf);
		return 2;
	}
	for (long i = 0; i < len; i++)
		buf[i] = (char)('a' + i % 26);
	t0 = now_s();
	for (long i = 0; i < count; i++) {
		if (len)
			buf[i % len] ^= 1; /* a new message each time */
		sha256_hex(buf, (size_t)len, hex);
		acc += (unsigned char)hex[0];
	}
	dt = now_s() - t0;
	free(buf);
	printf("%ld hashes of %ld bytes %.3f s %.0f hashes/s (%u)\n", count, len, dt,
	       (double)count / dt, acc);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2)
		return bench_file(argv[1]);
	if (argc == 4 && !strcmp(argv[1], "--short"))
		return bench_short(atol(argv[2]), atol(argv[3]));
	fprintf(stderr, "usage: bench_sha256 <file> | bench_sha256 --short <count> <bytes>\n");
	return 2;
}
