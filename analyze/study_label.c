/* study_label.c: how a model and a config are named, in the tables, the figures'
 * titles and legends alike, so that a label reads the same in every format. */
#include "analyze/study.h"
#include "tpsdb.h"

#include <stdlib.h>

char *study_model_label(const char *model, const char *endpoint)
{
	if (study_same(endpoint, "completion") || study_same(endpoint, ""))
		return tps_xstrdup(model);
	return tps_xasprintf("%s (%s)", model, endpoint);
}

const char *study_spec_name(const char *spec_type)
{
	return study_same(spec_type, "") ? "spec" : spec_type;
}

char *study_config_label(const char *spec_type, int64_t n_max, const char *endpoint)
{
	char *base, *ret;

	if (n_max == STUDY_NULL && study_same(spec_type, ""))
		base = tps_xstrdup("base");
	else if (n_max == STUDY_NULL)
		base = tps_xasprintf("%s base", spec_type);
	else
		base = tps_xasprintf("%s n_max=%lld", study_spec_name(spec_type),
				     (long long)n_max);
	if (study_same(endpoint, "completion") || study_same(endpoint, ""))
		return base;
	ret = tps_xasprintf("%s (%s)", base, endpoint);
	free(base);
	return ret;
}
