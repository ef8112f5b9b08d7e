/* ctx.c: the table of commands, and the command context's store. Every command
 * asks for the store through tps_ctx_store(), which opens ctx->db_path on first
 * use; a caller that already holds a store (a test's ":memory:" one) sets
 * ctx->store and gets it back. */
#include "cmd/cmd.h"
#include "schema/store.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_collect_entry, &cmd_calibrate_entry, &cmd_import_entry, &cmd_runs_entry,
	&cmd_models_entry, &cmd_check_entry, &cmd_export_entry, &cmd_merge_entry,
	&cmd_compare_entry, &cmd_sweep_entry, &cmd_baseline_entry, &cmd_gate_entry,
	&cmd_trend_entry, &cmd_report_entry, &cmd_plot_entry, &cmd_plan_entry,
	&cmd_migrate_entry,
};
const size_t cmd_table_n = sizeof(cmd_table) / sizeof(cmd_table[0]);

struct store *tps_ctx_store(struct tps_ctx *ctx)
{
	if (!ctx->store)
		ctx->store = store_open(ctx->db_path, ctx->readonly   ? STORE_READONLY
						      : ctx->existing ? STORE_EXISTING
								      : 0);
	return ctx->store;
}
