/* cmd_collect.c: placeholder until 'tpsdb collect' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_collect(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'collect' is not built yet");
	return TPS_EXIT_ERROR;
}
