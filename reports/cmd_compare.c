/* cmd_compare.c: placeholder until 'tpsdb compare' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_compare(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'compare' is not built yet");
	return TPS_EXIT_ERROR;
}
