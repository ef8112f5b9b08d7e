/* cmd_collect.c: 'tpsdb collect', the measuring front end. It reads the options
 * (or the seed harness's environment), builds the matrix (collect/plan.c), hashes
 * the binaries and models once, runs the cells one by one (collect/cell.c) and
 * ends with a summary table (reports/summary.c) on stdout and in the out dir. */
#include "collect/cell.h"
#include "collect/filehash.h"
#include "collect/http.h"
#include "collect/interrupt.h"
#include "collect/manifest.h"
#include "collect/plan.h"
#include "collect/progress.h"
#include "collect/prompts.h"
#include "collect/props.h"
#include "collect/provenance.h"
#include "collect/quant.h"
#include "collect/server.h"
#include "reports/summary.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char usage_line[] =
	"tpsdb collect (--engine <label>=<binary>... | --url <url> --engine <label>) "
	"[<options>]";

static const char help_text[] =
"usage: tpsdb collect --engine <label>=<binary>... [--ours <label>] [--role <label>=<role>]...\n"
"                     [--engine-args <label>=<args>]... [--home <label>=<dir>]...\n"
"                     (--models <file> | --model <label>=<gguf>...) [--spec-manifest <file>]\n"
"                     [<knobs>] [<provenance>] [--out-dir <dir>] [--quiet] [--dry-run]\n"
"   or: tpsdb collect --url <url> --engine <label> [--model <label>]\n"
"                     [--spec-type <type> --n-max <n>] [<knobs>] [<provenance>]\n"
"   or: tpsdb collect [<knobs>]    (engines and models from the environment, below)\n"
"\n"
"Starts each engine on each model (or measures a running server), sends every\n"
"prompt --reps times and records every timing in the store, one run per cell of\n"
"the matrix: model by model, engine by engine, a base run and then one run per\n"
"n_max of the model's spec manifest line. Each sample is committed as it arrives.\n"
"\n"
"Engines and models:\n"
"  --engine <label>=<binary>  an engine to start (any number); in attach mode\n"
"                             just --engine <label>\n"
"  --ours <label>             this engine has role 'ours'; the others are\n"
"                             'upstream' when the label contains \"llama.cpp\" or\n"
"                             \"stock\", else 'other'\n"
"  --role <label>=<role>      set a role: ours, upstream or other\n"
"  --engine-args <label>=<args>  extra server args for every run of an engine\n"
"  --home <label>=<dir>       HOME for an engine's servers\n"
"  --models <file>            lines 'label | gguf path | extra server args'\n"
"  --model <label>=<gguf>     a model (any number); in attach mode --model <label>\n"
"                             names the model (default: /props model_path's base name)\n"
"  --spec-manifest <file>     lines 'label | gguf path | spec server args | n_max\n"
"                             list', e.g. 'q35 | /m/q35.gguf | --spec-type draft-simple\n"
"                             -md /m/d.gguf | 1,2,3'; each n_max adds a run with the\n"
"                             spec args and --spec-draft-n-max <n>; a list given\n"
"                             to --spec-synth-rates is cut to its first <n> values\n"
"                             Manifests: '#' comments and blank lines are allowed.\n"
"  --url <url>                attach to a running server instead of starting one\n"
"  --spec-type <type>, --n-max <n>  attach mode: what the running server does\n"
"\n"
"Knobs:\n"
"  --reps <n>                 repetitions of each prompt (default 3)\n"
"  --prompts <file>           your own prompts: a line '## <name>' starts each one\n"
"                             and the lines up to the next '## ' are its text; a\n"
"                             block '## @reference' replaces the reference text that\n"
"                             precedes every prompt; '#' comments may open the file\n"
"  --no-reference             send the prompts without the reference text\n"
"  --ctx <n>                  server context, -c (default 4096)\n"
"  --n-predict <n>            tokens to generate, EOS ignored (default 512)\n"
"  --endpoint completion|chat POST /completion (default) or /v1/chat/completions\n"
"  --ban-byte-tokens          logit_bias bans token ids 3..258 (random-weight models\n"
"                             can emit invalid UTF-8, which the server answers with\n"
"                             HTTP 500)\n"
"  --seed <n>                 sampling seed (default 1234); temperature is 0\n"
"  --warmup <n>               unrecorded requests after each start (default 1)\n"
"  --aa                       run each model's whole pass over the engines twice,\n"
"                             every cell on a freshly started server: A/A pairs,\n"
"                             as far apart as the cells compare pairs, for\n"
"                             'tpsdb calibrate'\n"
"  --gpu <ids>                CUDA_VISIBLE_DEVICES for the servers\n"
"  --port <n>                 base port; the first free one from here (default 18080)\n"
"  --load-timeout <s>         give up on a server not ready after <s> (default 600)\n"
"  --request-timeout <s>      give up on one request after <s> (default 600)\n"
"  --tag <tag>, --notes <text>  recorded on every run\n"
"\n"
"Provenance (detected with gethostname and nvidia-smi unless given):\n"
"  --host <name>, --gpu-name <name>, --driver <version>, --cuda <version>\n"
"\n"
"Output:\n"
"  --out-dir <dir>            server logs and summary.txt (default\n"
"                             ./tpsdb-collect-<UTC time>)\n"
"  --quiet                    no progress line (it is drawn only on a terminal;\n"
"                             NO_COLOR turns its colours off)\n"
"  --dry-run                  print the matrix and each server command; start nothing\n"
"\n"
"Environment (read only when neither --engine nor --url is given; the seed\n"
"harness's drop-in):\n"
"  OURS_BIN          engine 'ours', role ours (extra args: OURS_ARGS)\n"
"  STOCK_LLAMAFILE   engine 'stock-llamafile', role upstream (extra args:\n"
"                    STOCK_LLAMAFILE_ARGS, default '--server --nobrowser'); its HOME\n"
"                    is STOCKLF_HOME, else a fresh temporary one removed afterwards\n"
"  STOCK_LLAMACPP    engine 'llama.cpp', role upstream (STOCK_LLAMACPP_ARGS)\n"
"  MODELS_MANIFEST   --models      MTP_MANIFEST  --spec-manifest\n"
"  GPU  --gpu        PORT  --port  NPRED  --n-predict   OUT_DIR  --out-dir\n"
"  An engine whose variable is unset or empty is skipped. Options win.\n"
"\n"
"Faults are recorded, not fatal: a server that does not get ready makes a 'failed'\n"
"run with its log tail (LOADFAIL in the summary) and the next cell runs; a failed\n"
"request is a sample with its error; if the server dies (or %d requests in a row\n"
"time out) the prompts left are recorded as not attempted and the next cell\n"
"starts a fresh server. SIGINT or SIGTERM stops the servers, marks the current run\n"
"'interrupted', keeps every sample and exits 3.\n"
"\n"
"Exit status: 0 every cell complete; 1 some cell partial or failed; 2 usage (also\n"
"a bad manifest or prompt file line); 3 runtime error (store, unreadable file,\n"
"unreachable --url, interrupted).\n";

struct kv {
	char *key, *value;
};

struct kvs {
	struct kv *v;
	size_t n;
};

struct opts {
	struct kvs engines, roles, engine_args, homes, models;
	const char *ours, *models_file, *spec_file, *prompts_file, *url, *endpoint;
	const char *spec_type, *out_dir, *host, *gpu_name, *driver, *cuda;
	int64_t n_max;
	int no_reference, quiet, dry_run, aa;
	struct collect_opts c;
};

enum {
	OPT_ENGINE = 256, OPT_OURS, OPT_ROLE, OPT_ENGINE_ARGS, OPT_HOME, OPT_MODELS,
	OPT_MODEL, OPT_SPEC, OPT_URL, OPT_SPEC_TYPE, OPT_N_MAX, OPT_REPS, OPT_PROMPTS,
	OPT_NO_REF, OPT_CTX, OPT_N_PREDICT, OPT_ENDPOINT, OPT_BAN, OPT_SEED, OPT_WARMUP,
	OPT_GPU, OPT_PORT, OPT_LOAD_TIMEOUT, OPT_REQ_TIMEOUT, OPT_TAG, OPT_NOTES,
	OPT_HOST, OPT_GPU_NAME, OPT_DRIVER, OPT_CUDA, OPT_OUT_DIR, OPT_QUIET, OPT_DRY_RUN, OPT_AA,
};

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "ours", required_argument, NULL, OPT_OURS },
	{ "role", required_argument, NULL, OPT_ROLE },
	{ "engine-args", required_argument, NULL, OPT_ENGINE_ARGS },
	{ "home", required_argument, NULL, OPT_HOME },
	{ "models", required_argument, NULL, OPT_MODELS },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "spec-manifest", required_argument, NULL, OPT_SPEC },
	{ "url", required_argument, NULL, OPT_URL },
	{ "spec-type", required_argument, NULL, OPT_SPEC_TYPE },
	{ "n-max", required_argument, NULL, OPT_N_MAX },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "prompts", required_argument, NULL, OPT_PROMPTS },
	{ "no-reference", no_argument, NULL, OPT_NO_REF },
	{ "ctx", required_argument, NULL, OPT_CTX },
	{ "n-predict", required_argument, NULL, OPT_N_PREDICT },
	{ "endpoint", required_argument, NULL, OPT_ENDPOINT },
	{ "ban-byte-tokens", no_argument, NULL, OPT_BAN },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "gpu", required_argument, NULL, OPT_GPU },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "load-timeout", required_argument, NULL, OPT_LOAD_TIMEOUT },
	{ "request-timeout", required_argument, NULL, OPT_REQ_TIMEOUT },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "notes", required_argument, NULL, OPT_NOTES },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "gpu-name", required_argument, NULL, OPT_GPU_NAME },
	{ "driver", required_argument, NULL, OPT_DRIVER },
	{ "cuda", required_argument, NULL, OPT_CUDA },
	{ "out-dir", required_argument, NULL, OPT_OUT_DIR },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "aa", no_argument, NULL, OPT_AA },
	{ NULL, 0, NULL, 0 },
};

static void kvs_add(struct kvs *k, const char *key, const char *value)
{
	k->v = tps_xrealloc(k->v, (k->n + 1) * sizeof(*k->v));
	k->v[k->n].key = tps_xstrdup(key);
	k->v[k->n].value = tps_xstrdup(value);
	k->n++;
}

/* "label=value" into the list; value NULL when there is no '=' and that is allowed. */
static int kvs_add_pair(struct kvs *k, const char *opt, const char *arg, int need_value)
{
	const char *eq = strchr(arg, '=');
	char *key;

	if (eq == arg || (!eq && need_value) || !*arg)
		return tps_usage_error(usage_line, "--%s needs <label>=<value>, not '%s'", opt,
				       arg);
	key = tps_xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	kvs_add(k, key, eq ? eq + 1 : NULL);
	free(key);
	return 0;
}

static void kvs_release(struct kvs *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].key);
		free(k->v[i].value);
	}
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

static int parse_count(const char *opt, const char *arg, int64_t min, int64_t max,
		       int64_t *out)
{
	if (tps_parse_i64(arg, out) < 0 || *out < min || *out > max)
		return tps_usage_error(usage_line, "--%s needs a whole number from %lld to %lld, "
				       "not '%s'", opt, (long long)min, (long long)max, arg);
	return 0;
}

static int parse_secs(const char *opt, const char *arg, double *out)
{
	if (tps_parse_double(arg, out) < 0 || *out <= 0 || *out > 1e6)
		return tps_usage_error(usage_line, "--%s needs a positive number of seconds, "
				       "not '%s'", opt, arg);
	return 0;
}

/* Returns 0 to go on, or an exit code (also TPS_EXIT_OK after --help). */
static int parse_options(int argc, char **argv, struct opts *o, int *done)
{
	int64_t v;
	int c;

	*done = 0;
	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, longopts)) != -1) {
		const char *name = NULL;
		for (size_t i = 0; longopts[i].name; i++) {
			if (longopts[i].val == c)
				name = longopts[i].name;
		}
		switch (c) {
		case 'h':
			printf(help_text, CELL_MAX_TIMEOUTS_IN_ROW);
			*done = 1;
			return TPS_EXIT_OK;
		case OPT_ENGINE:
			if (kvs_add_pair(&o->engines, name, optarg, 0))
				return TPS_EXIT_USAGE;
			break;
		case OPT_OURS: o->ours = optarg; break;
		case OPT_ROLE:
			if (kvs_add_pair(&o->roles, name, optarg, 1))
				return TPS_EXIT_USAGE;
			break;
		case OPT_ENGINE_ARGS:
			if (kvs_add_pair(&o->engine_args, name, optarg, 1))
				return TPS_EXIT_USAGE;
			break;
		case OPT_HOME:
			if (kvs_add_pair(&o->homes, name, optarg, 1))
				return TPS_EXIT_USAGE;
			break;
		case OPT_MODELS: o->models_file = optarg; break;
		case OPT_MODEL:
			if (kvs_add_pair(&o->models, name, optarg, 0))
				return TPS_EXIT_USAGE;
			break;
		case OPT_SPEC: o->spec_file = optarg; break;
		case OPT_URL: o->url = optarg; break;
		case OPT_SPEC_TYPE: o->spec_type = optarg; break;
		case OPT_N_MAX:
			if (parse_count(name, optarg, 1, 4096, &o->n_max))
				return TPS_EXIT_USAGE;
			break;
		case OPT_REPS:
			if (parse_count(name, optarg, 1, 100000, &o->c.reps))
				return TPS_EXIT_USAGE;
			break;
		case OPT_PROMPTS: o->prompts_file = optarg; break;
		case OPT_NO_REF: o->no_reference = 1; break;
		case OPT_CTX:
			if (parse_count(name, optarg, 16, 1 << 24, &o->c.ctx))
				return TPS_EXIT_USAGE;
			break;
		case OPT_N_PREDICT:
			if (parse_count(name, optarg, 1, 1 << 24, &o->c.n_predict))
				return TPS_EXIT_USAGE;
			break;
		case OPT_ENDPOINT: o->endpoint = optarg; break;
		case OPT_BAN: o->c.ban_byte_tokens = 1; break;
		case OPT_SEED:
			if (parse_count(name, optarg, 0, INT64_C(4294967295), &o->c.seed))
				return TPS_EXIT_USAGE;
			break;
		case OPT_WARMUP:
			if (parse_count(name, optarg, 0, 1000, &o->c.warmup))
				return TPS_EXIT_USAGE;
			break;
		case OPT_GPU: o->c.gpu = optarg; break;
		case OPT_PORT:
			if (parse_count(name, optarg, 1, 65535, &v))
				return TPS_EXIT_USAGE;
			o->c.base_port = (int)v;
			break;
		case OPT_LOAD_TIMEOUT:
			if (parse_secs(name, optarg, &o->c.load_timeout_s))
				return TPS_EXIT_USAGE;
			break;
		case OPT_REQ_TIMEOUT:
			if (parse_secs(name, optarg, &o->c.request_timeout_s))
				return TPS_EXIT_USAGE;
			break;
		case OPT_TAG: o->c.tag = optarg; break;
		case OPT_NOTES: o->c.notes = optarg; break;
		case OPT_HOST: o->host = optarg; break;
		case OPT_GPU_NAME: o->gpu_name = optarg; break;
		case OPT_DRIVER: o->driver = optarg; break;
		case OPT_CUDA: o->cuda = optarg; break;
		case OPT_OUT_DIR: o->out_dir = optarg; break;
		case OPT_QUIET: o->quiet = 1; break;
		case OPT_DRY_RUN: o->dry_run = 1; break;
		case OPT_AA: o->aa = 1; break;
		default:
			fprintf(stderr, "usage: %s\n", usage_line);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage_line, "unexpected argument '%s'", argv[optind]);
	return 0;
}

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* The seed harness's variables, for a command line with no engine at all. */
static int apply_env(struct opts *o, struct plan *p)
{
	static const struct {
		const char *var, *label, *role, *args_var, *default_args;
	} engines[] = {
		{ "OURS_BIN", "ours", "ours", "OURS_ARGS", "" },
		{ "STOCK_LLAMAFILE", "stock-llamafile", "upstream", "STOCK_LLAMAFILE_ARGS",
		  "--server --nobrowser" },
		{ "STOCK_LLAMACPP", "llama.cpp", "upstream", "STOCK_LLAMACPP_ARGS", "" },
	};
	const char *v;
	int64_t n;
	char err[256];

	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		struct engine_spec *e;
		const char *args;
		if (!(v = env_nonempty(engines[i].var)))
			continue;
		e = plan_add_engine(p, engines[i].label, v, err, sizeof(err));
		if (!e)
			return tps_usage_error(usage_line, "%s", err);
		free(e->role);
		e->role = tps_xstrdup(engines[i].role);
		args = getenv(engines[i].args_var);
		free(e->args);
		e->args = tps_xstrdup(args ? args : engines[i].default_args);
		if (!strcmp(engines[i].label, "stock-llamafile")) {
			/* Never let it load a GPU library another build cached in ~/.llamafile. */
			if ((v = env_nonempty("STOCKLF_HOME")))
				e->home = tps_xstrdup(v);
			else
				e->fresh_home = 1;
		}
	}
	if (!p->n_engines)
		return tps_usage_error(usage_line, "no engine: give --engine <label>=<binary> "
				       "or --url, or set OURS_BIN, STOCK_LLAMAFILE or "
				       "STOCK_LLAMACPP");
	if (!o->models_file && !o->models.n)
		o->models_file = env_nonempty("MODELS_MANIFEST");
	if (!o->spec_file)
		o->spec_file = env_nonempty("MTP_MANIFEST");
	if (!o->c.gpu)
		o->c.gpu = env_nonempty("GPU");
	if (!o->out_dir)
		o->out_dir = env_nonempty("OUT_DIR");
	if (o->c.base_port == 0 && (v = env_nonempty("PORT"))) {
		if (parse_count("port (PORT)", v, 1, 65535, &n))
			return TPS_EXIT_USAGE;
		o->c.base_port = (int)n;
	}
	if (o->c.n_predict == 0 && (v = env_nonempty("NPRED"))) {
		if (parse_count("n-predict (NPRED)", v, 1, 1 << 24, &o->c.n_predict))
			return TPS_EXIT_USAGE;
	}
	return 0;
}

/* Reads and parses a manifest into m: 3 when it cannot be read, 2 on a bad line. */
static int load_manifest(struct manifest *m, enum manifest_kind kind, const char *path)
{
	char err[1024];
	char *text = tps_read_file(path, NULL);
	int ret = 0;

	if (!text)
		return TPS_EXIT_ERROR;
	if (manifest_parse(m, kind, text, path, err, sizeof(err)) < 0) {
		tps_error("%s", err);
		ret = TPS_EXIT_USAGE;
	}
	free(text);
	return ret;
}

/* Engines from --engine and the roles, args and homes that go with them. */
static int build_engines(struct opts *o, struct plan *p)
{
	char err[256];
	size_t i;

	for (i = 0; i < o->engines.n; i++) {
		const struct kv *kv = &o->engines.v[i];
		if (o->url && kv->value)
			return tps_usage_error(usage_line, "attach mode takes --engine <label>, "
					       "without a binary");
		if (!o->url && !kv->value)
			return tps_usage_error(usage_line, "--engine needs <label>=<binary>, not "
					       "'%s'", kv->key);
		if (!o->url && !*kv->value)
			return tps_usage_error(usage_line, "engine '%s' has an empty binary",
					       kv->key);
		if (!plan_add_engine(p, kv->key, kv->value, err, sizeof(err)))
			return tps_usage_error(usage_line, "%s", err);
	}
	if (o->url && p->n_engines != 1)
		return tps_usage_error(usage_line, "attach mode measures one engine: give "
				       "exactly one --engine <label>");
	if (o->ours) {
		struct engine_spec *e = plan_find_engine(p, o->ours);
		if (!e)
			return tps_usage_error(usage_line, "--ours '%s' is not an engine", o->ours);
		free(e->role);
		e->role = tps_xstrdup("ours");
	}
	for (i = 0; i < o->roles.n; i++) {
		struct engine_spec *e = plan_find_engine(p, o->roles.v[i].key);
		if (!e)
			return tps_usage_error(usage_line, "--role: '%s' is not an engine",
					       o->roles.v[i].key);
		if (!plan_role_valid(o->roles.v[i].value))
			return tps_usage_error(usage_line, "--role: '%s' is not ours, upstream or "
					       "other", o->roles.v[i].value);
		free(e->role);
		e->role = tps_xstrdup(o->roles.v[i].value);
	}
	for (i = 0; i < o->engine_args.n; i++) {
		struct engine_spec *e = plan_find_engine(p, o->engine_args.v[i].key);
		char **words = NULL;
		size_t nw = 0;
		if (!e)
			return tps_usage_error(usage_line, "--engine-args: '%s' is not an engine",
					       o->engine_args.v[i].key);
		if (manifest_split_args(o->engine_args.v[i].value, &words, &nw, err,
					sizeof(err)) < 0) {
			manifest_free_args(words);
			return tps_usage_error(usage_line, "--engine-args: %s", err);
		}
		manifest_free_args(words);
		free(e->args);
		e->args = tps_xstrdup(o->engine_args.v[i].value);
	}
	for (i = 0; i < o->homes.n; i++) {
		struct engine_spec *e = plan_find_engine(p, o->homes.v[i].key);
		if (!e)
			return tps_usage_error(usage_line, "--home: '%s' is not an engine",
					       o->homes.v[i].key);
		free(e->home);
		e->home = tps_xstrdup(o->homes.v[i].value);
		e->fresh_home = 0;
	}
	return 0;
}

/* Models from --models, --model and --spec-manifest, in that order. */
static int build_models(struct opts *o, struct plan *p)
{
	struct manifest mm = { 0 }, sm = { 0 };
	char err[1024];
	size_t i;
	int ret = TPS_EXIT_USAGE, r;

	if (o->models_file && (r = load_manifest(&mm, MANIFEST_MODELS, o->models_file))) {
		ret = r;
		goto out;
	}
	if (o->spec_file && (r = load_manifest(&sm, MANIFEST_SPEC, o->spec_file))) {
		ret = r;
		goto out;
	}
	for (i = 0; i < mm.n; i++) {
		if (!plan_add_model(p, mm.v[i].label, mm.v[i].path, mm.v[i].args, err,
				    sizeof(err))) {
			tps_error("%s:%d: %s", o->models_file, mm.v[i].line, err);
			goto out;
		}
	}
	for (i = 0; i < o->models.n; i++) {
		const struct kv *kv = &o->models.v[i];
		if (!kv->value || !*kv->value) {
			tps_usage_error(usage_line, "--model needs <label>=<gguf>, not '%s'",
					kv->key);
			goto out;
		}
		if (!plan_add_model(p, kv->key, kv->value, "", err, sizeof(err))) {
			tps_usage_error(usage_line, "--model: %s", err);
			goto out;
		}
	}
	for (i = 0; i < sm.n; i++) {
		if (plan_add_spec(p, &sm.v[i], err, sizeof(err)) < 0) {
			tps_error("%s:%d: %s", o->spec_file, sm.v[i].line, err);
			goto out;
		}
	}
	ret = 0;
out:
	manifest_release(&mm);
	manifest_release(&sm);
	return ret;
}

static int load_prompts(const struct opts *o, struct prompt_set *ps)
{
	char err[1024];
	char *text;
	int ret = 0;

	if (!o->prompts_file) {
		prompts_builtin(ps, !o->no_reference, o->c.chat);
		return 0;
	}
	if (!(text = tps_read_file(o->prompts_file, NULL)))
		return TPS_EXIT_ERROR;
	if (prompts_parse(ps, text, o->prompts_file, !o->no_reference, o->c.chat, err,
			  sizeof(err)) < 0) {
		tps_error("%s", err);
		ret = TPS_EXIT_USAGE;
	}
	free(text);
	return ret;
}

static int mkdir_p(const char *path)
{
	char *copy = tps_xstrdup(path), *p;
	int ret = 0;

	for (p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) < 0 && errno != EEXIST)
			ret = -1;
		*p = '/';
	}
	if (mkdir(copy, 0755) < 0 && errno != EEXIST)
		ret = -1;
	if (ret < 0)
		tps_error("cannot create '%s': %s", path, strerror(errno));
	free(copy);
	return ret;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	remove(path);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* File name, quant, size and sha256 of each model; sha256 of each binary. */
static int identify(struct store *s, struct plan *p, const struct opts *o)
{
	char hex[65];
	int64_t bytes;
	size_t i;

	for (i = 0; i < p->n_engines; i++) {
		struct engine_spec *e = &p->engines[i];
		char *real;
		if (!e->binary)
			continue;
		if (!(real = filehash_resolve(e->binary))) {
			tps_warning("engine '%s': cannot find '%s'", e->label, e->binary);
			continue;
		}
		if (filehash_get(s, real, hex, NULL) == 0)
			e->sha256 = tps_xstrdup(hex);
		free(real);
		if (interrupt_pending())
			return -1;
	}
	for (i = 0; i < p->n_models; i++) {
		struct model_spec *m = &p->models[i];
		m->file = tps_xstrdup(base_name(m->path));
		m->quant = tps_xstrdup(quant_guess(m->path));
		if (access(m->path, R_OK) != 0) {
			if (!o->url)
				tps_warning("model '%s': cannot read '%s': %s", m->label, m->path,
					    strerror(errno));
			continue;
		}
		if (filehash_get(s, m->path, hex, &bytes) == 0) {
			m->sha256 = tps_xstrdup(hex);
			m->bytes = bytes;
		}
		if (interrupt_pending())
			return -1;
	}
	return 0;
}

/* Attach mode: wait for the server, then name the model from /props. */
static int attach_model(const struct opts *o, struct plan *p)
{
	struct http *h = http_new(o->url);
	struct http_reply r;
	struct props pr;
	char why[512], err[256];
	const char *label = NULL, *path;
	int ret = TPS_EXIT_ERROR;

	props_init(&pr);
	if (!h)
		goto out;
	if (server_wait_ready(h, NULL, o->c.load_timeout_s, NULL, NULL, NULL, why,
			      sizeof(why)) < 0) {
		tps_error("cannot measure '%s': %s", o->url, why);
		goto out;
	}
	if (http_get(h, "/props", 10000, &r) == 0 && r.status == 200)
		props_parse(r.body, r.len, &pr, err, sizeof(err));
	http_reply_release(&r);
	if (o->models.n > 1 || (o->models.n == 1 && o->models.v[0].value)) {
		ret = tps_usage_error(usage_line, "attach mode takes one --model <label>");
		goto out;
	}
	path = pr.model_path;
	if (o->models.n)
		label = o->models.v[0].key;
	else if (path)
		label = base_name(path);
	if (!label) {
		ret = tps_usage_error(usage_line, "the server does not say its model_path: give "
				      "--model <label>");
		goto out;
	}
	if (!plan_add_model(p, label, path ? path : label, "", err, sizeof(err))) {
		tps_error("%s", err);
		goto out;
	}
	ret = 0;
out:
	props_release(&pr);
	http_free(h);
	return ret;
}

static void print_plan(FILE *f, const struct plan *p, const struct opts *o)
{
	size_t k;

	for (k = 0; k < p->n_cells; k++) {
		const struct cell *c = &p->cells[k];
		const struct engine_spec *e = &p->engines[c->engine];
		fprintf(f, "%zu/%zu %s %s (%s) ", k + 1, p->n_cells, p->models[c->model].label,
			e->label, e->role);
		if (c->n_max == TPS_NULL)
			fprintf(f, "base");
		else
			fprintf(f, "n_max=%lld spec_type=%s drafter=%s", (long long)c->n_max,
				c->spec_type, *c->drafter ? c->drafter : "-");
		if (o->url) {
			fprintf(f, ": %s\n", o->url);
			continue;
		}
		fprintf(f, ":");
		char **argv = plan_argv(p, c, o->c.base_port, o->c.ctx);
		for (size_t i = 0; argv[i]; i++)
			fprintf(f, strpbrk(argv[i], " \t\"") || !*argv[i] ? " '%s'" : " %s",
				argv[i]);
		manifest_free_args(argv);
		if (e->home)
			fprintf(f, " [HOME=%s]", e->home);
		else if (e->fresh_home)
			fprintf(f, " [HOME=<fresh temporary>]");
		fprintf(f, "\n");
	}
}

static int write_summary(const char *dir, const struct summary_row *rows, size_t n,
			 const char *footer)
{
	char *path = tps_xasprintf("%s/summary.txt", dir);
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f) {
		ret = tps_error("cannot write '%s': %s", path, strerror(errno));
	} else {
		summary_render(f, rows, n);
		fputs(footer, f);
		if (fclose(f) != 0)
			ret = tps_error("cannot write '%s': %s", path, strerror(errno));
	}
	free(path);
	return ret;
}

static void set_host(struct host_rec *h, const struct opts *o)
{
	int gpu_index = -1;

	if (o->c.gpu && *o->c.gpu >= '0' && *o->c.gpu <= '9')
		gpu_index = atoi(o->c.gpu);
	provenance_detect(h, gpu_index);
	if (o->host) {
		free(h->name);
		h->name = tps_xstrdup(o->host);
	}
	if (o->gpu_name) {
		free(h->gpu);
		h->gpu = tps_xstrdup(o->gpu_name);
	}
	if (o->driver) {
		free(h->driver);
		h->driver = tps_xstrdup(o->driver);
	}
	if (o->cuda) {
		free(h->cuda);
		h->cuda = tps_xstrdup(o->cuda);
	}
}

/* The summary says how the first request was handled: it is never a throughput
 * figure, because the first request after a start reads a quarter to half of warm. */
static const char *warmup_line(int attach, int64_t warmup)
{
	static char buf[160];

	if (warmup > 0)
		snprintf(buf, sizeof(buf), "warm-up: %lld unrecorded request(s) after %s",
			 (long long)warmup, attach ? "attaching" : "each server start");
	else if (attach)
		snprintf(buf, sizeof(buf), "warm-up: none (--warmup 0)");
	else
		snprintf(buf, sizeof(buf), "warm-up: none (--warmup 0): each run's first sample "
			 "is flagged cold-start and left out of prefill");
	return buf;
}

int cmd_collect(int argc, char **argv, struct tps_ctx *ctx)
{
	struct opts o;
	struct plan p = { 0 };
	struct prompt_set ps = { 0 };
	struct run_rec hostrun;
	struct progress *pr = NULL;
	struct summary_row *rows = NULL;
	struct cell_result res;
	struct cell_env env;
	struct store *s;
	char err[1024], now[32], *out_dir = NULL, *footer = NULL;
	size_t k, n_rows = 0, n_bad = 0;
	int ret = TPS_EXIT_ERROR, r, done, interrupted = 0;

	memset(&o, 0, sizeof(o));
	run_rec_init(&hostrun);
	o.c.reps = 3;
	o.c.ctx = 4096;
	o.c.seed = 1234;
	o.c.warmup = 1;
	o.c.load_timeout_s = 600;
	o.c.request_timeout_s = 600;
	if ((r = parse_options(argc, argv, &o, &done)) || done) {
		ret = r;
		goto out;
	}
	ret = TPS_EXIT_USAGE;
	if (o.endpoint && strcmp(o.endpoint, "completion") && strcmp(o.endpoint, "chat")) {
		tps_usage_error(usage_line, "--endpoint is completion or chat, not '%s'",
				o.endpoint);
		goto out;
	}
	o.c.chat = o.endpoint && !strcmp(o.endpoint, "chat");
	if (!o.url && (o.spec_type || o.n_max)) {
		tps_usage_error(usage_line, "--spec-type and --n-max describe an attached "
				"server; use --spec-manifest to start speculative runs");
		goto out;
	}
	if (o.url && (o.models_file || o.spec_file || o.engine_args.n || o.homes.n)) {
		tps_usage_error(usage_line, "attach mode takes no manifests, --engine-args or "
				"--home: the server is already running");
		goto out;
	}
	/* The environment's engines take --ours, --role, --engine-args and --home too. */
	if (!o.engines.n && !o.url && (r = apply_env(&o, &p))) {
		ret = r;
		goto out;
	}
	if ((r = build_engines(&o, &p))) {
		ret = r;
		goto out;
	}
	if (!o.c.base_port)
		o.c.base_port = 18080;
	if (!o.c.n_predict)
		o.c.n_predict = 512;
	if (!o.url && (r = build_models(&o, &p))) {
		ret = r;
		goto out;
	}
	if ((r = load_prompts(&o, &ps))) {
		ret = r;
		goto out;
	}
	if (o.url) {
		http_global_init();
		interrupt_install();
		if ((r = attach_model(&o, &p))) {
			ret = interrupt_pending() ? TPS_EXIT_ERROR : r;
			goto out;
		}
	}
	p.aa = o.aa && !o.url;
	if (plan_build(&p, err, sizeof(err)) < 0) {
		tps_usage_error(usage_line, "%s", err);
		goto out;
	}
	if (o.url && o.n_max) {
		free(p.cells[0].spec_type);
		p.cells[0].spec_type = tps_xstrdup(o.spec_type ? o.spec_type : "custom");
		p.cells[0].n_max = o.n_max;
	} else if (o.url && o.spec_type) {
		tps_usage_error(usage_line, "--spec-type needs --n-max");
		goto out;
	}
	if (o.dry_run) {
		print_plan(stdout, &p, &o);
		ret = TPS_EXIT_OK;
		goto out;
	}

	ret = TPS_EXIT_ERROR;
	if (!o.out_dir) {
		time_t t = time(NULL);
		struct tm tm;
		char name[64];
		gmtime_r(&t, &tm);
		strftime(name, sizeof(name), "tpsdb-collect-%Y%m%dT%H%M%SZ", &tm);
		out_dir = tps_xstrdup(name);
	} else {
		out_dir = tps_xstrdup(o.out_dir);
	}
	if (mkdir_p(out_dir) < 0)
		goto out;
	{
		char *real = realpath(out_dir, NULL);
		if (real) {
			free(out_dir);
			out_dir = real;
		}
	}
	o.c.out_dir = out_dir;
	o.c.url = o.url;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	http_global_init();
	interrupt_install();
	for (k = 0; k < p.n_engines; k++) {
		if (p.engines[k].fresh_home) {
			char tmpl[PATH_MAX];
			const char *tmp = env_nonempty("TMPDIR");
			snprintf(tmpl, sizeof(tmpl), "%s/tpsdb-home-XXXXXX", tmp ? tmp : "/tmp");
			if (!mkdtemp(tmpl)) {
				tps_error("cannot create a temporary HOME: %s", strerror(errno));
				goto out;
			}
			p.engines[k].home = tps_xstrdup(tmpl);
		}
	}
	set_host(&hostrun.host, &o);
	if (identify(s, &p, &o) < 0)
		goto out;
	pr = progress_new(!o.quiet && isatty(2), !env_nonempty("NO_COLOR"), p.n_cells);
	env.store = s;
	env.o = &o.c;
	env.plan = &p;
	env.host = &hostrun.host;
	env.prompts = &ps;
	env.progress = pr;
	rows = tps_xcalloc(p.n_cells, sizeof(*rows));
	for (k = 0; k < p.n_cells && !interrupt_pending(); k++) {
		const struct cell *c = &p.cells[k];
		if (cell_measure(&env, k, &res) < 0)
			goto out;
		progress_cell_done(pr, res.load_failed ? "LOADFAIL" : res.status, res.n_ok,
				   res.n_failed);
		rows[n_rows].model = p.models[c->model].label;
		rows[n_rows].engine = p.engines[c->engine].label;
		rows[n_rows].n_max = c->n_max;
		rows[n_rows].status = res.load_failed ? "LOADFAIL" :
				      !strcmp(res.status, "complete") ? "complete" :
				      !strcmp(res.status, "partial") ? "partial" :
				      !strcmp(res.status, "interrupted") ? "interrupted" : "failed";
		rows[n_rows].n_ok = res.n_ok;
		rows[n_rows].n_failed = res.n_failed;
		rows[n_rows].pp = res.pp;
		rows[n_rows].tg = res.tg;
		rows[n_rows].accept = res.accept;
		n_rows++;
		if (strcmp(res.status, "complete"))
			n_bad++;
	}
	interrupted = interrupt_pending() != 0;
	progress_free(pr);
	pr = NULL;
	tps_now_iso(now, sizeof(now));
	footer = tps_xasprintf("\n%zu of %zu cells run, %zu not complete%s; store '%s'; logs "
			       "in '%s'\n%s\n", n_rows, p.n_cells, n_bad,
			       interrupted ? " (interrupted)" : "", store_path(s), out_dir,
			       warmup_line(o.url != NULL, o.c.warmup));
	summary_render(stdout, rows, n_rows);
	fputs(footer, stdout);
	fflush(stdout);
	if (write_summary(out_dir, rows, n_rows, footer) < 0)
		goto out;
	if (interrupted) {
		tps_error("interrupted by signal %d: the servers are stopped and the samples "
			  "taken are kept", interrupt_pending());
		ret = TPS_EXIT_ERROR;
	} else {
		ret = n_bad ? TPS_EXIT_FAIL : TPS_EXIT_OK;
	}
out:
	progress_free(pr);
	interrupt_restore();
	for (k = 0; k < p.n_engines; k++) {
		if (p.engines[k].fresh_home && p.engines[k].home)
			nftw(p.engines[k].home, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	free(rows);
	free(footer);
	free(out_dir);
	run_rec_release(&hostrun);
	prompts_release(&ps);
	plan_release(&p);
	kvs_release(&o.engines);
	kvs_release(&o.roles);
	kvs_release(&o.engine_args);
	kvs_release(&o.homes);
	kvs_release(&o.models);
	return ret;
}
