/* cmd_report.c: placeholder until 'tpsdb report' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_report(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'report' is not built yet");
	return TPS_EXIT_ERROR;
}
