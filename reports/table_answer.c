/* table_answer.c: the report's one-line answer per comparison in words, "ours vs
 * llama.cpp: pp ...; tg ...", from the answers the study decided
 * (analyze/study_answer.c), in the words of reports/answer_text.c: each engine
 * against the reference, or without one ours against each other engine. */
#include "reports/tables_int.h"
#include "reports/answer_text.h"
#include "tpsdb.h"

#include <stdio.h>
#include <string.h>

char *tables_answer_text(const struct tables *t, size_t e)
{
	const char *judged = t->ref ? t->ref : t->ours;
	char buf[2048];
	size_t at;
	int m, any = 0;

	if (!judged || !t->answers || !strcmp(t->engines[e].label, judged))
		return NULL;
	if (t->ref)
		snprintf(buf, sizeof(buf), "%s vs %s:", t->engines[e].label, t->ref);
	else
		snprintf(buf, sizeof(buf), "%s vs %s:", t->ours, t->engines[e].label);
	for (m = 0; m < 2; m++) {
		const struct study_answer *sa = &t->answers[2 * e + (size_t)m];

		if (!sa->n)
			continue;
		at = strlen(buf);
		if (at + 1 < sizeof(buf))
			snprintf(buf + at, sizeof(buf) - at, "%s ", any ? ";" : "");
		answer_text_metric(buf, sizeof(buf), m ? "tg" : "pp", &sa->a, sa->names, sa->v);
		any = 1;
	}
	/* Without a reference the user asked how ours fares against every other
	 * engine: an engine with nothing to compare still gets its line. */
	if (!any && !t->ref) {
		at = strlen(buf);
		if (at + 1 < sizeof(buf))
			snprintf(buf + at, sizeof(buf) - at, " no comparable base cell");
		any = 1;
	}
	return any ? tps_xstrdup(buf) : NULL;
}
