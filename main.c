/* main.c: the dispatcher. It parses the global options, finds the command in the
 * one table (cmd/cmd.h), runs it and turns what it returns into the exit code
 * (git.c's job in git).
 * Commands live one per file as cmd/cmd_<name>.c. */
#include "cmd/cmd.h"
#include "outfile.h"
#include "schema/store.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "tpsdb [--db <file>] <command> [<args>]";

/* Takes the global options out of a command's arguments, as kubectl takes its
 * persistent flags: "--db <file>" and "--db=<file>" anywhere before a "--" set
 * ctx->db_path and are removed from argv (argc updated), so 'tpsdb runs --db x'
 * means 'tpsdb --db x runs'. Arguments after "--" are the command's. 0, or
 * TPS_EXIT_USAGE after the usage error line. */
static int take_global(int *argc, char **argv, struct tps_ctx *ctx)
{
	int i, o = 1, rest = 0;

	for (i = 1; i < *argc; i++) {
		if (!rest && !strcmp(argv[i], "--")) {
			rest = 1;
		} else if (!rest && !strcmp(argv[i], "--db")) {
			if (i + 1 >= *argc)
				return tps_usage_error(usage, "--db needs a file name");
			ctx->db_path = argv[++i];
			continue;
		} else if (!rest && !strncmp(argv[i], "--db=", 5)) {
			ctx->db_path = argv[i] + 5;
			continue;
		}
		argv[o++] = argv[i];
	}
	argv[o] = NULL;
	*argc = o;
	return 0;
}

static void print_help(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s\n\n", usage);
	fprintf(f, "The store is --db <file>, else $TPSDB_DB, else ./tpsdb.sqlite. --db may\n"
		   "also follow the command ('tpsdb runs --db x'), anywhere before a '--'.\n\n");
	fprintf(f, "Commands:\n");
	for (i = 0; i < cmd_table_n; i++)
		fprintf(f, "  %-10s %s\n", cmd_table[i]->name, cmd_table[i]->summary);
	fprintf(f, "\n'tpsdb <command> --help' describes one command.\n");
	fprintf(f, "\nSettings, each a number: TPSDB_BUSY_TIMEOUT (seconds a writer waits for\n"
		   "another's lock, 0 to 86400, default 300), TPSDB_QUICK_CHECK_MB (largest store\n"
		   "quick-checked on open, 0 to 1048576, 0 off, default 512), TPSDB_MAX_RESPONSE_MB\n"
		   "(collect's cap on one response body, 1 to 4096, default 64), TPSDB_HOST_BUSY_PCT\n"
		   "(host-busy above this share of all CPUs, 0 to 100, default 50),\n"
		   "TPSDB_HELP_TIMEOUT (seconds an engine's --help may take, 1 to 3600, default\n"
		   "30). Empty is unset; any other value outside its range is a usage error.\n");
	fprintf(f, "Exit codes: 0 ok, 1 a check or gate failed, 2 usage, 3 runtime or data error.\n");
}

/* The error for a command that is not in the table, with the nearest names when
 * they are within two edits (a typo), as git's "did you mean". */
static int unknown_command(const char *name)
{
	const size_t n = cmd_table_n < 32 ? cmd_table_n : 32;
	const char *names[32];
	size_t order[32], i, best;
	char hint[256] = "";

	for (i = 0; i < n; i++)
		names[i] = cmd_table[i]->name;
	tps_closest(name, names, n, order);
	best = tps_edit_distance(name, names[order[0]]);
	for (i = 0; i < n && best <= 2; i++) {
		size_t len = strlen(hint);

		if (tps_edit_distance(name, names[order[i]]) != best)
			break;
		snprintf(hint + len, sizeof(hint) - len, "%s'%s'", i ? " or " : "; did you mean ",
			 names[order[i]]);
	}
	if (*hint)
		snprintf(hint + strlen(hint), sizeof(hint) - strlen(hint), "?");
	return tps_usage_error(usage, "unknown command '%s'%s", name, hint);
}

int main(int argc, char **argv)
{
	struct tps_ctx ctx = { 0 };
	const char *env = getenv("TPSDB_DB");
	size_t i;
	int ret, a = 1, cargc;

	ctx.db_path = env && *env ? env : "./tpsdb.sqlite";
	/* A file-size limit (ulimit -f) must fail a write with EFBIG, which the store,
	 * stdout and every output file report as an error line, not kill the process
	 * half-way (SIGXFSZ, exit 153). An ignored or handled SIGXFSZ is left as it is. */
	{
		struct sigaction old;
		if (!sigaction(SIGXFSZ, NULL, &old) && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			signal(SIGXFSZ, SIG_IGN);
	}
	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			print_help(stdout);
			return TPS_EXIT_OK;
		} else if (!strcmp(argv[a], "--db")) {
			if (a + 1 >= argc)
				return tps_usage_error(usage, "--db needs a file name");
			ctx.db_path = argv[++a];
		} else if (!strncmp(argv[a], "--db=", 5)) {
			ctx.db_path = argv[a] + 5;
		} else if (!strcmp(argv[a], "--version")) {
			printf("tpsdb %s\n", TPSDB_VERSION);
			return TPS_EXIT_OK;
		} else {
			return tps_usage_error(usage, "unknown global option '%s'", argv[a]);
		}
		a++;
	}
	if (a >= argc) {
		print_help(stderr);
		return TPS_EXIT_USAGE;
	}
	cargc = argc - a;
	if (take_global(&cargc, argv + a, &ctx))
		return TPS_EXIT_USAGE;
	if (!*ctx.db_path)
		return tps_usage_error(usage, "--db needs a file name");
	for (i = 0; i < cmd_table_n; i++) {
		if (!strcmp(cmd_table[i]->name, argv[a]))
			break;
	}
	if (i == cmd_table_n)
		return unknown_command(argv[a]);
	/* A bad TPSDB_* number is a usage error before anything runs, not a default. */
	if (tps_env_check() < 0)
		return TPS_EXIT_USAGE;
	/* No output file of any command may be the store or its journal. */
	outfile_protect(ctx.db_path);
	ctx.readonly = (cmd_table[i]->flags & CMD_READONLY) != 0;
	ctx.existing = (cmd_table[i]->flags & CMD_EXISTING) != 0;
	ret = cmd_table[i]->exec(cargc, argv + a, &ctx);
	store_close(ctx.store);
	if (fflush(stdout) != 0 && ret == TPS_EXIT_OK) {
		tps_error("cannot write the output");
		ret = TPS_EXIT_ERROR;
	}
	if (ret < TPS_EXIT_OK || ret > TPS_EXIT_ERROR)
		ret = TPS_EXIT_ERROR;
	return ret;
}
