/* hash.c: SHA-256 for model and binary identity, prompt text hashes and output
 * hashes, through OpenSSL libcrypto's EVP interface, which uses the CPU's SHA
 * extensions where it has them (several times the rate of a portable C loop; see
 * docs/PERFORMANCE.md). */
#include "tpsdb.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <stdlib.h>

static void die_crypto(const char *what)
{
	unsigned long e = ERR_get_error();
	char why[256] = "unknown error";

	if (e)
		ERR_error_string_n(e, why, sizeof(why));
	tps_error("libcrypto cannot %s: %s", what, why);
	exit(TPS_EXIT_ERROR);
}

static void to_hex(const unsigned char *md, char hex[65])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

void sha256_init(struct sha256 *c)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		die_crypto("start a sha256 digest");
	c->evp = ctx;
}

void sha256_update(struct sha256 *c, const void *data, size_t n)
{
	if (n && EVP_DigestUpdate(c->evp, data, n) != 1)
		die_crypto("update a sha256 digest");
}

void sha256_final_hex(struct sha256 *c, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	if (EVP_DigestFinal_ex(c->evp, md, &len) != 1 || len != 32)
		die_crypto("finish a sha256 digest");
	to_hex(md, hex);
	sha256_release(c);
}

void sha256_release(struct sha256 *c)
{
	EVP_MD_CTX_free(c->evp);
	c->evp = NULL;
}

/* One context per thread, re-initialised for each call: the import hashes two short
 * strings per sample, and a fresh EVP_MD_CTX each time would be an allocation and a
 * free per hash. */
void sha256_hex(const void *data, size_t n, char hex[65])
{
	static _Thread_local EVP_MD_CTX *ctx;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	if (!ctx && !(ctx = EVP_MD_CTX_new()))
		die_crypto("start a sha256 digest");
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 ||
	    (n && EVP_DigestUpdate(ctx, data, n) != 1) ||
	    EVP_DigestFinal_ex(ctx, md, &len) != 1 || len != 32)
		die_crypto("hash a buffer with sha256");
	to_hex(md, hex);
}
