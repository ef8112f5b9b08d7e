/* filter_opts.c: the run-selection options shared by runs, trend, report, check and
 * export, checked here once (dates are ISO 8601, a limit a whole number), and the
 * --format and $GITHUB_STEP_SUMMARY plumbing of the commands that write markdown. */
#include "cmd/filter_opts.h"

#include "analyze/config.h"
#include "schema/labels.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* Checks s as YYYY-MM-DD, optionally followed by 'T' or ' ', HH:MM[:SS[.f...]]
 * and an optional 'Z' or +HH:MM / -HH:MM, and writes the form julianday() reads
 * into buf ('T' as the separator). *date_only says whether the time was absent.
 * 0 ok, -1 when it is not such a date or a field is out of range. */
static int parse_date(const char *s, char *buf, size_t len, int *date_only)
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

int filter_opts_take(struct filter_opts *fo, int c, const char *arg, const char *usage)
{
	struct run_filter *f = &fo->f;
	int64_t n;
	int date_only;

	switch (c) {
	case FILTER_OPT_ENGINE: f->engine = arg; break;
	case FILTER_OPT_MODEL: f->model = arg; break;
	case FILTER_OPT_ENGINE_VERSION: f->engine_version = arg; break;
	case FILTER_OPT_TAG: f->tag = arg; break;
	case FILTER_OPT_HOST: f->host = arg; break;
	case FILTER_OPT_BATCH:
		if (!*arg)
			return tps_usage_error(usage, "--batch needs a batch id");
		f->batch = arg;
		break;
	case FILTER_OPT_SINCE:
		if (parse_date(arg, fo->since, sizeof(fo->since), &date_only) < 0)
			return tps_usage_error(usage, "--since needs an ISO 8601 date or date-time "
					       "(2025-06-01, 2025-06-01T12:00:00Z), not '%s'", arg);
		f->since = fo->since;
		break;
	case FILTER_OPT_UNTIL:
		if (parse_date(arg, fo->until, sizeof(fo->until), &date_only) < 0)
			return tps_usage_error(usage, "--until needs an ISO 8601 date or date-time "
					       "(2025-06-01, 2025-06-01T12:00:00Z), not '%s'", arg);
		/* A day alone is the whole day: up to its last millisecond. */
		if (date_only)
			snprintf(fo->until + 10, sizeof(fo->until) - 10, "T23:59:59.999");
		f->until = fo->until;
		break;
	case FILTER_OPT_LIMIT:
		if (tps_parse_i64(arg, &n) < 0 || n < 1)
			return tps_usage_error(usage, "--limit needs a whole number >= 1, not '%s'",
					       arg);
		f->limit = n;
		break;
	default:
		return 0;
	}
	return 1;
}

int format_opt_parse(const char *arg, enum out_format *fmt, const char *usage)
{
	if (!strcmp(arg, "text"))
		*fmt = OUT_TEXT;
	else if (!strcmp(arg, "json"))
		*fmt = OUT_JSON;
	else if (!strcmp(arg, "md"))
		*fmt = OUT_MD;
	else if (!strcmp(arg, "csv"))
		*fmt = OUT_CSV;
	else
		return tps_usage_error(usage, "--format is text, json, md or csv, not '%s'", arg);
	return 0;
}

enum table_format format_table(enum out_format fmt)
{
	return fmt == OUT_MD ? TABLE_FMT_MD : fmt == OUT_CSV ? TABLE_FMT_CSV : TABLE_FMT_TEXT;
}

FILE *step_summary_open(void)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	FILE *f;

	if (!path || !*path)
		return NULL;
	if (!(f = fopen(path, "a")))
		tps_warning("cannot append to $GITHUB_STEP_SUMMARY '%s': %s", path,
			    strerror(errno));
	return f;
}

void step_summary_close(FILE *f)
{
	int bad;

	if (!f)
		return;
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		tps_warning("cannot write $GITHUB_STEP_SUMMARY: %s",
			    errno ? strerror(errno) : "write error");
}

int ignore_config_opt(const char *arg, const char *usage)
{
	char bad[64];

	if (config_keys_check(arg, bad, sizeof(bad)) < 0)
		return tps_usage_error(usage, "--ignore-config: unknown config key '%s' (keys: %s)",
				       bad, config_keys());
	return 0;
}

void ignore_config_warn(const char *keys, const char *a_label, const char *a,
			const char *b_label, const char *b)
{
	tps_warning("--ignore-config %s: cells paired regardless of %s ('%s' ran %s; '%s' ran %s)",
		    keys, keys, a_label, a ? a : "none", b_label, b ? b : "none");
}

int labels_check(struct store *s, const char *engine, const char *model, const char *tag)
{
	if (engine && store_label_check(s, STORE_LABEL_ENGINE, engine, "--engine") != 1)
		return -1;
	if (model && store_label_check(s, STORE_LABEL_MODEL, model, "--model") != 1)
		return -1;
	if (tag && store_label_check(s, STORE_LABEL_TAG, tag, "--tag") != 1)
		return -1;
	return 0;
}

int filter_opts_check(struct store *s, const struct run_filter *f)
{
	return labels_check(s, f->engine, f->model, f->tag);
}
