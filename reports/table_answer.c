/* table_answer.c: the report's one-line answer per engine in words, "ours vs
 * llama.cpp: pp ...; tg ...", from the answers the study decided
 * (analyze/study_answer.c), in the words of reports/answer_text.c. */
#include "reports/tables_int.h"
#include "reports/answer_text.h"
#include "tpsdb.h"

#include <stdio.h>
#include <string.h>

char *tables_answer_text(const struct tables *t, size_t e)
{
	char buf[2048];
	size_t at;
	int m, any = 0;

	if (!t->ref || !t->answers || !strcmp(t->engines[e].label, t->ref))
		return NULL;
	snprintf(buf, sizeof(buf), "%s vs %s:", t->engines[e].label, t->ref);
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
	return any ? tps_xstrdup(buf) : NULL;
}
