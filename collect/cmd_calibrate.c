/* cmd_calibrate.c: placeholder until 'tpsdb calibrate' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_calibrate(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'calibrate' is not built yet");
	return TPS_EXIT_ERROR;
}
