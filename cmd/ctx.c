/* ctx.c: the command context's store. Every command asks for the store through
 * tps_ctx_store(), which opens ctx->db_path on first use; a caller that already
 * holds a store (a test's ":memory:" one) sets ctx->store and gets it back. */
#include "tpsdb.h"
#include "schema/store.h"

struct store *tps_ctx_store(struct tps_ctx *ctx)
{
	if (!ctx->store)
		ctx->store = store_open(ctx->db_path, ctx->readonly   ? STORE_READONLY
						      : ctx->existing ? STORE_EXISTING
								      : 0);
	return ctx->store;
}
