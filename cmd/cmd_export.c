/* cmd_export.c: `tpsdb export`, the store as JSONL (one lossless line per run, which
 * `tpsdb import` restores) or as CSV (one row per sample with its run's context, for
 * spreadsheets and pandas). Runs stream one at a time through store_runs_foreach. */
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
	static const struct cmd_choice formats[] = { { "jsonl", 0 }, { "csv", 1 }, { NULL, 0 } };
	struct filter_opts fo = { 0 };
	const char *out_path = NULL;
	struct outfile *of = NULL;
	struct store *s;
	FILE *f = NULL;
	int csv = 0, rc, ret = TPS_EXIT_ERROR;
	const struct cmd_option opts[] = {
		OPT_CHOICE("format", &csv, formats), OPT_NONEMPTY("out", &out_path, "a file name"),
		OPT_FILTERS(&fo), OPT_END,
	};

	if ((rc = cmd_opts_parse(&cmd_export_entry, opts, argc, argv)) >= 0)
		return rc;
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

CMD_ENTRY(export, "write runs and samples as JSONL or CSV", CMD_READONLY);
