/* opts.h: the option table every command parses with, as git's parse-options rows
 * (OPT_INTEGER(0, "count", &maxcount, ...)) feed one parse_options() and tmux
 * checks a range where it reads (args_strtonum()). A row names an option, its
 * kind, where its value goes and its range; cmd_opts_next() stores every value
 * itself, refusing one out of range or of the wrong form with one usage error, and
 * hands back to the command only the rows of kind CMD_OPT_CALLBACK. --help, an
 * unknown option and an operand the command does not take are handled here too. */
#ifndef CMD_OPTS_H
#define CMD_OPTS_H

#include <math.h>

#include "cmd/cmd.h"
#include "cmd/filter_opts.h"
#include "reports/table.h"

enum cmd_opt_kind {
	CMD_OPT_STRING,   /* the argument into a const char * (not empty when .what is
			     set: "--<name> needs <what>") */
	CMD_OPT_FLAG,     /* no argument: .val into an int or int64_t */
	CMD_OPT_COUNT,    /* a whole number from .min to .max into an int, int64_t or
			     size_t ("needs a whole number from 1 to 4096", or ">= 1"
			     when .max is INT64_MAX) */
	CMD_OPT_NUMBER,   /* a number from .lo to .hi (an end open per .open) into a
			     double ("needs <what>") */
	CMD_OPT_CHOICE,   /* one of .choices: its value into an int ("is a, b or c") */
	CMD_OPT_WORD,     /* one of .choices: the name itself into a const char * */
	CMD_OPT_LIST,     /* appended to a struct filter_list: a name or a comma list of
			     names, or (.val CMD_LIST_ANY) any argument */
	CMD_OPT_PARSE,    /* .parse() checks and stores it, or prints the usage error */
	CMD_OPT_CALLBACK, /* returned to the command as .val, optarg set */
};

enum { CMD_OPEN_LO = 1, CMD_OPEN_HI = 2 }; /* CMD_OPT_NUMBER: an end not allowed */
enum { CMD_LIST_ANY = 1 };                 /* CMD_OPT_LIST: no check of the names */

struct cmd_choice {
	const char *name;
	int value;
};

struct cmd_option {
	const char *name;         /* the long name, without "--"; NULL ends the table */
	enum cmd_opt_kind kind;
	void *dst;                /* where the value goes */
	size_t size;              /* FLAG, COUNT, CHOICE: sizeof(*dst), 4 or 8 */
	int64_t min, max;         /* COUNT */
	double lo, hi;            /* NUMBER */
	int open;                 /* NUMBER: CMD_OPEN_LO, CMD_OPEN_HI */
	const char *what;         /* NUMBER: what it needs; STRING: what an empty one lacks */
	const struct cmd_choice *choices; /* CHOICE, WORD: ended by a NULL name */
	int val;                  /* FLAG: the value; CALLBACK: returned; LIST, PARSE: the
				     row's own */
	int *seen;                /* set to 1 when the option is given; may be NULL */
	/* PARSE: 0, or TPS_EXIT_USAGE after the usage error line. */
	int (*parse)(const struct cmd_option *opt, const char *arg, const char *usage);
};

/* sizeof(*p), refused at compile time unless 4 or 8 bytes. */
#define CMD_INT_SIZE(p) (sizeof(*(p)) + 0 * sizeof(char[sizeof(*(p)) == 4 || sizeof(*(p)) == 8 ? 1 : -1]))
#define CMD_TYPED(T, p) (1 ? (p) : (T)0)

#define OPT_STRING(n, p) { .name = n, .kind = CMD_OPT_STRING, .dst = CMD_TYPED(const char **, p) }
#define OPT_NONEMPTY(n, p, w) \
	{ .name = n, .kind = CMD_OPT_STRING, .dst = CMD_TYPED(const char **, p), .what = w }
#define OPT_SET(n, p, v) { .name = n, .kind = CMD_OPT_FLAG, .dst = p, .size = CMD_INT_SIZE(p), .val = v }
#define OPT_FLAG(n, p) OPT_SET(n, p, 1)
#define OPT_COUNT(n, p, a, b) \
	{ .name = n, .kind = CMD_OPT_COUNT, .dst = p, .size = CMD_INT_SIZE(p), .min = a, .max = b }
#define OPT_NUMBER(n, p, a, b, o, w) \
	{ .name = n, .kind = CMD_OPT_NUMBER, .dst = CMD_TYPED(double *, p), .lo = a, .hi = b, \
	  .open = o, .what = w }
#define OPT_SECONDS(n, p) OPT_NUMBER(n, p, 0, 1e6, CMD_OPEN_LO, "a positive number of seconds")
#define OPT_PERCENT(n, p) OPT_NUMBER(n, p, 0, INFINITY, 0, "a number >= 0")
#define OPT_CHOICE(n, p, c) \
	{ .name = n, .kind = CMD_OPT_CHOICE, .dst = p, .size = CMD_INT_SIZE(p), .choices = c }
#define OPT_WORD(n, p, c) \
	{ .name = n, .kind = CMD_OPT_WORD, .dst = CMD_TYPED(const char **, p), .choices = c }
#define OPT_LIST(n, l) { .name = n, .kind = CMD_OPT_LIST, .dst = CMD_TYPED(struct filter_list *, l) }
#define OPT_NAMES(n, l) \
	{ .name = n, .kind = CMD_OPT_LIST, .dst = CMD_TYPED(struct filter_list *, l), .val = CMD_LIST_ANY }
#define OPT_PARSE(n, p, f, v) { .name = n, .kind = CMD_OPT_PARSE, .dst = p, .parse = f, .val = v }
#define OPT_CALLBACK(n, v) { .name = n, .kind = CMD_OPT_CALLBACK, .val = v }
#define OPT_END { .name = NULL }

/* The shared run filters into a struct filter_opts (cmd/filter_opts.h): the labels
 * (--engine, --model, --tag) and the rest (--engine-version, --host, --batch,
 * --since, --until) for a command whose --engine and --model mean more than a
 * filter; --limit; --format (text, json, md, csv) and its alias --json into an
 * enum out_format. */
#define OPT_FILTERS(fo) \
	OPT_LIST("engine", &(fo)->engine), OPT_LIST("model", &(fo)->model), \
	OPT_LIST("tag", &(fo)->tag), OPT_FILTERS_MORE(fo)
#define OPT_FILTERS_MORE(fo) \
	OPT_STRING("engine-version", &(fo)->f.engine_version), OPT_LIST("host", &(fo)->host), \
	OPT_LIST("batch", &(fo)->batch), OPT_PARSE("since", fo, filter_opt_date, 0), \
	OPT_PARSE("until", fo, filter_opt_date, 1)
#define OPT_LIMIT(fo) OPT_COUNT("limit", &(fo)->f.limit, 1, INT64_MAX)
#define OPT_FORMAT(p) OPT_CHOICE("format", p, cmd_formats), OPT_SET("json", p, OUT_JSON)
extern const struct cmd_choice cmd_formats[];

/* What cmd_opts_next() returns besides a callback's .val: the end of the options
 * (go on), or stop and return cmd_opts.ret (0 after --help, TPS_EXIT_USAGE after
 * the usage error lines). */
enum { CMD_OPTS_END = -1, CMD_OPTS_STOP = -2 };

#define CMD_OPTS_MAX 48 /* rows in one table at most */

/* One parse of one argument vector: { .cmd = &cmd_<name>_entry, .opts = table },
 * the rest zeroed. */
struct cmd_opts {
	const struct cmd_entry *cmd;
	const struct cmd_option *opts;
	int ret;                 /* the exit code after CMD_OPTS_STOP */
	struct tps_getopt go;
	struct option lo[CMD_OPTS_MAX + 2];
};

/* The next callback row's .val (optarg its argument), CMD_OPTS_END, or
 * CMD_OPTS_STOP with o->ret set. Every other row's value is stored on the way. At
 * the end, an operand left over is refused unless the entry has CMD_OPERANDS
 * ("unexpected argument"); optind is then the first operand. */
int cmd_opts_next(struct cmd_opts *o, int argc, char **argv);
/* The whole parse of a table without callbacks: -1 to go on, else the exit code
 * to return (0 after --help). */
int cmd_opts_parse(const struct cmd_entry *cmd, const struct cmd_option *opts, int argc,
		   char **argv);

/* The rows of --since (val 0) and --until (val 1) into the struct filter_opts at
 * opt->dst (cmd/opts.h): an ISO 8601 date or date-time; a day alone --until is the
 * whole day. 0, or TPS_EXIT_USAGE after the usage error line. */
int filter_opt_date(const struct cmd_option *opt, const char *arg, const char *usage);

/* The row of --ignore-config: a comma list of llama-bench config keys
 * (analyze/config.h config_keys()) into the const char * at opt->dst. 0, or
 * TPS_EXIT_USAGE after the usage error line naming the unknown key and the known
 * ones. */
int ignore_config_opt(const struct cmd_option *opt, const char *arg, const char *usage);

#endif
