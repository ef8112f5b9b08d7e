/* setup.h: what 'tpsdb collect' was told, turned into a plan. The command parses
 * its options into a struct collect_setup; the seed harness's drop-in environment
 * fills in what no option gave; setup_plan() then checks the combination, reads
 * the manifests and prompts (or asks an attached server for its model), builds
 * the matrix and checks that its binaries and models are there. Usage errors go
 * through tps_usage_error() with the command's line. */
#ifndef COLLECT_SETUP_H
#define COLLECT_SETUP_H

#include "collect/cell.h"

#include <stddef.h>
#include <stdint.h>

struct plan;
struct prompt_set;

/* "label=value" as given to --engine, --role, --model ...; value NULL when the
 * option allows a bare label and got one. */
struct setup_pair {
	char *key, *value;
};

struct setup_pairs {
	struct setup_pair *v;
	size_t n;
};

struct collect_setup {
	const char *usage;         /* the command's usage line, for usage errors */
	struct setup_pairs engines, roles, engine_args, homes, models;
	const char *ours, *models_file, *spec_file, *prompts_file, *url, *endpoint;
	const char *spec_type, *out_dir, *host, *gpu_name, *driver, *cuda;
	int64_t n_max;             /* attach mode's --n-max, 0 none */
	int no_reference, quiet, dry_run;
	int aa;                    /* --aa given: an alias of --rounds 2 */
	int64_t rounds;            /* --rounds; 0 when not given (one round) */
	int until_decided;         /* --until-decided: rounds until every cell of the
				      ours engine against each other engine is decided */
	int64_t max_rounds;        /* --max-rounds; 0 when not given (10) */
	int reps_set;              /* --reps given: collect plans no design */
	int question_set;          /* --question given */
	int question_parity;       /* --question parity: a cell is decided when its
				      two-sided verdict is (else: its regression
				      answer, the default) */
	const char *metric;        /* --metric pp|tg|both as given (the command checks
				      the name); NULL when not given (both) */
	double wait_quiet_s;       /* --wait-quiet: after an instance the GPU or host
				      spoiled, wait this long at most for quiet and
				      measure it again; 0 neither (SETUP_WAIT_QUIET_S) */
	int64_t max_spoiled;       /* --max-spoiled: stop a model after this many
				      such instances in a row; 0 never (SETUP_MAX_SPOILED) */
	double budget_s;           /* --budget: the server time --until-decided may
				      spend, seconds; 0 none */
	struct collect_opts c;     /* out_dir and url are set by the command later */
};

/* Empties s and sets the knobs' defaults (1 rep, ctx 4096, seed 1234, one
 * warm-up, 600 s timeouts); the port and n_predict defaults come after the
 * environment, in setup_plan(). usage is borrowed. Release with setup_release(). */
void setup_init(struct collect_setup *s, const char *usage);
/* Frees the pairs s owns; the borrowed strings stay. */
void setup_release(struct collect_setup *s);

/* Appends "label=value" from option --opt to list. A missing '=' is allowed when
 * need_value is 0 (the value is then NULL). Returns 0, or TPS_EXIT_USAGE after a
 * usage error line. */
int setup_add_pair(const struct collect_setup *s, struct setup_pairs *list,
		   const char *opt, const char *arg, int need_value);
/* A whole number from min to max for --opt into *out. 0, or TPS_EXIT_USAGE after
 * a usage error line. */
int setup_parse_count(const struct collect_setup *s, const char *opt, const char *arg,
		      int64_t min, int64_t max, int64_t *out);
/* A positive number of seconds (at most 1e6) for --opt into *out. 0, or
 * TPS_EXIT_USAGE after a usage error line. */
/* Parses a duration for --<opt>: a positive number with a unit, s, m or h ("90s",
 * "8m", "1.5h"), at most a week, into *out seconds. 0, or TPS_EXIT_USAGE after a
 * usage error. */
int setup_parse_duration(const struct collect_setup *s, const char *opt, const char *arg,
			 double *out);
/* The variable's value when it is set and not empty, else NULL. Borrowed from the
 * environment. */
const char *setup_getenv(const char *name);

/* Checks the options against each other, takes engines and knobs from the
 * environment when neither --engine nor --url is given, adds the engines and
 * models, loads the prompts into ps and builds p's cells. In attach mode it waits
 * for the server (installing the signal handlers) and names the model from /props.
 * Last, it checks every file the plan would start a server with: each engine
 * binary (a bare name looked up in PATH) must be an executable regular file, and
 * each model (--model, the manifests' paths and the draft models their lines
 * name with -md) a readable regular file. Nothing is started, opened or written,
 * so --dry-run refuses what a real run would.
 * Returns 0, or an exit code after an error line: TPS_EXIT_USAGE for a bad
 * combination or manifest line, or a binary or model that cannot be run or read
 * (one line naming the option, variable or manifest file:line, the path and the
 * cause); TPS_EXIT_ERROR for an unreadable manifest or prompts file, an
 * unreachable server or a signal. p and ps are filled as far as it got; the
 * caller releases them either way. */
int setup_plan(struct collect_setup *s, struct plan *p, struct prompt_set *ps);

/* collect's default --wait-quiet (seconds) and --max-spoiled. */
#define SETUP_WAIT_QUIET_S 60
#define SETUP_MAX_SPOILED 3

/* --until-decided's default --max-rounds. */
#define SETUP_MAX_ROUNDS 10

/* The first engine of p with role ours: its index (SIZE_MAX when none) or label
 * (NULL when none; borrowed from p). */
size_t setup_ours_index(const struct plan *p);
const char *setup_ours(const struct plan *p);

#endif
