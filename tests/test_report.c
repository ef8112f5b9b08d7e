/* test_report.c: reports/md.c (markdown and plain-text escaping and tables) and
 * the study's tables (analyze/study.c, worded by reports/tables.c) and their cell
 * formats over a migrated ":memory:" store restored from
 * tests/data/report/study.jsonl, the export-format fixture with fixed uuids that
 * the CLI golden tests also use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "cmd/side.h"
#include "analyze/estimate.h"
#include "collect/import.h"
#include "tests/import_fixture.h"
#include "reports/md.h"
#include "reports/report_folder.h"
#include "reports/tables.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tpsdb.h"

static int setup(void **state)
{
	struct store *s = store_open(":memory:", 0);

	if (!s || import_data_file(s, "report/study.jsonl") <= 0)
		return -1;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	store_close(*state);
	return 0;
}

static void test_report_md_escape(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "q35", "q35" },
		{ "a|b", "a\\|b" },
		{ "line1\nline2", "line1<br>line2" },
		{ "crlf\r\n", "crlf<br>" },
		{ "tab\there", "tab here" },
		{ "back\\slash", "back\\\\slash" },
		{ "`cmd`", "\\`cmd\\`" },
		{ "**b** <i> [l](u)", "\\*\\*b\\*\\* \\<i\\> \\[l\\](u)" },
		{ "n_max", "n_max" },
		{ "bell\a", "bell?" },
		{ "", "" },
		{ "caf\xc3\xa9 \xc2\xb7", "caf\xc3\xa9 \xc2\xb7" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = escape_md(cases[i].in);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	{
		char *got = escape_md(NULL);
		assert_string_equal(got, "");
		free(got);
	}
}

static void test_report_md_plain(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "q|35", "q|35" },
		{ "a\nb", "a\\nb" },
		{ "a\tb\rc", "a\\tb\\rc" },
		{ "esc\x1b[31m", "esc\\x1b[31m" },
		{ "", "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = md_plain(cases[i].in);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	assert_int_equal(md_width("230.7 \xc2\xb7 0.71"), 12);
}

/* Renders t both ways into heap strings. */
static void render(const struct md_table *t, char **md, char **txt)
{
	size_t n;
	FILE *f = open_memstream(md, &n);

	assert_non_null(f);
	md_table_write_md(f, t);
	fclose(f);
	f = open_memstream(txt, &n);
	assert_non_null(f);
	md_table_write_text(f, t);
	fclose(f);
}

static void test_report_md_table(void **state)
{
	struct md_table t;
	char *md = NULL, *txt = NULL;
	size_t r;

	(void)state;
	md_table_init(&t, 3);
	md_table_set(&t, 0, 0, "model");
	md_table_set(&t, 0, 1, "a|b pp / tg");
	md_table_set(&t, 0, 2, "c");
	r = md_table_add_row(&t);
	md_table_set(&t, r, 0, "m\nx");
	md_table_setf(&t, r, 1, "%d / %.1f", 13150, 142.6);
	md_table_set(&t, r, 2, "230.7 \xc2\xb7 0.71");
	md_table_mark(&t, r, 2);
	r = md_table_add_row(&t);
	md_table_set(&t, r, 0, "long model name");
	render(&t, &md, &txt);
	assert_string_equal(md,
		"| model | a\\|b pp / tg | c |\n"
		"|---|---|---|\n"
		"| m<br>x | 13150 / 142.6 | **230.7 \xc2\xb7 0.71** |\n"
		"| long model name |  |  |\n");
	assert_string_equal(txt,
		"model            a|b pp / tg    c\n"
		"----------------------------------------------\n"
		"m\\nx             13150 / 142.6  230.7 \xc2\xb7 0.71 *\n"
		"long model name\n");
	assert_string_equal(md_table_get(&t, 2, 1), "");
	free(md);
	free(txt);
	md_table_release(&t);
	md_table_release(&t); /* a zeroed table is fine */
}

static const struct tables_base_row *row_of(const struct tables *t, const char *model)
{
	size_t i;

	for (i = 0; i < t->n_base; i++) {
		if (!strcmp(t->base[i].model, model))
			return &t->base[i];
	}
	fail_msg("no base row for %s", model);
	return NULL;
}

static void expect_cell(const struct tables *t, const char *model, size_t e, const char *want)
{
	char *got = tables_base_text(t, row_of(t, model), e);
	assert_string_equal(got, want);
	free(got);
}

/* The study behind the tables of the test that runs. */
static struct study study;

/* study_build() and tables_init() over what 'tpsdb report' loads (study_load():
 * the pools of every engine, the quality rows and the alarms) for the runs with
 * o->tag (NULL: any); released by release() after the tables. The engines and
 * models of o select nothing here: the study picks its columns and rows from the
 * pools, as cmd_report.c hands them over. */
static int build(struct store *s, const struct study_opts *o, struct study_load *in,
		 struct tables *t)
{
	struct run_filter f = { 0 };
	const char *tags[1];

	if (o->tag) {
		tags[0] = o->tag;
		f.tag.v = tags;
		f.tag.n = 1;
	}
	memset(t, 0, sizeof(*t));
	study_release(&study);
	if (study_load(s, &f, NULL, STUDY_LOAD_POOLS | STUDY_LOAD_QUALITY, in) < 0)
		return -1;
	if (study_build(o, &in->in, &study) < 0)
		return tables_error(&study.err);
	tables_init(t, &study, in->quality, in->alarms, in->n_alarms);
	return 0;
}

static void release(struct tables *t, struct study_load *in)
{
	tables_release(t);
	study_release(&study);
	study_load_release(in);
}

/* With --ref llama.cpp: every engine against it (was the default, llama.cpp being
 * the upstream engine; test_report_tables_ours has the default now). */
static void test_report_tables_study(void **state)
{
	struct study_opts o = { 0 };
	struct study_load in = { 0 };
	struct tables t;
	size_t k, best = 0;

	o.ref = "llama.cpp";
	assert_int_equal(build(*state, &o, &in, &t), 0);
	assert_string_equal(t.ref, "llama.cpp");
	assert_int_equal(t.n_engines, 3);
	assert_string_equal(t.engines[0].label, "ours");
	assert_string_equal(t.engines[1].label, "stock-llamafile");
	assert_string_equal(t.engines[2].label, "llama.cpp");
	assert_int_equal(t.n_base, 2);
	/* One run a side, no stored floor, runs without environment facts: no
	 * evidence of the instance scatter (analyze/estimate.h), so every cell is
	 * shown undecided; stock-llamafile's -15.8% tg was decided slower against
	 * the default scatter taken as known. */
	expect_cell(&t, "q35", 0, "13157 / 142.7 (+0.4% undecided / -0.2% undecided)");
	expect_cell(&t, "q35", 1, "11800 / 120.4 (-9.9% undecided / -15.8% undecided)");
	assert_int_equal(row_of(&t, "q35")->cells[0].vpp.v.bound, VERDICT_BOUND_BAND);
	assert_true(isnan(row_of(&t, "q35")->cells[0].vpp.v.scatter_pct));
	assert_int_equal(row_of(&t, "q35")->cells[1].vtg.v.bound, VERDICT_BOUND_BAND);
	expect_cell(&t, "q35", 2, "13107 / 143.0 (ref)");
	expect_cell(&t, "g4", 0, "5400 / 88.1 (not comparable)");
	/* The flagged samples are out of the estimate: a truncated tg of 20 and a cold
	 * pp of 9000 would pull its geometric means far off their targets. */
	assert_true(fabs(row_of(&t, "q35")->cells[0].tg - 142.6) < 0.2);
	assert_true(fabs(row_of(&t, "q35")->cells[0].pp - 13150) < 10);
	assert_int_equal(t.n_spec_cols, 6);
	assert_int_equal(t.n_spec, 1);
	for (k = 0; k < t.n_spec_cols; k++) {
		char *c = tables_spec_text(&t.spec[0].cells[k]);
		if (t.spec[0].cells[k].best) {
			best++;
			assert_true(!strcmp(c, "230.7 \xc2\xb7 0.71") || !strcmp(c, "240.3 \xc2\xb7 0.64"));
		}
		free(c);
	}
	/* One run a rung: no interval, so no rung is marked fastest (an A/A pair's
	 * noise would otherwise read as a winner). */
	assert_int_equal(best, 0);
	assert_int_equal(t.n_prompts, 1);
	assert_int_equal(t.prompts[0].n_prompts, 4);
	assert_string_equal(t.prompts[0].prompts[0], "chat");
	assert_int_equal(t.n_runs, 12);
	assert_int_equal(t.findings.n, 3);
	assert_string_equal(t.findings.v[2].kind, "load-failed");
	assert_int_equal(t.n_alarms, 1);
	assert_int_equal(t.n_warnings, 1);
	tables_release(&t);
	release(&t, &in);
}

/* Without --ref: ours against stock-llamafile and against llama.cpp, each
 * cell of another engine holding ours' verdicts against it. Derived from the
 * fixture (gen_fixtures.py): ours and stock-llamafile walk the same wobbles
 * (step 7), so every paired ratio of q35 is 13150 / 11800 in pp and 142.6 / 120.4
 * in tg: +11.4% and +18.4%, one run a side and no floor: judged against the
 * default instance scatter (15% pp, 8% tg), the pp difference is undecided and
 * the tg one, beyond the default's reach, decides faster. The keys both
 * hold leave out ours' two flagged samples, whose wobble is -0.6% in both
 * metrics: stock's centre is 11800 and 120.4 times the geometric mean of
 * (1 + w) over the other eleven wobbles, e^(0.006 / 11): 11806 and 120.5. Ours
 * against llama.cpp is test_report_tables_study's ours cell (+0.4% / -0.2%), with
 * llama.cpp's centre its reference cell's (13107 / 143.0). g4: ours' GGUF differs
 * from both others': not comparable, twice, and each warning names its pair. */
static void test_report_tables_ours(void **state)
{
	struct study_opts o = { 0 };
	struct study_load in = { 0 };
	struct tables t;
	char *line;

	assert_int_equal(build(*state, &o, &in, &t), 0);
	assert_null(t.ref);
	assert_string_equal(t.ours, "ours");
	expect_cell(&t, "q35", 0, "13157 / 142.7 (ours)");
	/* No facts, no floor: shown, undecided (+18.4% tg was decided faster
	 * against the default scatter taken as known). */
	expect_cell(&t, "q35", 1, "11806 / 120.5 (ours: +11.4% undecided / +18.4% undecided)");
	expect_cell(&t, "q35", 2, "13107 / 143.0 (ours: +0.4% undecided / -0.2% undecided)");
	assert_int_equal(row_of(&t, "q35")->cells[1].vtg.v.bound, VERDICT_BOUND_BAND);
	assert_int_equal(row_of(&t, "q35")->cells[1].vpp.v.bound, VERDICT_BOUND_BAND);
	expect_cell(&t, "g4", 0, "5400 / 88.1 (ours)");
	expect_cell(&t, "g4", 1, "5390 / 88.0 (not comparable)");
	expect_cell(&t, "g4", 2, "5600 / 92.5 (not comparable)");
	assert_true(fabs(row_of(&t, "q35")->cells[1].vpp.v.delta_pct -
			 (13150.0 / 11800 - 1) * 100) < 0.01);
	assert_true(fabs(row_of(&t, "q35")->cells[1].vtg.v.delta_pct -
			 (142.6 / 120.4 - 1) * 100) < 0.01);
	/* One answer line per other engine, none of ours. */
	assert_null(tables_answer_text(&t, 0));
	line = tables_answer_text(&t, 1);
	assert_string_equal(line, "ours vs stock-llamafile: pp 1 undecided, geomean +11.4% (no "
			    "interval: a cell has none); tg 1 undecided, geomean +18.4% (no "
			    "interval: a cell has none)");
	free(line);
	line = tables_answer_text(&t, 2);
	assert_string_equal(line, "ours vs llama.cpp: pp 1 undecided, geomean +0.4% (no interval: "
			    "a cell has none); tg 1 undecided, geomean -0.2% (no interval: a cell "
			    "has none)");
	free(line);
	assert_int_equal(t.n_warnings, 2);
	assert_string_equal(t.warnings[0], "ours vs stock-llamafile: FORCED comparison of cell "
			    "'g4' although model sha256 differs (cccccccccccc vs bbbbbbbbbbbb)");
	assert_string_equal(t.warnings[1], "ours vs llama.cpp: FORCED comparison of cell "
			    "'g4' although model sha256 differs (cccccccccccc vs bbbbbbbbbbbb)");
	assert_false(tables_any_spoiled(&t));
	release(&t, &in);
}

static void test_report_tables_filters(void **state)
{
	static const char *const engines[] = { "ours", "nope" };
	static const char *const models[] = { "g4" };
	struct study_opts o = { 0 };
	struct study_load in = { 0 };
	struct tables t;

	o.engines = engines;
	o.n_engines = 2;
	assert_int_equal(build(*state, &o, &in, &t), -1);
	release(&t, &in);
	o.n_engines = 1;
	o.models = models;
	o.n_models = 1;
	o.ref = "llama.cpp"; /* was the default (the upstream engine) */
	assert_int_equal(build(*state, &o, &in, &t), 0);
	assert_int_equal(t.n_engines, 1);
	assert_string_equal(t.ref, "llama.cpp"); /* not a column, still the reference */
	assert_int_equal(t.n_base, 1);
	assert_int_equal(t.n_spec, 0);
	expect_cell(&t, "g4", 0, "5400 / 88.1 (not comparable)");
	release(&t, &in);
	/* Without --ref ours is the one column: nothing to compare it with, so its
	 * cell is its run's median (the fixture's target exactly) and no answer. */
	o.ref = NULL;
	assert_int_equal(build(*state, &o, &in, &t), 0);
	assert_null(t.ref);
	assert_string_equal(t.ours, "ours");
	expect_cell(&t, "g4", 0, "5400 / 88.1 (ours)");
	assert_false(row_of(&t, "g4")->cells[0].est_pp);
	assert_null(tables_answer_text(&t, 0));
	release(&t, &in);
	o.ref = "nope";
	assert_int_equal(build(*state, &o, &in, &t), -1);
	release(&t, &in);
}

/* The cell formats for the cases the fixture lacks. */
static void test_report_cell_formats(void **state)
{
	struct tables_engine eng[2] = { { (char *)"ours", (char *)"ours" },
					{ (char *)"ref", (char *)"upstream" } };
	struct tables_base_cell cells[2];
	struct tables_base_row row = { (char *)"m", (char *)"completion", cells };
	struct tables t;
	struct tables_spec_cell sc;
	char *s;

	(void)state;
	memset(&t, 0, sizeof(t));
	memset(cells, 0, sizeof(cells));
	t.engines = eng;
	t.n_engines = 2;
	t.ref = (char *)"ref";
	s = tables_base_text(&t, &row, 0);
	assert_string_equal(s, "-");
	free(s);
	cells[0].present = 1;
	cells[0].pp = NAN;
	cells[0].tg = 99.96;
	s = tables_base_text(&t, &row, 0);
	assert_string_equal(s, "- / 100.0");
	free(s);
	cells[0].pp = 1234.5;
	cells[0].vtg.has = 1;
	cells[0].vtg.v.kind = VERDICT_FASTER;
	cells[0].vtg.v.delta_pct = 4.25;
	cells[0].vtg.v.significant = 0;
	s = tables_base_text(&t, &row, 0);
	assert_string_equal(s, "1234 / 100.0 (n/a / +4.2% faster)");
	free(s);
	cells[1].present = 1;
	cells[1].pp = 1000;
	cells[1].tg = 50;
	s = tables_base_text(&t, &row, 1);
	assert_string_equal(s, "1000 / 50.0 (ref)");
	free(s);
	/* Without a reference, ours' verdicts against the engine of the cell, after
	 * ours' name; ours' own cell is marked. */
	t.ref = NULL;
	t.ours = (char *)"ref";
	s = tables_base_text(&t, &row, 0);
	assert_string_equal(s, "1234 / 100.0 (ref: n/a / +4.2% faster)");
	free(s);
	t.ours = (char *)"ours";
	s = tables_base_text(&t, &row, 0);
	assert_string_equal(s, "1234 / 100.0 (ours)");
	free(s);
	/* A spoiled verdict names its findings, never a delta, a side or the mde
	 * that leads a wide one; the same with a reference. */
	cells[1].vpp.has = cells[1].vtg.has = 1;
	cells[1].vpp.v.kind = cells[1].vtg.v.kind = VERDICT_SPOILED;
	cells[1].vpp.v.regression = cells[1].vtg.v.regression = VERDICT_REG_SPOILED;
	cells[1].vpp.v.spoiled = RUN_ENV_HOST_BUSY;
	cells[1].vtg.v.spoiled = RUN_ENV_HOST_BUSY | RUN_ENV_GPU_THROTTLED;
	cells[1].vtg.v.delta_pct = -7.5;
	cells[1].vtg.v.mde_pct = 6;
	s = tables_base_text(&t, &row, 1);
	assert_string_equal(s, "1000 / 50.0 (ours: spoiled (host-busy) / spoiled (host-busy, "
			    "gpu-throttled))");
	free(s);
	assert_int_equal(tables_any_spoiled(&t), 0); /* no rows in t: only the cells */
	t.ref = (char *)"ours";
	s = tables_base_text(&t, &row, 1);
	assert_string_equal(s, "1000 / 50.0 (spoiled (host-busy) / spoiled (host-busy, "
			    "gpu-throttled))");
	free(s);
	t.base = &row;
	t.n_base = 1;
	assert_int_equal(tables_any_spoiled(&t), 1);

	memset(&sc, 0, sizeof(sc));
	s = tables_spec_text(&sc);
	assert_string_equal(s, "-");
	free(s);
	sc.present = 1;
	sc.tg = 230.74;
	sc.accept = NAN;
	s = tables_spec_text(&sc);
	assert_string_equal(s, "230.7 \xc2\xb7 -");
	free(s);
}

/* t as tables_write_json() writes it, parsed. */
static cJSON *tables_json(const struct tables *t, const struct tables_figures *fig)
{
	char *buf = NULL;
	size_t n;
	FILE *f = open_memstream(&buf, &n);
	cJSON *root;

	assert_int_equal(tables_write_json(f, t, fig), 0);
	fclose(f);
	root = cJSON_Parse(buf);
	assert_non_null(root);
	free(buf);
	return root;
}

/* t as tables_write_csv() writes it; the caller frees. */
static char *tables_csv(const struct tables *t)
{
	char *buf = NULL;
	size_t n;
	FILE *f = open_memstream(&buf, &n);

	assert_int_equal(tables_write_csv(f, t), 0);
	fclose(f);
	return buf;
}

static void test_report_json_csv(void **state)
{
	struct study_opts o = { 0 };
	struct tables_figures fig = { .trend = "trend.png", .parity = "parity.png" };
	struct study_load in = { 0 };
	struct tables t;
	char *buf;
	cJSON *root, *cell, *v;

	o.ref = "llama.cpp"; /* was the default (the upstream engine) */
	assert_int_equal(build(*state, &o, &in, &t), 0);
	root = tables_json(&t, &fig);
	assert_string_equal(cJSON_GetObjectItem(root, "reference")->valuestring, "llama.cpp");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs")), 12);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "plots"), "sweep")));
	assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "speculative"), "columns"));
	cJSON_Delete(root);
	buf = tables_csv(&t);
	assert_non_null(strstr(buf, "section,model,endpoint,spec_type,engine,n_max,prompt,metric,"
				   "value,verdict,regression,delta_pct,significant,best,run,tag,"
				   "detail\n"));
	assert_non_null(strstr(buf, "\nfinding,q35,,,ours,,,truncated,1,,,,,,"
				   "00000000-0000-4000-8000-000000000002,,truncated decode "
				   "(predicted_n 40 < n_predict 256)\n"));
	assert_non_null(strstr(buf, "\nbase,q35,completion,,ours,,,tg,142.68,undecided,undecided,"
				   "-0.22,0,,"));
	/* With a reference a verdict's detail stays empty: its column says whose. */
	assert_non_null(strstr(buf, "\nbase,q35,completion,,ours,,,tg,142.68,undecided,undecided,"
				   "-0.22,0,,00000000-0000-4000-8000-000000000002,v1,\n"));
	free(buf);
	release(&t, &in);

	/* Without --ref: ours' verdicts against llama.cpp sit in llama.cpp's cell
	 * (the same numbers), each naming its comparison; ours' rows say "ours". */
	o.ref = NULL;
	assert_int_equal(build(*state, &o, &in, &t), 0);
	root = tables_json(&t, &fig);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(root, "reference")));
	assert_string_equal(cJSON_GetObjectItem(root, "ours")->valuestring, "ours");
	cell = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
		cJSON_GetObjectItem(root, "base"), 1), "cells"), 2);
	assert_string_equal(cJSON_GetObjectItem(cell, "engine")->valuestring, "llama.cpp");
	v = cJSON_GetObjectItem(cell, "verdict_tg");
	assert_string_equal(cJSON_GetObjectItem(v, "ours")->valuestring, "ours");
	assert_string_equal(cJSON_GetObjectItem(v, "vs")->valuestring, "llama.cpp");
	assert_true(fabs(cJSON_GetObjectItem(v, "delta_pct")->valuedouble + 0.22) < 1e-9);
	assert_null(cJSON_GetObjectItem(v, "spoiled"));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(root, "base"), 1), "cells"), 0), "verdict_tg")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "plots"),
						      "parity_pp")));
	cJSON_Delete(root);
	buf = tables_csv(&t);
	assert_non_null(strstr(buf, "\nbase,q35,completion,,llama.cpp,,,tg,143.00,undecided,"
				   "undecided,-0.22,0,,00000000-0000-4000-8000-000000000001,b9859,"
				   "ours vs llama.cpp\n"));
	assert_non_null(strstr(buf, "\nbase,q35,completion,,ours,,,tg,142.68,ours,,,,,"
				   "00000000-0000-4000-8000-000000000002,v1,\n"));
	free(buf);
	release(&t, &in);
}


/* A verdict whose resolution (mde_pct) is wider than the default band is led by
 * it; an undecided one says so without "?"; a narrow one reads as before. */
static void test_report_verdict_mde_lead(void **state)
{
	struct tables_engine eng[2] = { { "ours", "ours" }, { "ref", "upstream" } };
	struct tables_base_cell cells[2];
	struct tables_base_row row = { "m", "completion", cells };
	struct tables t;
	char *text;

	(void)state;
	memset(&t, 0, sizeof(t));
	memset(cells, 0, sizeof(cells));
	t.ref = "ref";
	t.engines = eng;
	t.n_engines = 2;
	cells[0].present = cells[1].present = 1;
	cells[0].pp = 1000;
	cells[0].tg = 100;
	cells[0].vpp.has = cells[0].vtg.has = 1;
	cells[0].vpp.v.kind = VERDICT_PARITY;
	cells[0].vpp.v.significant = 1;
	cells[0].vpp.v.mde_pct = 5.8;
	cells[0].vtg.v.kind = VERDICT_UNDECIDED;
	cells[0].vtg.v.mde_pct = 1.2;
	text = tables_base_text(&t, &row, 0);
	assert_string_equal(text, "1000 / 100.0 (mde 5.8%: parity / +0.0% undecided)");
	free(text);
	cells[0].vpp.v.mde_pct = 0.4;
	text = tables_base_text(&t, &row, 0);
	assert_string_equal(text, "1000 / 100.0 (parity / +0.0% undecided)");
	free(text);
}

/* report --format's names, each its own format, and nothing else. */
static void test_report_format_of(void **state)
{
	(void)state;
	assert_int_equal(report_format_of("md"), REPORT_MD);
	assert_int_equal(report_format_of("json"), REPORT_JSON);
	assert_int_equal(report_format_of("csv"), REPORT_CSV);
	assert_int_equal(report_format_of("html"), REPORT_HTML);
	assert_int_equal(report_format_of("text"), -1);
	assert_int_equal(report_format_of("HTML"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_format_of),
		cmocka_unit_test(test_report_md_escape),
		cmocka_unit_test(test_report_md_plain),
		cmocka_unit_test(test_report_md_table),
		cmocka_unit_test(test_report_cell_formats),
		cmocka_unit_test(test_report_verdict_mde_lead),
		cmocka_unit_test_setup_teardown(test_report_tables_study, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_tables_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_tables_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_json_csv, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
