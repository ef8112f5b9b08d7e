/* opts.c: every command's option loop, written once: the getopt table built from
 * the command's rows, each value checked and stored by its row's kind, --help
 * printed from the command's entry, the error tail of an unknown option, and the
 * check that no operand is left over. */
#include "cmd/opts.h"

#include "analyze/config.h"

#include <stdlib.h>
#include <string.h>

const struct cmd_choice cmd_formats[] = {
	{ "text", OUT_TEXT }, { "json", OUT_JSON }, { "md", OUT_MD }, { "csv", OUT_CSV },
	{ NULL, 0 },
};

static void store_int(const struct cmd_option *op, int64_t v)
{
	if (op->size == sizeof(int))
		*(int *)op->dst = (int)v;
	else
		*(int64_t *)op->dst = v;
}

/* "--<name> is a, b or c, not '<arg>'". */
static int choice_error(const struct cmd_option *op, const char *arg, const char *usage)
{
	char names[256];
	size_t i, n = 0;

	names[0] = '\0';
	for (i = 0; op->choices[i].name && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
				      !i ? "" : op->choices[i + 1].name ? ", " : " or ",
				      op->choices[i].name);
	return tps_usage_error(usage, "--%s is %s, not '%s'", op->name, names, arg);
}

/* Checks arg by op's kind and stores it: 0, or TPS_EXIT_USAGE after the usage error. */
static int take(const struct cmd_option *op, const char *arg, const char *usage)
{
	struct filter_list *l = op->dst;
	size_t i, len;
	int64_t n;
	double d;

	switch (op->kind) {
	case CMD_OPT_STRING:
		if (op->what && !*arg)
			return tps_usage_error(usage, "--%s needs %s", op->name, op->what);
		*(const char **)op->dst = arg;
		return 0;
	case CMD_OPT_FLAG:
		store_int(op, op->val);
		return 0;
	case CMD_OPT_COUNT:
		if (tps_parse_i64(arg, &n) < 0 || n < op->min || n > op->max) {
			if (op->max == INT64_MAX)
				return tps_usage_error(usage, "--%s needs a whole number >= %lld, "
						       "not '%s'", op->name, (long long)op->min, arg);
			return tps_usage_error(usage, "--%s needs a whole number from %lld to %lld, "
					       "not '%s'", op->name, (long long)op->min,
					       (long long)op->max, arg);
		}
		store_int(op, n);
		return 0;
	case CMD_OPT_NUMBER:
		if (tps_parse_double(arg, &d) < 0 ||
		    !(op->open & CMD_OPEN_LO ? d > op->lo : d >= op->lo) ||
		    !(op->open & CMD_OPEN_HI ? d < op->hi : d <= op->hi))
			return tps_usage_error(usage, "--%s needs %s, not '%s'", op->name, op->what,
					       arg);
		*(double *)op->dst = d;
		return 0;
	case CMD_OPT_CHOICE:
	case CMD_OPT_WORD:
		for (i = 0; op->choices[i].name && strcmp(arg, op->choices[i].name); i++)
			;
		if (!op->choices[i].name)
			return choice_error(op, arg, usage);
		if (op->kind == CMD_OPT_WORD)
			*(const char **)op->dst = op->choices[i].name;
		else
			store_int(op, op->choices[i].value);
		return 0;
	case CMD_OPT_LIST:
		len = strlen(arg);
		if (op->val != CMD_LIST_ANY &&
		    (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,")))
			return tps_usage_error(usage, "--%s needs a name or a comma list of names, "
					       "not '%s'", op->name, arg);
		if (l->n_arg == FILTER_LIST_MAX)
			return tps_usage_error(usage, "--%s given more than %d times", op->name,
					       FILTER_LIST_MAX);
		l->arg[l->n_arg++] = arg;
		return 0;
	case CMD_OPT_PARSE:
		return op->parse(op, arg, usage);
	case CMD_OPT_CALLBACK:
		break;
	}
	return 0;
}

/* The getopt table of o's rows: row i is getopt value 256 + i. */
static void longopts(struct cmd_opts *o)
{
	size_t i;

	o->lo[0] = (struct option){ "help", no_argument, NULL, 'h' };
	for (i = 0; o->opts[i].name; i++) {
		if (i == CMD_OPTS_MAX) {
			tps_error("the options of '%s' are more than %d", o->cmd->name, CMD_OPTS_MAX);
			abort();
		}
		o->lo[i + 1] = (struct option){ o->opts[i].name,
						o->opts[i].kind == CMD_OPT_FLAG ? no_argument :
						required_argument, NULL, 256 + (int)i };
	}
	o->lo[i + 1] = (struct option){ NULL, 0, NULL, 0 };
}

int filter_opt_date(const struct cmd_option *opt, const char *arg, const char *usage)
{
	struct filter_opts *fo = opt->dst;
	char *buf = opt->val ? fo->until : fo->since;
	int date_only;

	if (tps_parse_date(arg, buf, sizeof(fo->since), &date_only) < 0)
		return tps_usage_error(usage, "--%s needs an ISO 8601 date or date-time "
				       "(2025-06-01, 2025-06-01T12:00:00Z), not '%s'", opt->name, arg);
	/* A day alone is the whole day: up to its last millisecond. */
	if (opt->val && date_only)
		snprintf(fo->until + 10, sizeof(fo->until) - 10, "T23:59:59.999");
	*(opt->val ? &fo->f.until : &fo->f.since) = buf;
	return 0;
}

int ignore_config_opt(const struct cmd_option *opt, const char *arg, const char *usage)
{
	char bad[64];

	if (config_keys_check(arg, bad, sizeof(bad)) < 0)
		return tps_usage_error(usage, "--ignore-config: unknown config key '%s' (keys: %s)",
				       bad, config_keys());
	*(const char **)opt->dst = arg;
	return 0;
}

int cmd_opts_next(struct cmd_opts *o, int argc, char **argv)
{
	const char *usage = o->cmd->usage;
	const struct cmd_option *op;
	int c;

	if (!o->go.begun)
		longopts(o);
	while ((c = tps_getopt(&o->go, argc, argv, o->lo)) != -1) {
		if (c == 'h') {
			fputs(o->cmd->help, stdout);
			o->ret = TPS_EXIT_OK;
			return CMD_OPTS_STOP;
		}
		if (c < 256) {
			if (o->cmd->flags & CMD_SYNOPSIS)
				fprintf(stderr, "usage: %s\n", usage);
			else
				tps_usage_hint(usage);
			o->ret = TPS_EXIT_USAGE;
			return CMD_OPTS_STOP;
		}
		op = &o->opts[c - 256];
		if (op->seen)
			*op->seen = 1;
		if (op->kind == CMD_OPT_CALLBACK)
			return op->val;
		if (take(op, optarg, usage)) {
			o->ret = TPS_EXIT_USAGE;
			return CMD_OPTS_STOP;
		}
	}
	if (!(o->cmd->flags & CMD_OPERANDS) && optind < argc) {
		o->ret = tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
		return CMD_OPTS_STOP;
	}
	return CMD_OPTS_END;
}

int cmd_opts_parse(const struct cmd_entry *cmd, const struct cmd_option *opts, int argc,
		   char **argv)
{
	struct cmd_opts o = { .cmd = cmd, .opts = opts };
	int c;

	while ((c = cmd_opts_next(&o, argc, argv)) >= 0)
		; /* a table with callbacks is read with cmd_opts_next() */
	return c == CMD_OPTS_STOP ? o.ret : -1;
}
