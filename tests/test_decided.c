/* test_decided.c: collect --until-decided's pieces that need no server: the
 * stopping rule over parity rows (analyze/decided.c: a cell is decided only when
 * every metric it watches is, both by default, and the words for a row) and the progress line's text with
 * the rounds and the cells still open (collect/progress.c). */
#include "analyze/decided.h"
#include "collect/progress.h"
#include "schema/record.h"
#include "tests/run_fixture.h"
#include "tpsdb.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void row(struct parity_row *r, char *spec, int64_t n_max, const char *metric,
		enum verdict_kind kind, int decided, double delta, double mde)
{
	fx_row(r, spec, n_max, metric, kind);
	r->v.decided = decided;
	r->v.regression = !decided ? VERDICT_REG_UNDECIDED : kind == VERDICT_SLOWER ?
		VERDICT_REG_YES : VERDICT_REG_NO;
	r->v.delta_pct = delta;
	r->v.mde_pct = mde;
}

static void test_decided_cells(void **state)
{
	struct parity_row rows[5];
	struct parity_result res = { 0 };
	struct decided_cell *c = NULL;
	size_t n;

	(void)state;
	/* base: both decided; n_max 1: tg undecided; n_max 2: tg only. */
	row(&rows[0], "", TPS_NULL, "pp", VERDICT_PARITY, 1, 0.3, 0.8);
	row(&rows[1], "", TPS_NULL, "tg", VERDICT_SLOWER, 1, -4.5, 1.1);
	row(&rows[2], "draft-simple", 1, "pp", VERDICT_PARITY, 1, 0.1, 0.5);
	row(&rows[3], "draft-simple", 1, "tg", VERDICT_UNDECIDED, 0, 1.2, 3.4);
	row(&rows[4], "draft-simple", 2, "tg", VERDICT_FASTER, 1, 5.0, 1.0);
	res.rows = rows;
	res.n_rows = 5;
	n = decided_cells(&res, DECIDED_PARITY, PARITY_BOTH, &c);
	assert_int_equal(n, 3);
	assert_int_equal(c[0].decided, 1);
	assert_ptr_equal(c[0].row[PARITY_METRIC_PP], &rows[0]);
	assert_ptr_equal(c[0].row[PARITY_METRIC_TG], &rows[1]);
	assert_int_equal(c[1].decided, 0);
	/* A metric without a row is not decided. */
	assert_int_equal(c[2].decided, 0);
	assert_null(c[2].row[PARITY_METRIC_PP]);
	assert_int_equal(decided_find(c, n, "", TPS_NULL), 0);
	assert_int_equal(decided_find(c, n, NULL, TPS_NULL), 0);
	assert_int_equal(decided_find(c, n, "draft-simple", 2), 2);
	assert_int_equal(decided_find(c, n, "draft-simple", 3), SIZE_MAX);
	free(c);
	/* The regression question: an undecided two-sided verdict may still answer
	 * it. n_max 1's tg leans +1.2% with an interval above -2%: regression no. */
	rows[3].v.regression = VERDICT_REG_NO;
	n = decided_cells(&res, DECIDED_REGRESSION, PARITY_BOTH, &c);
	assert_int_equal(n, 3);
	assert_int_equal(c[1].decided, 1);
	free(c);
	assert_int_equal(decided_cells(&res, DECIDED_PARITY, PARITY_BOTH, &c), 3);
	assert_int_equal(c[1].decided, 0);
	free(c);
	/* One metric watched: n_max 1's tg is open, so --metric pp decides it and
	 * --metric tg does not; n_max 2 has a tg row only, so --metric tg decides it. */
	assert_int_equal(decided_cells(&res, DECIDED_PARITY, PARITY_PP, &c), 3);
	assert_int_equal(c[0].decided, 1);
	assert_int_equal(c[1].decided, 1);
	assert_int_equal(c[2].decided, 0);
	free(c);
	assert_int_equal(decided_cells(&res, DECIDED_PARITY, PARITY_TG, &c), 3);
	assert_int_equal(c[0].decided, 1);
	assert_int_equal(c[1].decided, 0);
	assert_int_equal(c[2].decided, 1);
	free(c);
	/* A mask that is neither one metric is both. */
	assert_int_equal(decided_watched(0), PARITY_BOTH);
	assert_int_equal(decided_watched(PARITY_TG), PARITY_TG);
	assert_int_equal(decided_cells(&res, DECIDED_PARITY, 0, &c), 3);
	assert_int_equal(c[2].decided, 0);
	free(c);
	res.n_rows = 0;
	assert_int_equal(decided_cells(&res, DECIDED_PARITY, PARITY_BOTH, &c), 0);
	assert_null(c);
}

static void test_progress_label(void **state)
{
	char buf[256];

	(void)state;
	progress_label(buf, sizeof(buf), 4, 10, "tiny", "ours", TPS_NULL, "1 of 2 cells open");
	assert_string_equal(buf, "round 4/10 tiny / ours / base, 1 of 2 cells open");
	progress_label(buf, sizeof(buf), 1, 1, "tiny", "ours", 3, NULL);
	assert_string_equal(buf, "tiny / ours / n_max=3");
	progress_label(buf, sizeof(buf), 2, 3, "q", "b", TPS_NULL, "");
	assert_string_equal(buf, "round 2/3 q / b / base");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decided_cells),
		cmocka_unit_test(test_progress_label),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
