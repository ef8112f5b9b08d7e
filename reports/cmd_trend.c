/* cmd_trend.c: placeholder until 'tpsdb trend' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_trend(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'trend' is not built yet");
	return TPS_EXIT_ERROR;
}
