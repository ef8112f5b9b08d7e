/* config_near.c: the nearest pair of cells two sides hold when they share none:
 * the llama-bench configuration keys (analyze/config.c) that keep them apart. */
#include "analyze/config_near.h"

#include <stdint.h>
#include <string.h>

#include "analyze/config.h"
#include "tpsdb.h"

/* Whether a and b are one cell but for their configuration's settings. */
static int same_test(const struct run *a, const struct run *b)
{
	size_t la, lb;

	if (!a->config || !*a->config || !b->config || !*b->config)
		return 0;
	if (!run_str_eq(a->model, b->model) || !run_str_eq(a->spec_type, b->spec_type) ||
	    a->n_max != b->n_max || !run_str_eq(a->endpoint, b->endpoint))
		return 0;
	la = strcspn(a->config, " ");
	lb = strcspn(b->config, " ");
	return la == lb && !strncmp(a->config, b->config, la);
}

static int popcount(unsigned x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

int config_nearest(const struct run *a, size_t na, const struct run *b,
		   size_t nb, struct config_near *out)
{
	size_t i, j, bi = 0, bj = 0, k;
	unsigned best = 0;
	int found = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++) {
			unsigned d;

			if (!same_test(&a[i], &b[j]))
				continue;
			d = config_differ(a[i].config, b[j].config);
			if (!d)
				continue;
			if (!found || popcount(d) < popcount(best)) {
				best = d;
				bi = i;
				bj = j;
				found = 1;
			}
		}
	}
	if (!found)
		return 0;
	for (k = 0; config_key(k) && out->n_keys < CONFIG_MAX_DIFF; k++) {
		if (!(best & (1u << k)))
			continue;
		tps_copy(out->key[out->n_keys], sizeof(out->key[0]), config_key(k), SIZE_MAX);
		config_value(a[bi].config, config_key(k), out->ours[out->n_keys],
			     sizeof(out->ours[0]));
		config_value(b[bj].config, config_key(k), out->vs[out->n_keys], sizeof(out->vs[0]));
		out->n_keys++;
	}
	/* How many of a's cells the keys would pair: a partner differing in no other
	 * key. Several runs of one cell (rounds) count once. */
	for (i = 0; i < na; i++) {
		for (k = 0; k < i; k++)
			if (same_test(&a[k], &a[i]) && !strcmp(a[k].config, a[i].config))
				break;
		if (k < i)
			continue;
		for (j = 0; j < nb; j++) {
			if (same_test(&a[i], &b[j]) &&
			    !(config_differ(a[i].config, b[j].config) & ~best)) {
				out->n_cells++;
				break;
			}
		}
	}
	return 1;
}
