/* plot_style.c: how the figures look and what their text may hold: the palette
 * and the colour each engine keeps in every figure, and the cleaning of every user
 * string before it reaches a gnuplot script (plot_quote(), plot_quote_path()) or a
 * data file (plot_field()). */
#include "reports/plot.h"
#include "reports/plot_int.h"
#include "escape.h"
#include "tpsdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* matplotlib's tab10: saturated enough for thin lines on white and on paper. */
static const char *const palette[PLOT_N_COLOURS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
};

const char *plot_colour(size_t i)
{
	return palette[i % PLOT_N_COLOURS];
}

static size_t key_hash(const char *key)
{
	uint32_t h = 2166136261u;
	const unsigned char *p;

	for (p = (const unsigned char *)(key ? key : ""); *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	return h % PLOT_N_COLOURS;
}

void plot_colours(const char *const *keys, size_t n, size_t *out)
{
	size_t *ord = tps_xcalloc(n ? n : 1, sizeof(*ord)), i, j, k;
	unsigned char used[PLOT_N_COLOURS] = { 0 };

	/* Keys in byte order, so that the series' order in a figure cannot change
	 * who wins a shared entry. */
	for (i = 0; i < n; i++) {
		size_t x = i;
		for (j = i; j > 0 && strcmp(keys[x] ? keys[x] : "",
					    keys[ord[j - 1]] ? keys[ord[j - 1]] : "") < 0; j--)
			ord[j] = ord[j - 1];
		ord[j] = x;
	}
	for (i = 0; i < n; i++) {
		size_t x = ord[i], c;
		const char *kx = keys[x] ? keys[x] : "";
		if (i && !strcmp(kx, keys[ord[i - 1]] ? keys[ord[i - 1]] : "")) {
			out[x] = out[ord[i - 1]];
			continue;
		}
		c = key_hash(kx);
		for (k = 0; k < PLOT_N_COLOURS && used[(c + k) % PLOT_N_COLOURS]; k++)
			;
		c = k < PLOT_N_COLOURS ? (c + k) % PLOT_N_COLOURS : c;
		used[c] = 1;
		out[x] = c;
	}
	free(ord);
}

char *plot_quote(const char *s)
{
	char *in = escape_gnuplot(s, PLOT_TEXT_MAX, 0), *q = tps_xasprintf("'%s'", in);

	free(in);
	return q;
}

/* A path (ours, or --out with no control character) is never cut. */
char *plot_quote_path(const char *path)
{
	char *in = escape_gnuplot(path, SIZE_MAX, 0), *q = tps_xasprintf("'%s'", in);

	free(in);
	return q;
}

char *plot_field(const char *s)
{
	if (!s || !*s)
		return tps_xstrdup("-");
	return escape_gnuplot(s, PLOT_LABEL_MAX, 1);
}
