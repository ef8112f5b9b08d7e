/* cmd_models.c: `tpsdb models`, the model registry (every distinct GGUF as measured,
 * the hosts that ran it and how often) and its identity alarms. An alarm fails the
 * command: the seed study once compared two "identical" files that were not. */
#include "schema/catalog.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "tpsdb models [--json]";

static const char help[] =
	"Lists every model the store has measured: label, GGUF file name, size in bytes,\n"
	"sha256, quant, the hosts its runs were measured on and the number of runs.\n"
	"\n"
	"Then it checks model identity and prints one 'ALARM: ...' line for each\n"
	"  file-sha256-mismatch   one file name with two or more different sha256 values\n"
	"                         (across hosts or runs), naming each sha256 and its hosts\n"
	"  label-quant-mismatch   one model label measured at two or more quants\n"
	"Unknown (empty) sha256 and quant values never raise an alarm.\n"
	"\n"
	"Options:\n"
	"  --json    {\"models\": [{\"label\", \"file\", \"bytes\", \"sha256\", \"quant\",\n"
	"            \"hosts\": [...], \"runs\"}], \"alarms\": [{\"kind\", \"file\" or \"label\",\n"
	"            \"message\", \"variants\": [{\"sha256\" or \"quant\", \"hosts\": [...]}]}]};\n"
	"            unknown strings are \"\", an unknown size is null\n"
	"\n"
	"Exit codes: 0 no alarm, 1 at least one alarm, 2 usage, 3 no store or a store\n"
	"error.\n";

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, 256 },
	{ NULL, 0, NULL, 0 },
};

static int print_json(const struct catalog_model *m, size_t nm, const struct catalog_alarm *a,
		      size_t na)
{
	cJSON *root = cJSON_CreateObject(), *models = cJSON_CreateArray(), *alarms;
	char *text = catalog_alarms_json(a, na), *out = NULL;
	size_t i, j;
	int ret = -1;

	cJSON_AddItemToObject(root, "models", models);
	for (i = 0; i < nm; i++) {
		cJSON *o = cJSON_CreateObject(), *hosts = cJSON_CreateArray();
		cJSON_AddItemToArray(models, o);
		cJSON_AddStringToObject(o, "label", m[i].label);
		cJSON_AddStringToObject(o, "file", m[i].file);
		if (m[i].bytes == TPS_NULL)
			cJSON_AddNullToObject(o, "bytes");
		else
			cJSON_AddNumberToObject(o, "bytes", (double)m[i].bytes);
		cJSON_AddStringToObject(o, "sha256", m[i].sha256);
		cJSON_AddStringToObject(o, "quant", m[i].quant);
		cJSON_AddItemToObject(o, "hosts", hosts);
		for (j = 0; j < m[i].hosts.n; j++)
			cJSON_AddItemToArray(hosts, cJSON_CreateString(m[i].hosts.name[j]));
		cJSON_AddNumberToObject(o, "runs", (double)m[i].runs);
	}
	/* Re-parsed so that the whole document is printed in one style. */
	if (!(alarms = cJSON_Parse(text))) {
		tps_error("out of memory writing JSON");
		goto out;
	}
	cJSON_AddItemToObject(root, "alarms", alarms);
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

static char *hosts_text(const struct catalog_hosts *h)
{
	char *t = tps_xstrdup(h->n ? "" : "-"), *more;
	size_t i;

	for (i = 0; i < h->n; i++) {
		more = tps_xasprintf("%s%s%s", t, i ? "," : "", h->name[i]);
		free(t);
		t = more;
	}
	return t;
}

static void print_table(const struct catalog_model *m, size_t n)
{
	int wl = (int)strlen("LABEL"), wf = (int)strlen("FILE"), wq = (int)strlen("QUANT");
	size_t i;

	for (i = 0; i < n; i++) {
		if ((int)strlen(m[i].label) > wl)
			wl = (int)strlen(m[i].label);
		if ((int)strlen(m[i].file) > wf)
			wf = (int)strlen(m[i].file);
		if ((int)strlen(m[i].quant) > wq)
			wq = (int)strlen(m[i].quant);
	}
	printf("%-*s  %-*s  %12s  %-12s  %-*s  %5s  %s\n", wl, "LABEL", wf, "FILE", "BYTES",
	       "SHA256", wq, "QUANT", "RUNS", "HOSTS");
	for (i = 0; i < n; i++) {
		char bytes[32], *hosts = hosts_text(&m[i].hosts);

		if (m[i].bytes == TPS_NULL)
			snprintf(bytes, sizeof(bytes), "-");
		else
			snprintf(bytes, sizeof(bytes), "%lld", (long long)m[i].bytes);
		/* Twelve hex digits tell files apart; the alarms print them whole. */
		printf("%-*s  %-*s  %12s  %-12.12s  %-*s  %5lld  %s\n", wl, m[i].label, wf,
		       *m[i].file ? m[i].file : "-", bytes, *m[i].sha256 ? m[i].sha256 : "-",
		       wq, *m[i].quant ? m[i].quant : "-", (long long)m[i].runs, hosts);
		free(hosts);
	}
}

int cmd_models(int argc, char **argv, struct tps_ctx *ctx)
{
	struct catalog_model *m = NULL;
	struct catalog_alarm *a = NULL;
	struct store *s;
	size_t nm = 0, na = 0, i;
	int c, json = 0, ret = TPS_EXIT_ERROR;

	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case 256: json = 1; break;
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
	if (catalog_models(s, &m, &nm) < 0 || catalog_alarms(s, &a, &na) < 0)
		goto out;
	if (json) {
		if (print_json(m, nm, a, na) < 0)
			goto out;
	} else {
		if (nm)
			print_table(m, nm);
		for (i = 0; i < na; i++) {
			char *t = catalog_alarm_text(&a[i]);
			printf("ALARM: %s\n", t);
			free(t);
		}
	}
	ret = na ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	catalog_models_free(m, nm);
	catalog_alarms_free(a, na);
	return ret;
}
