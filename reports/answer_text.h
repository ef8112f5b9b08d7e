/* answer_text.h: the one-line answer in words, for compare, gate and the report:
 * "ours vs llama.cpp: tg no regression in 3 of 4 cells, 1 undecided, geomean
 * +0.4% [-0.3%, +1.1%]; pp 1 regression (g4 -6.1% [-7.0%, -5.2%]), ...". */
#ifndef REPORTS_ANSWER_TEXT_H
#define REPORTS_ANSWER_TEXT_H

#include <stddef.h>

#include "analyze/answer.h"
#include "analyze/gate.h"
#include "analyze/parity.h"

/* Appends one metric's part to buf (of len, holding a string): the counts by
 * answer, the decided two-sided verdicts, the named regressions (names[i] for
 * the answer's named indexes) and the geometric mean with its interval, or how
 * far it is when undecided is all there is. */
void answer_text_metric(char *buf, size_t len, const char *metric, const struct answer *a,
			const char *const *names, const struct verdict *const *v);

/* The whole line of a comparison, without a newline: "<ours> vs <vs>: ..." and the
 * answers parity_decide() left in r->answers (pp, then tg), the regressions named
 * as the rows are. Returns a heap string the caller frees. */
char *answer_text_compare(const struct parity_result *r, const char *ours, const char *vs);

/* The same line of a gate, from r->answers (each metric at its threshold): "answer:
 * tg no regression in 3 of 4 cells, 1 regression (moe-30b -6.1% [...]) ...". Caller
 * frees. */
char *answer_text_gate(const struct gate_result *r);

#endif
