/* test_gate.c: `tpsdb gate` and `tpsdb baseline` run in-process on a migrated
 * ":memory:" store filled through store_run_insert/store_sample_insert: one cell 6%
 * down at a 3% threshold fails alone (JSON and JUnit agree), the threshold edge, the
 * stored noise floor widening the threshold, XML escaping, and missing cells. */
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
#include <unistd.h>

#include "schema/noise.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tpsdb.h"

int cmd_gate(int argc, char **argv, struct tps_ctx *ctx);
int cmd_baseline(int argc, char **argv, struct tps_ctx *ctx);

struct fixture {
	struct tps_ctx ctx;
	char junit[64];
	char *out; /* stdout of the last command */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	if (!f || !(f->ctx.store = store_open(":memory:", 0)))
		return -1;
	snprintf(f->junit, sizeof(f->junit), "/tmp/tpsdb-junit-XXXXXX");
	if ((fd = mkstemp(f->junit)) < 0)
		return -1;
	close(fd);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	store_close(f->ctx.store);
	unlink(f->junit);
	free(f->out);
	free(f);
	return 0;
}

/* Runs cmd with the NULL-terminated arguments, keeping its stdout in f->out. */
static int run(struct fixture *f, int (*cmd)(int, char **, struct tps_ctx *), ...)
{
	char *argv[32];
	char path[] = "/tmp/tpsdb-out-XXXXXX";
	va_list ap;
	int argc = 0, fd, saved, rc;

	va_start(ap, cmd);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	fflush(stdout);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	saved = dup(1);
	dup2(fd, 1);
	rc = cmd(argc, argv, &f->ctx);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	free(f->out);
	f->out = tps_read_file(path, NULL);
	unlink(path);
	assert_non_null(f->out);
	return rc;
}

/* A run of 8 prompts x 2 reps around pp and tg with a fixed +-0.3% pattern. */
static void add_run(struct store *s, const char *engine, const char *model, const char *tag,
		    double pp, double tg, char *uuid_out)
{
	static const double wig[4] = { 0.3, -0.3, 0.1, -0.1 };
	struct run_rec r;
	int64_t id;
	int i;

	run_rec_init(&r);
	assert_int_equal(tps_uuid4(r.uuid, sizeof(r.uuid)), 0);
	r.status = tps_xstrdup("complete");
	r.host.name = tps_xstrdup("h200");
	r.engine.label = tps_xstrdup(engine);
	r.engine.role = tps_xstrdup("ours");
	r.model.label = tps_xstrdup(model);
	r.ctx = 8192;
	r.n_predict = 256;
	r.endpoint = tps_xstrdup("completion");
	r.spec_type = tps_xstrdup("");
	r.tag = tps_xstrdup(tag);
	assert_int_equal(store_begin(s), 0);
	assert_true((id = store_run_insert(s, &r)) > 0);
	for (i = 0; i < 16; i++) {
		struct sample_rec m;
		char name[16];

		sample_rec_init(&m);
		snprintf(name, sizeof(name), "p%d", i / 2);
		m.prompt_name = tps_xstrdup(name);
		sha256_hex(name, strlen(name), m.prompt_hash);
		m.rep = i % 2 + 1;
		m.prompt_n = 2048;
		m.predicted_n = 256;
		m.prompt_per_second = pp * (1 + wig[i % 4] / 100);
		m.predicted_per_second = tg * (1 + wig[i % 4] / 100);
		m.flags = 0;
		assert_int_equal(store_sample_insert(s, id, &m), 0);
		sample_rec_release(&m);
	}
	assert_int_equal(store_run_finish(s, id, "complete", NULL, NULL), 0);
	assert_int_equal(store_commit(s), 0);
	if (uuid_out)
		memcpy(uuid_out, r.uuid, sizeof(r.uuid));
	run_rec_release(&r);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void test_gate_one_cell_fails(void **state)
{
	struct fixture *f = *state;
	cJSON *root, *cells, *c;
	char *xml;
	int fails = 0;

	add_run(f->ctx.store, "ours", "dense", "v1", 13150, 142.6, NULL);
	add_run(f->ctx.store, "ours", "moe", "v1", 13000, 200, NULL);
	add_run(f->ctx.store, "ours", "dense", "v2", 13160, 142.0, NULL);
	add_run(f->ctx.store, "ours", "moe", "v2", 13010, 188, NULL); /* -6% */
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "rel", "--tag", "v1", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "rel", "--engine", "ours", "--tag",
			     "v2", "--json", "--junit", f->junit, NULL), TPS_EXIT_FAIL);
	assert_non_null(root = cJSON_Parse(f->out));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(root, "pass")));
	cells = cJSON_GetObjectItem(root, "cells");
	assert_int_equal(cJSON_GetArraySize(cells), 4);
	cJSON_ArrayForEach(c, cells) {
		if (strcmp(cJSON_GetObjectItem(c, "status")->valuestring, "fail"))
			continue;
		fails++;
		assert_string_equal(cJSON_GetObjectItem(c, "model")->valuestring, "moe");
		assert_string_equal(cJSON_GetObjectItem(c, "metric")->valuestring, "tg");
		assert_true(fabs(cJSON_GetObjectItem(c, "delta_pct")->valuedouble + 6) < 1e-6);
		assert_true(cJSON_GetObjectItem(c, "threshold_pct")->valuedouble == 3);
		assert_string_equal(cJSON_GetObjectItem(c, "bound")->valuestring, "band");
	}
	assert_int_equal(fails, 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "warnings")), 0);
	cJSON_Delete(root);
	assert_non_null(xml = tps_read_file(f->junit, NULL));
	assert_int_equal(count(xml, "<testcase "), 4);
	assert_int_equal(count(xml, "<failure "), 1);
	assert_non_null(strstr(xml, "<testcase classname=\"tpsdb.gate.moe\" name=\"moe tg\" time=\"0\">\n"
				    "      <failure message=\"moe tg: candidate 188 vs baseline 200 (-6.00%)"));
	free(xml);
	/* A wider threshold for decode alone lets it through. */
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "rel", "--engine", "ours", "--tag",
			     "v2", "--max-regress", "tg=6.5", NULL), TPS_EXIT_OK);
	assert_non_null(strstr(f->out, "PASS (0 failure(s))"));
}

/* A regression of exactly the threshold passes; a hair more fails. */
static void test_gate_threshold_edge(void **state)
{
	struct fixture *f = *state;

	add_run(f->ctx.store, "ours", "m", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "m", "b", 1000, 97, NULL);
	add_run(f->ctx.store, "ours", "m", "c", 1000, 96.9, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "base", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", NULL), TPS_EXIT_OK);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "c", "--metric", "tg", NULL), TPS_EXIT_FAIL);
}

/* (g) for the gate: a 4% slowdown fails at 3% until a 2.5% floor is stored, then the
 * threshold is 5% and the output names the noise bound. */
static void test_gate_noise_floor(void **state)
{
	struct fixture *f = *state;
	struct noise_rec nr = { 0 };
	char ua[40];
	cJSON *root, *c;

	add_run(f->ctx.store, "ours", "m", "a", 1000, 100, ua);
	add_run(f->ctx.store, "ours", "m", "b", 1000, 96, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "base", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", NULL), TPS_EXIT_FAIL);
	nr.run_a = nr.run_b = ua;
	nr.metric = "tg";
	nr.noise_pct = 2.5;
	nr.n_pairs = 16;
	assert_int_equal(store_begin(f->ctx.store), 0);
	assert_int_equal(store_noise_put(f->ctx.store, &nr), 0);
	assert_int_equal(store_commit(f->ctx.store), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", "--json", NULL), TPS_EXIT_OK);
	assert_non_null(root = cJSON_Parse(f->out));
	c = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cells"), 0);
	assert_string_equal(cJSON_GetObjectItem(c, "bound")->valuestring, "noise");
	assert_true(fabs(cJSON_GetObjectItem(c, "threshold_pct")->valuedouble - 5) < 1e-9);
	assert_true(fabs(cJSON_GetObjectItem(c, "noise_pct")->valuedouble - 2.5) < 1e-9);
	cJSON_Delete(root);
	/* --noise-k 1: 2.5% is below the 3% threshold again, which wins. */
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", "--noise-k", "1", NULL), TPS_EXIT_FAIL);
}

static void test_gate_junit_escapes(void **state)
{
	struct fixture *f = *state;
	char *xml;

	add_run(f->ctx.store, "ours", "a<b>&\"c'\x01", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "a<b>&\"c'\x01", "b", 1000, 90, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "x&y", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "x&y", "--engine", "ours", "--tag",
			     "b", "--junit", f->junit, NULL), TPS_EXIT_FAIL);
	assert_non_null(xml = tps_read_file(f->junit, NULL));
	assert_non_null(strstr(xml, "classname=\"tpsdb.gate.a&lt;b&gt;&amp;&quot;c&apos;?\""));
	assert_non_null(strstr(xml, "against baseline &apos;x&amp;y&apos;"));
	assert_null(strchr(xml, '\x01'));
	assert_int_equal(count(xml, "<failure "), 1);
	free(xml);
}

static void test_gate_missing_cells_warn(void **state)
{
	struct fixture *f = *state;
	cJSON *root, *w;

	add_run(f->ctx.store, "ours", "kept", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "dropped", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "kept", "b", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "new", "b", 1000, 100, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "base", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--json", NULL), TPS_EXIT_OK);
	assert_non_null(root = cJSON_Parse(f->out));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "pass")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "cells")), 2);
	w = cJSON_GetObjectItem(root, "warnings");
	assert_int_equal(cJSON_GetArraySize(w), 2);
	assert_non_null(strstr(cJSON_GetArrayItem(w, 0)->valuestring, "'new'"));
	assert_non_null(strstr(cJSON_GetArrayItem(w, 1)->valuestring, "'dropped'"));
	cJSON_Delete(root);
	/* Nothing shared at all is an error, not a pass. */
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "other", NULL),
			 TPS_EXIT_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gate_one_cell_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_threshold_edge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_noise_floor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_junit_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_missing_cells_warn, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
