/* cell_label.h: the one spelling of a cell's configuration in tables, figures and
 * trend lines: "base", "draft-simple base", "draft-simple n_max=3", with the
 * endpoint after it in parentheses unless it is the completion endpoint. The
 * parity name (reports/parity.h, "<model> [draft-simple n_max=3]") and the
 * collector's progress name are other spellings, on purpose. */
#ifndef ANALYZE_CELL_LABEL_H
#define ANALYZE_CELL_LABEL_H

#include <stdint.h>

/* A missing n_max: schema/record.h's CELL_LABEL_NULL and the study's STUDY_NULL. */
#define CELL_LABEL_NULL INT64_MIN

/* The configuration of a cell: "base" (no spec_type, n_max CELL_LABEL_NULL), "<spec>
 * base" (n_max CELL_LABEL_NULL), "<spec> n_max=<n>" ("spec" standing for an empty
 * spec_type); then " (<endpoint>)" unless endpoint is "completion", empty or
 * NULL. NULL strings read as "". Caller frees. */
char *cell_label(const char *spec_type, int64_t n_max, const char *endpoint);

/* name, then " (<endpoint>)" unless endpoint is "completion", empty or NULL: a
 * model or an engine on the endpoint it was measured through. Caller frees. */
char *cell_label_endpoint(const char *name, const char *endpoint);

#endif
