/* cmd_import.c: `tpsdb import`, raw llama-server responses, llama-bench output or a
 * tpsdb export into the store, all or nothing. */
#include "collect/import.h"
#include "schema/record.h"
#include "cmd/opts.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <string.h>

static int take_sha(const struct cmd_option *opt, const char *arg, const char *usage)
{
	if (strlen(arg) != 64 || strspn(arg, "0123456789abcdef") != 64)
		return tps_usage_error(usage, "--model-sha256 needs 64 lower-case hex digits");
	*(const char **)opt->dst = arg;
	return 0;
}

int cmd_import(int argc, char **argv, struct tps_ctx *ctx)
{
	static const struct cmd_choice roles[] = {
		{ "ours", 0 }, { "upstream", 0 }, { "other", 0 }, { NULL, 0 },
	};
	struct import_opts o;
	struct import_result res;
	struct import_batch *b = NULL;
	struct store *s;
	const struct cmd_option opts[] = {
		OPT_STRING("engine", &o.engine), OPT_WORD("role", &o.role, roles),
		OPT_STRING("engine-version", &o.engine_version), OPT_STRING("model", &o.model),
		OPT_STRING("model-file", &o.model_file),
		OPT_PARSE("model-sha256", &o.model_sha256, take_sha, 0),
		OPT_STRING("quant", &o.quant), OPT_STRING("host", &o.host),
		OPT_STRING("gpu", &o.gpu), OPT_STRING("driver", &o.driver),
		OPT_STRING("cuda", &o.cuda), OPT_STRING("tag", &o.tag),
		OPT_COUNT("n-predict", &o.n_predict, 1, INT64_MAX),
		OPT_COUNT("ctx", &o.ctx, 1, INT64_MAX), OPT_STRING("spec-type", &o.spec_type),
		OPT_COUNT("n-max", &o.n_max, 1, INT64_MAX), OPT_STRING("prompt", &o.prompt),
		OPT_COUNT("warmup", &o.warmup, 0, INT64_MAX), OPT_STRING("notes", &o.notes),
		OPT_FLAG("allow-duplicate", &o.allow_duplicate),
		OPT_COUNT("max-bytes", &o.max_file, 1, IMPORT_MAX_FILE), OPT_END,
	};
	int rc;

	import_opts_init(&o);
	if ((rc = cmd_opts_parse(&cmd_import_entry, opts, argc, argv)) >= 0)
		return rc;
	if (optind >= argc)
		return tps_usage_error(usage_import, "no files to import");
	/* Read and check everything before the store is opened and locked. */
	if (!(b = import_read(&o, argv + optind, argc - optind)))
		return TPS_EXIT_ERROR;
	s = tps_ctx_store(ctx);
	/* One transaction: every file lands, or none does. */
	rc = s && store_begin(s) == 0 ? import_write(s, b, &res) : -1;
	if (s && rc == 0 && store_commit(s) < 0)
		rc = -1;
	if (s && rc < 0)
		store_rollback(s);
	import_batch_free(b);
	if (rc < 0)
		return TPS_EXIT_ERROR;
	if (res.skipped == argc - optind)
		printf("nothing imported: every file was imported before\n");
	else if (!strcmp(res.kind, "export"))
		printf("restored %ld run(s) with %ld sample(s); %ld already present\n",
		       res.runs_new, res.samples, res.runs_known);
	else if (res.runs_made > 1)
		printf("imported %ld sample(s) from %s into %ld new runs (the first: %s; see "
		       "'tpsdb runs')\n", res.samples, res.kind, res.runs_made, res.uuid);
	else
		printf("imported %ld sample(s) from %s into run %s\n", res.samples, res.kind,
		       res.uuid);
	if (res.flagged)
		printf("%ld sample(s) carry data-quality findings: see 'tpsdb check'\n", res.flagged);
	return TPS_EXIT_OK;
}

CMD_ENTRY(import, "import llama-server responses, llama-bench output or an export",
	  CMD_OPERANDS);
