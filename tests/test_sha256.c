/* test_sha256.c: the SHA-256 wrapper over libcrypto (hash.c) against FIPS 180-4 and
 * coreutils sha256sum digests, at the lengths where the padding changes shape
 * (55, 56, 63, 64, 65 bytes and their second-block twins), and fed in uneven
 * pieces, which must give the same digest as one update. */
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* Inputs are n copies of fill, or text when text is non-NULL. */
static const struct {
	const char *text;
	char fill;
	size_t n;
	const char *hex;
} vectors[] = {
	{ "", 0, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", 0, 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 0, 56,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ NULL, 'a', 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
	{ NULL, 'a', 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
	{ NULL, 'a', 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
	{ NULL, 'a', 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	{ NULL, 'a', 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
	{ NULL, 'a', 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
	{ NULL, 'a', 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	{ NULL, 'a', 128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e" },
	{ NULL, 'a', 1000000,
	  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

static char *input(size_t i)
{
	char *buf = tps_xmalloc(vectors[i].n + 1);

	if (vectors[i].text)
		memcpy(buf, vectors[i].text, vectors[i].n);
	else
		memset(buf, vectors[i].fill, vectors[i].n);
	return buf;
}

static void test_sha256_vectors_one_shot(void **state)
{
	char hex[65];

	(void)state;
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		char *buf = input(i);
		sha256_hex(buf, vectors[i].n, hex);
		assert_string_equal(hex, vectors[i].hex);
		free(buf);
	}
}

static void test_sha256_vectors_streamed(void **state)
{
	struct sha256 c;
	char hex[65];

	(void)state;
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		char *buf = input(i);
		sha256_init(&c);
		sha256_update(&c, buf, vectors[i].n);
		sha256_final_hex(&c, hex);
		assert_string_equal(hex, vectors[i].hex);
		assert_null(c.evp);
		free(buf);
	}
}

/* Piece sizes that straddle the 64-byte block in every way: empty pieces, single
 * bytes, a piece ending one short of a block, one spanning two blocks. */
static void test_sha256_split_updates(void **state)
{
	static const size_t pieces[] = { 0, 1, 54, 1, 0, 8, 63, 65, 3, 64, 127, 129, 7 };
	struct sha256 c;
	char hex[65], whole[65];

	(void)state;
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		char *buf = input(i);
		size_t off = 0, k = 0;
		sha256_init(&c);
		while (off < vectors[i].n) {
			size_t take = pieces[k++ % (sizeof(pieces) / sizeof(pieces[0]))];
			if (take > vectors[i].n - off)
				take = vectors[i].n - off;
			sha256_update(&c, buf + off, take);
			off += take;
		}
		sha256_final_hex(&c, hex);
		sha256_hex(buf, vectors[i].n, whole);
		assert_string_equal(hex, whole);
		assert_string_equal(hex, vectors[i].hex);
		free(buf);
	}
}

/* A byte pattern that is not one repeated letter, fed one byte at a time. */
static void test_sha256_bytewise(void **state)
{
	unsigned char buf[1000];
	struct sha256 c;
	char hex[65];

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 % 251);
	sha256_init(&c);
	for (size_t i = 0; i < sizeof(buf); i++)
		sha256_update(&c, buf + i, 1);
	sha256_final_hex(&c, hex);
	assert_string_equal(hex,
		"59425e4412e296fc74736673ce067027f384203f59c0d2c3e6be7b13347b3ffc");
}

/* An error path drops a digest half-way; release is safe twice and on a zeroed one. */
static void test_sha256_release(void **state)
{
	struct sha256 c = { 0 };

	(void)state;
	sha256_release(&c);
	sha256_init(&c);
	sha256_update(&c, "abc", 3);
	sha256_release(&c);
	assert_null(c.evp);
	sha256_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors_one_shot),
		cmocka_unit_test(test_sha256_vectors_streamed),
		cmocka_unit_test(test_sha256_split_updates),
		cmocka_unit_test(test_sha256_bytewise),
		cmocka_unit_test(test_sha256_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
