/* reference.h: the values tests/data/analyze/reference.py derives independently
 * (Python's statistics module, mpmath), read by the cmocka tests from the file the
 * ctest fixture reference_values writes and names in $TPSDB_REFERENCE: one
 * "<key> <value>" a line. Header-only: each test file includes it once. */
#ifndef TESTS_REFERENCE_H
#define TESTS_REFERENCE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_MAX 512

static struct {
	int loaded; /* 0 not tried, 1 read, -1 unavailable */
	size_t n;
	char key[REF_MAX][64];
	double val[REF_MAX];
} ref_table;

static int ref_load(void)
{
	const char *path = getenv("TPSDB_REFERENCE");
	char line[256];
	FILE *f;

	if (ref_table.loaded)
		return ref_table.loaded;
	ref_table.loaded = -1;
	if (!path || !(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f) && ref_table.n < REF_MAX) {
		char *sp = strchr(line, ' ');
		if (!sp || sp - line >= 64)
			continue;
		memcpy(ref_table.key[ref_table.n], line, (size_t)(sp - line));
		ref_table.key[ref_table.n][sp - line] = '\0';
		ref_table.val[ref_table.n++] = strtod(sp + 1, NULL);
	}
	fclose(f);
	if (ref_table.n)
		ref_table.loaded = 1;
	return ref_table.loaded;
}

/* Skips the calling test when the reference values cannot be read (no python3 or
 * mpmath: the fixture skipped), and fails it instead under CI=true, where a skip
 * would let the suite pass without comparing anything. */
static void ref_require(void)
{
	const char *ci = getenv("CI");

	if (ref_load() > 0)
		return;
	if (ci && !strcmp(ci, "true"))
		fail_msg("no reference values ($TPSDB_REFERENCE '%s'): run through ctest, "
			 "with python3-mpmath installed", getenv("TPSDB_REFERENCE") ?
			 getenv("TPSDB_REFERENCE") : "");
	print_message("skip: no reference values: run through ctest with python3-mpmath\n");
	skip();
}

/* The value of the key printf(fmt, ...) names; fails the test when it is missing.
 * Call ref_require() first. NaN stands for "none" (reference.py prints nan). */
static double ref(const char *fmt, ...)
{
	char key[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	if (ref_load() < 0)
		fail_msg("reference value '%s' asked for before ref_require()", key);
	for (size_t i = 0; i < ref_table.n; i++)
		if (!strcmp(ref_table.key[i], key))
			return ref_table.val[i];
	fail_msg("reference value '%s' is not in $TPSDB_REFERENCE", key);
	return 0;
}

/* The exit status of a test program: its cmocka result rc, or 77 (ctest's skip,
 * SKIP_RETURN_CODE in CMakeLists.txt) when everything else passed but the reference
 * values were missing, so a partial run is reported as skipped, not passed. */
static int ref_exit(int rc)
{
	return rc ? rc : ref_table.loaded < 0 ? 77 : 0;
}

#endif
