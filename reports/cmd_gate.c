/* cmd_gate.c: placeholder until 'tpsdb gate' lands; it says so and exits 3. */
#include "tpsdb.h"

int cmd_gate(int argc, char **argv, struct tps_ctx *ctx)
{
	(void)argc; (void)argv; (void)ctx;
	tps_error("'gate' is not built yet");
	return TPS_EXIT_ERROR;
}
