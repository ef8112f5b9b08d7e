/* opts.h: the option loop every command shares. The command's switch handles its
 * own options; what every command did the same way at the edges of that loop
 * lives here once: --help from the command's entry, an unknown option, the shared
 * run filters, --format and --json, and an operand the command does not take. */
#ifndef CMD_OPTS_H
#define CMD_OPTS_H

#include "cmd/filter_opts.h"
#include "tpsdb.h"

/* Every command's entry, defined at the bottom of its cmd/cmd_<name>.c. */
extern const struct cmd_entry cmd_baseline_entry, cmd_calibrate_entry, cmd_check_entry,
	cmd_collect_entry, cmd_compare_entry, cmd_export_entry, cmd_gate_entry,
	cmd_import_entry, cmd_merge_entry, cmd_migrate_entry, cmd_models_entry,
	cmd_plan_entry, cmd_plot_entry, cmd_report_entry, cmd_runs_entry, cmd_sweep_entry,
	cmd_trend_entry;

/* The commands' texts, from docs/help/<command>.txt (compiled in by
 * docs/help/embed.cmake): help_<command> is the whole --help text, which opens with
 * the synopsis ("usage: tpsdb <command> ..." and its further lines) and a blank
 * line; usage_<command> is that synopsis without "usage: " and its last newline,
 * as the usage errors quote it. */
extern const char help_baseline[], help_calibrate[], help_check[], help_collect[], help_compare[], help_export[], help_gate[], help_import[], help_merge[], help_migrate[], help_models[], help_plan[], help_plot[], help_report[], help_runs[], help_sweep[], help_trend[];
extern const char usage_baseline[], usage_calibrate[], usage_check[], usage_collect[], usage_compare[], usage_export[], usage_gate[], usage_import[], usage_merge[], usage_migrate[], usage_models[], usage_plan[], usage_plot[], usage_report[], usage_runs[], usage_sweep[], usage_trend[];

/* What cmd_opts_next() returns besides an option: the end of the options (go on),
 * or stop parsing and return cmd_opts.ret (0 after --help, TPS_EXIT_USAGE after the
 * usage error lines). */
enum { CMD_OPTS_END = -1, CMD_OPTS_STOP = -2 };

/* One parse of one argument vector. Start it as { .cmd = &cmd_<name>_entry } (and
 * .fo for a command that takes the shared filters, .fmt for one that prints a
 * table or JSON); the rest zeroed. */
struct cmd_opts {
	const struct cmd_entry *cmd;
	struct filter_opts *fo;  /* NULL: the command takes no shared run filters */
	enum out_format *fmt;    /* set by FORMAT_OPTIONS (--format, --json); NULL: the
				    command's switch takes them */
	int synopsis;            /* an unknown option is followed by "usage: <usage>"
				    rather than the hint line (plan's way) */
	int ret;                 /* the exit code after CMD_OPTS_STOP */
	struct tps_getopt go;
};

/* The next option for the command's switch, as tps_getopt() returns it (optarg
 * set). It handles itself: -h/--help (cmd_opts_help()), an unknown option or a
 * missing argument (the hint line after tps_getopt's error line), the shared filters
 * when o->fo is set (filter_opts_take()), --format and --json when o->fmt is set
 * (format_opt_parse()), and at the end an operand left over when
 * the entry lacks CMD_OPERANDS ("unexpected argument"). Returns an option value
 * (>= 0), CMD_OPTS_END, or CMD_OPTS_STOP with o->ret set. */
int cmd_opts_next(struct cmd_opts *o, int argc, char **argv, const struct option *longopts);

/* Prints the entry's --help text, synopsis first, on stdout; returns TPS_EXIT_OK. */
int cmd_opts_help(const struct cmd_entry *cmd);

#endif
