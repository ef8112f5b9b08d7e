/* test_runenv.c: the parsers and decisions behind a run's environment findings:
 * the server log facts (a real CPU llama-server log, and lines in the format
 * llama.cpp prints on CUDA), nvidia-smi's query lines, the thresholds of
 * host-busy, gpu-contended, gpu-throttled, clocks-changed, partial-offload and
 * kv-on-host, the repeat share behind degenerate-output, and output identity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analyze/envrule.h"
#include "analyze/parity.h"
#include "collect/quality.h"
#include "collect/repeat.h"
#include "collect/runenv.h"
#include "schema/record.h"
#include "schema/record_json.h"
#include "tests/repeat_ref.h"
#include "tpsdb.h"

static char *fixture(const char *name)
{
	char path[512];
	const char *dir = getenv("TPSDB_TEST_DATA");
	char *text;

	snprintf(path, sizeof(path), "%s/env/%s", dir ? dir : "tests/data", name);
	text = tps_read_file(path, NULL);
	assert_non_null(text);
	return text;
}

/* The real log of the CPU llama-server tpsdb builds, at verbosity 4: the KV cache
 * on the CPU, no offload line, graph reuse printed after every request. */
static void test_runenv_log_cpu(void **state)
{
	struct runenv_log l;
	char *text = fixture("llama-server-cpu.log");

	(void)state;
	runenv_log_parse(text, strlen(text), &l);
	assert_int_equal(l.layers_offloaded, -1);
	assert_int_equal(l.layers_total, -1);
	assert_true(l.kv_host_mib == 2.0);
	assert_true(isnan(l.kv_gpu_mib));
	assert_string_equal(l.kv_buffers, "CPU");
	assert_int_equal(l.graphs_reused, 184); /* the last one printed */
	assert_true(isnan(l.load_ms));
	free(text);
}

static void test_runenv_log_cuda(void **state)
{
	static const char ngl8[] =
		"load_tensors: offloading 8 repeating layers to GPU\n"
		"load_tensors: offloaded 8/33 layers to GPU\n"
		"load_tensors:        CUDA0 model buffer size =  3218.00 MiB\n"
		"llama_kv_cache:      CUDA0 KV buffer size =   512.00 MiB\n"
		"llama_kv_cache:        CPU KV buffer size =  1536.00 MiB\n"
		"unknown: offloaded to nowhere, KV buffer size = lots\n"
		"garbage \x01\xff without a newline at the end: graphs reused = x";
	static const char nokvo[] =
		"0.00.4 I load_tensors: offloaded 33/33 layers to GPU\n"
		"0.00.5 I llama_kv_cache:  CUDA_Host KV buffer size =  2048.00 MiB\n"
		"llama_perf_context_print:        load time =    2345.67 ms\n";
	struct runenv_log l;

	(void)state;
	runenv_log_parse(ngl8, strlen(ngl8), &l);
	assert_int_equal(l.layers_offloaded, 8);
	assert_int_equal(l.layers_total, 33);
	assert_true(l.kv_gpu_mib == 512 && l.kv_host_mib == 1536);
	assert_string_equal(l.kv_buffers, "CUDA0 CPU");
	assert_int_equal(l.graphs_reused, -1);
	runenv_log_parse(nokvo, strlen(nokvo), &l);
	assert_int_equal(l.layers_offloaded, 33);
	assert_true(l.kv_host_mib == 2048 && isnan(l.kv_gpu_mib));
	assert_true(fabs(l.load_ms - 2345.67) < 1e-9);
	runenv_log_parse(NULL, 0, &l);
	assert_int_equal(l.layers_total, -1);
}

/* Lines of the real CUDA llama-server logs on an H200 (scripts/gpu-guards.sh; the
 * offload, KV, load and graph lines of each, as the server wrote them): all layers
 * and the KV on the GPU; -ngl 8 (the KV of the host's 25 layers on the host);
 * --no-kv-offload (every layer on the GPU, all KV on the host). */
static void test_runenv_log_h200(void **state)
{
	struct runenv_log l;
	char *clean = fixture("h200-clean.log"), *partial = fixture("h200-partial.log");
	char *kvhost = fixture("h200-kvhost.log");

	(void)state;
	runenv_log_parse(clean, strlen(clean), &l);
	assert_int_equal(l.layers_offloaded, 33);
	assert_int_equal(l.layers_total, 33);
	assert_true(l.kv_gpu_mib == 2048 && isnan(l.kv_host_mib));
	assert_string_equal(l.kv_buffers, "CUDA0");
	assert_int_equal(l.graphs_reused, 123);
	runenv_log_parse(partial, strlen(partial), &l);
	assert_int_equal(l.layers_offloaded, 8);
	assert_int_equal(l.layers_total, 33);
	assert_true(l.kv_gpu_mib == 448 && l.kv_host_mib == 1600);
	assert_string_equal(l.kv_buffers, "CPU CUDA0");
	runenv_log_parse(kvhost, strlen(kvhost), &l);
	assert_int_equal(l.layers_offloaded, 33);
	assert_true(l.kv_host_mib == 2048 && isnan(l.kv_gpu_mib));
	assert_string_equal(l.kv_buffers, "CPU");
	free(clean);
	free(partial);
	free(kvhost);
}

static void test_runenv_gpu_parse(void **state)
{
	static const char text[] =
		"0, GPU-126aafaa-0ab6-8564-0efb-4bc7fb502cc3, 0, 345, 3201, 36, 78.90, "
		"0x0000000000000001\n"
		"0, GPU-126aafaa-0ab6-8564-0efb-4bc7fb502cc3, 92, 1980, 3201, 51, 614.32, "
		"0x0000000000000000\n"
		"1, GPU-x, [N/A], [N/A], 3201, 30, [N/A], 0x24\n"
		"Field \"clocks_throttle_reasons.active\" is not a valid field to query.\n"
		"\n";
	static const char apps[] = "5506, GPU-126aafaa-0ab6-8564-0efb-4bc7fb502cc3\n"
				   "No running processes found\n7, GPU-x\n";
	struct runenv_gpu_sample *g;
	struct runenv_app *a;
	size_t n;

	(void)state;
	runenv_gpu_parse(text, &g, &n);
	assert_int_equal(n, 3);
	assert_int_equal(g[0].index, 0);
	assert_string_equal(g[0].uuid, "GPU-126aafaa-0ab6-8564-0efb-4bc7fb502cc3");
	assert_true(g[0].throttle == 1 && g[1].util == 92 && g[1].sm_mhz == 1980);
	assert_true(fabs(g[1].power_w - 614.32) < 1e-9 && g[1].temp_c == 51);
	assert_true(isnan(g[2].util) && isnan(g[2].sm_mhz) && g[2].throttle == 0x24);
	free(g);
	runenv_apps_parse(apps, &a, &n);
	assert_int_equal(n, 2);
	assert_int_equal(a[0].pid, 5506);
	assert_string_equal(a[1].uuid, "GPU-x");
	free(a);
	runenv_gpu_parse(NULL, &g, &n);
	assert_int_equal(n, 0);
}

static void facts_init(struct runenv_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->busy_share = RUNENV_HOST_BUSY_SHARE;
	f->util_before = f->util_idle = f->idle_wait_ms = NAN;
	f->gpu_index = -1;
	f->log.layers_offloaded = f->log.layers_total = -1;
	f->log.kv_gpu_mib = f->log.kv_host_mib = f->log.load_ms = NAN;
	f->log.graphs_reused = -1;
	f->ready_ms = NAN;
}

/* The findings as every reader derives them: the facts stored as run.env, read
 * back (record_env_facts()) and judged (env_findings()). */
static unsigned decide(const struct runenv_facts *f)
{
	struct env_facts e;
	char *json = runenv_json(f);

	record_env_facts(json, &e);
	free(json);
	assert_true(e.known);
	return env_findings(&e, RUN_ENV_KV_ON_HOST); /* facts win over what was stored */
}

/* Each threshold, on both sides of it. */
static void test_runenv_decide(void **state)
{
	struct runenv_gpu_sample s[3];
	struct runenv_facts f;
	char *json;
	cJSON *o;

	(void)state;
	facts_init(&f);
	assert_int_equal(decide(&f), 0);
	f.wall_s = 10;
	f.ncpu = 2;
	f.others_cpu_s = 10; /* exactly half: not above the share */
	assert_int_equal(decide(&f), 0);
	f.others_cpu_s = 10.5;
	assert_int_equal(decide(&f), RUN_ENV_HOST_BUSY);
	f.busy_share = 0.9;
	assert_int_equal(decide(&f), 0);
	f.busy_share = RUNENV_HOST_BUSY_SHARE;
	f.wall_s = 0.01; /* a window of one tick says nothing */
	f.others_cpu_s = 0.02;
	assert_int_equal(decide(&f), 0);

	facts_init(&f);
	f.has_gpu = 1;
	f.util_idle = 9;
	assert_int_equal(decide(&f), 0);
	f.util_idle = 10;
	assert_int_equal(decide(&f), RUN_ENV_GPU_CONTENDED);
	/* Utilisation before the server started is the previous instance's tail:
	 * kept, never judged. */
	f.util_idle = 0;
	f.util_before = 98;
	assert_int_equal(decide(&f), 0);
	f.util_before = 0;
	f.other_procs = 1;
	assert_int_equal(decide(&f), RUN_ENV_GPU_CONTENDED);
	f.other_procs = 0;
	memset(s, 0, sizeof(s));
	s[0].util = s[1].util = 95;
	s[0].sm_mhz = 1980;
	s[1].sm_mhz = 1790; /* 9.6% below: not changed */
	s[0].mem_mhz = s[1].mem_mhz = 3201;
	s[2].util = 0;
	s[2].sm_mhz = 345; /* idle between requests: not counted */
	s[2].throttle = 0x1; /* gpu-idle is no throttle */
	f.samples = s;
	f.n_samples = 3;
	assert_int_equal(decide(&f), 0);
	s[1].sm_mhz = 1410;
	assert_int_equal(decide(&f), RUN_ENV_CLOCKS_CHANGED);
	s[1].sm_mhz = 1980;
	s[1].throttle = 0x4; /* sw power cap: the governor at the power limit, no finding */
	assert_int_equal(decide(&f), 0);
	s[1].sm_mhz = 1700; /* ... unless it moves the clocks */
	assert_int_equal(decide(&f), RUN_ENV_CLOCKS_CHANGED);
	s[1].sm_mhz = 1980;
	s[1].throttle = 0x8; /* hw slowdown */
	assert_int_equal(decide(&f), RUN_ENV_GPU_THROTTLED);
	f.has_gpu = 0; /* no nvidia-smi: no GPU finding whatever the samples say */
	assert_int_equal(decide(&f), 0);

	facts_init(&f);
	f.log.layers_total = 33;
	f.log.layers_offloaded = 0; /* a CPU host: not a partial offload */
	f.log.kv_host_mib = 2;      /* and its KV cache is on the host by design */
	assert_int_equal(decide(&f), 0);
	f.has_gpu = 1;              /* -ngl 0 on a GPU host is */
	assert_int_equal(decide(&f), RUN_ENV_PARTIAL_OFFLOAD);
	f.has_gpu = 0;
	f.log.layers_offloaded = 8;
	assert_int_equal(decide(&f), RUN_ENV_PARTIAL_OFFLOAD | RUN_ENV_KV_ON_HOST);
	f.log.layers_offloaded = 33;
	assert_int_equal(decide(&f), RUN_ENV_KV_ON_HOST);
	f.log.kv_host_mib = NAN;
	f.log.kv_gpu_mib = 512;
	assert_int_equal(decide(&f), 0);

	/* The JSON holds the facts the finding details quote. */
	f.wall_s = 4;
	f.ncpu = 2;
	f.others_cpu_s = 6;
	f.server_cpu_s = 2;
	json = runenv_json(&f);
	o = cJSON_Parse(json);
	assert_non_null(o);
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "host"), "others_share")->valuedouble
		    == 0.75);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "log"), "layers_total")->valueint,
			 33);
	assert_null(cJSON_GetObjectItem(o, "gpu"));
	cJSON_Delete(o);
	free(json);
}

/* A run with no facts keeps the findings it was stored with; facts replace them. */
static void test_env_findings_recorded(void **state)
{
	struct env_facts e;

	(void)state;
	record_env_facts(NULL, &e);
	assert_false(e.known);
	assert_int_equal(env_findings(&e, RUN_ENV_GPU_CONTENDED), RUN_ENV_GPU_CONTENDED);
	record_env_facts("[1]", &e);
	assert_false(e.known);
	record_env_facts("{\"gpu\":{\"util_before\":37,\"util_idle\":2,\"other_procs\":0}}", &e);
	assert_true(e.known && e.has_gpu);
	assert_int_equal(env_findings(&e, RUN_ENV_GPU_CONTENDED), 0);
	record_env_facts("{\"gpu\":{\"util_before\":37,\"other_procs\":0,"
			 "\"throttle_reasons\":\"0x24\"}}", &e);
	assert_int_equal(env_findings(&e, 0), RUN_ENV_GPU_THROTTLED);
}

/* The word-at-a-time count equals the definition exactly, for short and long
 * texts (tails of every length past the last word, past the lanes' flush at 2,040
 * bytes), loops of every period, noise, and bytes with the top bit set (which a
 * zero-byte test gets wrong when it forgets them). */
static void test_runenv_repeat_share_exact(void **state)
{
	static char t[5000];
	size_t lens[] = { 32, 33, 39, 40, 47, 255, 256, 271, 1000, 2039, 2040, 2041, 2047, 2048,
			  2049, 2063, 4087, 4999 }, l, i, p;
	int high;
	unsigned seed = 7;

	(void)state;
	for (high = 0; high <= 1; high++)
	for (p = 0; p <= REPEAT_MAX_PERIOD + 3; p++) {
		for (i = 0; i < sizeof(t); i++) {
			seed = seed * 1103515245u + 12345u;
			/* p 0: noise over 4 letters; else a loop of period p, one byte in 9 noise;
			 * high: the same letters with their top bit set, and 0x80/0x00 pairs */
			t[i] = p && (seed >> 16) % 9 ? (char)('a' + i % p % 26) :
			       (char)('a' + (seed >> 16) % 4);
			if (high)
				t[i] = (char)((seed >> 20) % 7 ? (unsigned char)t[i] | 0x80u :
					      (seed >> 23) % 2 ? 0x80u : 0x00u);
		}
		for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
			assert_true(repeat_share(t, lens[l]) == repeat_share_by_definition(t, lens[l]));
	}
	/* one byte throughout: every lane is full (255) at each flush */
	memset(t, 'u', sizeof(t));
	for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		assert_true(repeat_share(t, lens[l]) == repeat_share_by_definition(t, lens[l]));
}

static void test_runenv_repeat_share(void **state)
{
	char loop[257], prose[] =
		"The train leaves at 09:40 at 84 km/h; the second leaves the same station at "
		"10:05 at 112 km/h, so it gains 28 km every hour on a lead of 35 km.";
	struct run_rec run;
	struct sample_rec smp;
	int i;

	(void)state;
	for (i = 0; i < 64; i++)
		memcpy(loop + 4 * i, "</u>", 4);
	loop[256] = '\0';
	assert_true(repeat_share(loop, 256) > 0.98);
	assert_true(repeat_share(prose, strlen(prose)) < 0.2);
	assert_true(isnan(repeat_share("abababab", 8))); /* too short to judge */
	/* A cycle longer than REPEAT_MAX_PERIOD (the random test model's) is left alone. */
	{
		char cyc[28 * 20 + 1];
		for (i = 0; i < 20; i++)
			memcpy(cyc + 28 * i, "BackgroundDD consid Urban in", 28);
		cyc[28 * 20] = '\0';
		assert_true(repeat_share(cyc, strlen(cyc)) < SAMPLE_DEGENERATE_SHARE);
	}
	run_rec_init(&run);
	sample_rec_init(&smp);
	smp.predicted_per_second = 100;
	smp.repeat_share = repeat_share(loop, 256);
	assert_true(quality_assess(&run, &smp) & SAMPLE_DEGENERATE);
	smp.repeat_share = repeat_share(prose, strlen(prose));
	assert_false(quality_assess(&run, &smp) & SAMPLE_DEGENERATE);
	smp.repeat_share = NAN;
	assert_false(quality_assess(&run, &smp) & SAMPLE_DEGENERATE);
	assert_string_equal(record_flag_name(SAMPLE_DEGENERATE), "degenerate-output");
	assert_string_equal(record_env_flag_name(RUN_ENV_KV_ON_HOST), "kv-on-host");
}

static void test_runenv_outputs_identical(void **state)
{
	/* The runs borrow these: nothing here is run_release()d. */
	char h_aa[] = "aa", h_bb[] = "bb", h_cc[] = "cc", h_xx[] = "XX";
	struct run_output a[] = { { 1, 1, h_aa }, { 1, 2, h_bb }, { 2, 1, h_cc } };
	struct run_output b[] = { { 1, 1, h_aa }, { 1, 2, h_xx }, { 3, 1, h_cc } };
	struct run x = { 0 }, y = { 0 };
	int64_t cmp, same;

	(void)state;
	x.outputs = a;
	x.n_outputs = 3;
	y.outputs = b;
	y.n_outputs = 3;
	x.temperature = y.temperature = 0;
	parity_outputs(&x, &y, &cmp, &same);
	assert_int_equal(cmp, 2); /* (2,1) and (3,1) have no partner */
	assert_int_equal(same, 1);
	y.temperature = 0.8;
	parity_outputs(&x, &y, &cmp, &same);
	assert_int_equal(cmp, -1);
	assert_int_equal(same, -1);
	y.temperature = NAN;
	parity_outputs(&x, &y, &cmp, &same);
	assert_int_equal(cmp, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runenv_log_cpu),
		cmocka_unit_test(test_runenv_log_cuda),
		cmocka_unit_test(test_runenv_log_h200),
		cmocka_unit_test(test_runenv_gpu_parse),
		cmocka_unit_test(test_runenv_decide),
		cmocka_unit_test(test_env_findings_recorded),
		cmocka_unit_test(test_runenv_repeat_share),
		cmocka_unit_test(test_runenv_repeat_share_exact),
		cmocka_unit_test(test_runenv_outputs_identical),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
