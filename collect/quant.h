/* quant.h: the quantisation a GGUF file name announces ("...-Q4_K_M.gguf"), which
 * is what people call a model by; the collector records it on the model row. */
#ifndef COLLECT_QUANT_H
#define COLLECT_QUANT_H

/* The quant named in the base name of path, upper-case and static ("Q4_K_M",
 * "F16", "BF16", "Q8_0", "IQ4_XS", "UD-Q4_K_XL" as "Q4_K_XL", ...), matched
 * case-insensitively as a whole word between '-', '_', '.' or the ends. "" when the
 * name shows none. Pure. */
const char *quant_guess(const char *path);

#endif
