/* study_label.c: the name of a speculative row's config; cells themselves are
 * named by analyze/cell_label.c, in the tables, the figures' titles and legends
 * alike, so that a label reads the same in every format. */
#include "analyze/study.h"
#include "tpsdb.h"

const char *study_spec_name(const char *spec_type)
{
	return study_same(spec_type, "") ? "spec" : spec_type;
}
