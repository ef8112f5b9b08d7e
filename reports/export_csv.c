/* export_csv.c: the sample rows of `tpsdb export --format csv`. Every column of run
 * and sample travels, in the store's column names, so a spreadsheet sees what
 * `tpsdb import` would restore from the JSONL form, and the rates tpsdb compares
 * (pp_rate, tg_rate), which the JSONL form leaves out: import computes them. */
#include "reports/export_csv.h"
#include "reports/csv.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const csv_header[] = {
	"run_uuid", "started_at", "ended_at", "status", "source", "host", "gpu", "driver",
	"cuda", "engine", "role", "engine_version", "engine_sha256", "model", "model_file",
	"model_bytes", "model_sha256", "quant", "ctx", "n_predict", "ignore_eos",
	"temperature", "seed", "endpoint", "spec_type", "n_max", "drafter", "extra_args",
	"tag", "notes", "load_error", "log_path", "warmup", "prompt_set",
	"prompt", "prompt_hash", "rep", "seq", "cache_n", "prompt_n", "prompt_ms",
	"prompt_per_second", "predicted_n", "predicted_ms", "predicted_per_second",
	"pp_rate", "tg_rate", "draft_n", "draft_n_accepted", "wall_ms", "http_status", "error",
	"stop_type", "output_hash", "flags", "flag_names", "timings", "client_ttft_ms",
	"client_decode_per_second", "client_e2e_ms",
};
#define CSV_NCOLS (sizeof(csv_header) / sizeof(csv_header[0]))

static void csv_field(FILE *f, const char *v, int first)
{
	if (!first)
		fputc(',', f);
	csv_put(f, v);
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
	/* The rates tpsdb compares (schema/record.h), beside the engine's own. */
	csv_dbl(f, record_pp_rate(s));
	csv_dbl(f, record_tg_rate(s));
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
	csv_dbl(f, s->client_ttft_ms);
	csv_dbl(f, s->client_decode_per_second);
	csv_dbl(f, s->client_e2e_ms);
	fputs("\r\n", f);
}

void export_csv_header(FILE *f)
{
	size_t i;

	for (i = 0; i < CSV_NCOLS; i++)
		csv_field(f, csv_header[i], i == 0);
	fputs("\r\n", f);
}

void export_csv_run(FILE *f, const struct run_rec *r, const struct sample_rec *smp, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		csv_row(f, r, &smp[i]);
}

