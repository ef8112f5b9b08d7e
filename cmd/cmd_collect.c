/* cmd_collect.c: 'tpsdb collect', the measuring front end: options (or the seed
 * harness's environment) become a plan (collect/setup.c), the session measures its
 * cells round by round (collect/session.c), and a summary table (reports/summary.c)
 * goes to stdout and into the out dir. With --until-decided, a hook between rounds
 * compares this batch's runs (schema/pair_load.c, analyze/parity.c) and ends a
 * model's rounds once analyze/decided.c calls every cell decided. */
#include "analyze/decided.h"
#include "analyze/estimate.h"
#include "analyze/parity.h"
#include "collect/cell.h"
#include "collect/interrupt.h"
#include "collect/plan.h"
#include "collect/prompts.h"
#include "collect/session.h"
#include "collect/setup.h"
#include "collect/workdir.h"
#include "reports/parity.h"
#include "reports/summary.h"
#include "schema/pair_load.h"
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
"                             by round, with each server command; start nothing\n"
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

/* --until-decided's state: one watched cell per plan cell of an engine other than
 * ours that ours also measures (same model, spec type, n_max). */
struct watch {
	size_t ours_cell;          /* SIZE_MAX: not watched */
	int64_t decided_at;        /* the round it was decided in; 0 open */
	char *last[PARITY_N_METRICS]; /* the metric's state at the last comparison */
	int64_t last_round;        /* the round of that comparison; 0 none */
};

struct until {
	const struct plan *p;
	const struct session_result *res; /* the session's rows, filled as runs end */
	size_t ours;
	struct watch *w;           /* one per plan cell */
	int64_t *evaluated;        /* per model: the last round compared */
	enum decided_question q;   /* --question */
	char note[64];
};

static size_t find_ours_cell(const struct plan *p, size_t ours, const struct cell *c)
{
	size_t i;

	for (i = 0; i < p->n_cells; i++) {
		const struct cell *o = &p->cells[i];

		if (o->engine == ours && o->model == c->model && o->n_max == c->n_max &&
		    !strcmp(o->spec_type, c->spec_type))
			return i;
	}
	return SIZE_MAX;
}

/* The cell's name in a decided or open line: "tiny", "q35 draft-simple n_max=3". */
static void cell_name(const struct plan *p, const struct cell *c, char *buf, size_t len)
{
	if (c->n_max == TPS_NULL)
		snprintf(buf, len, "%s", p->models[c->model].label);
	else
		snprintf(buf, len, "%s %s n_max=%lld", p->models[c->model].label,
			 *c->spec_type ? c->spec_type : "spec", (long long)c->n_max);
}

/* Server time of watched cell k up to round: the wall time of its runs and of the
 * ours cell's runs in rounds 1..round. */
static double server_time(const struct until *u, size_t k, int64_t round)
{
	double t = 0;
	size_t i;

	for (i = 0; i < u->res->n_rows; i++) {
		const struct session_row *r = &u->res->rows[i];

		if (r->round <= round && (r->cell == k || r->cell == u->w[k].ours_cell))
			t += r->wall_s;
	}
	return t;
}

static void count_open(struct until *u)
{
	size_t k, open = 0, all = 0;

	for (k = 0; k < u->p->n_cells; k++) {
		if (u->w[k].ours_cell == SIZE_MAX)
			continue;
		all++;
		open += !u->w[k].decided_at;
	}
	snprintf(u->note, sizeof(u->note), "%zu of %zu cells open", open, all);
}

/* Prints watched cell k's lines, one per metric: "decided: tiny tg ours vs
 * llama.cpp: parity (+0.31%, mde 0.84%) after 4 rounds, 212.4 s of server time". */
static void report_cell(const struct until *u, size_t k, const char *what)
{
	const struct plan *p = u->p;
	const struct watch *w = &u->w[k];
	const struct cell *c = &p->cells[k];
	static const char *const names[PARITY_N_METRICS] = { "pp", "tg" };
	int64_t round = w->decided_at ? w->decided_at : w->last_round;
	char name[160];
	int m;

	cell_name(p, c, name, sizeof(name));
	for (m = 0; m < PARITY_N_METRICS; m++) {
		if (!w->last_round)
			printf("%s: %s %s %s vs %s: not compared (fewer than 3 rounds with "
			       "both engines)\n", what, name, names[m], p->engines[u->ours].label,
			       p->engines[c->engine].label);
		else
			printf("%s: %s %s %s vs %s: %s after %lld rounds, %.1f s of server "
			       "time\n", what, name, names[m], p->engines[u->ours].label,
			       p->engines[c->engine].label, w->last[m] ? w->last[m] : "no data",
			       (long long)round, server_time(u, k, round));
	}
	fflush(stdout);
}

/* Compares this batch's runs of model mi, ours against engine e, and updates the
 * watched cells of e. -1 on a store error. */
static int compare_engine(struct until *u, struct store *s, size_t mi, size_t e,
			  int64_t round, const char *batch)
{
	const struct plan *p = u->p;
	struct parity_result pr = { 0 };
	struct pair_set set = { 0 };
	struct decided_cell *dc = NULL;
	struct parity_opts o;
	size_t n = 0, k;
	int m, ret = -1;

	parity_opts_init(&o);
	o.looks_to = plan_rounds(p);
	o.ours = p->engines[u->ours].label;
	o.vs = p->engines[e].label;
	o.model = p->models[mi].label;
	o.batch = batch;
	if (store_pair_load(s, &o, &set) < 0)
		goto out;
	if (parity_decide(&set.in, &o, &pr) < 0) {
		/* A refused cell stays open; say why once per comparison. */
		parity_stop_error(&pr);
		ret = 0;
		goto out;
	}
	n = decided_cells(&pr, u->q, &dc);
	for (k = 0; k < p->n_cells; k++) {
		const struct cell *c = &p->cells[k];
		struct watch *w = &u->w[k];
		size_t j;

		if (w->ours_cell == SIZE_MAX || c->engine != e || c->model != mi ||
		    w->decided_at)
			continue;
		j = decided_find(dc, n, c->spec_type, c->n_max);
		if (j == SIZE_MAX)
			continue;
		for (m = 0; m < PARITY_N_METRICS; m++) {
			char buf[160];

			if (!dc[j].row[m])
				continue;
			decided_describe(dc[j].row[m], buf, sizeof(buf));
			free(w->last[m]);
			w->last[m] = tps_xstrdup(buf);
		}
		w->last_round = round;
		if (!dc[j].decided)
			continue;
		w->decided_at = round;
		report_cell(u, k, "decided");
	}
	ret = 0;
out:
	free(dc);
	parity_result_release(&pr);
	pair_set_release(&set);
	return ret;
}

/* The hook: from round 3 on, compare every other engine with ours over this
 * batch's runs of model mi; another round while a cell of mi is open. */
static int until_more(void *arg, struct store *s, const struct plan *p, size_t mi,
		      int64_t round, const char *batch)
{
	struct until *u = arg;
	size_t e, k;

	(void)p;
	if (round < ESTIMATE_FIRST_LOOK)
		return 1;
	u->evaluated[mi] = round;
	for (e = 0; e < u->p->n_engines; e++)
		if (e != u->ours && compare_engine(u, s, mi, e, round, batch) < 0)
			return -1;
	count_open(u);
	for (k = 0; k < u->p->n_cells; k++)
		if (u->p->cells[k].model == mi && u->w[k].ours_cell != SIZE_MAX &&
		    !u->w[k].decided_at)
			return 1;
	return 0;
}

/* The skip hook: a watched cell once decided, and an ours cell once every
 * watched cell that compares with it is decided, are not started again. */
static int until_skip(void *arg, size_t k)
{
	struct until *u = arg;
	size_t i;
	int any = 0;

	if (u->w[k].ours_cell != SIZE_MAX)
		return u->w[k].decided_at != 0;
	if (u->p->cells[k].engine != u->ours)
		return 0;
	for (i = 0; i < u->p->n_cells; i++) {
		if (u->w[i].ours_cell != k)
			continue;
		any = 1;
		if (!u->w[i].decided_at)
			return 0;
	}
	return any;
}

static void until_init(struct until *u, const struct plan *p, const struct session_result *res,
		       int parity)
{
	size_t k;

	memset(u, 0, sizeof(*u));
	u->p = p;
	u->res = res;
	u->ours = setup_ours_index(p);
	u->w = tps_xcalloc(p->n_cells + 1, sizeof(*u->w));
	u->evaluated = tps_xcalloc(p->n_models + 1, sizeof(*u->evaluated));
	u->q = parity ? DECIDED_PARITY : DECIDED_REGRESSION;
	for (k = 0; k < p->n_cells; k++)
		u->w[k].ours_cell = p->cells[k].engine == u->ours ? SIZE_MAX :
				    find_ours_cell(p, u->ours, &p->cells[k]);
	count_open(u);
}

/* After the session: compares each model once more when its last round was not
 * (the hook is not asked after the last round). -1 on a store error. */
static int until_finish(struct until *u, struct store *s, const struct session_result *res)
{
	int64_t *last = tps_xcalloc(u->p->n_models + 1, sizeof(*last));
	size_t i, mi, e;
	int ret = -1;

	for (i = 0; i < res->n_rows; i++) {
		mi = u->p->cells[res->rows[i].cell].model;
		if (res->rows[i].round > last[mi])
			last[mi] = res->rows[i].round;
	}
	for (mi = 0; mi < u->p->n_models && !res->signal; mi++) {
		if (last[mi] < 3 || u->evaluated[mi] >= last[mi])
			continue;
		u->evaluated[mi] = last[mi];
		for (e = 0; e < u->p->n_engines; e++)
			if (e != u->ours && compare_engine(u, s, mi, e, last[mi], res->batch) < 0)
				goto out;
	}
	ret = 0;
out:
	free(last);
	return ret;
}

/* The last lines: one per metric of each cell still open, then the count. */
static void until_print_open(struct until *u)
{
	size_t i;

	for (i = 0; i < u->p->n_cells; i++)
		if (u->w[i].ours_cell != SIZE_MAX && !u->w[i].decided_at)
			report_cell(u, i, "open");
	count_open(u);
	printf("until-decided: %s\n", u->note);
	fflush(stdout);
}

static void until_release(struct until *u)
{
	size_t k;
	int m;

	for (k = 0; u->w && k < u->p->n_cells; k++)
		for (m = 0; m < PARITY_N_METRICS; m++)
			free(u->w[k].last[m]);
	free(u->w);
	free(u->evaluated);
	memset(u, 0, sizeof(*u));
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
	struct until u = { 0 };
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
		until_init(&u, &p, &res, o.question_parity);
		hooks.more = until_more;
		hooks.skip = until_skip;
		hooks.arg = &u;
		hooks.note = u.note;
	}
	if (session_run(s, &p, &ps, &o, &hooks, &res) < 0)
		goto out;
	if (o.until_decided && until_finish(&u, s, &res) < 0)
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
	until_release(&u);
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
