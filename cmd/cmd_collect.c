/* cmd_collect.c: 'tpsdb collect', the measuring front end: options (or the seed
 * harness's environment) become a plan (collect/setup.c), the session measures its
 * cells round by round (collect/session.c), and a summary table (reports/summary.c)
 * goes to stdout and into the out dir. With --until-decided, a hook between rounds
 * compares this batch's runs (schema/pair_load.c, analyze/parity.c) and ends a
 * model's rounds once analyze/decided.c calls every cell decided. */
#include "analyze/estimate.h"
#include "analyze/parity.h"
#include "analyze/until.h"
#include "collect/cell.h"
#include "collect/interrupt.h"
#include "collect/plan.h"
#include "collect/prompts.h"
#include "collect/session.h"
#include "collect/setup.h"
#include "collect/workdir.h"
#include "reports/parity.h"
#include "reports/summary.h"
#include "reports/until_write.h"
#include "cmd/side.h"
#include "schema/store.h"
#include "cmd/opts.h"
#include "outfile.h"
#include "tpsdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
"the matrix and round: model by model, round by round, engine by engine, a base\n"
"run and then one run per n_max of the model's spec manifest line. Each run is a\n"
"server instance of its own, and each sample is committed as it arrives. Every run\n"
"records its round (1..k) and the batch id of this invocation ('tpsdb runs').\n"
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
"  --reps <n>                 repetitions of each prompt (default 1: the server\n"
"                             instance, not the request, is the unit, so requests\n"
"                             beyond a few buy little; 'tpsdb plan' gives the\n"
"                             cheapest prompts x reps from earlier runs)\n"
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
"  --rounds <k>               run each model's whole pass over the engines k times\n"
"                             (default 1), every cell on a freshly started server;\n"
"                             even rounds take the engines in reverse order (A B C,\n"
"                             C B A, A B C ...), so slow drift falls on all alike\n"
"  --aa                       an alias of --rounds 2: A/A pairs as far apart as the\n"
"                             cells compare pairs, for 'tpsdb calibrate'\n"
"  --until-decided            run rounds until every cell of the --ours engine\n"
"                             against each other engine answers the --question for\n"
"                             pp and tg: after each round from the third, this\n"
"                             batch's runs of the model are compared as 'compare\n"
"                             --batch' would (band 2%%). Each look costs: the\n"
"                             intervals use the per-look level of a Pocock boundary\n"
"                             over rounds 3..--max-rounds (stored on every run, so\n"
"                             compare, gate and report print the same intervals),\n"
"                             so the chance of any wrong answer stays 5%%. A decided\n"
"                             cell stays decided and is not started again; the\n"
"                             model's rounds end when all its cells are. Prints\n"
"                             'decided: ...' per cell and metric with the rounds and\n"
"                             the server time (wall time of the runs of both\n"
"                             engines' cells up to that round) it took, and 'open:\n"
"                             ...' for the cells left. Needs --ours and two engines;\n"
"                             not with --rounds/--aa\n"
"  --question regression|parity  what --until-decided runs until: regression (the\n"
"                             default) decides a cell when 'is ours slower by more\n"
"                             than the band?' is answered yes or no; parity when the\n"
"                             two-sided verdict (faster, slower, parity) is\n"
"  --max-rounds <n>           the most rounds --until-decided runs (3..100,\n"
"                             default 10)\n"
"  --gpu <ids>                CUDA_VISIBLE_DEVICES for the servers\n"
"  --port <n>                 base port; the first free one from here (default 18080)\n"
"  --load-timeout <s>         give up on a server not ready after <s> (default 600)\n"
"  --request-timeout <s>      give up on one request after <s> (default 600)\n"
"                             (a response body over 64 MiB is cut off and the\n"
"                             request is a failed sample; TPSDB_MAX_RESPONSE_MB\n"
"                             sets the cap in MiB, 1 to 4096)\n"
"  --tag <tag>, --notes <text>  recorded on every run\n"
"\n"
"Provenance (detected with gethostname and nvidia-smi unless given):\n"
"  --host <name>, --gpu-name <name>, --driver <version>, --cuda <version>\n"
"\n"
"Output:\n"
"  --out-dir <dir>            server logs and summary.txt (default\n"
"                             ./tpsdb-collect-<UTC time>)\n"
"  --quiet                    no progress on stderr: on a terminal a live status\n"
"                             line (NO_COLOR turns its colours off); else, as in\n"
"                             a CI log, one plain line per run as it ends: run,\n"
"                             round, cell, status, ok/failed, pp and tg tok/s\n"
"  --dry-run                  print the runs in the order they would start, round\n"
"                             by round, with each server command; start nothing,\n"
"                             but check the binaries and models as a run does\n"
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
"Each run also records its environment (docs/ENVIRONMENT.md): the CPU time other\n"
"processes used while it measured (/proc; host-busy above TPSDB_HOST_BUSY_PCT,\n"
"default 50), the GPU through nvidia-smi when it is on PATH (gpu-contended,\n"
"gpu-throttled, clocks-changed; samples in <log>.gpu.csv), and what the server's\n"
"log says of offload and KV cache (partial-offload, kv-on-host; servers started\n"
"get LLAMA_ARG_LOG_VERBOSITY=4 unless it is set). 'tpsdb check' lists them.\n"
"\n"
"Before anything starts (and before the store is opened), every engine binary\n"
"must be an executable regular file (a name without '/' is looked up in PATH) and\n"
"every model a readable one: --model, the manifests' gguf paths and the draft\n"
"models (-md) their lines name. The first that is not is one error line naming\n"
"the option, variable or manifest file:line, the path and the cause, exit 2.\n"
"\n"
"Faults are recorded, not fatal: a server that does not get ready makes a 'failed'\n"
"run with its log tail (LOADFAIL in the summary) and the next cell runs; a failed\n"
"request is a sample with its error; if the server dies (or %d requests in a row\n"
"time out) the prompts left are recorded as not attempted and the next cell\n"
"starts a fresh server. SIGINT or SIGTERM stops the servers, marks the current run\n"
"'interrupted', keeps every sample and exits 3.\n"
"\n"
"Exit status: 0 every cell complete; 1 some cell partial or failed; 2 usage (also\n"
"a bad manifest or prompt file line, a binary or model that cannot be run or\n"
"read); 3 runtime error (store, unreadable manifest or prompts file, unreachable\n"
"--url, interrupted).\n";

enum {
	OPT_ENGINE = 256, OPT_OURS, OPT_ROLE, OPT_ENGINE_ARGS, OPT_HOME, OPT_MODELS,
	OPT_MODEL, OPT_SPEC, OPT_URL, OPT_SPEC_TYPE, OPT_N_MAX, OPT_REPS, OPT_PROMPTS,
	OPT_NO_REF, OPT_CTX, OPT_N_PREDICT, OPT_ENDPOINT, OPT_BAN, OPT_SEED, OPT_WARMUP,
	OPT_GPU, OPT_PORT, OPT_LOAD_TIMEOUT, OPT_REQ_TIMEOUT, OPT_TAG, OPT_NOTES,
	OPT_HOST, OPT_GPU_NAME, OPT_DRIVER, OPT_CUDA, OPT_OUT_DIR, OPT_QUIET, OPT_DRY_RUN, OPT_AA,
	OPT_ROUNDS, OPT_UNTIL, OPT_MAX_ROUNDS, OPT_QUESTION,
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
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "until-decided", no_argument, NULL, OPT_UNTIL },
	{ "max-rounds", required_argument, NULL, OPT_MAX_ROUNDS },
	{ "question", required_argument, NULL, OPT_QUESTION },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0 to go on, or an exit code (also TPS_EXIT_OK after --help). */
static int parse_options(int argc, char **argv, struct collect_setup *o, int *done)
{
	struct cmd_opts co = { .cmd = &cmd_collect_entry };
	int64_t v;
	int c;

	*done = 0;

	while ((c = cmd_opts_next(&co, argc, argv, longopts)) >= 0) {
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
			if (setup_add_pair(o, &o->engines, name, optarg, 0))
				return TPS_EXIT_USAGE;
			break;
		case OPT_OURS: o->ours = optarg; break;
		case OPT_ROLE:
			if (setup_add_pair(o, &o->roles, name, optarg, 1))
				return TPS_EXIT_USAGE;
			break;
		case OPT_ENGINE_ARGS:
			if (setup_add_pair(o, &o->engine_args, name, optarg, 1))
				return TPS_EXIT_USAGE;
			break;
		case OPT_HOME:
			if (setup_add_pair(o, &o->homes, name, optarg, 1))
				return TPS_EXIT_USAGE;
			break;
		case OPT_MODELS: o->models_file = optarg; break;
		case OPT_MODEL:
			if (setup_add_pair(o, &o->models, name, optarg, 0))
				return TPS_EXIT_USAGE;
			break;
		case OPT_SPEC: o->spec_file = optarg; break;
		case OPT_URL: o->url = optarg; break;
		case OPT_SPEC_TYPE: o->spec_type = optarg; break;
		case OPT_N_MAX:
			if (setup_parse_count(o, name, optarg, 1, 4096, &o->n_max))
				return TPS_EXIT_USAGE;
			break;
		case OPT_REPS:
			if (setup_parse_count(o, name, optarg, 1, 100000, &o->c.reps))
				return TPS_EXIT_USAGE;
			break;
		case OPT_PROMPTS: o->prompts_file = optarg; break;
		case OPT_NO_REF: o->no_reference = 1; break;
		case OPT_CTX:
			if (setup_parse_count(o, name, optarg, 16, 1 << 24, &o->c.ctx))
				return TPS_EXIT_USAGE;
			break;
		case OPT_N_PREDICT:
			if (setup_parse_count(o, name, optarg, 1, 1 << 24, &o->c.n_predict))
				return TPS_EXIT_USAGE;
			break;
		case OPT_ENDPOINT: o->endpoint = optarg; break;
		case OPT_BAN: o->c.ban_byte_tokens = 1; break;
		case OPT_SEED:
			if (setup_parse_count(o, name, optarg, 0, INT64_C(4294967295), &o->c.seed))
				return TPS_EXIT_USAGE;
			break;
		case OPT_WARMUP:
			if (setup_parse_count(o, name, optarg, 0, 1000, &o->c.warmup))
				return TPS_EXIT_USAGE;
			break;
		case OPT_GPU: o->c.gpu = optarg; break;
		case OPT_PORT:
			if (setup_parse_count(o, name, optarg, 1, 65535, &v))
				return TPS_EXIT_USAGE;
			o->c.base_port = (int)v;
			break;
		case OPT_LOAD_TIMEOUT:
			if (setup_parse_secs(o, name, optarg, &o->c.load_timeout_s))
				return TPS_EXIT_USAGE;
			break;
		case OPT_REQ_TIMEOUT:
			if (setup_parse_secs(o, name, optarg, &o->c.request_timeout_s))
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
		case OPT_ROUNDS:
			if (setup_parse_count(o, name, optarg, 1, 1000, &o->rounds))
				return TPS_EXIT_USAGE;
			break;
		case OPT_UNTIL: o->until_decided = 1; break;
		case OPT_MAX_ROUNDS:
			if (setup_parse_count(o, name, optarg, ESTIMATE_FIRST_LOOK,
					      ESTIMATE_MAX_LOOK, &o->max_rounds))
				return TPS_EXIT_USAGE;
			break;
		case OPT_QUESTION:
			o->question_set = 1;
			if (!strcmp(optarg, "regression"))
				o->question_parity = 0;
			else if (!strcmp(optarg, "parity"))
				o->question_parity = 1;
			else
				return tps_usage_error(usage_line, "--question is regression or "
						       "parity, not '%s'", optarg);
			break;
		}
	}
	return c == CMD_OPTS_STOP ? co.ret : 0;
}

static int write_summary(const char *dir, const struct summary_row *rows, size_t n,
			 const char *footer)
{
	char *path = tps_xasprintf("%s/summary.txt", dir);
	struct outfile *of = outfile_open(path);
	int ret = -1;

	if (of) {
		summary_render(outfile_stream(of), rows, n);
		fputs(footer, outfile_stream(of));
		ret = outfile_commit(of);
	}
	free(path);
	return ret;
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

/* How many rounds ran: "rounds: 3 of 3" (the most any model ran, of the plan's). */
static const char *rounds_line(const struct session_result *res)
{
	static char buf[96];
	int64_t most = 0;

	for (size_t k = 0; k < res->n_rows; k++) {
		if (res->rows[k].round > most)
			most = res->rows[k].round;
	}
	snprintf(buf, sizeof(buf), "rounds: %lld of %lld", (long long)most,
		 (long long)res->rounds);
	return buf;
}

/* --until-decided's hook between rounds: the rule's state (analyze/until.h) over
 * the plan's cells, the session's rows it has been told of, and the progress
 * note. Each look loads this batch's runs (schema/pair_load.h), decides them
 * (analyze/parity.h, analyze/until.h) and prints the cells it decided
 * (reports/until_write.h). */
struct until_hook {
	struct until u;
	const struct plan *p;
	const struct session_result *res; /* the session's rows, filled as runs end */
	struct until_cell *cells;  /* the plan's cells as the rule sees them; owned */
	size_t n_fed;              /* rows of res handed to the rule */
	char note[64];
};

/* Hands the runs that ended since the last call to the rule. */
static void until_feed(struct until_hook *h)
{
	for (; h->n_fed < h->res->n_rows; h->n_fed++) {
		const struct session_row *r = &h->res->rows[h->n_fed];

		until_run_ended(&h->u, r->cell, r->round, r->wall_s);
	}
}

static void until_print(const struct until_hook *h, size_t k, const char *what)
{
	const struct cell *c = &h->p->cells[k];

	until_write_cell(stdout, what, &h->u, k, h->p->models[c->model].label,
			 h->p->engines[h->u.ours].label, h->p->engines[c->engine].label);
}

/* Compares this batch's runs of model mi, ours against engine e, after round
 * round, and prints the cells it decides. -1 on a store error. */
static int until_compare(struct until_hook *h, struct store *s, size_t mi, size_t e,
			 int64_t round, const char *batch)
{
	const struct plan *p = h->p;
	struct parity_result pr = { 0 };
	struct side sd[2];
	struct parity_input in;
	struct parity_opts o;
	struct run_filter f = { 0 };
	const char *name[2], *model = p->models[mi].label;
	size_t *newly = tps_xcalloc(p->n_cells + 1, sizeof(*newly)), n, i;
	int k, ret = -1;

	memset(sd, 0, sizeof(sd));
	parity_opts_init(&o);
	o.ours = name[0] = p->engines[h->u.ours].label;
	o.vs = name[1] = p->engines[e].label;
	f.model.v = &model;
	f.model.n = 1;
	f.batch.v = &batch;
	f.batch.n = 1;
	for (k = 0; k < 2; k++) {
		f.engine.v = &name[k];
		f.engine.n = 1;
		if (side_load(s, &f, NULL, RUN_LOAD_VALUES, &sd[k]) < 0)
			goto out;
	}
	in.ours = sd[0].pools;
	in.n_ours = sd[0].n_pools;
	in.vs = sd[1].pools;
	in.n_vs = sd[1].n_pools;
	if (parity_decide(&in, &o, &pr) < 0) {
		/* A refused cell stays open; say why once per comparison. */
		parity_stop_error(&pr);
		ret = 0;
		goto out;
	}
	n = until_take(&h->u, &pr, mi, e, round, newly);
	for (i = 0; i < n; i++)
		until_print(h, newly[i], "decided");
	ret = 0;
out:
	free(newly);
	parity_result_release(&pr);
	side_release(&sd[0]);
	side_release(&sd[1]);
	return ret;
}

/* Compares every other engine with ours on model mi after round round. */
static int until_compare_all(struct until_hook *h, struct store *s, size_t mi,
			     int64_t round, const char *batch)
{
	size_t e;

	for (e = 0; e < h->p->n_engines; e++)
		if (e != h->u.ours && until_compare(h, s, mi, e, round, batch) < 0)
			return -1;
	return 0;
}

/* The session's more hook: from the first look on, compare; another round while
 * a cell of mi is open. */
static int until_more(void *arg, struct store *s, const struct plan *p, size_t mi,
		      int64_t round, const char *batch)
{
	struct until_hook *h = arg;

	(void)p;
	until_feed(h);
	if (!until_look(&h->u, mi, round))
		return 1;
	if (until_compare_all(h, s, mi, round, batch) < 0)
		return -1;
	until_write_note(h->note, sizeof(h->note), &h->u);
	return until_model_open(&h->u, mi);
}

static int until_skip_cell(void *arg, size_t k)
{
	return until_skip(&((struct until_hook *)arg)->u, k);
}

static void until_hook_init(struct until_hook *h, const struct plan *p,
			    const struct session_result *res, int parity)
{
	size_t k;

	memset(h, 0, sizeof(*h));
	h->p = p;
	h->res = res;
	h->cells = tps_xcalloc(p->n_cells + 1, sizeof(*h->cells));
	for (k = 0; k < p->n_cells; k++) {
		h->cells[k].engine = p->cells[k].engine;
		h->cells[k].model = p->cells[k].model;
		h->cells[k].spec_type = p->cells[k].spec_type;
		h->cells[k].n_max = p->cells[k].n_max;
	}
	until_init(&h->u, h->cells, p->n_cells, p->n_models, setup_ours_index(p),
		   parity ? DECIDED_PARITY : DECIDED_REGRESSION);
	until_write_note(h->note, sizeof(h->note), &h->u);
}

/* After the session: compares each model once more when its last round was not
 * (the hook is not asked after the last round), then prints the cells still open
 * and the count. -1 on a store error. */
static int until_finish(struct until_hook *h, struct store *s)
{
	size_t mi;
	int64_t last;

	until_feed(h);
	for (mi = 0; mi < h->p->n_models && !h->res->signal; mi++)
		if ((last = until_final_look(&h->u, mi)) &&
		    until_compare_all(h, s, mi, last, h->res->batch) < 0)
			return -1;
	return 0;
}

static void until_print_open(struct until_hook *h)
{
	size_t k;

	for (k = 0; k < h->p->n_cells; k++)
		if (h->u.w[k].ours_cell != SIZE_MAX && !h->u.w[k].decided_at)
			until_print(h, k, "open");
	until_write_total(stdout, &h->u);
}

static void until_hook_release(struct until_hook *h)
{
	until_release(&h->u);
	free(h->cells);
	memset(h, 0, sizeof(*h));
}

int cmd_collect(int argc, char **argv, struct tps_ctx *ctx)
{
	struct collect_setup o;
	struct plan p = { 0 };
	struct prompt_set ps = { 0 };
	struct session_result res = { 0 };
	/* Between rounds the session asks hooks.more whether to run another: with
	 * --until-decided until_more() answers, else every model runs its --rounds. */
	struct session_hooks hooks = { 0 };
	struct until_hook u = { 0 };
	struct summary_row *rows = NULL;
	struct store *s;
	char now[32], *out_dir = NULL, *footer = NULL;
	size_t k;
	int ret = TPS_EXIT_ERROR, r, done;

	setup_init(&o, usage_line);
	if ((r = parse_options(argc, argv, &o, &done)) || done) {
		ret = r;
		goto out;
	}
	if ((r = setup_plan(&o, &p, &ps))) {
		ret = r;
		goto out;
	}
	if (o.dry_run) {
		plan_print(stdout, &p, o.url, o.c.base_port, o.c.ctx);
		ret = TPS_EXIT_OK;
		goto out;
	}

	ret = TPS_EXIT_ERROR;
	if (!(out_dir = workdir_make_out(o.out_dir)))
		goto out;
	o.c.out_dir = out_dir;
	o.c.url = o.url;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (o.until_decided) {
		until_hook_init(&u, &p, &res, o.question_parity);
		hooks.more = until_more;
		hooks.skip = until_skip_cell;
		hooks.arg = &u;
		hooks.note = u.note;
	}
	if (session_run(s, &p, &ps, &o, &hooks, &res) < 0)
		goto out;
	if (o.until_decided && until_finish(&u, s) < 0)
		goto out;
	rows = tps_xcalloc(res.n_rows, sizeof(*rows));
	for (k = 0; k < res.n_rows; k++) {
		const struct session_row *sr = &res.rows[k];
		const struct cell *c = &p.cells[sr->cell];
		rows[k].model = p.models[c->model].label;
		rows[k].engine = p.engines[c->engine].label;
		rows[k].n_max = c->n_max;
		rows[k].round = sr->round;
		rows[k].rounds = res.rounds;
		rows[k].status = sr->status;
		rows[k].n_ok = sr->n_ok;
		rows[k].n_failed = sr->n_failed;
		rows[k].pp = sr->pp;
		rows[k].tg = sr->tg;
		rows[k].accept = sr->accept;
	}
	tps_now_iso(now, sizeof(now));
	footer = tps_xasprintf("\n%zu of %zu cells run, %zu not complete%s; store '%s'; logs "
			       "in '%s'\n%s\n%s: batch %s\n", res.n_rows, res.n_planned,
			       res.n_bad, res.signal ? " (interrupted)" : "", store_path(s),
			       out_dir, warmup_line(o.url != NULL, o.c.warmup),
			       rounds_line(&res), res.batch);
	summary_render(stdout, rows, res.n_rows);
	fputs(footer, stdout);
	fflush(stdout);
	if (o.until_decided)
		until_print_open(&u);
	if (write_summary(out_dir, rows, res.n_rows, footer) < 0)
		goto out;
	if (res.signal) {
		tps_error("interrupted by signal %d: the servers are stopped and the samples "
			  "taken are kept", res.signal);
		ret = TPS_EXIT_ERROR;
	} else {
		ret = res.n_bad ? TPS_EXIT_FAIL : TPS_EXIT_OK;
	}
out:
	interrupt_restore();
	until_hook_release(&u);
	free(rows);
	free(footer);
	free(out_dir);
	session_result_release(&res);
	prompts_release(&ps);
	plan_release(&p);
	setup_release(&o);
	return ret;
}

const struct cmd_entry cmd_collect_entry = {
	.name = "collect",
	.summary = "start engines, send prompts, record every timing",
	.usage = usage_line,
	.help = NULL, /* help_text is a format: its 'h' case prints it */
	.flags = 0,
	.exec = cmd_collect,
};
