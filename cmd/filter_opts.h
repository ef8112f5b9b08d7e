/* filter_opts.h: the run-selection options that runs, trend, report, check and
 * export share (--engine, --model, --engine-version, --tag, --host, --batch,
 * --since, --until and, where a command offers it, --limit), parsed once into a
 * struct run_filter (schema/store.h), and the --format option of the commands that
 * print text, JSON, markdown or CSV. */
#ifndef CMD_FILTER_OPTS_H
#define CMD_FILTER_OPTS_H

#include <stdio.h>

#include "reports/table.h"
#include "schema/store.h"
#include "tpsdb.h"

/* The getopt values of the shared options; a command's own start at 256 and stay
 * below these. */
enum {
	FILTER_OPT_ENGINE = 0x1000, FILTER_OPT_MODEL, FILTER_OPT_ENGINE_VERSION, FILTER_OPT_TAG,
	FILTER_OPT_HOST, FILTER_OPT_BATCH, FILTER_OPT_SINCE, FILTER_OPT_UNTIL, FILTER_OPT_LIMIT,
	FILTER_OPT_FORMAT,
};

/* The entries of a command's struct option array, spliced in where it lists its
 * own: FILTER_OPTIONS for the shared filters, FILTER_OPTION_LIMIT for --limit,
 * FORMAT_OPTIONS for --format (--json is each command's own alias of it). */
#define FILTER_OPTIONS                                                            \
	{ "engine", required_argument, NULL, FILTER_OPT_ENGINE },                     \
	{ "model", required_argument, NULL, FILTER_OPT_MODEL },                       \
	{ "tag", required_argument, NULL, FILTER_OPT_TAG },                           \
	FILTER_OPTIONS_MORE
/* The filters beyond the labels, for a command (report) whose --engine and
 * --model mean more than a filter. */
#define FILTER_OPTIONS_MORE                                                       \
	{ "engine-version", required_argument, NULL, FILTER_OPT_ENGINE_VERSION },     \
	{ "host", required_argument, NULL, FILTER_OPT_HOST },                         \
	{ "batch", required_argument, NULL, FILTER_OPT_BATCH },                       \
	{ "since", required_argument, NULL, FILTER_OPT_SINCE },                       \
	{ "until", required_argument, NULL, FILTER_OPT_UNTIL }
#define FILTER_OPTION_LIMIT { "limit", required_argument, NULL, FILTER_OPT_LIMIT }
#define FORMAT_OPTIONS { "format", required_argument, NULL, FILTER_OPT_FORMAT }

/* The synopsis and the help lines of the shared filters, for usage strings. */
#define FILTER_SYNOPSIS                                                               \
	"[--engine <label>] [--model <label>] [--tag <t>] [--engine-version <v>]\n"      \
	"            [--host <name>] [--batch <id>] [--since <date>] [--until <date>]"
#define FILTER_SYNOPSIS_MORE                                                          \
	"[--engine-version <v>] [--host <name>] [--batch <id>]\n"                       \
	"             [--since <date>] [--until <date>] [--limit <n>]"
#define FILTER_HELP                                                                  \
	"  --engine <label>        only runs of this engine\n"                             \
	"  --model <label>         only runs of this model\n"                              \
	"  --tag <t>               only runs with this tag\n"                              \
	"                          (an engine, model or tag the store does not hold is\n" \
	"                          an error, exit 3, listing the known ones closest first)\n" \
	FILTER_HELP_MORE
#define FILTER_HELP_MORE                                                             \
	"  --engine-version <v>    only runs of this engine version (e.g. b7123-4e1b2c3)\n" \
	"  --host <name>           only runs measured on this host\n"                      \
	"  --batch <id>            only runs of this collect invocation\n"                 \
	"  --since <date>          only runs started at or after this ISO 8601 date or\n"  \
	"                          date-time (2025-06-01, 2025-06-01T12:00:00Z; UTC unless\n" \
	"                          it carries an offset)\n"                                \
	"  --until <date>          only runs started at or before it (a date alone counts\n" \
	"                          to the end of that day)\n"
#define FILTER_HELP_LIMIT                                                            \
	"  --limit <n>             only the latest n runs\n"

/* The parsed filters: f points into argv and into the normalised dates held here,
 * so the struct must outlive every use of f. Zero it before the first option. */
struct filter_opts {
	struct run_filter f;
	char since[40], until[40];
};

/* Takes one option the getopt loop returned: 1 when c was a shared filter option
 * and arg was stored, 0 when c is not one (the command handles it), and
 * TPS_EXIT_USAGE after the usage error line (a bad date, a limit that is not a
 * whole number >= 1, an empty label). */
int filter_opts_take(struct filter_opts *fo, int c, const char *arg, const char *usage);

/* Checks --ignore-config's value, a comma list of llama-bench config keys
 * (analyze/config.h config_keys()): 0, or TPS_EXIT_USAGE after the usage error
 * line naming the unknown key and the known ones. */
int ignore_config_opt(const char *arg, const char *usage);

/* The warning line of --ignore-config: which keys were ignored and what each
 * side's runs held in them (a and b: "key=value" lists, NULL when none). */
void ignore_config_warn(const char *keys, const char *a_label, const char *a,
			const char *b_label, const char *b);

/* Refuses a filter naming an engine, model or tag the store does not hold: 0 when
 * every name given is known, else -1 after one error line listing the known
 * names, closest first (schema/labels.h). */
int filter_opts_check(struct store *s, const struct run_filter *f);
/* The same for names given apart (NULL: not given): --engine, --model, --tag. */
int labels_check(struct store *s, const char *engine, const char *model, const char *tag);

/* What a command prints. */
enum out_format { OUT_TEXT, OUT_JSON, OUT_MD, OUT_CSV };

/* The one format chooser of the commands that print a table: parses --format's
 * value ("text", "json", "md" or "csv") into *fmt: 0, or TPS_EXIT_USAGE after the
 * usage error line. --json is each command's alias of "json". */
int format_opt_parse(const char *arg, enum out_format *fmt, const char *usage);

/* The table writer's format (reports/table.h) of fmt, which is not OUT_JSON: JSON
 * is each command's own document, not a table. */
enum table_format format_table(enum out_format fmt);

/* $GITHUB_STEP_SUMMARY opened for appending (never truncated), or NULL when it is
 * unset or empty, or after a warning line when it cannot be opened: the summary is
 * a courtesy, never a reason to fail. Close with step_summary_close(). */
FILE *step_summary_open(void);
/* Closes f (NULL is fine), warning when the writes did not all reach the file. */
void step_summary_close(FILE *f);

#endif
