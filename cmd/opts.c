/* opts.c: the edges of every command's option loop, written once: --help printed
 * from the command's entry, the error tail of an unknown option, the shared run
 * filters, --format and --json, and the check that no operand is left over. */
#include "cmd/opts.h"

int cmd_opts_help(const struct cmd_entry *cmd)
{
	fputs(cmd->help, stdout);
	return TPS_EXIT_OK;
}

int cmd_opts_next(struct cmd_opts *o, int argc, char **argv, const struct option *longopts)
{
	const char *usage = o->cmd->usage;
	int c, r;

	for (;;) {
		c = tps_getopt(&o->go, argc, argv, longopts);
		if (c == -1)
			break;
		if (c == 'h') {
			o->ret = cmd_opts_help(o->cmd);
			return CMD_OPTS_STOP;
		}
		if (c == '?') {
			if (o->synopsis)
				fprintf(stderr, "usage: %s\n", usage);
			else
				tps_usage_hint(usage);
			o->ret = TPS_EXIT_USAGE;
			return CMD_OPTS_STOP;
		}
		if (o->fmt && c == FILTER_OPT_JSON) {
			*o->fmt = OUT_JSON;
			continue;
		}
		if (o->fmt && c == FILTER_OPT_FORMAT)
			r = format_opt_parse(optarg, o->fmt, usage) ? TPS_EXIT_USAGE : 1;
		else if (!o->fo || (r = filter_opts_take(o->fo, c, optarg, usage)) == 0)
			return c;
		if (r != 1) {
			o->ret = r;
			return CMD_OPTS_STOP;
		}
	}
	if (!(o->cmd->flags & CMD_OPERANDS) && optind < argc) {
		o->ret = tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
		return CMD_OPTS_STOP;
	}
	return CMD_OPTS_END;
}
