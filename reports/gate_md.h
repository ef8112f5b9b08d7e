/* gate_md.h: `tpsdb gate --format md`, the gate's outcome as GitHub markdown for a
 * pull request or $GITHUB_STEP_SUMMARY. */
#ifndef REPORTS_GATE_MD_H
#define REPORTS_GATE_MD_H

#include <stdio.h>

#include "reports/gate_write.h"

/* Writes a heading with PASS or **FAIL** and the failure count, a table of the
 * rows (cell, metric, baseline, candidate, delta, 95% CI, threshold, rounds, mde,
 * status, decided; FAIL and INCONCLUSIVE in bold), then a table each of the sweep
 * violations, findings and trend change points when there are any, the notes as
 * a list and a legend. Labels escaped. */
void gate_md_write(FILE *f, const struct gate_report *h, const struct gate_result *r);

#endif
