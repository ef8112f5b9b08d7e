/* cmd_sweep.c: placeholder until 'tpsdb sweep' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_sweep(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'sweep' is not built yet");
	return TPS_EXIT_ERROR;
}
