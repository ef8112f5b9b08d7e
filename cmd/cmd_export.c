/* cmd_export.c: `tpsdb export`, the store as JSONL (one lossless line per run, which
 * `tpsdb import` restores) or as CSV (one row per sample with its run's context, for
 * spreadsheets and pandas). Runs stream one at a time through store_runs_foreach. */
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "analyze/envrule.h"
#include "reports/export_csv.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "outfile.h"
#include "tpsdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_FORMAT = 256, OPT_OUT };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "out", required_argument, NULL, OPT_OUT },
	FILTER_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* r with its environment findings derived from its facts, as every command's. */
static struct run_rec judged(const struct run_rec *r)
{
	struct run_rec c = *r;
	struct env_facts e;

	record_env_facts(r->env, &e);
	c.env_flags = env_findings(&e, r->env_flags);
	return c;
}

static int on_run_csv(const struct run_rec *r, const struct sample_rec *smp, size_t n,
		      void *arg)
{
	FILE *f = arg;

	export_csv_run(f, r, smp, n); /* no env_flags column */
	return ferror(f) ? 1 : 0;
}

static int on_run_jsonl(const struct run_rec *r, const struct sample_rec *smp, size_t n,
			void *arg)
{
	FILE *f = arg;
	struct run_rec c = judged(r);
	char *line = record_json_write(&c, smp, n);

	if (!line)
		return -1;
	fputs(line, f);
	fputc('\n', f);
	free(line);
	return ferror(f) ? 1 : 0;
}

int cmd_export(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	struct cmd_opts co = { .cmd = &cmd_export_entry, .fo = &fo };
	const char *out_path = NULL;
	struct outfile *of = NULL;
	struct store *s;
	FILE *f = NULL;
	int c, csv = 0, rc, ret = TPS_EXIT_ERROR;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_FORMAT:
			if (!strcmp(optarg, "csv"))
				csv = 1;
			else if (!strcmp(optarg, "jsonl"))
				csv = 0;
			else
				return tps_usage_error(usage_export,
						       "--format is jsonl or csv, not '%s'",
						       optarg);
			break;
		case OPT_OUT: out_path = optarg; break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret;
	if (out_path && !*out_path)
		return tps_usage_error(usage_export, "--out needs a file name");
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo) < 0)
		goto out;
	if (out_path) {
		/* A failed export must not leave half a file where a whole one was. */
		if (!(of = outfile_open(out_path)))
			goto out;
		f = outfile_stream(of);
	} else {
		f = stdout;
	}
	if (csv)
		export_csv_header(f);
	rc = store_runs_foreach(s, &fo.f, csv ? on_run_csv : on_run_jsonl, f);
	if (rc < 0)
		goto out;
	if (of) {
		/* the commit names the first write error, if there was one */
		rc = outfile_commit(of);
		of = NULL;
		if (rc < 0)
			goto out;
	} else if (rc > 0 || fflush(f) != 0 || ferror(f)) {
		tps_error("cannot write 'stdout': %s", strerror(errno));
		goto out;
	}
	ret = TPS_EXIT_OK;
out:
	outfile_abort(of);
	filter_opts_release(&fo);
	return ret;
}

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.summary = "write runs and samples as JSONL or CSV",
	.usage = usage_export,
	.help = help_export,
	.flags = CMD_READONLY,
	.exec = cmd_export,
};
