/* cmd_plot.c: placeholder until 'tpsdb plot' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_plot(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'plot' is not built yet");
	return TPS_EXIT_ERROR;
}
