/* cmd_import.c: `tpsdb import`, raw llama-server responses, llama-bench output or a
 * tpsdb export into the store, all or nothing. */
#include "collect/import.h"
#include "schema/record.h"
#include "cmd/opts.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <string.h>

enum {
	OPT_ENGINE = 256, OPT_ROLE, OPT_ENGINE_VERSION, OPT_MODEL, OPT_MODEL_FILE,
	OPT_MODEL_SHA, OPT_QUANT, OPT_HOST, OPT_GPU, OPT_DRIVER, OPT_CUDA, OPT_TAG,
	OPT_NPREDICT, OPT_CTX, OPT_SPEC, OPT_NMAX, OPT_PROMPT, OPT_WARMUP, OPT_NOTES,
	OPT_ALLOW_DUP, OPT_MAX_BYTES,
};

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "role", required_argument, NULL, OPT_ROLE },
	{ "engine-version", required_argument, NULL, OPT_ENGINE_VERSION },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "model-file", required_argument, NULL, OPT_MODEL_FILE },
	{ "model-sha256", required_argument, NULL, OPT_MODEL_SHA },
	{ "quant", required_argument, NULL, OPT_QUANT },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "gpu", required_argument, NULL, OPT_GPU },
	{ "driver", required_argument, NULL, OPT_DRIVER },
	{ "cuda", required_argument, NULL, OPT_CUDA },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "n-predict", required_argument, NULL, OPT_NPREDICT },
	{ "ctx", required_argument, NULL, OPT_CTX },
	{ "spec-type", required_argument, NULL, OPT_SPEC },
	{ "n-max", required_argument, NULL, OPT_NMAX },
	{ "prompt", required_argument, NULL, OPT_PROMPT },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "notes", required_argument, NULL, OPT_NOTES },
	{ "allow-duplicate", no_argument, NULL, OPT_ALLOW_DUP },
	{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
	{ NULL, 0, NULL, 0 },
};

static int count_opt(const char *name, const char *v, int64_t min, int64_t *out)
{
	if (tps_parse_i64(v, out) < 0 || *out < min)
		return tps_usage_error(usage_import, "--%s needs a whole number >= %lld, not '%s'", name,
				       (long long)min, v);
	return 0;
}

int cmd_import(int argc, char **argv, struct tps_ctx *ctx)
{
	struct cmd_opts co = { .cmd = &cmd_import_entry };
	struct import_opts o;
	struct import_result res;
	struct import_batch *b = NULL;
	struct store *s;
	int c, rc;

	import_opts_init(&o);

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_ENGINE: o.engine = optarg; break;
		case OPT_ROLE:
			if (strcmp(optarg, "ours") && strcmp(optarg, "upstream") && strcmp(optarg, "other"))
				return tps_usage_error(usage_import,
						       "--role is ours, upstream or other, not '%s'", optarg);
			o.role = optarg;
			break;
		case OPT_ENGINE_VERSION: o.engine_version = optarg; break;
		case OPT_MODEL: o.model = optarg; break;
		case OPT_MODEL_FILE: o.model_file = optarg; break;
		case OPT_MODEL_SHA:
			if (strlen(optarg) != 64 || strspn(optarg, "0123456789abcdef") != 64)
				return tps_usage_error(usage_import,
						       "--model-sha256 needs 64 lower-case hex digits");
			o.model_sha256 = optarg;
			break;
		case OPT_QUANT: o.quant = optarg; break;
		case OPT_HOST: o.host = optarg; break;
		case OPT_GPU: o.gpu = optarg; break;
		case OPT_DRIVER: o.driver = optarg; break;
		case OPT_CUDA: o.cuda = optarg; break;
		case OPT_TAG: o.tag = optarg; break;
		case OPT_SPEC: o.spec_type = optarg; break;
		case OPT_PROMPT: o.prompt = optarg; break;
		case OPT_NOTES: o.notes = optarg; break;
		case OPT_ALLOW_DUP: o.allow_duplicate = 1; break;
		case OPT_MAX_BYTES:
			if (count_opt("max-bytes", optarg, 1, &o.max_file))
				return TPS_EXIT_USAGE;
			if (o.max_file > IMPORT_MAX_FILE)
				return tps_usage_error(usage_import, "--max-bytes is at most %lld",
						       (long long)IMPORT_MAX_FILE);
			break;
		case OPT_NPREDICT:
			if (count_opt("n-predict", optarg, 1, &o.n_predict))
				return TPS_EXIT_USAGE;
			break;
		case OPT_CTX:
			if (count_opt("ctx", optarg, 1, &o.ctx))
				return TPS_EXIT_USAGE;
			break;
		case OPT_NMAX:
			if (count_opt("n-max", optarg, 1, &o.n_max))
				return TPS_EXIT_USAGE;
			break;
		case OPT_WARMUP:
			if (count_opt("warmup", optarg, 0, &o.warmup))
				return TPS_EXIT_USAGE;
			break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret;
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

const struct cmd_entry cmd_import_entry = {
	.name = "import",
	.summary = "import llama-server responses, llama-bench output or an export",
	.usage = usage_import,
	.help = help_import,
	.flags = CMD_OPERANDS,
	.exec = cmd_import,
};
