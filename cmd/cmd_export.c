/* cmd_export.c: `tpsdb export`, the store as JSONL (one lossless line per run, which
 * `tpsdb import` restores) or as CSV (one row per sample with its run's context, for
 * spreadsheets and pandas). Runs stream one at a time through store_runs_foreach. */
#include "schema/record_json.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"tpsdb export [--format jsonl|csv] [--out <file>] [--engine <label>] [--model <label>]\n"
	"             [--tag <t>] [--host <name>]";

static const char help[] =
	"Writes the runs that match the filters, oldest first, to stdout or --out.\n"
	"\n"
	"Formats:\n"
	"  jsonl   (default) one line per run: {\"tpsdb_run\": 1, \"run\": {...}, \"samples\":\n"
	"          [...]} with every column of the run and its samples, absent values as\n"
	"          null and the raw timings object embedded. 'tpsdb import' of it restores\n"
	"          the same runs (uuids, flags and all) and skips the ones already stored,\n"
	"          so export, import elsewhere and export again gives the same bytes.\n"
	"  csv     RFC 4180: a header row, then one row per sample with its run's context\n"
	"          (run_uuid ... prompt_set) before the sample's columns (prompt ...\n"
	"          timings); rows end in CRLF, a field holding a comma, a quote, CR or LF\n"
	"          is quoted with its quotes doubled, and absent values are empty. Runs\n"
	"          without samples have no rows.\n"
	"\n"
	"Options:\n"
	"  --format <f>        jsonl or csv\n"
	"  --out <file>        write there (replaced whole, only on success) instead of\n"
	"                      stdout\n"
	"  --engine <label>    only runs of this engine\n"
	"  --model <label>     only runs of this model\n"
	"  --tag <t>           only runs with this tag\n"
	"  --host <name>       only runs measured on this host\n"
	"\n"
	"Exit codes: 0 ok, 2 usage, 3 no store, a store error or a write error.\n";

enum { OPT_FORMAT = 256, OPT_OUT, OPT_ENGINE, OPT_MODEL, OPT_TAG, OPT_HOST };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "host", required_argument, NULL, OPT_HOST },
	{ NULL, 0, NULL, 0 },
};

static const char *const csv_header[] = {
	"run_uuid", "started_at", "ended_at", "status", "source", "host", "gpu", "driver",
	"cuda", "engine", "role", "engine_version", "engine_sha256", "model", "model_file",
	"model_bytes", "model_sha256", "quant", "ctx", "n_predict", "ignore_eos",
	"temperature", "seed", "endpoint", "spec_type", "n_max", "drafter", "extra_args",
	"tag", "notes", "load_error", "log_path", "warmup", "prompt_set",
	"prompt", "prompt_hash", "rep", "seq", "cache_n", "prompt_n", "prompt_ms",
	"prompt_per_second", "predicted_n", "predicted_ms", "predicted_per_second",
	"draft_n", "draft_n_accepted", "wall_ms", "http_status", "error", "stop_type",
	"output_hash", "flags", "flag_names", "timings",
};
#define CSV_NCOLS (sizeof(csv_header) / sizeof(csv_header[0]))

static void csv_field(FILE *f, const char *v, int first)
{
	const char *p;

	if (!first)
		fputc(',', f);
	if (!v)
		return;
	if (!strpbrk(v, ",\"\r\n")) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (p = v; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void csv_i64(FILE *f, int64_t v)
{
	if (v != TPS_NULL)
		fprintf(f, ",%lld", (long long)v);
	else
		fputc(',', f);
}

/* The shortest of %.15g..%.17g that reads back as the same double. */
static void csv_dbl(FILE *f, double v)
{
	char buf[40];
	int prec;

	fputc(',', f);
	if (isnan(v))
		return;
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

static void csv_str(FILE *f, const char *v)
{
	csv_field(f, v, 0);
}

static void csv_row(FILE *f, const struct run_rec *r, const struct sample_rec *s)
{
	char names[128] = "";
	unsigned b;

	csv_field(f, r->uuid, 1);
	csv_str(f, r->started_at);
	csv_str(f, r->ended_at);
	csv_str(f, r->status);
	csv_str(f, r->source);
	csv_str(f, r->host.name);
	csv_str(f, r->host.gpu);
	csv_str(f, r->host.driver);
	csv_str(f, r->host.cuda);
	csv_str(f, r->engine.label);
	csv_str(f, r->engine.role);
	csv_str(f, r->engine.version);
	csv_str(f, r->engine.sha256);
	csv_str(f, r->model.label);
	csv_str(f, r->model.file);
	csv_i64(f, r->model.bytes);
	csv_str(f, r->model.sha256);
	csv_str(f, r->model.quant);
	csv_i64(f, r->ctx);
	csv_i64(f, r->n_predict);
	csv_i64(f, r->ignore_eos < 0 ? TPS_NULL : r->ignore_eos);
	csv_dbl(f, r->temperature);
	csv_i64(f, r->seed);
	csv_str(f, r->endpoint);
	csv_str(f, r->spec_type);
	csv_i64(f, r->n_max);
	csv_str(f, r->drafter);
	csv_str(f, r->extra_args);
	csv_str(f, r->tag);
	csv_str(f, r->notes);
	csv_str(f, r->load_error);
	csv_str(f, r->log_path);
	csv_i64(f, r->warmup);
	csv_str(f, r->prompt_set);
	csv_str(f, s->prompt_name);
	csv_str(f, s->prompt_hash);
	csv_i64(f, s->rep);
	csv_i64(f, s->seq);
	csv_i64(f, s->cache_n);
	csv_i64(f, s->prompt_n);
	csv_dbl(f, s->prompt_ms);
	csv_dbl(f, s->prompt_per_second);
	csv_i64(f, s->predicted_n);
	csv_dbl(f, s->predicted_ms);
	csv_dbl(f, s->predicted_per_second);
	csv_i64(f, s->draft_n);
	csv_i64(f, s->draft_n_accepted);
	csv_dbl(f, s->wall_ms);
	csv_i64(f, s->http_status);
	csv_str(f, s->error);
	csv_str(f, s->stop_type);
	csv_str(f, s->output_hash);
	csv_i64(f, (int64_t)s->flags);
	for (b = 1; b <= SAMPLE_COLD; b <<= 1) {
		if (s->flags & b) {
			if (*names)
				strcat(names, "|");
			strcat(names, record_flag_name(b));
		}
	}
	csv_str(f, names);
	csv_str(f, s->timings);
	fputs("\r\n", f);
}

static int on_run_csv(const struct run_rec *r, const struct sample_rec *smp, size_t n,
		      void *arg)
{
	FILE *f = arg;
	size_t i;

	for (i = 0; i < n; i++)
		csv_row(f, r, &smp[i]);
	return ferror(f) ? 1 : 0;
}

static int on_run_jsonl(const struct run_rec *r, const struct sample_rec *smp, size_t n,
			void *arg)
{
	FILE *f = arg;
	char *line = record_json_write(r, smp, n);

	fputs(line, f);
	fputc('\n', f);
	free(line);
	return ferror(f) ? 1 : 0;
}

int cmd_export(int argc, char **argv, struct tps_ctx *ctx)
{
	struct run_filter filt = { 0 };
	const char *out_path = NULL;
	char *tmp = NULL;
	struct store *s;
	FILE *f = NULL;
	size_t i;
	int c, csv = 0, rc, ret = TPS_EXIT_ERROR;

	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_FORMAT:
			if (!strcmp(optarg, "csv"))
				csv = 1;
			else if (!strcmp(optarg, "jsonl"))
				csv = 0;
			else
				return tps_usage_error(usage, "--format is jsonl or csv, not '%s'",
						       optarg);
			break;
		case OPT_OUT: out_path = optarg; break;
		case OPT_ENGINE: filt.engine = optarg; break;
		case OPT_MODEL: filt.model = optarg; break;
		case OPT_TAG: filt.tag = optarg; break;
		case OPT_HOST: filt.host = optarg; break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	if (out_path && !*out_path)
		return tps_usage_error(usage, "--out needs a file name");
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (out_path) {
		/* A failed export must not leave half a file where a whole one was. */
		tmp = tps_xasprintf("%s.tmp.%ld", out_path, (long)getpid());
		if (!(f = fopen(tmp, "wb"))) {
			tps_error("cannot create '%s': %s", tmp, strerror(errno));
			goto out;
		}
	} else {
		f = stdout;
	}
	if (csv) {
		for (i = 0; i < CSV_NCOLS; i++)
			csv_field(f, csv_header[i], i == 0);
		fputs("\r\n", f);
	}
	rc = store_runs_foreach(s, &filt, csv ? on_run_csv : on_run_jsonl, f);
	if (rc < 0)
		goto out;
	if (rc > 0 || fflush(f) != 0 || ferror(f)) {
		tps_error("cannot write '%s': %s", out_path ? tmp : "stdout", strerror(errno));
		goto out;
	}
	if (out_path) {
		int bad = fclose(f);
		f = NULL;
		if (bad) {
			tps_error("cannot write '%s': %s", tmp, strerror(errno));
			goto out;
		}
		if (rename(tmp, out_path) < 0) {
			tps_error("cannot rename '%s' to '%s': %s", tmp, out_path, strerror(errno));
			goto out;
		}
		free(tmp);
		tmp = NULL;
	}
	ret = TPS_EXIT_OK;
out:
	if (f && f != stdout)
		fclose(f);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	return ret;
}
