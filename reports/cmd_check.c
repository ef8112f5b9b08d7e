/* cmd_check.c: `tpsdb check`, everything that makes a number untrustworthy, in one
 * place: the per-sample data-quality flags set at ingest, grouped per run with an
 * example, runs that failed to load or stopped early, the model-identity alarms and
 * SQLite's own integrity check. Any of them fails the command (exit 1). */
#include "collect/quality.h"
#include "schema/catalog.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb check [--json] [--engine <label>] [--model <label>] [--tag <t>] [--host <name>]";

static const char help[] =
	"Reports the data-quality findings of the runs, one line per run and kind, e.g.\n"
	"  run <uuid> ours/q35: 3 of 18 samples truncated decode (predicted_n 20 < n_predict 512)\n"
	"Sample kinds (set at ingest; each keeps the sample out of the metric it spoils):\n"
	"  truncated        decode stopped before n_predict, or on EOS (spoils tg)\n"
	"  cache-inflated   prefill served partly from the prompt cache, cache_n > 0 (pp)\n"
	"  short-prompt     prefill of fewer than 512 prompt tokens measures overhead (pp)\n"
	"  failed           HTTP error, no timings or a transport error (pp and tg)\n"
	"  cold-start       the first request after the server started (pp)\n"
	"Run kinds:\n"
	"  load-failed      the engine never served the model: LOADFAIL and the log tail\n"
	"  partial          the run stopped before all of its requests were answered\n"
	"  interrupted      the run was stopped by a signal\n"
	"Then the model-identity alarms of 'tpsdb models' and PRAGMA integrity_check; these\n"
	"two always cover the whole store, whatever the filters.\n"
	"\n"
	"Options:\n"
	"  --json              {\"findings\": [{\"run\", \"engine\", \"model\", \"kind\", \"count\",\n"
	"                      \"total\", \"detail\"}], \"alarms\": [...as 'tpsdb models --json'],\n"
	"                      \"integrity\": \"ok\" or [\"<problem>\", ...]}; a sample finding\n"
	"                      counts samples (count of total), a run finding has count 1\n"
	"                      and total 1\n"
	"  --engine <label>    only runs of this engine\n"
	"  --model <label>     only runs of this model\n"
	"  --tag <t>           only runs with this tag\n"
	"  --host <name>       only runs measured on this host\n"
	"\n"
	"Exit codes: 0 clean (no finding, no alarm, integrity ok), 1 anything found,\n"
	"2 usage, 3 no store or a store error.\n";

enum { OPT_JSON = 256, OPT_ENGINE, OPT_MODEL, OPT_TAG, OPT_HOST };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "host", required_argument, NULL, OPT_HOST },
	{ NULL, 0, NULL, 0 },
};

struct finding {
	const struct catalog_quality *q;
	const char *kind; /* static */
	int64_t count, total;
	char *detail;
	int run_level; /* about the run, not a count of samples */
};

struct findings {
	struct finding *f;
	size_t n;
};

static void add(struct findings *fs, const struct catalog_quality *q, const char *kind,
		int64_t count, int64_t total, char *detail)
{
	struct finding *f;

	fs->f = tps_xrealloc(fs->f, (fs->n + 1) * sizeof(*fs->f));
	f = &fs->f[fs->n++];
	f->q = q;
	f->kind = kind;
	f->count = count;
	f->total = total;
	f->detail = detail;
	f->run_level = !strcmp(kind, "load-failed") || !strcmp(kind, "partial") ||
		       !strcmp(kind, "interrupted");
}

/* The last non-empty line of a server log tail, at most 200 bytes of it. */
static char *log_tail(const char *log)
{
	const char *end, *start;

	if (!log || !*log)
		return tps_xstrdup("the engine failed to start (no server log kept)");
	end = log + strlen(log);
	while (end > log && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > log && start[-1] != '\n')
		start--;
	if (end - start > 200)
		start = end - 200;
	return tps_xstrndup(start, (size_t)(end - start));
}

static char *sample_detail(const struct catalog_quality *q, unsigned flag)
{
	switch (flag) {
	case SAMPLE_TRUNCATED:
		if (q->n_predict != TPS_NULL && q->trunc_min_predicted_n != TPS_NULL &&
		    q->trunc_min_predicted_n < q->n_predict)
			return tps_xasprintf("truncated decode (predicted_n %lld < n_predict %lld)",
					     (long long)q->trunc_min_predicted_n,
					     (long long)q->n_predict);
		if (q->trunc_min_predicted_n != TPS_NULL)
			return tps_xasprintf("truncated decode (stopped on eos, predicted_n %lld)",
					     (long long)q->trunc_min_predicted_n);
		return tps_xstrdup("truncated decode (stopped on eos)");
	case SAMPLE_CACHED:
		if (q->cache_max_n != TPS_NULL)
			return tps_xasprintf("cache-inflated prefill (cache_n %lld)",
					     (long long)q->cache_max_n);
		return tps_xstrdup("cache-inflated prefill");
	case SAMPLE_SHORT_PROMPT:
		if (q->short_min_prompt_n != TPS_NULL)
			return tps_xasprintf("short prompt (prompt_n %lld < %d)",
					     (long long)q->short_min_prompt_n, QUALITY_MIN_PROMPT_N);
		return tps_xasprintf("short prompt (prompt_n < %d)", QUALITY_MIN_PROMPT_N);
	case SAMPLE_FAILED:
		if (q->failed_example) {
			char *t = log_tail(q->failed_example), *d;
			d = tps_xasprintf("failed requests (%s)", t);
			free(t);
			return d;
		}
		return tps_xstrdup("failed requests (no timings)");
	case SAMPLE_COLD:
		return tps_xstrdup("cold-start prefill (first request after the server started)");
	}
	return tps_xstrdup("flagged");
}

static void collect(struct findings *fs, const struct catalog_quality *q, size_t n)
{
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		const char *st = q[i].status ? q[i].status : "";

		if (!strcmp(st, "failed")) {
			char *t = log_tail(q[i].load_error);
			add(fs, &q[i], "load-failed", 1, 1, tps_xasprintf("LOADFAIL: %s", t));
			free(t);
		} else if (!strcmp(st, "partial")) {
			add(fs, &q[i], "partial", 1, 1, tps_xasprintf(
				    "partial run: stopped before all of its requests were answered "
				    "(%lld samples kept)", (long long)q[i].total));
		} else if (!strcmp(st, "interrupted")) {
			add(fs, &q[i], "interrupted", 1, 1, tps_xasprintf(
				    "interrupted run: stopped by a signal (%lld samples kept)",
				    (long long)q[i].total));
		}
		for (b = 0; b < CATALOG_NFLAGS; b++) {
			if (q[i].count[b])
				add(fs, &q[i], record_flag_name(1u << b), q[i].count[b], q[i].total,
				    sample_detail(&q[i], 1u << b));
		}
	}
}

struct problems {
	char **p;
	size_t n;
};

static void on_problem(const char *problem, void *arg)
{
	struct problems *ps = arg;
	ps->p = tps_xrealloc(ps->p, (ps->n + 1) * sizeof(*ps->p));
	ps->p[ps->n++] = tps_xstrdup(problem);
}

static int print_json(const struct findings *fs, const struct catalog_alarm *a, size_t na,
		      const struct problems *ps)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray(), *alarms;
	char *text = catalog_alarms_json(a, na), *out = NULL;
	size_t i;
	int ret = -1;

	cJSON_AddItemToObject(root, "findings", arr);
	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "run", f->q->uuid);
		cJSON_AddStringToObject(o, "engine", f->q->engine);
		cJSON_AddStringToObject(o, "model", f->q->model);
		cJSON_AddStringToObject(o, "kind", f->kind);
		cJSON_AddNumberToObject(o, "count", (double)f->count);
		cJSON_AddNumberToObject(o, "total", (double)f->total);
		cJSON_AddStringToObject(o, "detail", f->detail);
	}
	if (!(alarms = cJSON_Parse(text))) {
		tps_error("out of memory writing JSON");
		goto out;
	}
	cJSON_AddItemToObject(root, "alarms", alarms);
	if (ps->n) {
		cJSON *p = cJSON_CreateArray();
		cJSON_AddItemToObject(root, "integrity", p);
		for (i = 0; i < ps->n; i++)
			cJSON_AddItemToArray(p, cJSON_CreateString(ps->p[i]));
	} else {
		cJSON_AddStringToObject(root, "integrity", "ok");
	}
	if (!(out = cJSON_Print(root))) {
		tps_error("out of memory writing JSON");
		goto out;
	}
	printf("%s\n", out);
	ret = 0;
out:
	cJSON_Delete(root);
	cJSON_free(out);
	free(text);
	return ret;
}

static void print_text(const struct findings *fs, const struct catalog_alarm *a, size_t na,
		       const struct problems *ps)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];
		if (f->run_level)
			printf("run %s %s/%s: %s\n", f->q->uuid, f->q->engine, f->q->model,
			       f->detail);
		else
			printf("run %s %s/%s: %lld of %lld samples %s\n", f->q->uuid,
			       f->q->engine, f->q->model, (long long)f->count,
			       (long long)f->total, f->detail);
	}
	for (i = 0; i < na; i++) {
		char *t = catalog_alarm_text(&a[i]);
		printf("ALARM: %s\n", t);
		free(t);
	}
	for (i = 0; i < ps->n; i++)
		printf("integrity: %s\n", ps->p[i]);
	if (!fs->n && !na && !ps->n)
		printf("no findings; integrity ok\n");
	else
		printf("%zu finding(s), %zu alarm(s), integrity %s\n", fs->n, na,
		       ps->n ? "FAILED" : "ok");
}

int cmd_check(int argc, char **argv, struct tps_ctx *ctx)
{
	struct run_filter filt = { 0 };
	struct catalog_quality *q = NULL;
	struct catalog_alarm *a = NULL;
	struct findings fs = { 0 };
	struct problems ps = { 0 };
	struct store *s;
	size_t nq = 0, na = 0, i;
	int c, json = 0, ret = TPS_EXIT_ERROR;

	while ((c = tps_getopt(argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_JSON: json = 1; break;
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
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (catalog_quality(s, &filt, &q, &nq) < 0 || catalog_alarms(s, &a, &na) < 0 ||
	    store_integrity(s, on_problem, &ps) < 0)
		goto out;
	collect(&fs, q, nq);
	if (json) {
		if (print_json(&fs, a, na, &ps) < 0)
			goto out;
	} else {
		print_text(&fs, a, na, &ps);
	}
	ret = fs.n || na || ps.n ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	for (i = 0; i < fs.n; i++)
		free(fs.f[i].detail);
	free(fs.f);
	for (i = 0; i < ps.n; i++)
		free(ps.p[i]);
	free(ps.p);
	catalog_quality_free(q, nq);
	catalog_alarms_free(a, na);
	return ret;
}
