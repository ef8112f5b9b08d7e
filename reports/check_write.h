/* check_write.h: the two forms of `tpsdb check`: one line per finding, alarm and
 * integrity problem with a closing count, or one JSON document. */
#ifndef REPORTS_CHECK_WRITE_H
#define REPORTS_CHECK_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/findings.h"
#include "schema/catalog.h"

/* What check found; all borrowed. problem holds SQLite's integrity_check lines
 * (none when the store is sound). */
struct check_result {
	const struct findings *fs;
	const struct catalog_alarm *alarm;
	size_t nalarm;
	char *const *problem;
	size_t nproblem;
	int incomplete; /* the store could not be read whole: findings/alarms partial */
};

/* Writes {"findings": [...as findings_json()], "alarms": [...as alarms_json()],
 * "integrity": "ok" or ["<problem>", ...]} and a newline, plus "complete": false
 * when the store could not be read whole.
 * 0 ok, -1 after an error line when cJSON runs out of memory. */
int check_write_json(FILE *f, const struct check_result *r);

/* Writes each finding's line, "ALARM: <text>" per alarm, "integrity: <problem>" per
 * problem, then "no findings; integrity ok" or "<n> finding(s), <n> alarm(s),
 * integrity ok|FAILED", and when incomplete a last line saying the store could not
 * be read whole. */
void check_write_text(FILE *f, const struct check_result *r);

#endif
