/* test_collect_plan.c: the collect matrix (its order and each cell's command
 * line), role guessing, the speculative type and drafter read from server args,
 * and the quant read from a GGUF file name. */
#include "collect/dialect.h"
#include "collect/manifest.h"
#include "collect/plan.h"
#include "collect/quant.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static int setup(void **state)
{
	*state = tps_xcalloc(1, sizeof(struct plan));
	return 0;
}

static int teardown(void **state)
{
	plan_release(*state);
	free(*state);
	return 0;
}

static void add_spec(struct plan *p, const char *text)
{
	struct manifest m = { 0 };
	char err[256];

	assert_int_equal(manifest_parse(&m, MANIFEST_SPEC, text, "spec", err, sizeof(err)), 0);
	for (size_t i = 0; i < m.n; i++)
		assert_int_equal(plan_add_spec(p, &m.v[i], NULL, err, sizeof(err)), 0);
	manifest_release(&m);
}

static void test_collect_plan_order(void **state)
{
	struct plan *p = *state;
	char err[256], got[1024] = "";
	static const char want[] =
		"a/ours/- a/stock/- "
		"q/ours/- q/ours/1 q/ours/2 q/ours/3 q/stock/- q/stock/1 q/stock/2 q/stock/3 "
		"d/ours/- d/ours/4 d/stock/- d/stock/4 ";

	assert_non_null(plan_add_engine(p, "ours", "/bin/ours", err, sizeof(err)));
	assert_non_null(plan_add_engine(p, "stock", "/bin/stock", err, sizeof(err)));
	assert_non_null(plan_add_model(p, "a", "/m/a.gguf", "-fa on", err, sizeof(err)));
	assert_non_null(plan_add_model(p, "q", "/m/q.gguf", "", err, sizeof(err)));
	add_spec(p, "q | /m/q.gguf | --spec-type draft-mtp | 1,2,3\n"
		    "d | /m/d.gguf | -md /m/draft.gguf | 4\n");
	assert_int_equal(plan_build(p, err, sizeof(err)), 0);
	assert_int_equal(p->n_cells, 14);
	for (size_t k = 0; k < p->n_cells; k++) {
		const struct cell *c = &p->cells[k];
		char n[24] = "-";
		if (c->n_max != TPS_NULL)
			snprintf(n, sizeof(n), "%lld", (long long)c->n_max);
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s/%s/%s ",
			 p->models[c->model].label, p->engines[c->engine].label, n);
	}
	assert_string_equal(got, want);
	/* Base cells carry the model's args only; spec cells add the sweep's. */
	assert_string_equal(p->cells[0].extra_args, "-fa on");
	assert_string_equal(p->cells[0].spec_type, "");
	assert_string_equal(p->cells[2].extra_args, "");
	assert_string_equal(p->cells[4].extra_args, "--spec-type draft-mtp --spec-draft-n-max 2");
	assert_string_equal(p->cells[4].spec_type, "draft-mtp");
	assert_string_equal(p->cells[4].drafter, "");
	assert_string_equal(p->cells[11].spec_type, "draft");
	assert_string_equal(p->cells[11].drafter, "draft.gguf");
}

static void test_collect_plan_argv(void **state)
{
	struct plan *p = *state;
	struct engine_spec *e;
	char err[256], got[1024] = "";
	char **argv;

	e = plan_add_engine(p, "ours", "/bin/srv", err, sizeof(err));
	assert_non_null(e);
	free(e->args);
	e->args = tps_xstrdup("--threads 4 --alias 'two words'");
	assert_non_null(plan_add_model(p, "m", "/m/m.gguf", "-fa on", err, sizeof(err)));
	add_spec(p, "m | /m/m.gguf | --spec-type draft-simple --model-draft=/x/d.gguf | 2\n");
	assert_int_equal(plan_build(p, err, sizeof(err)), 0);
	argv = plan_argv(p, &p->cells[1], 8123, 2048);
	for (size_t i = 0; argv[i]; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "[%s]", argv[i]);
	assert_string_equal(got, "[/bin/srv][--host][127.0.0.1][--port][8123][-m][/m/m.gguf][-c]"
			    "[2048][-ngl][99][--threads][4][--alias][two words][-fa][on]"
			    "[--spec-type][draft-simple][--model-draft=/x/d.gguf]"
			    "[--spec-draft-n-max][2]");
	manifest_free_args(argv);
	assert_string_equal(p->cells[1].extra_args, "--threads 4 --alias 'two words' -fa on "
			    "--spec-type draft-simple --model-draft=/x/d.gguf "
			    "--spec-draft-n-max 2");
	assert_string_equal(p->cells[1].drafter, "d.gguf");
}

/* Rounds: model by model, each model's whole pass over the engines once per round,
 * the engines reversed on even rounds; a sweep's rungs keep their order. */
static void test_collect_plan_rounds(void **state)
{
	struct plan *p = *state;
	struct plan_step *steps;
	char err[256], got[1024] = "";
	size_t n, k;
	static const char want[] =
		"1:a/A/- 1:a/B/- 1:a/C/- 2:a/C/- 2:a/B/- 2:a/A/- 3:a/A/- 3:a/B/- 3:a/C/- "
		"1:q/A/- 1:q/A/1 1:q/B/- 1:q/B/1 1:q/C/- 1:q/C/1 "
		"2:q/C/- 2:q/C/1 2:q/B/- 2:q/B/1 2:q/A/- 2:q/A/1 "
		"3:q/A/- 3:q/A/1 3:q/B/- 3:q/B/1 3:q/C/- 3:q/C/1 ";

	assert_non_null(plan_add_engine(p, "A", "/bin/a", err, sizeof(err)));
	assert_non_null(plan_add_engine(p, "B", "/bin/b", err, sizeof(err)));
	assert_non_null(plan_add_engine(p, "C", "/bin/c", err, sizeof(err)));
	assert_non_null(plan_add_model(p, "a", "/m/a.gguf", "", err, sizeof(err)));
	add_spec(p, "q | /m/q.gguf | --spec-type draft-mtp | 1\n");
	p->rounds = 3;
	assert_int_equal(plan_build(p, err, sizeof(err)), 0);
	/* Each cell once: the rounds are a schedule over them. */
	assert_int_equal(p->n_cells, 9);
	assert_int_equal(plan_rounds(p), 3);
	steps = plan_schedule(p, &n);
	assert_int_equal(n, 27);
	for (k = 0; k < n; k++) {
		const struct cell *c = &p->cells[steps[k].cell];
		char nm[24] = "-";
		if (c->n_max != TPS_NULL)
			snprintf(nm, sizeof(nm), "%lld", (long long)c->n_max);
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%lld:%s/%s/%s ",
			 (long long)steps[k].round, p->models[c->model].label,
			 p->engines[c->engine].label, nm);
	}
	free(steps);
	assert_string_equal(got, want);
	/* 0 rounds counts as one. */
	p->rounds = 0;
	assert_int_equal(plan_rounds(p), 1);
	steps = plan_schedule(p, &n);
	assert_int_equal(n, 9);
	free(steps);
}

/* --aa (two rounds) runs a model's whole pass twice, on the same cells; a
 * synthetic-rates list is cut per rung. */
static void test_collect_plan_aa_and_synth_rates(void **state)
{
	struct plan *p = *state;
	struct plan_step *steps;
	char err[256];
	size_t i, n;
	static const struct {
		int64_t n_max;
		const char *rates;
	} want[] = {
		{ TPS_NULL, NULL }, { 1, "0.9" }, { 2, "0.9,0.8" }, { 3, "0.9,0.8,0.7" },
		{ TPS_NULL, NULL }, { 1, "0.9" }, { 2, "0.9,0.8" }, { 3, "0.9,0.8,0.7" },
	};

	assert_non_null(plan_add_engine(p, "ours", "/bin/ours", err, sizeof(err)));
	assert_non_null(plan_add_model(p, "m", "/m/m.gguf", "", err, sizeof(err)));
	add_spec(p, "m | /m/m.gguf | --spec-type draft-simple -md /m/d.gguf "
		    "--spec-synth-rates 0.9,0.8,0.7 | 1,2,3\n");
	p->rounds = 2;
	assert_int_equal(plan_build(p, err, sizeof(err)), 0);
	assert_int_equal(p->n_cells, 4);
	steps = plan_schedule(p, &n);
	assert_int_equal(n, 8);
	for (i = 0; i < n; i++) {
		const struct cell *c = &p->cells[steps[i].cell];
		const char *rates = NULL;
		size_t k;
		assert_true(c->n_max == want[i].n_max);
		for (k = 0; k + 1 < c->extra_argc; k++) {
			if (!strcmp(c->extra_argv[k], "--spec-synth-rates"))
				rates = c->extra_argv[k + 1];
		}
		assert_int_equal(steps[i].round, i < 4 ? 1 : 2);
		if (want[i].rates)
			assert_string_equal(rates, want[i].rates);
		else
			assert_null(rates);
	}
	free(steps);
}

static void test_collect_plan_errors(void **state)
{
	struct plan *p = *state;
	struct manifest m = { 0 };
	char err[256];

	assert_int_equal(plan_build(p, err, sizeof(err)), -1);
	assert_string_equal(err, "no engine to measure");
	assert_non_null(plan_add_engine(p, "e", "/bin/e", err, sizeof(err)));
	assert_null(plan_add_engine(p, "e", "/bin/f", err, sizeof(err)));
	assert_string_equal(err, "engine 'e' is given twice");
	assert_null(plan_add_engine(p, "", "/bin/f", err, sizeof(err)));
	assert_int_equal(plan_build(p, err, sizeof(err)), -1);
	assert_string_equal(err, "no model to measure");
	assert_non_null(plan_add_model(p, "m", "/m/m.gguf", "", err, sizeof(err)));
	assert_null(plan_add_model(p, "m", "/m/n.gguf", "", err, sizeof(err)));
	assert_string_equal(err, "model 'm' is given twice");
	assert_int_equal(manifest_parse(&m, MANIFEST_SPEC, "m | /m/other.gguf | -md x | 1\n"
					"m | /m/m.gguf | -md x | 1\n", "s", err, sizeof(err)), -1);
	manifest_release(&m);
	assert_int_equal(manifest_parse(&m, MANIFEST_SPEC, "m | /m/other.gguf | -md x | 1\n",
					"s", err, sizeof(err)), 0);
	assert_int_equal(plan_add_spec(p, &m.v[0], NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "model 'm' is '/m/other.gguf' in the spec manifest but "
			    "'/m/m.gguf' elsewhere");
	manifest_release(&m);
	free(p->engines[0].args);
	p->engines[0].args = tps_xstrdup("--bad 'quote");
	assert_int_equal(plan_build(p, err, sizeof(err)), -1);
	assert_string_equal(err, "the server args of 'e': unbalanced ' quote in '--bad 'quote'");
}

static void test_collect_plan_roles(void **state)
{
	(void)state;
	assert_string_equal(plan_role_guess("llama.cpp"), "upstream");
	assert_string_equal(plan_role_guess("llama.cpp-b6000"), "upstream");
	assert_string_equal(plan_role_guess("stock-llamafile"), "upstream");
	assert_string_equal(plan_role_guess("ours"), "other");
	assert_string_equal(plan_role_guess("vllm"), "other");
	assert_true(plan_role_valid("ours"));
	assert_true(plan_role_valid("upstream"));
	assert_true(plan_role_valid("other"));
	assert_false(plan_role_valid("Ours"));
	assert_false(plan_role_valid(""));
}

static void test_collect_plan_spec_info(void **state)
{
	/* path: what plan_draft_model() returns, the file setup_plan() checks. */
	static const struct {
		const char *args, *type, *drafter, *path;
	} cases[] = {
		{ "--spec-type draft-mtp", "draft-mtp", "", NULL },
		{ "--spec-type=ngram-simple", "ngram-simple", "", NULL },
		{ "-md /a/b/d.gguf", "draft", "d.gguf", "/a/b/d.gguf" },
		{ "--spec-draft-model /d.gguf --spec-type draft-simple", "draft-simple", "d.gguf",
		  "/d.gguf" },
		{ "--spec-draft-model=rel/d2.gguf", "draft", "d2.gguf", "rel/d2.gguf" },
		{ "--model-draft /x.gguf -md /y.gguf", "draft", "y.gguf", "/y.gguf" },
		{ "--model-draft=/z.gguf", "draft", "z.gguf", "/z.gguf" },
		{ "--draft-p-min 0.5", "custom", "", NULL },
		{ "--spec-type", "custom", "", NULL },
		{ "-md", "custom", "", NULL },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char **argv = NULL, err[64], *type, *drafter;
		const char *path;
		size_t argc = 0;
		assert_int_equal(manifest_split_args(cases[c].args, &argv, &argc, err, sizeof(err)), 0);
		plan_spec_info(argv, &type, &drafter);
		assert_string_equal(type, cases[c].type);
		assert_string_equal(drafter, cases[c].drafter);
		path = plan_draft_model(argv);
		if (cases[c].path)
			assert_string_equal(path, cases[c].path);
		else
			assert_null(path);
		free(type);
		free(drafter);
		manifest_free_args(argv);
	}
}

static void test_collect_quant_guess(void **state)
{
	static const struct {
		const char *path, *quant;
	} cases[] = {
		{ "/m/Qwen3-8B-Q4_K_M.gguf", "Q4_K_M" },
		{ "llama-2-7b.Q4_0.gguf", "Q4_0" },
		{ "ggml-model-q8_0.gguf", "Q8_0" },
		{ "/models/x-f16.gguf", "F16" },
		{ "/models/x-BF16.gguf", "BF16" },
		{ "/models/x-bf16-00001-of-00002.gguf", "BF16" },
		{ "m-UD-Q4_K_XL.gguf", "Q4_K_XL" },
		{ "m-IQ4_XS.gguf", "IQ4_XS" },
		{ "m-IQ2_XXS.gguf", "IQ2_XXS" },
		{ "m-Q4_K.gguf", "Q4_K" },
		{ "m-Q6_K.gguf", "Q6_K" },
		{ "gpt-oss-20b-mxfp4.gguf", "MXFP4" },
		{ "/F16/model.gguf", "" },
		{ "tiny.gguf", "" },
		{ "notQ4_0.gguf", "" },
		{ "m-Q4_0x.gguf", "" },
		{ "", "" },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		assert_string_equal(quant_guess(cases[c].path), cases[c].quant);
}

/* An engine of p whose --help is help. */
static struct engine_spec *engine_of(struct plan *p, const char *label, const char *help)
{
	struct engine_spec *e;
	char err[256];

	assert_non_null(e = plan_add_engine(p, label, "/bin/x", err, sizeof(err)));
	e->dialect = tps_xcalloc(1, sizeof(*e->dialect));
	assert_int_equal(dialect_parse(help, e->dialect), 0);
	return e;
}

/* Issue 37: a knob the spec line leaves unset whose defaults differ is one value
 * on every engine that spells it, said once: p_min the 0 every release reads
 * alike, over the upstream engine's 0.75; n_min, which has no such value, the
 * upstream engine's default over the first engine's. Agreeing defaults are left
 * to the engines; an engine without the knob is left alone, and records only what
 * it states. A line's own value wins (a p_min other than 0 with a line saying the
 * two spellings' releases read it differently), and an engine without that knob
 * is then refused. */
static void test_collect_plan_spec_settle(void **state)
{
	struct plan *p = *state;
	char err[256];
	struct engine_spec *b;

	(void)engine_of(p, "a", "-md FNAME   draft\n--spec-draft-n-max N   most (default: 3)\n"
			"--spec-draft-n-min N   fewest (default: 2)\n"
			"--spec-draft-p-min P   least (default: 0.00)\n");
	b = engine_of(p, "b", "-md FNAME   draft\n--draft-max N   most (default: 16)\n"
		      "--draft-min N   fewest\n                (default: 0)\n"
		      "--draft-p-min P   least (default: 0.75)\n");
	free(b->role);
	b->role = tps_xstrdup("upstream");
	(void)engine_of(p, "c", "-md FNAME   draft\n--draft-max N   most (default: 16)\n");
	add_spec(p, "m | /m/m.gguf | drafter=/m/d.gguf | 2\n");
	assert_int_equal(plan_spec_settle(p, err, sizeof(err)), 0);
	assert_string_equal(p->spec_note, "spec settings: n_min 0 on every engine (defaults "
			    "differ: a 2, b 0); set n_min= in the spec manifest to choose\n"
			    "spec settings: p_min 0 on every engine (defaults differ: a 0.00, "
			    "b 0.75), the one value every release reads alike; set p_min= in the "
			    "spec manifest to choose\n");
	assert_int_equal(plan_build(p, err, sizeof(err)), 0);
	assert_int_equal(p->n_cells, 6);
	assert_string_equal(p->cells[1].extra_args, "-md /m/d.gguf --spec-draft-n-max 2 "
			    "--spec-draft-n-min 0 --spec-draft-p-min 0");
	assert_string_equal(p->cells[1].spec_settings, "n_min=0 p_min=0");
	assert_string_equal(p->cells[3].extra_args, "-md /m/d.gguf --draft-max 2 "
			    "--draft-min 0 --draft-p-min 0");
	assert_string_equal(p->cells[3].spec_settings, "n_min=0 p_min=0");
	assert_string_equal(p->cells[5].extra_args, "-md /m/d.gguf --draft-max 2");
	assert_string_equal(p->cells[5].spec_settings, "");
	assert_string_equal(p->cells[0].spec_settings, "");

	/* The line's own p_min and n_min: no line of settling; a line that a and b
	 * read 0.5 differently; engine c cannot take it. */
	free(p->models[0].spec_args);
	p->models[0].spec_args = tps_xstrdup("drafter=/m/d.gguf p_min=0.50 n_min=1");
	free(p->spec_note);
	p->spec_note = NULL;
	assert_int_equal(plan_spec_settle(p, err, sizeof(err)), 0);
	assert_string_equal(p->spec_note, "spec settings: p_min 0.5 as the spec manifest sets "
			    "it, which the releases read differently (a --spec-draft-p-min, b "
			    "--draft-p-min); p_min=0 is the one value every release reads alike\n");
	assert_string_equal(p->models[0].settle[SPEC_KNOB_P_MIN], "0.5");
	/* p_min=0 set by the line: nothing to say. */
	free(p->models[0].spec_args);
	p->models[0].spec_args = tps_xstrdup("drafter=/m/d.gguf p_min=0.00 n_min=1");
	free(p->spec_note);
	p->spec_note = NULL;
	assert_int_equal(plan_spec_settle(p, err, sizeof(err)), 0);
	assert_null(p->spec_note);
	free(p->models[0].spec_args);
	p->models[0].spec_args = tps_xstrdup("drafter=/m/d.gguf p_min=0.50");
	assert_int_equal(plan_spec_settle(p, err, sizeof(err)), 0);
	assert_int_equal(plan_build(p, err, sizeof(err)), -1);
	assert_string_equal(err, "engine 'c' has no p_min: its --help lists none of "
			    "--spec-draft-p-min, --draft-p-min");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collect_plan_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_plan_argv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_plan_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_plan_aa_and_synth_rates, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_collect_plan_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_plan_spec_settle, setup, teardown),
		cmocka_unit_test(test_collect_plan_roles),
		cmocka_unit_test(test_collect_plan_spec_info),
		cmocka_unit_test(test_collect_quant_guess),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
