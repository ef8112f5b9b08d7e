/* test_plot.c: reports/plot*.c: the figures' words (plot_text.c), quoting of script
 * strings and data-file labels, the extension check, the PATH search, and
 * plot_job_run() against stand-in gnuplots (one that keeps the script and data for
 * inspection, one that hangs, one that fails), then the real gnuplot, when
 * installed, on labels built to run commands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/study.h"
#include "reports/plot.h"
#include "schema/record.h"
#include "tpsdb.h"

/* A scratch folder per test. */
struct fixture {
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/tpsdb-test-plot-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *cmd = tps_xasprintf("rm -rf '%s'", f->dir);

	if (system(cmd) != 0)
		return -1;
	free(cmd);
	free(f);
	return 0;
}

/* A trend's words, from its metric, model, config and band. */
static void test_plot_text_trend(void **state)
{
	static const struct plot_band seg = { 0, 1, 98, 102 };
	static const struct {
		int metric;
		const char *spec_type;
		int64_t n_max;
		int band;  /* 0 none, 1 a baseline's, 2 per segment */
		const char *title, *ylabel, *legend;
	} cases[] = {
		{ STUDY_TG, "", STUDY_NULL, 2, "decode tok/s (tg) of m, base: median per run",
		  "decode tok/s (tg)", "ours level per segment" },
		{ STUDY_PP, NULL, STUDY_NULL, 1, "prefill tok/s (pp) of m, base: median per run",
		  "prefill tok/s (pp)", "baseline b1 (2 runs)" },
		{ STUDY_TG, "draft", 2, 0, "decode tok/s (tg) of m, draft n_max=2: median per run",
		  "decode tok/s (tg)", NULL },
		{ STUDY_PP, "ngram", STUDY_NULL, 2, "prefill tok/s (pp) of m, ngram base: median "
		  "per run", "prefill tok/s (pp)", "ours level per segment" },
	};
	struct plot_text w;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plot_trend t;
		memset(&t, 0, sizeof(t));
		t.metric = cases[i].metric;
		t.model = "m";
		t.spec_type = cases[i].spec_type;
		t.n_max = cases[i].n_max;
		t.band_lo = t.band_hi = NAN;
		t.baseline = "b1";   /* named, but no band unless band_lo is set */
		t.baseline_runs = 2;
		t.band_engine = "ours";
		if (cases[i].band == 1) {
			t.band_lo = 98;
			t.band_hi = 102;
		} else if (cases[i].band == 2) {
			t.bands = &seg;
			t.n_bands = 1;
		}
		plot_trend_text(&t, &w);
		assert_string_equal(w.title, cases[i].title);
		assert_string_equal(w.ylabel, cases[i].ylabel);
		if (cases[i].legend)
			assert_string_equal(w.band, cases[i].legend);
		else
			assert_null(w.band);
		assert_int_equal(w.n_legend, 0);
		plot_text_release(&w);
		plot_text_release(&w); /* released twice: harmless */
	}
}

/* A sweep's title, from its model and spec type; none without a model. */
static void test_plot_text_sweep(void **state)
{
	struct plot_sweep sw;
	struct plot_text w;

	(void)state;
	memset(&sw, 0, sizeof(sw));
	sw.model = "m";
	sw.spec_type = "ngram";
	plot_sweep_text(&sw, &w);
	assert_string_equal(w.title, "speculative sweep of m, ngram: decode tok/s and acceptance "
			    "by n_max");
	assert_null(w.ylabel);
	plot_text_release(&w);
	sw.spec_type = "";
	plot_sweep_text(&sw, &w);
	assert_string_equal(w.title, "speculative sweep of m, spec: decode tok/s and acceptance "
			    "by n_max");
	plot_text_release(&w);
	sw.model = NULL;
	plot_sweep_text(&sw, &w);
	assert_string_equal(w.title, "");
	plot_text_release(&w);
}

/* Parity's words: against a reference or ours against each engine, the bars'
 * common level or none when they differ, and each bar's legend. */
static void test_plot_text_parity(void **state)
{
	static const char *const eng[2] = { "zz", "up" };
	static const struct {
		int metric;
		const char *ref;
		double level;
		const char *title, *ylabel, *legend[2];
	} cases[] = {
		{ STUDY_TG, "up", 0.9, "parity: tg delta % against up per model (90% interval), "
		  "shaded: parity band", "tg delta % vs up", { "zz", "up" } },
		{ STUDY_PP, NULL, 0.95, "parity: pp delta % of ours against each other engine per "
		  "model (95% interval), shaded: parity band", "pp delta % of ours vs the engine",
		  { "ours vs zz", "ours vs up" } },
		{ STUDY_TG, NULL, NAN, "parity: tg delta % of ours against each other engine per "
		  "model (interval), shaded: parity band", "tg delta % of ours vs the engine",
		  { "ours vs zz", "ours vs up" } },
		{ STUDY_PP, "llama.cpp", NAN, "parity: pp delta % against llama.cpp per model "
		  "(interval), shaded: parity band", "pp delta % vs llama.cpp", { "zz", "up" } },
	};
	struct plot_parity p;
	struct plot_text w;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.metric = cases[i].metric;
		p.ref = cases[i].ref;
		p.ours = "ours";
		p.level = cases[i].level;
		p.n_engines = 2;
		p.engines = eng;
		plot_parity_text(&p, &w);
		assert_string_equal(w.title, cases[i].title);
		assert_string_equal(w.ylabel, cases[i].ylabel);
		assert_int_equal(w.n_legend, 2);
		assert_string_equal(w.legend[0], cases[i].legend[0]);
		assert_string_equal(w.legend[1], cases[i].legend[1]);
		assert_null(w.band);
		plot_text_release(&w);
	}
}

static void test_plot_quote(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "ours", "'ours'" },
		{ "it's", "'it''s'" },
		{ "''", "''''''" },
		{ "a\nset output 'x'", "'a set output ''x'''" },
		{ "`touch /tmp/x`", "'`touch /tmp/x`'" },
		{ "system(\"id\") @x", "'system(\"id\") @x'" },
		{ "tab\tcr\rdel\x7f", "'tab cr del '" },
		{ "", "''" },
	};
	size_t i;
	char *q, *longer = tps_xmalloc(PLOT_TEXT_MAX + 11);

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		q = plot_quote(cases[i].in);
		assert_string_equal(q, cases[i].want);
		free(q);
	}
	memset(longer, 'x', PLOT_TEXT_MAX + 10);
	longer[PLOT_TEXT_MAX + 10] = '\0';
	q = plot_quote(longer);
	assert_int_equal(strlen(q), PLOT_TEXT_MAX + 5);
	assert_string_equal(q + PLOT_TEXT_MAX + 1, "...'");
	free(q);
	free(longer);
}

static void test_plot_field(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "llama.cpp", "llama.cpp" },
		{ "a\tb\nc", "a b c" },
		{ "say \"hi\"", "say ''hi''" },
		{ "#comment", "#comment" },
		{ "", "-" },
		{ NULL, "-" },
		/* Cut after 40 code points, never inside a UTF-8 sequence. */
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9",
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9..." },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *q = plot_field(cases[i].in);
		assert_string_equal(q, cases[i].want);
		free(q);
	}
}

static void test_plot_format(void **state)
{
	enum plot_format fmt;

	(void)state;
	assert_int_equal(plot_format_of("a.png", &fmt), 0);
	assert_int_equal(fmt, PLOT_PNG);
	assert_int_equal(plot_format_of("dir/A.SVG", &fmt), 0);
	assert_int_equal(fmt, PLOT_SVG);
	assert_int_equal(plot_format_of("a.jpg", &fmt), -1);
	assert_int_equal(plot_format_of(".png", &fmt), -1);
	assert_int_equal(plot_format_of("png", &fmt), -1);
}

/* Writes an executable shell script named gnuplot into dir. */
static char *fake_gnuplot(const char *dir, const char *body)
{
	char *path = tps_xasprintf("%s/gnuplot", dir);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	return path;
}

/* A parity figure of ng groups by ne engines against the reference "up", with
 * their deltas and intervals, band 2%. */
static void parity_up(struct plot_parity *pa, const char *const *groups, size_t ng,
		      const char *const *eng, size_t ne, const double *delta, const double *lo,
		      const double *hi)
{
	memset(pa, 0, sizeof(*pa));
	pa->ref = "up";
	pa->n_groups = ng;
	pa->n_engines = ne;
	pa->groups = groups;
	pa->engines = eng;
	pa->delta = delta;
	pa->lo = lo;
	pa->hi = hi;
	pa->band_pct = 2;
}

/* A fake gnuplot that keeps its script as dir/kept.gp and its data files in dir, the
 * figure's path and the paths to read them back. */
struct kept {
	char *body, *fake, *out, *kept, *dat;
};

static void kept_init(struct kept *k, const char *dir)
{
	k->body = tps_xasprintf("cp \"$1\" '%s'/kept.gp && cp \"$(dirname \"$1\")\"/*.dat '%s'/ "
				"&& echo x >\"$(dirname \"$1\")/figure1.svg\"", dir, dir);
	k->fake = fake_gnuplot(dir, k->body);
	k->out = tps_xasprintf("%s/o.svg", dir);
	k->kept = tps_xasprintf("%s/kept.gp", dir);
	k->dat = tps_xasprintf("%s/f1_s1.dat", dir);
}

/* Runs j through the fake, frees it, and reads back the script and (data not NULL)
 * the first series' data. */
static void kept_run(struct kept *k, struct plot_job *j, char **script, char **data)
{
	assert_int_equal(plot_job_run(j, k->fake, 10), 0);
	plot_job_free(j);
	*script = tps_read_file(k->kept, NULL);
	if (data)
		*data = tps_read_file(k->dat, NULL);
}

static void kept_free(struct kept *k)
{
	free(k->kept);
	free(k->dat);
	free(k->out);
	free(k->fake);
	free(k->body);
}

static void test_plot_find(void **state)
{
	struct fixture *f = *state;
	char *old = tps_xstrdup(getenv("PATH")), *fake = fake_gnuplot(f->dir, "exit 0"), *found;
	char *path = tps_xasprintf("/nonexistent::%s", f->dir);

	setenv("PATH", path, 1);
	found = plot_find_gnuplot();
	assert_non_null(found);
	assert_string_equal(found, fake);
	free(found);
	setenv("PATH", "/nonexistent", 1);
	assert_null(plot_find_gnuplot());
	unsetenv("PATH");
	assert_null(plot_find_gnuplot());
	setenv("PATH", old, 1);
	free(old);
	free(fake);
	free(path);
}

static const char *const hostile[] = {
	"ours\"'\n`touch @/bq`",
	"up; ! touch @/bang\nset output '@/evil.png'",
	"system(\"touch @/sys\") #c\t@x",
};

/* Labels that would touch files in dir if any reached a shell or gnuplot's parser. */
static char *label(const char *dir, size_t i)
{
	const char *p;
	char *out = tps_xstrdup(""), *next;

	for (p = hostile[i]; *p; p++) {
		if (*p == '@')
			next = tps_xasprintf("%s%s/mark", out, dir);
		else
			next = tps_xasprintf("%s%c", out, *p);
		free(out);
		out = next;
	}
	return out;
}

/* Adds a trend of two hostile series and a sweep to j, writing to out. */
static void add_figures(struct plot_job *j, const char *dir, const char *out, const char *out2,
			char **labels)
{
	static const double x[4] = { 1.7e9, 1.7e9 + 3600, 1.7e9 + 7200, 1.7e9 + 10800 };
	static const double y[4] = { 100, 101, 90, 91 };
	static const size_t cp[1] = { 2 };
	static const double cp_pct[1] = { -10 };
	static const int64_t nm[3] = { 0, 1, 2 };
	static const double tg[3] = { 100, 150, 170 }, acc[3] = { NAN, 0.8, 0.7 };
	struct plot_trend_series ts[2];
	struct plot_trend tr;
	struct plot_sweep_series ss;
	struct plot_sweep sw;
	size_t i;

	for (i = 0; i < 3; i++)
		labels[i] = label(dir, i);
	memset(ts, 0, sizeof(ts));
	ts[0].label = labels[0];
	ts[0].n = 4;
	ts[0].x = x;
	ts[0].y = y;
	ts[0].n_cp = 1;
	ts[0].cp = cp;
	ts[0].cp_pct = cp_pct;
	ts[1] = ts[0];
	ts[1].label = labels[1];
	ts[1].n_cp = 0;
	memset(&tr, 0, sizeof(tr));
	tr.metric = STUDY_TG;
	tr.model = labels[2];
	tr.spec_type = labels[1];
	tr.n_max = 2;
	tr.series = ts;
	tr.n_series = 2;
	tr.band_lo = 98;
	tr.band_hi = 102;
	tr.baseline = labels[0];
	tr.baseline_runs = 2;
	assert_int_equal(plot_job_trend(j, &tr, out, PLOT_PNG), 0);
	memset(&ss, 0, sizeof(ss));
	ss.label = labels[2];
	ss.n = 3;
	ss.n_max = nm;
	ss.tg = tg;
	ss.accept = acc;
	memset(&sw, 0, sizeof(sw));
	sw.model = labels[0];
	sw.spec_type = labels[1];
	sw.series = &ss;
	sw.n_series = 1;
	assert_int_equal(plot_job_sweep(j, &sw, out2, PLOT_SVG), 0);
}

static void free_labels(char **labels)
{
	size_t i;

	for (i = 0; i < 3; i++)
		free(labels[i]);
}

/* Is every line that holds a label a "set title|ylabel '...'" whose quotes are
 * all doubled? Returns the count of such lines, -1 on the first bad one. */
static int lines_ok(const char *script, const char *needle)
{
	char *copy = tps_xstrdup(script), *save = NULL, *line;
	int n = 0;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *q, *end;
		if (!strstr(line, needle))
			continue;
		if (strncmp(line, "set title '", 11) && strncmp(line, "set ylabel '", 12)) {
			n = -1;
			break;
		}
		q = strchr(line, '\'') + 1;
		end = line + strlen(line) - 1;
		if (*end != '\'') {
			n = -1;
			break;
		}
		for (; q < end; q++) {
			if (*q == '\'' && q[1] == '\'')
				q++;
			else if (*q == '\'')
				break;
		}
		if (q != end) {
			n = -1;
			break;
		}
		n++;
	}
	free(copy);
	return n;
}

static void test_plot_script(void **state)
{
	struct fixture *f = *state;
	/* gnuplot draws into the job's folder; plot_job_run() copies the figures out. */
	char *body = tps_xasprintf("cp -r \"$(dirname \"$1\")\" '%s/kept' && "
				   "echo x >\"$(dirname \"$1\")/figure1.png\" && "
				   "echo x >\"$(dirname \"$1\")/figure2.svg\"", f->dir);
	char *fake = fake_gnuplot(f->dir, body), *out = tps_xasprintf("%s/t.png", f->dir);
	char *out2 = tps_xasprintf("%s/s.svg", f->dir), *labels[3], *script, *data;
	char *kept = tps_xasprintf("%s/kept/plot.gp", f->dir);
	struct plot_job *j = plot_job_new();
	DIR *d;
	struct dirent *e;
	size_t ndat = 0;

	assert_non_null(j);
	add_figures(j, f->dir, out, out2, labels);
	assert_int_equal(plot_job_run(j, fake, 10), 0);
	plot_job_free(j);
	data = tps_read_file(out, NULL);
	assert_string_equal(data, "x\n");
	free(data);
	data = tps_read_file(out2, NULL);
	assert_string_equal(data, "x\n");
	free(data);
	script = tps_read_file(kept, NULL);
	assert_non_null(script);
	/* The labels reached the script only as quoted titles (the trend's and the
	 * sweep's, each naming a model and a spec type). */
	assert_int_equal(lines_ok(script, "/mark"), 2);
	assert_non_null(strstr(script, "set datafile separator \"\\t\""));
	assert_non_null(strstr(script, "pngcairo"));
	assert_non_null(strstr(script, "set terminal svg"));
	/* The data files carry the labels as one field each. */
	free(kept);
	kept = tps_xasprintf("%s/kept", f->dir);
	d = opendir(kept);
	assert_non_null(d);
	while ((e = readdir(d))) {
		char *p, *nl;
		if (!strstr(e->d_name, ".dat"))
			continue;
		ndat++;
		p = tps_xasprintf("%s/%s", kept, e->d_name);
		data = tps_read_file(p, NULL);
		assert_non_null(data);
		nl = strchr(data, '\n');
		assert_non_null(nl);
		*nl = '\0';
		assert_null(strchr(data, '"'));
		free(data);
		free(p);
	}
	closedir(d);
	/* The trend's two series, its change points and band; the sweep's series. */
	assert_int_equal(ndat, 5);
	free_labels(labels);
	free(script);
	free(kept);
	free(out);
	free(out2);
	free(fake);
	free(body);
}

static void test_plot_timeout(void **state)
{
	struct fixture *f = *state;
	char *fake = fake_gnuplot(f->dir, "exec sleep 30"), *out = tps_xasprintf("%s/t.png", f->dir);
	char *out2 = tps_xasprintf("%s/s.svg", f->dir), *labels[3];
	struct plot_job *j = plot_job_new();
	double t0;

	assert_non_null(j);
	add_figures(j, f->dir, out, out2, labels);
	t0 = tps_mono_ms();
	assert_int_equal(plot_job_run(j, fake, 1), -1);
	assert_true(tps_mono_ms() - t0 < 5000);
	plot_job_free(j);
	free_labels(labels);
	free(fake);
	free(out);
	free(out2);
}

static void test_plot_failure(void **state)
{
	struct fixture *f = *state;
	char *fake = fake_gnuplot(f->dir, "echo 'line 3: undefined variable: x' >&2; exit 1");
	char *out = tps_xasprintf("%s/t.png", f->dir), *out2 = tps_xasprintf("%s/s.svg", f->dir);
	char *labels[3];
	struct plot_job *j = plot_job_new();

	assert_non_null(j);
	add_figures(j, f->dir, out, out2, labels);
	assert_int_equal(plot_job_run(j, fake, 10), -1);
	plot_job_free(j);
	/* An exit 0 that wrote nothing is a failure too. */
	free(fake);
	fake = fake_gnuplot(f->dir, "exit 0");
	j = plot_job_new();
	assert_non_null(j);
	free_labels(labels);
	add_figures(j, f->dir, out, out2, labels);
	assert_int_equal(plot_job_run(j, fake, 10), -1);
	plot_job_free(j);
	free_labels(labels);
	free(fake);
	free(out);
	free(out2);
}

static void test_plot_refusals(void **state)
{
	struct fixture *f = *state;
	struct plot_job *j = plot_job_new();
	struct plot_trend tr;
	struct plot_sweep sw;
	char *out = tps_xasprintf("%s/a\nb.png", f->dir);

	(void)f;
	assert_non_null(j);
	memset(&tr, 0, sizeof(tr));
	tr.band_lo = tr.band_hi = NAN;
	assert_int_equal(plot_job_trend(j, &tr, "x.png", PLOT_PNG), -1); /* nothing to plot */
	memset(&sw, 0, sizeof(sw));
	assert_int_equal(plot_job_sweep(j, &sw, "x.png", PLOT_PNG), -1);
	{
		static const double x[1] = { 1.7e9 }, y[1] = { 1 };
		struct plot_trend_series s = { "e", 1, x, y, 0, NULL, NULL, NULL, NULL };
		tr.series = &s;
		tr.n_series = 1;
		assert_int_equal(plot_job_trend(j, &tr, out, PLOT_PNG), -1); /* control char */
	}
	plot_job_free(j);
	plot_job_free(NULL);
	free(out);
}

/* The real gnuplot, when installed: hostile labels draw and touch nothing. */
static void test_plot_gnuplot_hostile(void **state)
{
	struct fixture *f = *state;
	char *gp = plot_find_gnuplot(), *out, *out2, *labels[3], *mark;
	struct plot_job *j;
	struct stat st;
	DIR *d;
	struct dirent *e;
	int n = 0;

	if (!gp)
		skip();
	mark = tps_xasprintf("%s/mark", f->dir);
	assert_int_equal(mkdir(mark, 0755), 0);
	out = tps_xasprintf("%s/t.png", f->dir);
	out2 = tps_xasprintf("%s/s.svg", f->dir);
	j = plot_job_new();
	assert_non_null(j);
	add_figures(j, f->dir, out, out2, labels);
	assert_int_equal(plot_job_run(j, gp, 60), 0);
	plot_job_free(j);
	assert_int_equal(stat(out, &st), 0);
	assert_true(st.st_size > 1000);
	assert_int_equal(stat(out2, &st), 0);
	d = opendir(mark);
	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 0);
	free_labels(labels);
	free(mark);
	free(out);
	free(out2);
	free(gp);
}

/* Each key keeps one colour: in any order, in any figure, and two keys of one
 * figure never share one. */
static void test_plot_colours(void **state)
{
	static const char *const a[] = { "ours", "llama.cpp", "stock-llamafile", "vllm" };
	static const char *const b[] = { "vllm", "ours", "ours", "stock-llamafile", "llama.cpp" };
	static const char *const one[] = { "llama.cpp" };
	size_t ca[4], cb[5], c1[1], i, k;

	(void)state;
	plot_colours(a, 4, ca);
	plot_colours(b, 5, cb);
	plot_colours(one, 1, c1);
	for (i = 0; i < 4; i++)
		for (k = i + 1; k < 4; k++)
			assert_true(ca[i] != ca[k]);
	assert_int_equal(cb[1], cb[2]);
	assert_int_equal(cb[0], ca[3]);
	assert_int_equal(cb[1], ca[0]);
	assert_int_equal(cb[3], ca[2]);
	assert_int_equal(cb[4], ca[1]);
	assert_int_equal(c1[0], ca[1]);
	assert_string_equal(plot_colour(ca[0]), plot_colour(ca[0] + PLOT_N_COLOURS));
	assert_int_equal(strlen(plot_colour(3)), 7);
}

/* The scripts: an engine is drawn in its colour in a trend and a parity figure
 * of two jobs, and a parity engine without a bar has no legend entry. */
static void test_plot_script_colours(void **state)
{
	struct fixture *f = *state;
	static const double x[2] = { 1.7e9, 1.7e9 + 60 }, y[2] = { 100, 101 };
	static const char *const groups[1] = { "m" };
	static const char *const eng[2] = { "stock-llamafile", "nobars" };
	static const double delta[2] = { -3, NAN }, lo[2] = { -4, NAN }, hi[2] = { -2, NAN };
	static const struct plot_band band = { 1.7e9, 1.7e9 + 60, 98, 102 };
	char *body = tps_xasprintf("n=$(ls '%s' | grep -c kept); cp \"$1\" '%s'/kept-$n.gp && "
				   "echo x >\"$(dirname \"$1\")/figure1.svg\"", f->dir, f->dir);
	char *fake = fake_gnuplot(f->dir, body), *out = tps_xasprintf("%s/o.svg", f->dir);
	char *script, *want, *kept;
	struct plot_trend_series ts;
	struct plot_trend tr;
	struct plot_parity pa;
	struct plot_job *j;
	const char *c;

	memset(&ts, 0, sizeof(ts));
	ts.label = "stock-llamafile (chat)";
	ts.key = "stock-llamafile";
	ts.n = 2;
	ts.x = x;
	ts.y = y;
	memset(&tr, 0, sizeof(tr));
	tr.model = "t";
	tr.series = &ts;
	tr.n_series = 1;
	tr.band_lo = tr.band_hi = NAN;
	tr.bands = &band;
	tr.n_bands = 1;
	tr.band_engine = "stock-llamafile";
	j = plot_job_new();
	assert_int_equal(plot_job_trend(j, &tr, out, PLOT_SVG), 0);
	assert_int_equal(plot_job_run(j, fake, 10), 0);
	plot_job_free(j);
	parity_up(&pa, groups, 1, eng, 2, delta, lo, hi);
	j = plot_job_new();
	assert_int_equal(plot_job_parity(j, &pa, out, PLOT_SVG), 0);
	assert_int_equal(plot_job_run(j, fake, 10), 0);
	plot_job_free(j);
	{
		size_t col[1];
		plot_colours(eng, 1, col);
		c = plot_colour(col[0]);
	}
	want = tps_xasprintf("rgb '%s'", c);
	kept = tps_xasprintf("%s/kept-0.gp", f->dir);
	script = tps_read_file(kept, NULL);
	free(kept);
	assert_non_null(script);
	assert_non_null(strstr(script, want));
	/* the band is drawn over its segment, not across the plot */
	assert_non_null(strstr(script, "index 0 using 1:2:3 with filledcurves"));
	assert_non_null(strstr(script, "set key outside below"));
	free(script);
	kept = tps_xasprintf("%s/kept-1.gp", f->dir);
	script = tps_read_file(kept, NULL);
	free(kept);
	assert_non_null(script);
	assert_non_null(strstr(script, want));
	/* one engine with bars: one boxes plot with a title, and no s2 data file */
	assert_non_null(strstr(script, "f1_s1.dat"));
	assert_null(strstr(script, "f1_s2.dat"));
	free(script);
	free(want);
	free(out);
	free(fake);
	free(body);
}

/* The parity figure keeps its band visible: the axis follows the bars (at most 25
 * bands), intervals beyond it are clipped and the figure says so; the sweep figure
 * draws each rung's interval, or says why there is none. */
static void test_plot_intervals(void **state)
{
	struct fixture *f = *state;
	static const char *const groups[2] = { "m1", "m2" };
	static const char *const eng[1] = { "ours" };
	static const double delta[2] = { 3, -1 }, lo[2] = { -500, -2 }, hi[2] = { 18000, 0 };
	static const double big[1] = { 400 };
	static const int64_t nm[2] = { 0, 1 };
	static const double tg[2] = { 100, 150 }, acc[2] = { NAN, 0.8 };
	static const double tlo[2] = { 95, 140 }, thi[2] = { 104, 161 };
	struct kept k;
	char *script, *data;
	struct plot_sweep_series ss;
	struct plot_sweep sw;
	struct plot_parity pa;
	struct plot_job *j;

	kept_init(&k, f->dir);
	parity_up(&pa, groups, 2, eng, 1, delta, lo, hi);
	assert_true(fabs(plot_parity_limit(&pa) - 10) < 1e-9); /* 5 bands beat 1.2 x 3 */
	j = plot_job_new();
	assert_int_equal(plot_job_parity(j, &pa, k.out, PLOT_SVG), 0);
	kept_run(&k, j, &script, &data);
	assert_non_null(script);
	assert_non_null(data);
	assert_non_null(strstr(script, "set yrange [-10.000000:10.000000]"));
	assert_non_null(strstr(script, "axis +/-10.0%: intervals and bars beyond it are clipped "
				       "at the edge (1 clipped)"));
	/* m1's interval [-500, 18000] is cut to the axis; m2's is as it was */
	assert_non_null(strstr(data, "0\t3.000000\t-10.000000\t10.000000\n"));
	assert_non_null(strstr(data, "1\t-1.000000\t-2.000000\t0.000000\n"));
	free(script);
	free(data);
	/* One huge bar: the axis stops at 25 bands, the bar is clipped too. */
	pa.n_groups = 1;
	pa.delta = big;
	pa.lo = pa.hi = NULL;
	assert_true(fabs(plot_parity_limit(&pa) - 50) < 1e-9);
	pa.band_pct = 0;
	assert_true(fabs(plot_parity_limit(&pa) - 25) < 1e-9); /* no band: 1% stands in */

	memset(&ss, 0, sizeof(ss));
	ss.label = "ours";
	ss.n = 2;
	ss.n_max = nm;
	ss.tg = tg;
	ss.accept = acc;
	ss.tg_lo = tlo;
	ss.tg_hi = thi;
	memset(&sw, 0, sizeof(sw));
	sw.model = "s";
	sw.series = &ss;
	sw.n_series = 1;
	j = plot_job_new();
	assert_int_equal(plot_job_sweep(j, &sw, k.out, PLOT_SVG), 0);
	kept_run(&k, j, &script, &data);
	assert_non_null(strstr(script, "using 1:2:4:5 axes x1y1 with yerrorbars"));
	assert_non_null(strstr(script, "bars: 95% interval of each rung, decode tok/s over its runs"));
	assert_non_null(strstr(data, "1\t150.000000\t0.800000\t140.000000\t161.000000\n"));
	free(script);
	free(data);
	/* No interval (one run a rung): no error bars, and the figure says why. */
	ss.tg_lo = ss.tg_hi = NULL;
	j = plot_job_new();
	assert_int_equal(plot_job_sweep(j, &sw, k.out, PLOT_SVG), 0);
	kept_run(&k, j, &script, NULL);
	assert_null(strstr(script, "yerrorbars"));
	assert_non_null(strstr(script, "no intervals: one run a rung"));
	free(script);
	kept_free(&k);
}

/* A series in build order that steps back in time (its second build's runs
 * interleave the first's) breaks its line there: a blank line in its data, so
 * gnuplot draws no segment back across the axis; in time order, none. The title
 * says the order when the series is in first-seen build order. */
static void test_plot_trend_build_order(void **state)
{
	struct fixture *f = *state;
	static const double x[4] = { 1000, 3000, 2000, 4000 }, y[4] = { 10, 11, 12, 13 };
	static const double xs[4] = { 1000, 2000, 3000, 4000 };
	struct kept k;
	struct plot_trend_series se;
	struct plot_trend t;
	struct plot_job *j;
	char *data, *script;

	kept_init(&k, f->dir);
	memset(&se, 0, sizeof(se));
	se.label = "new";
	se.n = 4;
	se.x = x;
	se.y = y;
	memset(&t, 0, sizeof(t));
	t.metric = STUDY_TG;
	t.model = "m";
	t.n_max = STUDY_NULL;
	t.spec_type = "";
	t.series = &se;
	t.n_series = 1;
	t.band_lo = t.band_hi = NAN;
	t.first_seen = 1;
	j = plot_job_new();
	assert_int_equal(plot_job_trend(j, &t, k.out, PLOT_SVG), 0);
	kept_run(&k, j, &script, &data);
	assert_non_null(data);
	assert_non_null(script);
	assert_non_null(strstr(data, "3000\t11"));
	assert_non_null(strstr(strstr(data, "3000\t11"), "\n\n2000\t12"));
	assert_non_null(strstr(script, "median per run, builds by first seen'"));
	free(data);
	free(script);
	se.x = xs;
	t.first_seen = 0;
	j = plot_job_new();
	assert_int_equal(plot_job_trend(j, &t, k.out, PLOT_SVG), 0);
	kept_run(&k, j, &script, &data);
	assert_null(strstr(data, "\n\n"));
	assert_null(strstr(script, "first seen"));
	free(data);
	free(script);
	kept_free(&k);
}

/* Without a reference the parity bars are ours' against each engine: the legend
 * says so from the data file ("ours vs llama.cpp", worded by plot_parity_text(), a
 * label never in the script) while the colour stays the engine's; a spoiled cell has no bar and a line under
 * the title counts it with its findings; every cell spoiled is nothing to plot. */
static void test_plot_parity_labels(void **state)
{
	struct fixture *f = *state;
	static const char *const groups[2] = { "m1", "m2" };
	static const char *const eng[2] = { "llama.cpp", "stock" };
	static const double delta[4] = { 1, NAN, NAN, NAN };
	static const double none[4] = { NAN, NAN, NAN, NAN };
	struct kept k;
	char *script, *data;
	struct plot_parity pa;
	struct plot_job *j;

	kept_init(&k, f->dir);
	memset(&pa, 0, sizeof(pa));
	pa.metric = STUDY_TG;
	pa.ours = "ours";
	pa.level = 0.9;
	pa.n_groups = 2;
	pa.n_engines = 2;
	pa.groups = groups;
	pa.engines = eng;
	pa.delta = delta;
	pa.band_pct = 2;
	pa.n_spoiled = 2;
	pa.spoiled_env = RUN_ENV_HOST_BUSY | RUN_ENV_GPU_CONTENDED;
	j = plot_job_new();
	assert_int_equal(plot_job_parity(j, &pa, k.out, PLOT_SVG), 0);
	kept_run(&k, j, &script, &data);
	assert_non_null(script);
	assert_non_null(data);
	assert_non_null(strstr(data, "x\tours vs llama.cpp\tlo\thi\n"));
	assert_null(strstr(script, "vs llama.cpp"));
	/* The title names the roles and the bars' level, the axis ours' delta. */
	assert_non_null(strstr(script, "set title 'parity: tg delta % of ours against each "
				       "other engine per model (90% interval), shaded: parity "
				       "band'\n"));
	assert_non_null(strstr(script, "set ylabel 'tg delta % of ours vs the engine'\n"));
	assert_non_null(strstr(script, "set label 2 'no bar: 2 spoiled cells (host-busy, "
				       "gpu-contended while an instance it used measured): not an "
				       "answer'"));
	/* stock has no bar: no data file, no legend entry. */
	assert_null(strstr(script, "f1_s2.dat"));
	free(script);
	free(data);
	/* Without spoiled cells, no such line. */
	pa.n_spoiled = 0;
	j = plot_job_new();
	assert_int_equal(plot_job_parity(j, &pa, k.out, PLOT_SVG), 0);
	kept_run(&k, j, &script, NULL);
	assert_null(strstr(script, "set label 2"));
	free(script);
	/* Every cell spoiled: nothing to plot (the error line counts them). */
	pa.delta = none;
	pa.n_spoiled = 4;
	j = plot_job_new();
	assert_int_equal(plot_job_parity(j, &pa, k.out, PLOT_SVG), -1);
	plot_job_free(j);
	kept_free(&k);
}

/* A trend series' runs that are not clean are drawn again hollow (a white disc,
 * then an open circle, point type 6, in the series' colour) from their own data
 * file, and one legend entry says what a hollow mark is; a series without one
 * has neither. */
static void test_plot_trend_spoiled(void **state)
{
	struct fixture *f = *state;
	static const double x[3] = { 1.7e9, 1.7e9 + 60, 1.7e9 + 120 }, y[3] = { 100, 50, 101 };
	static const unsigned char sp[3] = { 0, 1, 0 };
	char *body = tps_xasprintf("n=$(ls '%s' | grep -c kept); mkdir '%s'/kept-$n && "
				   "cp \"$(dirname \"$1\")\"/* '%s'/kept-$n/ && "
				   "echo x >\"$(dirname \"$1\")/figure1.svg\"", f->dir, f->dir, f->dir);
	char *fake = fake_gnuplot(f->dir, body), *out = tps_xasprintf("%s/o.svg", f->dir);
	char *script, *data, *kept;
	struct plot_trend_series ts;
	struct plot_trend tr;
	struct plot_job *j;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		memset(&ts, 0, sizeof(ts));
		ts.label = "ours";
		ts.n = 3;
		ts.x = x;
		ts.y = y;
		ts.spoiled = pass ? NULL : sp;
		memset(&tr, 0, sizeof(tr));
		tr.model = "t";
		tr.series = &ts;
		tr.n_series = 1;
		tr.band_lo = tr.band_hi = NAN;
		j = plot_job_new();
		assert_int_equal(plot_job_trend(j, &tr, out, PLOT_SVG), 0);
		assert_int_equal(plot_job_run(j, fake, 10), 0);
		plot_job_free(j);
		kept = tps_xasprintf("%s/kept-%d/plot.gp", f->dir, pass);
		script = tps_read_file(kept, NULL);
		free(kept);
		assert_non_null(script);
		if (pass) {
			assert_null(strstr(script, "f1_sp1.dat"));
			assert_null(strstr(script, "pt 6 ps 0.6"));
			assert_null(strstr(script, "keyentry"));
			free(script);
			continue;
		}
		assert_non_null(strstr(script, "f1_sp1.dat' using 1:2 with points lc rgb 'white' pt 7"));
		assert_non_null(strstr(script, "f1_sp1.dat' using 1:2 with points lc rgb '"));
		assert_non_null(strstr(script, "' pt 6 ps 0.6 notitle"));
		/* One legend entry says what a hollow mark is. */
		assert_non_null(strstr(script, "keyentry with points lc rgb '#59636e' pt 6 ps 0.6 "
					       "title 'hollow: run not clean (spoiled or incomplete)'"));
		free(script);
		kept = tps_xasprintf("%s/kept-0/f1_sp1.dat", f->dir);
		data = tps_read_file(kept, NULL);
		free(kept);
		assert_non_null(data);
		assert_string_equal(data, "x\tspoiled\n1700000060\t50.000000\n");
		free(data);
	}
	free(out);
	free(fake);
	free(body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot_text_trend),
		cmocka_unit_test(test_plot_text_sweep),
		cmocka_unit_test(test_plot_text_parity),
		cmocka_unit_test(test_plot_quote),
		cmocka_unit_test(test_plot_field),
		cmocka_unit_test(test_plot_format),
		cmocka_unit_test_setup_teardown(test_plot_find, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_script, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_gnuplot_hostile, setup, teardown),
		cmocka_unit_test(test_plot_colours),
		cmocka_unit_test_setup_teardown(test_plot_script_colours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_trend_spoiled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_intervals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_parity_labels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_trend_build_order, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
