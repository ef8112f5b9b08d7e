/* quant.c: guesses the quant from a GGUF file name. Longer names come first in the
 * table, so "Q4_K_M" wins over "Q4_K" at the same place. */
#include "collect/quant.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const quants[] = {
	"IQ2_XXS", "IQ3_XXS", "Q4_K_XL", "Q5_K_XL", "Q6_K_XL", "Q8_K_XL", "Q3_K_XL",
	"Q2_K_XL", "IQ1_S", "IQ1_M", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ3_XS", "IQ3_S", "IQ3_M",
	"IQ4_XS", "IQ4_NL", "Q2_K_S", "Q3_K_S", "Q3_K_M", "Q3_K_L", "Q4_K_S", "Q4_K_M",
	"Q5_K_S", "Q5_K_M", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q4_0", "Q4_1", "Q5_0",
	"Q5_1", "Q8_0", "TQ1_0", "TQ2_0", "MXFP4", "BF16", "F16", "F32",
};

/* Word boundaries: the quant's own '_' is inside it, so only these end a word. */
static int boundary(char c)
{
	return c == '\0' || c == '-' || c == '.' || c == '_' || c == ' ';
}

const char *quant_guess(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i, n, len, at;

	base = base ? base + 1 : path;
	len = strlen(base);
	for (at = 0; at < len; at++) {
		if (at > 0 && !boundary(base[at - 1]))
			continue;
		for (i = 0; i < sizeof(quants) / sizeof(quants[0]); i++) {
			n = strlen(quants[i]);
			if (at + n <= len && !strncasecmp(base + at, quants[i], n) &&
			    boundary(base[at + n]))
				return quants[i];
		}
	}
	return "";
}
