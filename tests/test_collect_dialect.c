/* test_collect_dialect.c: the spellings read from the real --help of two
 * llama-server releases (tests/data/dialect/: b8390, node-llama-cpp 3.18.1's, and
 * v0.4.0), one spec manifest line spelled for each, a knob an engine lacks
 * refused, the terms of a spec args field, the error line picked out of real
 * server logs (tests/data/loaderr/), and dialect_detect()'s cache (only regular,
 * whole entries of the same binary are read; anything else is asked again) and
 * the causes of a --help that cannot be read. */
#include "collect/dialect.h"
#include "collect/loaderr.h"
#include "collect/manifest.h"
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char *data_text(const char *rel)
{
	const char *dir = getenv("TPSDB_TEST_DATA");
	char *path = tps_xasprintf("%s/%s", dir ? dir : "tests/data", rel);
	char *text = tps_read_file(path, NULL);

	assert_non_null(text);
	free(path);
	return text;
}

static void parse_fixture(const char *rel, struct dialect *d)
{
	char *help = data_text(rel);

	assert_int_equal(dialect_parse(help, d), 0);
	free(help);
}

static char *joined(char **argv)
{
	size_t n = 1, i;
	char *s;

	for (i = 0; argv && argv[i]; i++)
		n += strlen(argv[i]) + 1;
	s = tps_xcalloc(1, n);
	for (i = 0; argv && argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Spells args for n_max with d and the settled values settle (NULL none): the
 * words, or "ERR: <message>". Caller frees. */
static char *spell_settled(const struct dialect *d, const char *args, int64_t n_max,
			   const char *const *settle)
{
	char **words = NULL, **argv = NULL, err[512], *ret;
	size_t nw = 0, argc = 0;
	struct spec_terms t;

	assert_int_equal(manifest_split_args(args, &words, &nw, err, sizeof(err)), 0);
	assert_int_equal(manifest_spec_terms(words, &t, err, sizeof(err)), 0);
	if (dialect_spell(d, "eng", words, &t, n_max, settle, &argv, &argc, err,
			  sizeof(err)) < 0) {
		assert_int_equal(argc, 0);
		ret = tps_xasprintf("ERR: %s", err);
	} else {
		ret = joined(argv);
	}
	manifest_free_args(words);
	manifest_free_args(argv);
	return ret;
}

static char *spell(const struct dialect *d, const char *args, int64_t n_max)
{
	return spell_settled(d, args, n_max, NULL);
}

static void test_collect_dialect_v040(void **state)
{
	struct dialect d;

	(void)state;
	parse_fixture("dialect/llama-server-v0.4.0.help", &d);
	assert_string_equal(d.flag[SPEC_KNOB_DRAFTER], "-md");
	assert_string_equal(d.flag[SPEC_KNOB_N_MAX], "--spec-draft-n-max");
	/* The settled knobs and their stated defaults (issue 37: p-min 0.00 here). */
	assert_string_equal(d.flag[SPEC_KNOB_N_MIN], "--spec-draft-n-min");
	assert_string_equal(d.flag[SPEC_KNOB_P_MIN], "--spec-draft-p-min");
	assert_string_equal(d.deflt[SPEC_KNOB_P_MIN], "0.00");
	assert_string_equal(d.deflt[SPEC_KNOB_N_MIN], "0");
	assert_string_equal(d.deflt[SPEC_KNOB_N_MAX], "3");
	/* --draft-min is listed as removed: its default is no default either. */
	assert_false(dialect_accepts(&d, "--draft-min"));
	assert_true(dialect_accepts(&d, "--spec-draft-model"));
	assert_true(dialect_accepts(&d, "--model-draft"));
	/* Listed, but "the argument has been removed". */
	assert_false(dialect_accepts(&d, "--draft-max"));
	assert_false(dialect_accepts(&d, "--draft"));
	assert_non_null(d.types);
	assert_string_equal(d.types[0], "none");
	assert_string_equal(d.types[1], "draft-simple");
	assert_string_equal(d.types[3], "draft-mtp");
	dialect_release(&d);
}

static void test_collect_dialect_b8390(void **state)
{
	static const char *const want[] = { "none", "ngram-cache", "ngram-simple", "ngram-map-k",
					    "ngram-map-k4v", "ngram-mod", NULL };
	struct dialect d;
	size_t i;

	(void)state;
	parse_fixture("dialect/llama-server-b8390.help", &d);
	assert_string_equal(d.flag[SPEC_KNOB_DRAFTER], "-md");
	assert_string_equal(d.flag[SPEC_KNOB_N_MAX], "--draft-max");
	/* b8390's p-min defaults to 0.75, its n-min's default on the line below. */
	assert_string_equal(d.flag[SPEC_KNOB_N_MIN], "--draft-min");
	assert_string_equal(d.flag[SPEC_KNOB_P_MIN], "--draft-p-min");
	assert_string_equal(d.deflt[SPEC_KNOB_P_MIN], "0.75");
	assert_string_equal(d.deflt[SPEC_KNOB_N_MIN], "0");
	assert_string_equal(d.deflt[SPEC_KNOB_N_MAX], "16");
	assert_string_equal(d.deflt[SPEC_KNOB_DRAFTER], "unused"); /* read as written */
	assert_false(dialect_accepts(&d, "--spec-draft-n-max"));
	assert_true(dialect_accepts(&d, "--draft-n"));
	for (i = 0; want[i]; i++) {
		assert_non_null(d.types[i]);
		assert_string_equal(d.types[i], want[i]);
	}
	assert_null(d.types[i]);
	dialect_release(&d);
}

/* One line in tpsdb's terms, spelled for each release. */
static void test_collect_dialect_spell_both(void **state)
{
	static const struct {
		const char *args;
		int64_t n_max;
		const char *v040, *b8390;
	} cases[] = {
		{ "drafter=/m/d.gguf -fa on", 3,
		  "--spec-type draft-simple -md /m/d.gguf -fa on --spec-draft-n-max 3",
		  "-md /m/d.gguf -fa on --draft-max 3" },
		{ "spec=draft-simple drafter='/m/a b.gguf'", 1,
		  "--spec-type draft-simple -md /m/a b.gguf --spec-draft-n-max 1",
		  "-md /m/a b.gguf --draft-max 1" },
		{ "spec=ngram-mod", 8, "--spec-type ngram-mod --spec-draft-n-max 8",
		  "--spec-type ngram-mod --draft-max 8" },
		/* Knobs b8390 does not have: refused, naming the engine and the knob. */
		{ "spec=draft-mtp", 2, "--spec-type draft-mtp --spec-draft-n-max 2",
		  "ERR: engine 'eng' has no spec=draft-mtp: its --spec-type takes none, "
		  "ngram-cache, ngram-simple, ngram-map-k, ngram-map-k4v, ngram-mod" },
		{ "spec=draft-eagle3 drafter=/m/e.gguf", 2,
		  "--spec-type draft-eagle3 -md /m/e.gguf --spec-draft-n-max 2",
		  "ERR: engine 'eng' has no spec=draft-eagle3: its --spec-type takes none, "
		  "ngram-cache, ngram-simple, ngram-map-k, ngram-map-k4v, ngram-mod" },
		/* Raw args pass as written; n_max takes the engine's spelling. */
		{ "--spec-type draft-mtp", 2, "--spec-type draft-mtp --spec-draft-n-max 2",
		  "--spec-type draft-mtp --draft-max 2" },
	};
	struct dialect v040, b8390;
	char *got;

	(void)state;
	parse_fixture("dialect/llama-server-v0.4.0.help", &v040);
	parse_fixture("dialect/llama-server-b8390.help", &b8390);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = spell(&v040, cases[i].args, cases[i].n_max);
		assert_string_equal(got, cases[i].v040);
		free(got);
		got = spell(&b8390, cases[i].args, cases[i].n_max);
		assert_string_equal(got, cases[i].b8390);
		free(got);
	}
	dialect_release(&v040);
	dialect_release(&b8390);
}

/* The settled knobs, spelled after n_max with each release's flag; a knob an
 * engine's --help lacks refused, naming it; a raw line takes none. */
static void test_collect_dialect_spell_settled(void **state)
{
	const char *settle[SPEC_N_KNOBS] = { 0 };
	struct dialect v040, b8390, d;
	char *got;

	(void)state;
	parse_fixture("dialect/llama-server-v0.4.0.help", &v040);
	parse_fixture("dialect/llama-server-b8390.help", &b8390);
	settle[SPEC_KNOB_P_MIN] = "0.75";
	settle[SPEC_KNOB_N_MIN] = "1";
	got = spell_settled(&v040, "drafter=/m/d.gguf", 2, settle);
	assert_string_equal(got, "--spec-type draft-simple -md /m/d.gguf --spec-draft-n-max 2 "
			    "--spec-draft-n-min 1 --spec-draft-p-min 0.75");
	free(got);
	got = spell_settled(&b8390, "drafter=/m/d.gguf", 2, settle);
	assert_string_equal(got, "-md /m/d.gguf --draft-max 2 --draft-min 1 --draft-p-min 0.75");
	free(got);
	got = spell_settled(&b8390, "-md /m/d.gguf", 2, settle);
	assert_string_equal(got, "-md /m/d.gguf --draft-max 2");
	free(got);
	assert_int_equal(dialect_parse("-md,   --model-draft FNAME     draft model\n"
				       "--draft-max N   most (default: 16)\n", &d), 0);
	assert_null(d.deflt[SPEC_KNOB_P_MIN]);
	assert_string_equal(d.deflt[SPEC_KNOB_N_MAX], "16");
	got = spell_settled(&d, "drafter=/m/d.gguf", 2, settle);
	assert_string_equal(got, "ERR: engine 'eng' has no n_min: its --help lists none of "
			    "--spec-draft-n-min, --draft-min, --draft-n-min");
	free(got);
	dialect_release(&d);
	/* A removed option states no default; a default is read from the option's
	 * own indented lines only, never from the next option's. */
	assert_int_equal(dialect_parse("-md FNAME   draft\n"
				       "--draft-min N   the argument has been removed\n"
				       "                (default: 5)\n"
				       "--draft-p-min P   least\n"
				       "--other N   other (default: 9)\n"
				       "--spec-draft-n-min N   fewest\n"
				       "                (default: 2)\n", &d), 0);
	assert_string_equal(d.flag[SPEC_KNOB_N_MIN], "--spec-draft-n-min");
	assert_string_equal(d.deflt[SPEC_KNOB_N_MIN], "2");
	assert_string_equal(d.flag[SPEC_KNOB_P_MIN], "--draft-p-min");
	assert_null(d.deflt[SPEC_KNOB_P_MIN]);
	dialect_release(&d);
	dialect_release(&v040);
	dialect_release(&b8390);
}

/* An engine whose --help is not llama.cpp's: its dialect is unknown. A raw line is
 * spelled as before dialects; a line in tpsdb's terms cannot be. */
static void test_collect_dialect_unknown(void **state)
{
	struct dialect d;
	char *got;

	(void)state;
	assert_int_equal(dialect_parse("usage: fault_server.py [-h] [--port PORT]\n\noptions:\n"
				       "  -h, --help   show this help message and exit\n", &d), -1);
	assert_int_equal(dialect_parse("", &d), -1);
	got = spell(NULL, "-md /m/d.gguf", 4);
	assert_string_equal(got, "-md /m/d.gguf --spec-draft-n-max 4");
	free(got);
	got = spell(NULL, "drafter=/m/d.gguf", 4);
	assert_string_equal(got, "ERR: engine 'eng': cannot spell spec=draft-simple, its --help "
			    "lists no option");
	free(got);
	/* A help that names no n_max flag refuses n_max in tpsdb's terms. */
	assert_int_equal(dialect_parse("-md,   --model-draft FNAME     draft model\n"
				       "--spec-type [none|ngram-mod]   type\n", &d), 0);
	got = spell(&d, "spec=ngram-mod", 4);
	assert_string_equal(got, "ERR: engine 'eng' has no n_max: its --help lists none of "
			    "--spec-draft-n-max, --draft-max, --draft-n, --draft");
	free(got);
	dialect_release(&d);
}

static void test_collect_dialect_terms(void **state)
{
	static const struct {
		const char *args, *err; /* err NULL: accepted */
		int given;
		const char *type, *drafter;
		size_t n;
	} cases[] = {
		{ "--spec-type draft-mtp", NULL, 0, NULL, NULL, 0 },
		{ "-md /m/d.gguf --override-kv a=int:1", NULL, 0, NULL, NULL, 0 },
		{ "drafter=/m/d.gguf -fa on", NULL, 1, "draft-simple", "/m/d.gguf", 1 },
		{ "spec=ngram-mod --spec-ngram-mod-n-min 8", NULL, 1, "ngram-mod", NULL, 1 },
		{ "spec=draft-eagle3 drafter=/m/e.gguf", NULL, 1, "draft-eagle3", "/m/e.gguf", 2 },
		{ "drafer=/m/d.gguf", "unknown term 'drafer=' (the terms are spec=, drafter=, "
		  "n_min= and p_min=)", 0, NULL, NULL, 0 },
		{ "drafter=/m/d.gguf p_min=0.5 n_min=0 -fa on", NULL, 1, "draft-simple",
		  "/m/d.gguf", 3 },
		{ "drafter=/m/d.gguf p_min=1.5", "'p_min=1.5' is not a number from 0 to 1", 0,
		  NULL, NULL, 0 },
		{ "drafter=/m/d.gguf n_min=0.5", "'n_min=0.5' is not a whole number from 0 to "
		  "4096", 0, NULL, NULL, 0 },
		{ "drafter=/m/d.gguf p_min=x", "'p_min=x' is not a number from 0 to 1", 0, NULL,
		  NULL, 0 },
		{ "drafter=/m/d.gguf p_min=0.5 p_min=0.6", "'p_min=' is given twice", 0, NULL,
		  NULL, 0 },
		{ "drafter=/m/d.gguf n_max=3", "'n_max=' is not a term: the n_max list is the "
		  "line's fourth field", 0, NULL, NULL, 0 },
		{ "drafter=/m/d.gguf --draft-p-min 0.5", "'--draft-p-min' among the raw args: "
		  "write p_min= (the terms spell it for each engine)", 0, NULL, NULL, 0 },
		{ "drafter=/m/d.gguf --spec-draft-n-min=2", "'--spec-draft-n-min=2' among the raw "
		  "args: write n_min= (the terms spell it for each engine)", 0, NULL, NULL, 0 },
		{ "spec=a spec=b", "'spec=' is given twice", 0, NULL, NULL, 0 },
		{ "spec=", "'spec=' has no value", 0, NULL, NULL, 0 },
		{ "spec=draft-simple", "spec=draft-simple needs drafter=<gguf>", 0, NULL, NULL, 0 },
		{ "drafter=/m/d.gguf --draft-max 3", "'--draft-max' among the raw args: the terms "
		  "spell the type, the draft model and n_max for each engine", 0, NULL, NULL, 0 },
		{ "spec=ngram-mod --spec-type=ngram-simple", "'--spec-type=ngram-simple' among the "
		  "raw args: the terms spell the type, the draft model and n_max for each engine",
		  0, NULL, NULL, 0 },
	};
	char **words, err[256];
	struct spec_terms t;
	size_t nw;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		words = NULL;
		nw = 0;
		assert_int_equal(manifest_split_args(cases[i].args, &words, &nw, err, sizeof(err)),
				 0);
		if (cases[i].err) {
			assert_int_equal(manifest_spec_terms(words, &t, err, sizeof(err)), -1);
			assert_string_equal(err, cases[i].err);
		} else {
			assert_int_equal(manifest_spec_terms(words, &t, err, sizeof(err)), 0);
			assert_int_equal(t.given, cases[i].given);
			assert_int_equal(t.n, cases[i].n);
			if (cases[i].type)
				assert_string_equal(t.type, cases[i].type);
			else
				assert_null(t.type);
			if (cases[i].drafter)
				assert_string_equal(t.drafter, cases[i].drafter);
			else
				assert_null(t.drafter);
			if (cases[i].n == 3) {
				assert_string_equal(t.set[SPEC_KNOB_P_MIN], "0.5");
				assert_string_equal(t.set[SPEC_KNOB_N_MIN], "0");
			} else {
				assert_null(t.set[SPEC_KNOB_P_MIN]);
			}
		}
		manifest_free_args(words);
	}
}

/* The error line of real server logs: each release refusing an argument, and a
 * model that does not load. */
static void test_collect_dialect_loaderr(void **state)
{
	static const struct {
		const char *log, *want;
	} cases[] = {
		{ "loaderr/v0.4.0-draft-max.log", "error while handling argument \"--draft-max\": "
		  "the argument has been removed. use --spec-draft-n-max or --spec-ngram-mod-n-max" },
		{ "loaderr/v0.4.0-spec-type.log", "error while handling argument \"--spec-type\": "
		  "unknown speculative type: bogus" },
		{ "loaderr/v0.4.0-bad-model.log", "gguf_init_from_reader: invalid magic characters: "
		  "'not ', expected 'GGUF'" },
		{ "loaderr/b8390-spec-draft-n-max.log",
		  "error: invalid argument: --spec-draft-n-max" },
		{ "loaderr/b8390-spec-type.log", "error while handling argument \"--spec-type\": "
		  "unknown speculative decoding type without draft model" },
	};
	char *text, *le, *got;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		text = data_text(cases[i].log);
		/* As cell.c stores it: the reason, then the log's tail. */
		le = tps_xasprintf("the server exited with status 1 before it was ready\n%s", text);
		got = loaderr_line(le);
		assert_non_null(got);
		assert_string_equal(got, cases[i].want);
		free(got);
		free(le);
		free(text);
	}
	/* Nothing that says error: no line; runs of blanks squeezed, ends trimmed. */
	assert_null(loaderr_line("not ready after 1.5 s (last /health answer: HTTP 503)\n"));
	assert_null(loaderr_line(NULL));
	got = loaderr_line("ok\n0.00.1 E srv    load_model:   failed to load  \nlater\n");
	assert_string_equal(got, "srv load_model: failed to load");
	free(got);
	got = loaderr_line("x\ntpsdb: cannot execute '/t/b': No such file or directory\n");
	assert_string_equal(got, "tpsdb: cannot execute '/t/b': No such file or directory");
	free(got);
}

/* A NUL is refused wherever it is, with its byte; an over-long line with its line. */
static void test_collect_dialect_check_text(void **state)
{
	char err[256], *big;
	const char ok[] = "-md, --model-draft FNAME   draft\n";

	(void)state;
	assert_int_equal(dialect_check_text(ok, sizeof(ok) - 1, err, sizeof(err)), 0);
	assert_int_equal(dialect_check_text("-a  x\n\0-b  y\n", 14, err, sizeof(err)), -1);
	assert_string_equal(err, "a NUL byte at byte 7");
	assert_int_equal(dialect_check_text("\0", 1, err, sizeof(err)), -1);
	assert_string_equal(err, "a NUL byte at byte 1");
	big = tps_xmalloc(DIALECT_HELP_LINE_MAX + 8);
	memcpy(big, "-a\n", 3);
	memset(big + 3, 'x', DIALECT_HELP_LINE_MAX + 1);
	assert_int_equal(dialect_check_text(big, DIALECT_HELP_LINE_MAX + 4, err, sizeof(err)), -1);
	assert_string_equal(err, "line 2 is longer than 65536 bytes");
	/* At the limit, and without a last newline, it is text. */
	assert_int_equal(dialect_check_text(big, DIALECT_HELP_LINE_MAX + 3, err, sizeof(err)), 0);
	free(big);
}

/* A scratch folder: the cache, and stand-in engines whose --help is a script. */
struct scratch {
	char dir[64];
	char *cache, *bin, *entry;
};

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void scratch_init(struct scratch *s, const char *script)
{
	char *cmd;

	strcpy(s->dir, "/tmp/tpsdb-dialect.XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	s->cache = tps_xasprintf("%s/cache", s->dir);
	s->bin = tps_xasprintf("%s/eng", s->dir);
	write_file(s->bin, script, strlen(script));
	assert_int_equal(chmod(s->bin, 0755), 0);
	setenv("TPSDB_CACHE", s->cache, 1);
	/* The entry's name: the script's sha256 (sha256sum is coreutils). */
	cmd = tps_xasprintf("sha256sum '%s'", s->bin);
	{
		FILE *p = popen(cmd, "r");
		char hex[65] = { 0 };

		assert_non_null(p);
		assert_int_equal(fread(hex, 1, 64, p), 64);
		pclose(p);
		s->entry = tps_xasprintf("%s/dialect/%s.help", s->cache, hex);
	}
	free(cmd);
}

static void scratch_release(struct scratch *s)
{
	char *cmd = tps_xasprintf("rm -rf '%s'", s->dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(s->cache);
	free(s->bin);
	free(s->entry);
	unsetenv("TPSDB_CACHE");
}

/* The stand-in for b8390: its --help is the real text. */
static char *b8390_script(void)
{
	const char *dir = getenv("TPSDB_TEST_DATA");

	return tps_xasprintf("#!/bin/sh\n[ \"$1\" = --help ] && exec cat '%s/dialect/"
			     "llama-server-b8390.help'\nexit 1\n", dir ? dir : "tests/data");
}

/* detect, expecting b8390's dialect (--draft-max) */
static void detect_b8390(const char *bin)
{
	struct dialect *d = NULL;
	char err[512];

	assert_int_equal(dialect_detect(bin, &d, err, sizeof(err)), 0);
	assert_non_null(d);
	assert_string_equal(d->flag[SPEC_KNOB_N_MAX], "--draft-max");
	dialect_free(d);
}

/* The entry's text after its header line; NULL when it has none. Caller frees. */
static char *entry_body(const char *path, char **header)
{
	size_t len;
	char *text = tps_read_file(path, &len), *nl, *body;

	assert_non_null(text);
	nl = strchr(text, '\n');
	assert_non_null(nl);
	*header = tps_xstrndup(text, (size_t)(nl - text));
	body = tps_xstrdup(nl + 1);
	free(text);
	return body;
}

static void test_collect_dialect_cache(void **state)
{
	struct scratch s;
	char *script = b8390_script(), *help = data_text("dialect/llama-server-b8390.help");
	char *v040 = data_text("dialect/llama-server-v0.4.0.help"), *header, *body, *t;
	struct dialect *d = NULL;
	struct stat st;
	char err[512];
	size_t i;

	(void)state;
	scratch_init(&s, script);
	/* Written whole, under a header naming what it was made from. */
	detect_b8390(s.bin);
	body = entry_body(s.entry, &header);
	assert_string_equal(body, help);
	assert_int_equal(stat(s.bin, &st), 0);
	t = tps_xasprintf("tpsdb-dialect-cache 2 binary-sha256=%.64s binary-bytes=%lld "
			  "help-bytes=%zu", strrchr(s.entry, '/') + 1, (long long)st.st_size,
			  strlen(help));
	assert_string_equal(header, t);
	free(t);
	free(body);
	/* Read from there: v0.4.0's text under this binary's header spells v0.4.0. */
	t = tps_xasprintf("%.*s%zu\n%s", (int)(strrchr(header, '=') + 1 - header), header,
			  strlen(v040), v040);
	write_file(s.entry, t, strlen(t));
	free(t);
	assert_int_equal(dialect_detect(s.bin, &d, err, sizeof(err)), 0);
	assert_string_equal(d->flag[SPEC_KNOB_N_MAX], "--spec-draft-n-max");
	dialect_free(d);

	/* Every damaged entry is asked again and replaced by a whole one. */
	{
		const struct {
			const char *text;
			size_t len;
		} bad[] = {
			{ "", 0 },                                  /* empty */
			{ "\0tpsdb-dialect-cache 2", 22 },          /* a leading NUL */
			{ "\x93\x11\xfe\xaa random bytes\x01", 19 }, /* not text */
			{ "tpsdb-dialect-cache 2 binary-sha256=00 binary-bytes=1 help-bytes=3\n-a\n",
			  71 },                                     /* another binary's */
			{ "tpsdb-dialect-cache 2", 21 },            /* a header cut */
			{ "-md, --model-draft F  d\n--spec-draft-n-max N  n\n", 48 }, /* format 1 */
		};

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			write_file(s.entry, bad[i].text, bad[i].len);
			detect_b8390(s.bin);
			free(entry_body(s.entry, &t));
			assert_string_equal(t, header);
			free(t);
		}
	}
	/* Half of a good entry: cut, not half the options. */
	{
		size_t len;
		char *whole = tps_read_file(s.entry, &len);

		write_file(s.entry, whole, len / 2);
		detect_b8390(s.bin);
		free(whole);
		whole = tps_read_file(s.entry, &i);
		assert_int_equal(i, len);
		free(whole);
	}
	/* A FIFO, a link to one and a folder are never read, nor waited on (alarm():
	 * a hang fails the test); the first two are replaced. */
	alarm(60);
	assert_int_equal(unlink(s.entry), 0);
	assert_int_equal(mkfifo(s.entry, 0644), 0);
	detect_b8390(s.bin);
	assert_int_equal(lstat(s.entry, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	t = tps_xasprintf("%s/fifo", s.dir);
	assert_int_equal(mkfifo(t, 0644), 0);
	assert_int_equal(unlink(s.entry), 0);
	assert_int_equal(symlink(t, s.entry), 0);
	detect_b8390(s.bin);
	assert_int_equal(lstat(s.entry, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	free(t);
	assert_int_equal(unlink(s.entry), 0);
	assert_int_equal(mkdir(s.entry, 0755), 0);
	detect_b8390(s.bin);
	assert_int_equal(rmdir(s.entry), 0);
	alarm(0);
	free(header);
	scratch_release(&s);
	free(script);
	free(help);
	free(v040);
}

/* A --help that cannot be read says why, names the binary, and is not kept. The
 * deadline is short only where it is what is tested: a child that ends by itself
 * gets a minute, so a loaded machine never turns its cause into a timeout. */
static void test_collect_dialect_help_fails(void **state)
{
	static const struct {
		const char *script, *timeout, *why;
		int ret;
	} cases[] = {
		{ "#!/bin/sh\nexec sleep 30\n", "1", "timed out after 1 s", -1 },
		{ "#!/bin/sh\ntrap '' TERM\nsleep 30\n", "1", "timed out after 1 s", -1 },
		{ "#!/bin/sh\necho '-a  x'\nexit 1\n", "60", "exited with status 1", -1 },
		{ "#!/bin/sh\nkill -SEGV $$\n", "60", "killed by signal 11", -1 },
		{ "#!/bin/sh\nexec yes -- '-a  x'\n", "60", "printed more than 4 MiB", -1 },
		/* Past the limit, a child that ignores SIGXFSZ and its write errors
		 * goes on until the deadline: still a flood. */
		{ "#!/bin/sh\ntrap '' XFSZ\ns=$(head -c 1048576 /dev/zero | tr '\\000' x)\n"
		  "while :; do echo \"$s\"; done 2>/dev/null\n", "3", "printed more than 4 MiB", -1 },
		{ "#!/bin/sh\nprintf -- '-a  x\\n\\000--draft-max N  n\\n'\n", "60",
		  "a NUL byte at byte 7", -1 },
		{ "#!/bin/sh\nprintf -- '-a  x\\n'; head -c 70000 /dev/zero | tr '\\000' x\n", "60",
		  "line 2 is longer than 65536 bytes", -1 },
		{ "#!/bin/sh\necho 'usage: eng [-h]'\n", "60", NULL, 1 },
	};
	struct dialect *d = (struct dialect *)1;
	struct scratch s;
	char err[512], *want;
	size_t i;

	(void)state;
	alarm(300);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setenv("TPSDB_HELP_TIMEOUT", cases[i].timeout, 1);
		scratch_init(&s, cases[i].script);
		assert_int_equal(dialect_detect(s.bin, &d, err, sizeof(err)), cases[i].ret);
		assert_null(d);
		if (cases[i].why) {
			want = tps_xasprintf("cannot read its --help (%s): %s", cases[i].why, s.bin);
			assert_string_equal(err, want);
			free(want);
		} else {
			assert_string_equal(err, "its --help lists no option");
		}
		assert_int_equal(access(s.entry, F_OK), -1);
		scratch_release(&s);
	}
	alarm(0);
	unsetenv("TPSDB_HELP_TIMEOUT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_dialect_v040),
		cmocka_unit_test(test_collect_dialect_b8390),
		cmocka_unit_test(test_collect_dialect_spell_both),
		cmocka_unit_test(test_collect_dialect_spell_settled),
		cmocka_unit_test(test_collect_dialect_unknown),
		cmocka_unit_test(test_collect_dialect_terms),
		cmocka_unit_test(test_collect_dialect_loaderr),
		cmocka_unit_test(test_collect_dialect_check_text),
		cmocka_unit_test(test_collect_dialect_cache),
		cmocka_unit_test(test_collect_dialect_help_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
