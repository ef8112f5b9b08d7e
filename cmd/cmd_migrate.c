/* cmd_migrate.c: `tpsdb migrate`, brings an existing store up to this program's
 * schema. Read commands refuse an older store rather than change it; any write
 * command migrates as it opens, and this command does only that. */
#include "schema/store.h"
#include "cmd/opts.h"
#include "tpsdb.h"

#include <stdio.h>

int cmd_migrate(int argc, char **argv, struct tps_ctx *ctx)
{
	const struct cmd_option opts[] = { OPT_END };
	struct store *s;
	int before, after;

	if ((before = cmd_opts_parse(&cmd_migrate_entry, opts, argc, argv)) >= 0)
		return before;
	if (!ctx->store && !(ctx->store = store_open(ctx->db_path, STORE_EXISTING)))
		return TPS_EXIT_ERROR;
	s = ctx->store;
	before = store_found_version(s);
	after = store_version(s);
	if (before == after)
		printf("'%s' is at schema version %d, nothing to do\n", ctx->db_path, after);
	else
		printf("migrated '%s' from schema version %d to %d\n", ctx->db_path, before,
		       after);
	return TPS_EXIT_OK;
}

CMD_ENTRY(migrate, "bring an older store up to this tpsdb's schema", CMD_EXISTING);
