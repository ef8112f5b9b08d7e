/* cmd_baseline.c: placeholder until 'tpsdb baseline' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_baseline(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'baseline' is not built yet");
	return TPS_EXIT_ERROR;
}
