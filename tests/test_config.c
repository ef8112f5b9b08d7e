/* test_config.c: llama-bench configuration texts across versions (analyze/config.c):
 * one spelling per value, ignored keys, the nearest cells two sides hold, what a
 * test measures, and the keys a table's labels must show. */
#include "analyze/config.h"
#include "analyze/config_near.h"
#include "tests/run_fixture.h"
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define OLD "pp512 fa=true ngl=99 b=2048 ub=512 ctk=f16 ctv=f16 t=4 sm=layer nkvo=false backend=CPU"
#define NEW "pp512 fa=1 ngl=-1 b=2048 ub=512 ctk=f16 ctv=f16 t=4 sm=layer nkvo=0 backend=CPU"

static void test_config_canon(void **state)
{
	static const struct { const char *in, *ignore, *want; } cases[] = {
		{ OLD, NULL, "pp512 fa=1 ngl=99 b=2048 ub=512 ctk=f16 ctv=f16 t=4 sm=layer nkvo=0 backend=CPU" },
		{ NEW, NULL, NEW },
		{ OLD, "ngl", "pp512 fa=1 b=2048 ub=512 ctk=f16 ctv=f16 t=4 sm=layer nkvo=0 backend=CPU" },
		{ NEW, "ngl", "pp512 fa=1 b=2048 ub=512 ctk=f16 ctv=f16 t=4 sm=layer nkvo=0 backend=CPU" },
		{ "tg128 fa=ON nkvo=Off t=2", "t,nkvo", "tg128 fa=1" },
		{ "tg128 fa=auto", NULL, "tg128 fa=auto" },
		{ "", "ngl", "" },
		{ NULL, NULL, "" },
		/* a key that only starts like an ignored one stays */
		{ "pp8 b=1 backend=CPU", "b", "pp8 backend=CPU" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = config_canon(cases[i].in, cases[i].ignore);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void test_config_keys_check(void **state)
{
	char bad[16];

	(void)state;
	assert_int_equal(config_keys_check("ngl", bad, sizeof(bad)), 0);
	assert_int_equal(config_keys_check("ngl,fa,backend", bad, sizeof(bad)), 0);
	assert_int_equal(config_keys_check("ngl,gpu", bad, sizeof(bad)), -1);
	assert_string_equal(bad, "gpu");
	assert_int_equal(config_keys_check("", bad, sizeof(bad)), -1);
	assert_int_equal(config_keys_check("ngl,", bad, sizeof(bad)), -1);
	assert_int_equal(config_keys_check("n_gpu_layers_is_long", bad, 4), -1);
	assert_string_equal(bad, "n_g");
}

static void test_config_measures(void **state)
{
	(void)state;
	assert_true(config_measures("", RUN_PP));
	assert_true(config_measures(NULL, RUN_TG));
	assert_true(config_measures("pp512 fa=1", RUN_PP));
	assert_false(config_measures("pp512 fa=1", RUN_TG));
	assert_true(config_measures("tg128@d512 fa=1", RUN_TG));
	assert_false(config_measures("tg128@d512 fa=1", RUN_PP));
	assert_false(config_measures("pp512+tg128 fa=1", RUN_PP));
	assert_false(config_measures("pp512+tg128 fa=1", RUN_TG));
}

/* The texts' keys one at a time: config_nearest()'s words, with no run. */
static void test_config_differ(void **state)
{
	char v[8];
	size_t i;

	(void)state;
	assert_string_equal(config_key(0), "fa");
	for (i = 0; config_key(i); i++)
		;
	assert_int_equal(i, 10);
	assert_null(config_key(10));
	config_value("pp512 fa=1 ngl=99", "ngl", v, sizeof(v));
	assert_string_equal(v, "99");
	config_value("pp512 fa=1", "ngl", v, sizeof(v));
	assert_string_equal(v, "-");
	config_value("pp512 backend=CUDA,BLAS", "backend", v, 4);
	assert_string_equal(v, "CUD");
	/* fa is bit 0, ngl bit 1, b bit 2; an absent key differs from a present one. */
	assert_int_equal(config_differ("pp512 fa=1 ngl=99 b=2048", "pp512 fa=0 ngl=99"),
			 1u << 0 | 1u << 2);
	assert_int_equal(config_differ("pp512 fa=1", "tg128 fa=1"), 0);
	assert_int_equal(config_differ("", ""), 0);
}

/* A run of model "tiny" with this config (a heap copy: release with run_release()). */
static void side(struct run *s, const char *config)
{
	fx_run(s, "u", "e", "tiny");
	fx_set(&s->config, config);
}

static void test_config_nearest(void **state)
{
	struct run a[3], b[3];
	struct config_near n;
	char *c[6];
	int i;

	(void)state;
	/* What import stores: the canonical text of each version's row. */
	c[0] = config_canon("pp512 fa=0 ngl=-1 t=4", NULL);
	c[1] = config_canon("pp512 fa=1 ngl=-1 t=4", NULL);
	c[2] = config_canon("tg128 fa=1 ngl=-1 t=4", NULL);
	c[3] = config_canon("pp512 fa=false ngl=99 t=4", NULL);
	c[4] = config_canon("pp512 fa=true ngl=99 t=4", NULL);
	c[5] = config_canon("tg128 fa=true ngl=99 t=8", NULL);
	for (i = 0; i < 3; i++) {
		side(&a[i], c[i]);
		side(&b[i], c[i + 3]);
	}
	assert_int_equal(config_nearest(a, 3, b, 3, &n), 1);
	assert_int_equal(n.n_keys, 1);
	assert_string_equal(n.key[0], "ngl");
	assert_string_equal(n.ours[0], "-1");
	assert_string_equal(n.vs[0], "99");
	/* tg128 differs in t as well: ngl alone pairs the two pp cells. */
	assert_int_equal(n.n_cells, 2);

	/* Another model, or no llama-bench config at all: nothing near. */
	for (i = 0; i < 3; i++)
		fx_set(&b[i].model, "other");
	assert_int_equal(config_nearest(a, 3, b, 3, &n), 0);
	assert_int_equal(n.n_keys, 0);
	run_release(&a[0]);
	run_release(&b[0]);
	side(&a[0], "");
	side(&b[0], "");
	assert_int_equal(config_nearest(a, 1, b, 1, &n), 0);
	for (i = 0; i < 3; i++) {
		run_release(&a[i]);
		run_release(&b[i]);
	}
	for (i = 0; i < 6; i++)
		free(c[i]);
}

static void test_config_collect(void **state)
{
	char *acc = NULL;

	(void)state;
	config_collect(&acc, "pp512 fa=1 ngl=99 t=4", "ngl,t");
	config_collect(&acc, "tg128 fa=0 ngl=99 t=4", "ngl,t");
	config_collect(&acc, "tg128 fa=0 ngl=-1 t=4", "ngl,t");
	assert_string_equal(acc, "ngl=99 t=4 ngl=-1");
	free(acc);
	acc = NULL;
	config_collect(&acc, "pp512 fa=1", "ngl");
	assert_null(acc);
}

static void test_config_label(void **state)
{
	const char *cfg[] = {
		"pp512 fa=0 ngl=99 b=2048 t=16 backend=CUDA",
		"pp512 fa=1 ngl=99 b=2048 t=16 backend=CUDA",
		"",
		"tg128 fa=1 ngl=99 b=2048 t=16 backend=CUDA x=7",
	};
	unsigned v = config_varying(cfg, 4);
	char *l, *k;

	(void)state;
	assert_int_equal(v, 1u); /* fa alone: bit 0 */
	l = config_label(cfg[3], v);
	k = config_constant(cfg[3], v);
	assert_string_equal(l, "tg128 fa=1 x=7");
	assert_string_equal(k, "ngl=99 b=2048 t=16 backend=CUDA");
	free(l);
	free(k);
	/* One row: nothing varies, the label is the test alone. */
	assert_int_equal(config_varying(cfg, 1), 0u);
	l = config_label(cfg[0], 0);
	assert_string_equal(l, "pp512");
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_canon),
		cmocka_unit_test(test_config_keys_check),
		cmocka_unit_test(test_config_measures),
		cmocka_unit_test(test_config_differ),
		cmocka_unit_test(test_config_nearest),
		cmocka_unit_test(test_config_collect),
		cmocka_unit_test(test_config_label),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
