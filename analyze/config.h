/* config.h: llama-bench configuration texts (run.config, "pp512 fa=1 ngl=99 b=2048
 * ..."; schema/0005_run_config.sql): one spelling per value across llama-bench
 * versions, keys left out when the user says they do not matter, and the keys in
 * which two texts differ (analyze/config_near.h finds the nearest pair of cells
 * of two sides that share none). Pure string work: it knows no run. */
#ifndef ANALYZE_CONFIG_H
#define ANALYZE_CONFIG_H

#include <stddef.h>

/* The keys of a configuration text after its test, in their stored order, as one
 * static string "fa, ngl, b, ub, ctk, ctv, t, sm, nkvo, backend". */
const char *config_keys(void);

/* Checks a comma-separated key list (--ignore-config): 0 when every key is one of
 * config_keys(), else -1 with the first unknown key copied into bad (bad_len
 * bytes, cut to fit). An empty list or an empty key is unknown. */
int config_keys_check(const char *list, char *bad, size_t bad_len);

/* The canonical form of a configuration text: every value spelled one way (true,
 * on, yes -> 1; false, off, no -> 0, any case: llama-bench wrote flash_attn as a
 * bool before it wrote 0/1), and the keys in the comma list ignore (NULL: none)
 * left out. "" stays "". Caller frees. */
char *config_canon(const char *config, const char *ignore);

/* Appends to *acc (a heap string or NULL; caller frees) every "key=value" of
 * config whose key is in the comma list ignore and that *acc does not hold yet,
 * space separated: what --ignore-config made equal, for the warning. */
void config_collect(char **acc, const char *config, const char *ignore);

/* Whether a cell of this configuration has a row for metric m: a server cell
 * ("" or NULL) has both; a llama-bench test measures only its own metric
 * ("pp512" pp, "tg128" tg; a combined "pp512+tg128" reports neither rate apart,
 * so it has no row: its one rate is compare's speedup, analyze/speedup.h). m is
 * the cell set's metric index, RUN_PP (0) or RUN_TG (1), as PARITY_METRIC_*. */
int config_measures(const char *config, int m);

/* The i-th known key ("fa" first, in stored order), NULL past the last. */
const char *config_key(size_t i);

/* The value of key in config into buf (len bytes, cut to fit; "-" when absent). */
void config_value(const char *config, const char *key, char *buf, size_t len);

/* The known keys (bit i: config_key(i)) whose values differ between a and b. */
unsigned config_differ(const char *a, const char *b);

/* The known keys (bit i: the i-th of config_keys()) whose value is not the same
 * in every non-empty text of cfg[0..n): the keys a table's cell labels must show. */
unsigned config_varying(const char *const *cfg, size_t n);

/* config without its known keys outside varying: the test, the varying keys and
 * any key config_keys() does not know ("pp512 fa=1"). Caller frees. */
char *config_label(const char *config, unsigned varying);

/* The other half: the known keys outside varying, "key=value" space separated
 * ("ngl=99 b=2048 ..."), printed once above a table. Caller frees. */
char *config_constant(const char *config, unsigned varying);

#endif
