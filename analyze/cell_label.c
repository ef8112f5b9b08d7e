/* cell_label.c: a cell's configuration and endpoint as every table, figure and
 * figure title of the study writes it, so that two formats of one report cannot
 * name a cell two ways. In analyze/ because the study's figures (analyze/) and the
 * report's writers (reports/) both name cells: a label is an identifier, not prose,
 * so it stays here while the titles around it are worded in reports/plot_text.c. */
#include "analyze/cell_label.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

/* Whether endpoint is the default, left unsaid. */
static int endpoint_default(const char *endpoint)
{
	return !endpoint || !*endpoint || !strcmp(endpoint, "completion");
}

char *cell_label_endpoint(const char *name, const char *endpoint)
{
	if (endpoint_default(endpoint))
		return tps_xstrdup(name ? name : "");
	return tps_xasprintf("%s (%s)", name ? name : "", endpoint);
}

char *cell_label(const char *spec_type, int64_t n_max, const char *endpoint)
{
	const char *spec = spec_type ? spec_type : "";
	char *base, *ret;

	if (n_max == CELL_LABEL_NULL && !*spec)
		base = tps_xstrdup("base");
	else if (n_max == CELL_LABEL_NULL)
		base = tps_xasprintf("%s base", spec);
	else
		base = tps_xasprintf("%s n_max=%lld", *spec ? spec : "spec", (long long)n_max);
	ret = cell_label_endpoint(base, endpoint);
	free(base);
	return ret;
}
