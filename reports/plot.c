/* plot.c: gnuplot scripts and data files for the trend, sweep and parity figures,
 * and plot_exec(), the one function that runs gnuplot. Nothing user-supplied is
 * ever written into the script except through plot_quote() (paths through
 * quote_path()); labels go into the data files through plot_field() and are read
 * back with columnheader and xtic. */
#include "reports/plot.h"
#include "escape.h"
#include "reports/strv.h"
#include "reports/tail.h"
#include "outfile.h"
#include "tpsdb.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct plot_job {
	char *dir;      /* the private temporary folder */
	char *script;   /* <dir>/plot.gp */
	FILE *gp;       /* the script, open for appending figures */
	char **files;   /* everything created in dir, removed by plot_job_free() */
	size_t n_files;
	char **outs;    /* the user's paths of the figures */
	size_t n_outs;
	char **srcs;    /* where gnuplot draws each, in dir; copied to outs[] */
	size_t n_srcs;
	int figures;    /* figures added, numbers the data files */
	char **keys;    /* plot_job_keys(): the colour of each, for every figure */
	size_t n_keys;
	size_t *key_col;
};

int plot_format_of(const char *path, enum plot_format *fmt)
{
	size_t n = strlen(path);

	if (n > 4 && !strcasecmp(path + n - 4, ".png")) {
		*fmt = PLOT_PNG;
		return 0;
	}
	if (n > 4 && !strcasecmp(path + n - 4, ".svg")) {
		*fmt = PLOT_SVG;
		return 0;
	}
	return -1;
}

char *plot_find_gnuplot(void)
{
	const char *path = getenv("PATH"), *p, *end;

	if (!path || !*path)
		return NULL;
	for (p = path; *p; p = *end ? end + 1 : end) {
		char *cand;
		struct stat st;
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			continue; /* an empty entry means ".", which a tool should not trust */
		cand = tps_xasprintf("%.*s/gnuplot", (int)(end - p), p);
		if (!stat(cand, &st) && S_ISREG(st.st_mode) && !access(cand, X_OK))
			return cand;
		free(cand);
	}
	return NULL;
}

/* matplotlib's tab10: saturated enough for thin lines on white and on paper. */
static const char *const palette[PLOT_N_COLOURS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
};

const char *plot_colour(size_t i)
{
	return palette[i % PLOT_N_COLOURS];
}

static size_t key_hash(const char *key)
{
	uint32_t h = 2166136261u;
	const unsigned char *p;

	for (p = (const unsigned char *)(key ? key : ""); *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	return h % PLOT_N_COLOURS;
}

void plot_colours(const char *const *keys, size_t n, size_t *out)
{
	size_t *ord = tps_xcalloc(n ? n : 1, sizeof(*ord)), i, j, k;
	unsigned char used[PLOT_N_COLOURS] = { 0 };

	/* Keys in byte order, so that the series' order in a figure cannot change
	 * who wins a shared entry. */
	for (i = 0; i < n; i++) {
		size_t x = i;
		for (j = i; j > 0 && strcmp(keys[x] ? keys[x] : "",
					    keys[ord[j - 1]] ? keys[ord[j - 1]] : "") < 0; j--)
			ord[j] = ord[j - 1];
		ord[j] = x;
	}
	for (i = 0; i < n; i++) {
		size_t x = ord[i], c;
		const char *kx = keys[x] ? keys[x] : "";
		if (i && !strcmp(kx, keys[ord[i - 1]] ? keys[ord[i - 1]] : "")) {
			out[x] = out[ord[i - 1]];
			continue;
		}
		c = key_hash(kx);
		for (k = 0; k < PLOT_N_COLOURS && used[(c + k) % PLOT_N_COLOURS]; k++)
			;
		c = k < PLOT_N_COLOURS ? (c + k) % PLOT_N_COLOURS : c;
		used[c] = 1;
		out[x] = c;
	}
	free(ord);
}

void plot_job_keys(struct plot_job *j, const char *const *keys, size_t n)
{
	size_t i;

	strv_free(j->keys, j->n_keys);
	free(j->key_col);
	j->keys = NULL;
	j->n_keys = 0;
	for (i = 0; i < n; i++)
		strv_add(&j->keys, &j->n_keys, keys[i] ? keys[i] : "");
	j->key_col = tps_xcalloc(n ? n : 1, sizeof(*j->key_col));
	plot_colours((const char *const *)j->keys, j->n_keys, j->key_col);
}

/* The colours of one figure's keys: the job's when it knows every one, else the
 * figure's own plot_colours(). */
static void figure_colours(const struct plot_job *j, const char *const *keys, size_t n,
			   size_t *out)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < j->n_keys && strcmp(j->keys[k], keys[i] ? keys[i] : ""); k++)
			;
		if (k == j->n_keys)
			break;
		out[i] = j->key_col[k];
	}
	if (i < n)
		plot_colours(keys, n, out);
}

/* A copy of s with control characters (C0, DEL, C1) as spaces and, for a script
 * string, each quote doubled, or, for a data field (field 1), each '"' as two
 * single quotes; at most max UTF-8 code points, a cut one ending in "...". A byte
 * that is not UTF-8 becomes U+FFFD and "]]>" becomes "]] >": gnuplot's SVG
 * terminal writes text into CDATA sections of an XML file, which either would
 * break. */
static char *clean(const char *s, size_t max, int field)
{
	size_t n = strlen(s ? s : ""), i = 0, cp = 0, len;
	char *q = tps_xmalloc(3 * n + 8);
	const char *p;
	unsigned c;

	for (p = s ? s : ""; *p; p += len ? len : 1) {
		len = escape_utf8_seq(p, &c);
		if (cp++ == max) {
			memcpy(q + i, "...", 3);
			i += 3;
			break;
		}
		if (!len) {
			memcpy(q + i, "\xef\xbf\xbd", 3);
			i += 3;
		} else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
			q[i++] = ' ';
		} else if (c == '\'' && !field) {
			q[i++] = '\'';
			q[i++] = '\'';
		} else if (c == '"' && field) {
			q[i++] = '\'';
			q[i++] = '\'';
		} else if (!strncmp(p, "]]>", 3)) {
			memcpy(q + i, "]] >", 4);
			i += 4;
			len = 3;
			cp += 2;
		} else {
			memcpy(q + i, p, len);
			i += len;
		}
	}
	q[i] = '\0';
	return q;
}

char *plot_quote(const char *s)
{
	char *in = clean(s, PLOT_TEXT_MAX, 0), *q = tps_xasprintf("'%s'", in);

	free(in);
	return q;
}

/* A path (ours, or --out with no control character) is never cut. */
static char *quote_path(const char *path)
{
	char *in = clean(path, SIZE_MAX, 0), *q = tps_xasprintf("'%s'", in);

	free(in);
	return q;
}

char *plot_field(const char *s)
{
	if (!s || !*s)
		return tps_xstrdup("-");
	return clean(s, PLOT_LABEL_MAX, 1);
}

/* A file of the job's folder: removed by plot_job_free(), or by a fatal signal. */
static void job_file(struct plot_job *j, const char *path)
{
	strv_add(&j->files, &j->n_files, path);
	outfile_track(path, 0);
}

struct plot_job *plot_job_new(void)
{
	const char *tmp = getenv("TMPDIR");
	struct plot_job *j = tps_xcalloc(1, sizeof(*j));
	char *tmpl = tps_xasprintf("%s/tpsdb-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");

	if (!mkdtemp(tmpl)) {
		tps_error("cannot make a temporary folder '%s': %s", tmpl, strerror(errno));
		free(tmpl);
		free(j);
		return NULL;
	}
	j->dir = tmpl;
	outfile_track(j->dir, 1);
	j->script = tps_xasprintf("%s/plot.gp", j->dir);
	if (!(j->gp = fopen(j->script, "w"))) {
		tps_error("cannot write '%s': %s", j->script, strerror(errno));
		plot_job_free(j);
		return NULL;
	}
	job_file(j, j->script);
	return j;
}

void plot_job_free(struct plot_job *j)
{
	size_t i;

	if (!j)
		return;
	if (j->gp)
		fclose(j->gp);
	for (i = 0; i < j->n_files; i++) {
		unlink(j->files[i]);
		outfile_untrack(j->files[i]);
	}
	if (j->dir) {
		rmdir(j->dir);
		outfile_untrack(j->dir);
	}
	strv_free(j->files, j->n_files);
	strv_free(j->outs, j->n_outs);
	strv_free(j->srcs, j->n_srcs);
	strv_free(j->keys, j->n_keys);
	free(j->key_col);
	free(j->script);
	free(j->dir);
	free(j);
}

/* Opens a new data file of the current figure; its path (heap) in *path. */
static FILE *data_open(struct plot_job *j, const char *name, char **path)
{
	FILE *f;

	*path = tps_xasprintf("%s/f%d_%s.dat", j->dir, j->figures, name);
	if (!(f = fopen(*path, "w"))) {
		tps_error("cannot write '%s': %s", *path, strerror(errno));
		free(*path);
		*path = NULL;
		return NULL;
	}
	job_file(j, *path);
	return f;
}

static int data_close(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		return tps_error("cannot write '%s'", path);
	return 0;
}

/* Closes a finished data file and gives its path quoted for the script (heap);
 * *path is freed either way. NULL after an error line. */
static char *data_finish(FILE *f, char **path)
{
	char *q = data_close(f, *path) < 0 ? NULL : quote_path(*path);

	free(*path);
	*path = NULL;
	return q;
}

/* One label into a data file, after sep, through plot_field(). */
static void put_field(FILE *f, const char *sep, const char *label)
{
	char *lab = plot_field(label);

	fprintf(f, "%s%s", sep, lab);
	free(lab);
}

static void put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "\t%.6f", v);
	else
		fputs("\tNaN", f);
}

/* The settings every figure starts from: reset, tab-separated data without
 * comment characters (a label may start with '#'), the terminal and the output. */
static int figure_begin(struct plot_job *j, const char *out, enum plot_format fmt,
			const char *title)
{
	char *qo, *qt, *src;
	const char *p;

	for (p = out; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return tps_error("cannot plot to '%s': the name holds a control character",
					 out);
	}
	j->figures++;
	/* gnuplot draws into the job's folder; plot_job_run() hands the figure to
	 * the user's path through outfile_copy(), like every other output. */
	src = tps_xasprintf("%s/figure%d.%s", j->dir, j->figures, fmt == PLOT_PNG ? "png" : "svg");
	job_file(j, src);
	qo = quote_path(src);
	qt = plot_quote(title);
	fprintf(j->gp, "reset\n");
	fprintf(j->gp, "set datafile separator \"\\t\"\n");
	fprintf(j->gp, "set datafile commentschars \"\"\n");
	if (fmt == PLOT_PNG)
		fprintf(j->gp, "if (strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0) "
			"{ set terminal pngcairo noenhanced size 1000,600 font 'sans,10' } "
			"else { set terminal png noenhanced size 1000,600 }\n");
	else
		fprintf(j->gp, "set terminal svg noenhanced size 1000,600 font 'sans,10' "
			"background '#ffffff'\n");
	fprintf(j->gp, "set output %s\n", qo);
	fprintf(j->gp, "set title %s\n", qt);
	/* Under the plot, in rows: the legend never takes the plot's width. */
	fprintf(j->gp, "set key outside below center horizontal samplen 2 spacing 1.1\n");
	fprintf(j->gp, "set grid ytics\n");
	strv_add(&j->outs, &j->n_outs, out);
	strv_add(&j->srcs, &j->n_srcs, src);
	free(src);
	free(qo);
	free(qt);
	return 0;
}

static void figure_end(struct plot_job *j)
{
	fprintf(j->gp, "unset output\n");
}

/* A tick interval that puts at most eight labels on a time axis of span seconds. */
static double tick_step(double span)
{
	static const double steps[] = {
		60, 300, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400,
		7 * 86400, 14 * 86400, 30 * 86400, 91 * 86400, 182 * 86400, 365 * 86400,
	};
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (span / steps[i] <= 8)
			return steps[i];
	}
	return span / 8;
}

int plot_job_trend(struct plot_job *j, const struct plot_trend *t, const char *out,
		   enum plot_format fmt)
{
	char *q = NULL, **paths = NULL, **cps = NULL, *band = NULL;
	double xmin = INFINITY, xmax = -INFINITY, step;
	size_t i, k, npts = 0, *col = NULL;
	const char **keys = NULL;
	FILE *f = NULL;
	int rc, ret = -1, first = 1;

	for (i = 0; i < t->n_series; i++) {
		for (k = 0; k < t->series[i].n; k++) {
			double x = t->series[i].x[k];
			npts++;
			xmin = x < xmin ? x : xmin;
			xmax = x > xmax ? x : xmax;
		}
	}
	if (!npts)
		return tps_error("nothing to plot: no runs in the trend");
	if (xmax - xmin < 1) {
		xmin -= 3600;
		xmax += 3600;
	}
	if (figure_begin(j, out, fmt, t->title) < 0)
		return -1;
	paths = tps_xcalloc(t->n_series, sizeof(*paths));
	cps = tps_xcalloc(t->n_series, sizeof(*cps));
	keys = tps_xcalloc(t->n_series + 1, sizeof(*keys));
	col = tps_xcalloc(t->n_series + 1, sizeof(*col));
	for (i = 0; i < t->n_series; i++)
		keys[i] = t->series[i].key ? t->series[i].key : t->series[i].label;
	figure_colours(j, keys, t->n_series, col);
	for (i = 0; i < t->n_series; i++) {
		const struct plot_trend_series *se = &t->series[i];
		char name[32];
		snprintf(name, sizeof(name), "s%zu", i + 1);
		if (!(f = data_open(j, name, &paths[i])))
			goto out;
		put_field(f, "x\t", se->label);
		fputc('\n', f);
		for (k = 0; k < se->n; k++) {
			fprintf(f, "%.0f", se->x[k]);
			put_num(f, se->y[k]);
			fputc('\n', f);
		}
		rc = data_close(f, paths[i]);
		f = NULL;
		if (rc < 0)
			goto out;
		if (!se->n_cp)
			continue;
		snprintf(name, sizeof(name), "cp%zu", i + 1);
		if (!(f = data_open(j, name, &cps[i])))
			goto out;
		fprintf(f, "x\tchange\n");
		for (k = 0; k < se->n_cp; k++) {
			size_t at = se->cp[k];
			char pct[32];
			if (at >= se->n)
				continue;
			fprintf(f, "%.0f", se->x[at]);
			put_num(f, se->y[at]);
			fputc('\n', f);
			snprintf(pct, sizeof(pct), "%+.1f%%", se->cp_pct[k]);
			q = plot_quote(pct);
			fprintf(j->gp, "set arrow from %.0f, graph 0 to %.0f, graph 1 nohead dt 2 "
				"lw 1.5 lc rgb '%s'\n", se->x[at], se->x[at], plot_colour(col[i]));
			fprintf(j->gp, "set label %s at %.0f, graph 0.97 left offset 0.5,0 "
				"textcolor rgb '%s'\n", q, se->x[at], plot_colour(col[i]));
			free(q);
			q = NULL;
		}
		rc = data_close(f, cps[i]);
		f = NULL;
		if (rc < 0)
			goto out;
	}
	if (isfinite(t->band_lo) && isfinite(t->band_hi)) {
		if (!(f = data_open(j, "band", &band)))
			goto out;
		put_field(f, "x\t", t->band_label);
		fprintf(f, "\thi\n");
		fprintf(f, "%.0f\t%.6f\t%.6f\n%.0f\t%.6f\t%.6f\n", xmin, t->band_lo, t->band_hi,
			xmax, t->band_lo, t->band_hi);
		rc = data_close(f, band);
		f = NULL;
		if (rc < 0)
			goto out;
	} else if (t->n_bands) {
		/* One block per band, a blank line apart: filledcurves draws each over
		 * its own x range only, never across a change point. */
		if (!(f = data_open(j, "band", &band)))
			goto out;
		put_field(f, "x\t", t->band_label);
		fprintf(f, "\thi\n");
		for (k = 0; k < t->n_bands; k++) {
			const struct plot_band *b = &t->bands[k];
			double x0 = b->x0, x1 = b->x1;
			if (x1 - x0 < 1) {
				/* a segment of one run: a sliver, wide enough to see */
				x0 -= (xmax - xmin) * 0.01;
				x1 += (xmax - xmin) * 0.01;
			}
			fprintf(f, "%s%.0f\t%.6f\t%.6f\n%.0f\t%.6f\t%.6f\n", k ? "\n\n" : "",
				x0, b->lo, b->hi, x1, b->lo, b->hi);
		}
		rc = data_close(f, band);
		f = NULL;
		if (rc < 0)
			goto out;
	}
	q = plot_quote(t->ylabel);
	fprintf(j->gp, "set ylabel %s\n", q);
	free(q);
	q = NULL;
	fprintf(j->gp, "set xlabel 'run start (date, UTC)'\n");
	fprintf(j->gp, "set offsets 0, 0, graph 0.05, graph 0.05\n");
	fprintf(j->gp, "set xdata time\nset timefmt '%%s'\n");
	step = tick_step(xmax - xmin);
	fprintf(j->gp, "set xtics %.0f\n", step);
	if (step < 86400)
		fprintf(j->gp, "set format x \"%%m-%%d\\n%%H:%%M\"\n");
	else
		fprintf(j->gp, "set format x \"%%Y-%%m-%%d\"\n");
	fprintf(j->gp, "set xrange [%.0f:%.0f]\n", xmin - (xmax - xmin) * 0.03,
		xmax + (xmax - xmin) * 0.03);
	fprintf(j->gp, "plot ");
	if (band) {
		q = quote_path(band);
		fprintf(j->gp, "%s index 0 using 1:2:3 with filledcurves fc rgb '#dbe6f3' "
			"fs solid 1.0 noborder title columnheader(2)", q);
		if (!isfinite(t->band_lo))
			for (k = 1; k < t->n_bands; k++)
				fprintf(j->gp, ", \\\n     %s index %zu using 1:2:3 with filledcurves "
					"fc rgb '#dbe6f3' fs solid 1.0 noborder notitle", q, k);
		free(q);
		q = NULL;
		first = 0;
	}
	for (i = 0; i < t->n_series; i++) {
		q = quote_path(paths[i]);
		fprintf(j->gp, "%s%s using 1:2 with linespoints lc rgb '%s' lw 1.5 pt 7 ps 0.6 "
			"title columnheader(2)", first ? "" : ", \\\n     ", q, plot_colour(col[i]));
		free(q);
		q = NULL;
		first = 0;
		if (cps[i]) {
			q = quote_path(cps[i]);
			fprintf(j->gp, ", \\\n     %s using 1:2 with points lc rgb '%s' pt 6 ps 2.2 "
				"notitle", q, plot_colour(col[i]));
			free(q);
			q = NULL;
		}
	}
	fprintf(j->gp, "\n");
	figure_end(j);
	ret = 0;
out:
	if (f)
		fclose(f);
	for (i = 0; i < t->n_series; i++) {
		free(paths[i]);
		free(cps[i]);
	}
	free(paths);
	free(cps);
	free(keys);
	free(col);
	free(band);
	free(q);
	return ret;
}

int plot_job_sweep(struct plot_job *j, const struct plot_sweep *sw, const char *out,
		   enum plot_format fmt)
{
	char *path = NULL, *q = NULL;
	int64_t xmax = 1;
	size_t i, k, npts = 0, n_ci = 0, *col = NULL;
	const char **keys = NULL;
	FILE *f = NULL;
	int ret = -1;

	for (i = 0; i < sw->n_series; i++) {
		npts += sw->series[i].n;
		for (k = 0; k < sw->series[i].n; k++)
			xmax = sw->series[i].n_max[k] > xmax ? sw->series[i].n_max[k] : xmax;
	}
	if (!npts)
		return tps_error("nothing to plot: no speculative rungs");
	if (figure_begin(j, out, fmt, sw->title) < 0)
		return -1;
	keys = tps_xcalloc(sw->n_series + 1, sizeof(*keys));
	col = tps_xcalloc(sw->n_series + 1, sizeof(*col));
	for (i = 0; i < sw->n_series; i++)
		keys[i] = sw->series[i].key ? sw->series[i].key : sw->series[i].label;
	figure_colours(j, keys, sw->n_series, col);
	fprintf(j->gp, "set xlabel 'n_max (draft tokens per step; base = no drafting)'\n");
	fprintf(j->gp, "set ylabel 'decode tok/s (solid)'\n");
	fprintf(j->gp, "set y2label 'acceptance, accepted / drafted tokens (dashed)'\n");
	fprintf(j->gp, "set ytics nomirror\nset y2tics 0.1\nset y2range [0:1]\n");
	fprintf(j->gp, "set yrange [0:*]\nset xrange [-0.3:%lld.3]\n", (long long)xmax);
	fprintf(j->gp, "set xtics 1\nset xtics add ('base' 0)\n");
	for (i = 0; i < sw->n_series; i++)
		for (k = 0; sw->series[i].tg_lo && sw->series[i].tg_hi && k < sw->series[i].n; k++)
			n_ci += isfinite(sw->series[i].tg_lo[k]) && isfinite(sw->series[i].tg_hi[k]);
	/* Say what the bars are, and when there are none, why. */
	fprintf(j->gp, "set label 1 '%s' at graph 0.01, graph 0.97 left front font ',8'\n",
		n_ci ? "bars: 95% interval of each rung, decode tok/s over its runs" :
		       "no intervals: one run a rung");
	fprintf(j->gp, "plot ");
	for (i = 0; i < sw->n_series; i++) {
		const struct plot_sweep_series *se = &sw->series[i];
		char name[32], *a, *b;
		snprintf(name, sizeof(name), "s%zu", i + 1);
		if (!(f = data_open(j, name, &path)))
			goto out;
		a = tps_xasprintf("%s decode tok/s", se->label ? se->label : "");
		b = tps_xasprintf("%s acceptance", se->label ? se->label : "");
		put_field(f, "n_max\t", a);
		put_field(f, "\t", b);
		fprintf(f, "\ttg_lo\ttg_hi\n");
		free(a);
		free(b);
		for (k = 0; k < se->n; k++) {
			fprintf(f, "%lld", (long long)se->n_max[k]);
			put_num(f, se->tg[k]);
			put_num(f, se->accept[k]);
			put_num(f, se->tg_lo ? se->tg_lo[k] : NAN);
			put_num(f, se->tg_hi ? se->tg_hi[k] : NAN);
			fputc('\n', f);
		}
		q = data_finish(f, &path);
		f = NULL;
		if (!q)
			goto out;
		fprintf(j->gp, "%s%s using 1:2 axes x1y1 with linespoints lc rgb '%s' lw 2 pt 7 "
			"title columnheader(2), \\\n     %s using 1:3 axes x1y2 with linespoints "
			"lc rgb '%s' lw 1.5 dt 2 pt 6 title columnheader(3)", i ? ", \\\n     " : "",
			q, plot_colour(col[i]), q, plot_colour(col[i]));
		if (n_ci)
			fprintf(j->gp, ", \\\n     %s using 1:2:4:5 axes x1y1 with yerrorbars "
				"lc rgb '%s' lw 1.5 pt 7 ps 0.5 notitle", q, plot_colour(col[i]));
		free(q);
		q = NULL;
	}
	fprintf(j->gp, "\n");
	figure_end(j);
	ret = 0;
out:
	if (f)
		fclose(f);
	free(keys);
	free(col);
	free(path);
	free(q);
	return ret;
}

double plot_parity_limit(const struct plot_parity *p)
{
	double band = p->band_pct > 0 ? p->band_pct : 1, maxd = 0, lim;
	size_t i;

	for (i = 0; i < p->n_engines * p->n_groups; i++)
		if (isfinite(p->delta[i]) && fabs(p->delta[i]) > maxd)
			maxd = fabs(p->delta[i]);
	/* The bars decide the axis, never the intervals; and the band stays at least
	 * a twenty-fifth of it, so it can be seen. */
	lim = fmax(5 * band, 1.2 * maxd);
	return fmin(lim, 25 * band);
}

/* v clipped into [-lim, lim], counting in *n a finite v that was outside. */
static double clip(double v, double lim, size_t *n)
{
	if (!isfinite(v))
		return v;
	if (v > lim || v < -lim) {
		(*n)++;
		return v > lim ? lim : -lim;
	}
	return v;
}

int plot_job_parity(struct plot_job *j, const struct plot_parity *p, const char *out,
		    enum plot_format fmt)
{
	char *path = NULL, *q = NULL;
	size_t e, g, nbars = 0, n_clipped = 0, *col = NULL;
	double w, lim = 0;
	FILE *f = NULL;
	int ret = -1;

	for (e = 0; e < p->n_engines * p->n_groups; e++)
		nbars += isfinite(p->delta[e]);
	if (!nbars || !p->n_groups)
		return tps_error("nothing to plot: no cell has a parity delta");
	if (figure_begin(j, out, fmt, p->title) < 0)
		return -1;
	col = tps_xcalloc(p->n_engines + 1, sizeof(*col));
	figure_colours(j, p->engines, p->n_engines, col);
	w = 0.8 / (double)p->n_engines;
	q = plot_quote(p->ylabel);
	fprintf(j->gp, "set ylabel %s\n", q);
	free(q);
	q = NULL;
	fprintf(j->gp, "set object 1 rectangle from graph 0, first %.6f to graph 1, first %.6f "
		"fc rgb '#e4e4e4' fs solid 1.0 noborder behind\n", -p->band_pct, p->band_pct);
	fprintf(j->gp, "set xzeroaxis lt -1\nset style fill solid 0.85 noborder\n");
	fprintf(j->gp, "set boxwidth %.6f absolute\n", w);
	fprintf(j->gp, "set xrange [-0.6:%.1f]\n", (double)p->n_groups - 0.4);
	fprintf(j->gp, "set xtics scale 0\nset xlabel 'model (base config)'\n");
	lim = plot_parity_limit(p);
	fprintf(j->gp, "set yrange [%.6f:%.6f]\n", -lim, lim);
	for (e = 0; e < p->n_engines * p->n_groups; e++) {
		size_t before = n_clipped;

		clip(p->delta[e], lim, &n_clipped);
		clip(p->lo ? p->lo[e] : NAN, lim, &n_clipped);
		clip(p->hi ? p->hi[e] : NAN, lim, &n_clipped);
		n_clipped = before + (n_clipped > before);
	}
	/* The figure says how its axis was chosen, so that a cut bar is not read as a
	 * short one. */
	fprintf(j->gp, "set label 1 'axis +/-%.1f%%: intervals and bars beyond it are clipped "
		"at the edge (%zu clipped); full values in the table' at graph 0.01, graph 0.97 "
		"left front font ',8'\n", lim, n_clipped);
	if (!(f = data_open(j, "groups", &path)))
		goto out;
	for (g = 0; g < p->n_groups; g++) {
		fprintf(f, "%zu", g);
		put_field(f, "\t", p->groups[g]);
		fputc('\n', f);
	}
	q = data_finish(f, &path);
	f = NULL;
	if (!q)
		goto out;
	fprintf(j->gp, "plot %s using 1:(NaN):xtic(2) notitle, \\\n     NaN with boxes "
		"fc rgb '#e4e4e4' title 'parity band +/-%.1f%%'", q, p->band_pct);
	free(q);
	q = NULL;
	for (e = 0; e < p->n_engines; e++) {
		char name[32];
		double off = -0.4 + w * ((double)e + 0.5);
		size_t bars = 0;
		for (g = 0; g < p->n_groups; g++)
			bars += isfinite(p->delta[e * p->n_groups + g]);
		if (!bars)
			continue; /* no bar: not in the legend either */
		snprintf(name, sizeof(name), "s%zu", e + 1);
		if (!(f = data_open(j, name, &path)))
			goto out;
		put_field(f, "x\t", p->engines[e]);
		fprintf(f, "\tlo\thi\n");
		for (g = 0; g < p->n_groups; g++) {
			size_t i = e * p->n_groups + g;
			size_t dummy = 0;

			fprintf(f, "%zu", g);
			put_num(f, clip(p->delta[i], lim, &dummy));
			put_num(f, clip(p->lo ? p->lo[i] : NAN, lim, &dummy));
			put_num(f, clip(p->hi ? p->hi[i] : NAN, lim, &dummy));
			fputc('\n', f);
		}
		q = data_finish(f, &path);
		f = NULL;
		if (!q)
			goto out;
		fprintf(j->gp, ", \\\n     %s using ($1%+.6f):2 with boxes fc rgb '%s' title "
			"columnheader(2), \\\n     %s using ($1%+.6f):2:3:4 with yerrorbars lt -1 "
			"pt 0 notitle", q, off, plot_colour(col[e]), q, off);
		free(q);
		q = NULL;
	}
	fprintf(j->gp, "\n");
	figure_end(j);
	ret = 0;
out:
	if (f)
		fclose(f);
	free(col);
	free(path);
	free(q);
	return ret;
}

/* The last line of gnuplot's complaints, at most 300 bytes; heap. */
static char *last_line(const char *log)
{
	char *text = tps_read_file(log, NULL), *ret = tail_line(text, 300);

	if (!*ret) {
		free(ret);
		ret = tps_xstrdup("(no output)");
	}
	free(text);
	return ret;
}

/* The one place gnuplot runs: posix_spawn (no shell) of gnuplot with the script
 * file as its only argument, stdin from /dev/null and both output streams into
 * errlog, killed after timeout_s seconds. */
static int plot_exec(const char *gnuplot, const char *script, const char *errlog, int timeout_s)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t def;
	char *argv[3];
	double start, nap = 1;
	pid_t pid;
	int rc, status = 0, ret = -1;

	argv[0] = (char *)"gnuplot";
	argv[1] = (char *)script;
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, errlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	/* outfile ignores SIGXFSZ; gnuplot gets the default back, so that a file-size
	 * limit kills it rather than leaving a cut figure that looks whole. */
	posix_spawnattr_init(&attr);
	sigemptyset(&def);
	sigaddset(&def, SIGXFSZ);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, gnuplot, &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		tps_error("cannot run '%s': %s", gnuplot, strerror(rc));
		return -1;
	}
	start = tps_mono_ms();
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			tps_error("cannot wait for gnuplot: %s", strerror(errno));
			goto out;
		}
		if (tps_mono_ms() - start > timeout_s * 1000.0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			tps_error("gnuplot did not finish within %d s: killed", timeout_s);
			goto out;
		}
		{
			struct timespec ts = { 0, (long)(nap * 1e6) };
			nanosleep(&ts, NULL);
			nap = nap < 16 ? nap * 2 : 16;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = 0;
	} else {
		char *line = last_line(errlog);
		if (WIFEXITED(status))
			tps_error("gnuplot failed (exit %d): %s", WEXITSTATUS(status), line);
		else
			tps_error("gnuplot was killed by signal %d: %s", WTERMSIG(status), line);
		free(line);
	}
out:
	return ret;
}

int plot_job_run(struct plot_job *j, const char *gnuplot, int timeout_s)
{
	char *errlog = tps_xasprintf("%s/gnuplot.log", j->dir);
	size_t i;
	int ret = -1;

	job_file(j, errlog);
	if (ferror(j->gp) | fclose(j->gp)) {
		j->gp = NULL;
		tps_error("cannot write '%s'", j->script);
		goto out;
	}
	j->gp = NULL;
	if (plot_exec(gnuplot, j->script, errlog, timeout_s) < 0)
		goto out;
	for (i = 0; i < j->n_outs; i++) {
		struct stat st;
		if (stat(j->srcs[i], &st) || st.st_size == 0) {
			tps_error("gnuplot wrote no '%s'", j->outs[i]);
			goto out;
		}
	}
	/* Only once every figure is drawn: a failure above leaves the old ones. */
	for (i = 0; i < j->n_outs; i++) {
		if (outfile_copy(j->srcs[i], j->outs[i]) < 0) {
			ret = -2; /* our write failed, not gnuplot */
			goto out;
		}
	}
	ret = 0;
out:
	free(errlog);
	return ret;
}
