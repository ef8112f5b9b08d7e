/* util.c: the small helpers every stage shares: error lines, option and number
 * parsing, whole-file reads, clocks and uuids. Kept at the top level beside main.c
 * because collect/, schema/, analyze/ and reports/ all use it. It sits above the
 * root's lower files (xalloc.c < strbuf.c < escape.c < util.c), none of which
 * calls back into it. */
#include "tpsdb.h"
#include "escape.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Messages name labels, paths and server texts, which can hold anything: the line
 * goes through escape_text(), so it stays one line and carries no terminal escape
 * code or GitHub workflow command. */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char *msg = NULL, *e;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	e = escape_text(msg ? msg : fmt);
	fputs(prefix, stderr);
	fputs(e, stderr);
	fputc('\n', stderr);
	free(e);
	free(msg);
}

int tps_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("tpsdb: error: ", fmt, ap);
	va_end(ap);
	return -1;
}

int tps_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void tps_warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("tpsdb: warning: ", fmt, ap);
	va_end(ap);
}

int tps_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("tpsdb: error: ", fmt, ap);
	va_end(ap);
	tps_usage_hint(usage);
	return TPS_EXIT_USAGE;
}

void tps_usage_hint(const char *usage)
{
	const char *cmd = "", *p = usage;
	int len = 0;

	/* "tpsdb <command> ..." names its command; the dispatcher's own usage
	 * ("tpsdb [--db <file>] <command> ...") does not. */
	if (!strncmp(p, "tpsdb ", 6) && p[6] != '[' && p[6] != '<') {
		cmd = p + 6;
		len = (int)strcspn(cmd, " \n");
	}
	fprintf(stderr, "see 'tpsdb %.*s%s--help'\n", len, cmd, len ? " " : "");
}

int tps_getopt(struct tps_getopt *go, int argc, char **argv, const struct option *longopts)
{
	int c;

	if (!go->begun) {
		go->begun = 1;
		optind = 0; /* GNU: re-initialise for a new argument vector */
	}
	opterr = 0;
	c = getopt_long(argc, argv, ":h", longopts, NULL);
	if (c == '?') {
		if (optopt)
			tps_error("unknown option '-%c'", optopt);
		else
			tps_error("unknown option '%s'", argv[optind - 1]);
	} else if (c == ':') {
		tps_error("option '%s' needs a value", argv[optind - 1]);
		c = '?';
	}
	return c;
}

int tps_parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int tps_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Every TPSDB_* number tpsdb reads. A bad setting is refused before any command
 * runs rather than replaced by the default: 'TPSDB_MAX_RESPONSE_MB=64MB' running
 * as 64 is a setting taken silently, and '4097' as 64 is one taken wrongly. */
static const struct env_num {
	const char *name, *what;
	double lo, hi;
	int whole;
} env_nums[] = {
	/* the store's busy timeout is an int of ms: a day keeps s * 1000 far from overflow */
	{ "TPSDB_BUSY_TIMEOUT", "a whole number of seconds", 0, 86400, 1 },
	{ "TPSDB_QUICK_CHECK_MB", "a whole number of MB", 0, 1048576, 1 },
	{ "TPSDB_MAX_RESPONSE_MB", "a whole number of MiB", 1, 4096, 1 },
	{ "TPSDB_HOST_BUSY_PCT", "a percentage", 0, 100, 0 },
	/* an engine's --help (collect/dialect.c); 0 would refuse every engine */
	{ "TPSDB_HELP_TIMEOUT", "a whole number of seconds", 1, 3600, 1 },
};

/* 1 when v is e's kind of number within its range, with the value in *out. */
static int env_num_ok(const struct env_num *e, const char *v, double *out)
{
	int64_t i;
	double d;

	/* strtod would take " 50", "0x32" and "5e1"; a percentage is written plainly. */
	if (!((v[0] >= '0' && v[0] <= '9') || v[0] == '.'))
		return 0;
	if (e->whole) {
		if (tps_parse_i64(v, &i) < 0)
			return 0;
		d = (double)i;
	} else if (tps_parse_double(v, &d) < 0 || strpbrk(v, "xXeE")) {
		return 0;
	}
	if (!(d >= e->lo && d <= e->hi))
		return 0;
	*out = d;
	return 1;
}

int tps_env_check(void)
{
	size_t i;
	double d;

	for (i = 0; i < sizeof(env_nums) / sizeof(env_nums[0]); i++) {
		const struct env_num *e = &env_nums[i];
		const char *v = getenv(e->name);

		if (v && *v && !env_num_ok(e, v, &d))
			return tps_error("%s must be %s from %.0f to %.0f, not '%s'", e->name, e->what,
					 e->lo, e->hi, v);
	}
	return 0;
}

double tps_env_num(const char *name, double def)
{
	const char *v = getenv(name);
	size_t i;
	double d;

	for (i = 0; i < sizeof(env_nums) / sizeof(env_nums[0]); i++) {
		if (!strcmp(env_nums[i].name, name))
			return v && *v && env_num_ok(&env_nums[i], v, &d) ? d : def;
	}
	return def;
}

char *tps_read_file(const char *path, size_t *len)
{
	const size_t limit = (size_t)TPS_READ_MAX + 1;
	char *buf = NULL, *ret = NULL;
	size_t used = 0, cap = 65536;
	int fd;

	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0) {
		tps_error("cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	buf = tps_xmalloc(cap + 1);
	for (;;) {
		ssize_t n;
		if (used == cap) {
			/* Never more than the limit and a byte: /dev/zero stops there. */
			cap = cap > limit / 2 ? limit : 2 * cap;
			buf = tps_xrealloc(buf, cap + 1);
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tps_error("cannot read '%s': %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > (size_t)TPS_READ_MAX) {
			tps_error("cannot read '%s': too large: more than %d MiB", path,
				  TPS_READ_MAX >> 20);
			goto out;
		}
	}
	buf[used] = '\0';
	if (len)
		*len = used;
	ret = buf;
	buf = NULL;
out:
	if (fd > STDIN_FILENO)
		close(fd);
	free(buf);
	return ret;
}

char *tps_read_text(const char *path)
{
	size_t len;
	char *text = tps_read_file(path, &len);
	const char *nul;

	if (text && (nul = memchr(text, '\0', len))) {
		tps_error("cannot read '%s': a NUL byte at byte %zu: not a text file", path,
			  (size_t)(nul - text) + 1);
		free(text);
		return NULL;
	}
	return text;
}

void tps_now_iso(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 ts.tv_nsec / 1000000);
}

int tps_uuid4(char *buf, size_t len)
{
	unsigned char b[16];
	size_t got = 0;

	if (len < 37)
		return -1;
	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return tps_error("cannot read random bytes: %s", strerror(errno));
		}
		got += (size_t)n;
	}
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(buf, len,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
	return 0;
}

double tps_mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

size_t tps_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	size_t *prev2 = tps_xcalloc(lb + 1, sizeof(size_t));
	size_t *prev = tps_xcalloc(lb + 1, sizeof(size_t));
	size_t *cur = tps_xcalloc(lb + 1, sizeof(size_t));

	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		size_t *t;

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = prev[j] + 1;

			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (prev[j - 1] + cost < best)
				best = prev[j - 1] + cost;
			/* A swap of two neighbours is one edit ("comapre"). */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

void tps_closest(const char *name, const char *const *v, size_t n, size_t *order)
{
	size_t *dist = tps_xcalloc(n ? n : 1, sizeof(*dist)), i, j;

	for (i = 0; i < n; i++) {
		dist[i] = tps_edit_distance(name, v[i]);
		order[i] = i;
	}
	/* Insertion sort: stable, so equal distances keep the list's order. */
	for (i = 1; i < n; i++) {
		size_t o = order[i];
		for (j = i; j > 0 && dist[order[j - 1]] > dist[o]; j--)
			order[j] = order[j - 1];
		order[j] = o;
	}
	free(dist);
}

void tps_copy(char *dst, size_t len, const char *src, size_t n)
{
	size_t k = 0;

	if (!len)
		return;
	while (src && k < n && k + 1 < len && src[k]) {
		dst[k] = src[k];
		k++;
	}
	dst[k] = '\0';
}

/* n digits at *p as a number into *out; advances *p. 0 ok, -1 otherwise. */
static int digits(const char **p, int n, int *out)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

static int days_in(int y, int m)
{
	static const int d[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100) || y % 400 == 0;

	return m == 2 && leap ? 29 : d[m - 1];
}

int tps_parse_date(const char *s, char *buf, size_t len, int *date_only)
{
	const char *p = s;
	int y, mo, d, h = 0, mi = 0, sec = 0, oh, om;

	if (strlen(s) >= len || digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) ||
	    *p++ != '-' || digits(&p, 2, &d))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in(y, mo))
		return -1;
	*date_only = *p == '\0';
	if (*date_only) {
		snprintf(buf, len, "%s", s);
		return 0;
	}
	if ((*p != 'T' && *p != ' ') || (p++, digits(&p, 2, &h)) || *p++ != ':' ||
	    digits(&p, 2, &mi) || h > 23 || mi > 59)
		return -1;
	if (*p == ':') {
		p++;
		if (digits(&p, 2, &sec) || sec > 59)
			return -1;
		if (*p == '.') {
			if (!isdigit((unsigned char)*++p))
				return -1;
			while (isdigit((unsigned char)*p))
				p++;
		}
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		p++;
		if (digits(&p, 2, &oh) || *p++ != ':' || digits(&p, 2, &om) || oh > 23 || om > 59)
			return -1;
	}
	if (*p)
		return -1;
	snprintf(buf, len, "%s", s);
	buf[10] = 'T';
	return 0;
}
