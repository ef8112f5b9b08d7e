/* cmd.h: what a command is, above the stages: the context the dispatcher hands it,
 * its entry (tmux's cmd_entry), the one table of entries that main.c and the
 * manual's generator read, and the texts docs/help compiles in. */
#ifndef CMD_CMD_H
#define CMD_CMD_H

#include "tpsdb.h"

struct store;

/* What the dispatcher hands to each command. */
struct tps_ctx {
	const char *db_path;  /* --db, else $TPSDB_DB, else ./tpsdb.sqlite */
	struct store *store;  /* opened by tps_ctx_store() on first use */
	int readonly;         /* commands that only read set this before tps_ctx_store() */
	int existing;         /* writers that add no runs (baseline, calibrate): never create */
};

/* Opens ctx->db_path on first call (creating and migrating it unless readonly is
 * set) and returns the store, borrowed: main() closes it. A ctx whose store is
 * already set (a test's ":memory:" store) gets that store. NULL after an error line.
 * Defined in cmd/ctx.c. */
struct store *tps_ctx_store(struct tps_ctx *ctx);

/* What a command does with the store and its operands, read by main.c before the
 * command runs and by cmd/opts.c while it parses (tmux's cmd_entry flags, git's
 * RUN_SETUP). */
enum cmd_flag {
	CMD_READONLY = 1 << 0, /* only reads: the store is opened read-only, never created */
	CMD_EXISTING = 1 << 1, /* writes, but adds no runs: never creates a store */
	CMD_OPERANDS = 1 << 2, /* takes operands after its options and checks them itself */
	CMD_SYNOPSIS = 1 << 3, /* an unknown option is followed by "usage: <usage>"
				  rather than the hint line (plan's way) */
};

/* One command: the entry at the bottom of its cmd/cmd_<name>.c, listed in
 * cmd_table. */
struct cmd_entry {
	const char *name;
	const char *summary;  /* one line for `tpsdb --help` */
	const char *usage;    /* the synopsis, "tpsdb <name> ...", that usage errors
				 quote: usage_<name>, the head of help */
	const char *help;     /* the whole --help text, "usage: <usage>\n\n..."
				 (help_<name>, from docs/help/<name>.txt) */
	int flags;            /* enum cmd_flag */
	int (*exec)(int argc, char **argv, struct tps_ctx *ctx);
};

/* Every command's entry, defined at the bottom of its cmd/cmd_<name>.c by
 * CMD_ENTRY(<name>, summary, flags): its name, texts and function all follow from
 * <name>. */
#define CMD_ENTRY(x, sum, fl)                                                   \
	const struct cmd_entry cmd_##x##_entry = { .name = #x, .summary = sum, \
		.usage = usage_##x, .help = help_##x, .flags = fl, .exec = cmd_##x }
extern const struct cmd_entry cmd_baseline_entry, cmd_calibrate_entry, cmd_check_entry,
	cmd_collect_entry, cmd_compare_entry, cmd_export_entry, cmd_gate_entry,
	cmd_import_entry, cmd_merge_entry, cmd_migrate_entry, cmd_models_entry,
	cmd_plan_entry, cmd_plot_entry, cmd_report_entry, cmd_runs_entry, cmd_sweep_entry,
	cmd_trend_entry;

/* The table of every entry, in the order `tpsdb --help` lists it (cmd/ctx.c):
 * main.c looks commands up in it and docs/man/mangen.c writes their pages. */
extern const struct cmd_entry *const cmd_table[];
extern const size_t cmd_table_n;

/* The commands' texts, from docs/help/<command>.txt (compiled in by
 * docs/help/embed.cmake): help_<command> is the whole --help text, which opens with
 * the synopsis ("usage: tpsdb <command> ..." and its further lines) and a blank
 * line; usage_<command> is that synopsis without "usage: " and its last newline,
 * as the usage errors quote it. */
extern const char help_baseline[], help_calibrate[], help_check[], help_collect[], help_compare[], help_export[], help_gate[], help_import[], help_merge[], help_migrate[], help_models[], help_plan[], help_plot[], help_report[], help_runs[], help_sweep[], help_trend[];
extern const char usage_baseline[], usage_calibrate[], usage_check[], usage_collect[], usage_compare[], usage_export[], usage_gate[], usage_import[], usage_merge[], usage_migrate[], usage_models[], usage_plan[], usage_plot[], usage_report[], usage_runs[], usage_sweep[], usage_trend[];

#endif
