/* fuzz_stream.c: libFuzzer target for the streamed-answer reader (collect/stream.c),
 * the bytes of server-sent events as they arrive: the input is cut into pieces at
 * places its own first bytes choose, as libcurl hands a body over in chunks, each
 * stamped a little later, then finished. Built with -DTPSDB_FUZZ=ON under clang. */
#include "collect/stream.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stream s;
	struct response r;
	char err[256];
	size_t at = 0, cut = size ? data[0] : 0, n;
	double t = 0;

	stream_init(&s);
	while (at < size) {
		n = cut % 17 + 1;
		if (n > size - at)
			n = size - at;
		stream_feed(&s, (const char *)data + at, n, t);
		cut = cut * 31 + data[at];
		t += (double)(data[at] % 8) * 0.25;
		at += n;
	}
	response_init(&r);
	(void)stream_finish(&s, 0, t + 1, &r, err, sizeof(err));
	response_release(&r);
	stream_release(&s);
	return 0;
}
