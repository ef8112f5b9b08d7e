/* fuzz_response.c: libFuzzer target for the llama-server response parser, the first
 * code that touches bytes from an engine. Built with -DTPSDB_FUZZ=ON under clang. */
#include "collect/response.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct response r;
	char err[256];

	response_init(&r);
	response_parse((const char *)data, size, &r, err, sizeof(err));
	response_release(&r);
	return 0;
}
