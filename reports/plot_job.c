/* plot_job.c: a plot job: its private temporary folder, the script that every
 * figure appends to, the data files a figure writes (labels only through
 * plot_field()), the settings each figure starts from and the colours the job
 * fixes for all its figures. */
#include "reports/plot.h"
#include "reports/plot_int.h"
#include "reports/strv.h"
#include "outfile.h"
#include "tpsdb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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
void plot_figure_colours(const struct plot_job *j, const char *const *keys, size_t n,
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

/* A file of the job's folder: removed by plot_job_free(), or by a fatal signal. */
void plot_job_file(struct plot_job *j, const char *path)
{
	strv_add(&j->files, &j->n_files, path);
	outfile_track(path, 0);
}

/* What follows prefix and at least one digit in name, or NULL. */
static const char *after_number(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = name + n;

	if (strncmp(name, prefix, n))
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p > name + n ? p : NULL;
}

/* A file a plot job writes in its folder: plot.gp, gnuplot.log, f<n>_<name>.dat
 * and the figures figure<n>.png or .svg before they are copied out. */
static int job_owned(const char *name)
{
	const char *p;
	size_t n;

	if (!strcmp(name, "plot.gp") || !strcmp(name, "gnuplot.log"))
		return 1;
	if ((p = after_number(name, "figure")))
		return !strcmp(p, ".png") || !strcmp(p, ".svg");
	if (!(p = after_number(name, "f")) || *p != '_')
		return 0;
	n = strlen(p);
	return n > 4 && !strcmp(p + n - 4, ".dat");
}

struct plot_job *plot_job_new(void)
{
	const char *tmp = getenv("TMPDIR");
	struct plot_job *j = tps_xcalloc(1, sizeof(*j));
	const char *parent = tmp && *tmp ? tmp : "/tmp";
	char *tmpl = tps_xasprintf("%s/tpsdb-plot.%ld.XXXXXX", parent, (long)getpid());

	/* The folder's name carries the pid, so one a SIGKILL left is known stale. */
	outfile_stale_private(parent, "tpsdb-plot.", job_owned);
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
	plot_job_file(j, j->script);
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
FILE *plot_data_open(struct plot_job *j, const char *name, char **path)
{
	FILE *f;

	*path = tps_xasprintf("%s/f%d_%s.dat", j->dir, j->figures, name);
	if (!(f = fopen(*path, "w"))) {
		tps_error("cannot write '%s': %s", *path, strerror(errno));
		free(*path);
		*path = NULL;
		return NULL;
	}
	plot_job_file(j, *path);
	return f;
}

int plot_data_close(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		return tps_error("cannot write '%s'", path);
	return 0;
}

/* Closes a finished data file and gives its path quoted for the script (heap);
 * *path is freed either way. NULL after an error line. */
char *plot_data_finish(FILE *f, char **path)
{
	char *q = plot_data_close(f, *path) < 0 ? NULL : plot_quote_path(*path);

	free(*path);
	*path = NULL;
	return q;
}

/* One label into a data file, after sep, through plot_field(). */
void plot_put_field(FILE *f, const char *sep, const char *label)
{
	char *lab = plot_field(label);

	fprintf(f, "%s%s", sep, lab);
	free(lab);
}

void plot_put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "\t%.6f", v);
	else
		fputs("\tNaN", f);
}

/* The settings every figure starts from: reset, tab-separated data without
 * comment characters (a label may start with '#'), the terminal and the output. */
int plot_figure_begin(struct plot_job *j, const char *out, enum plot_format fmt,
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
	plot_job_file(j, src);
	qo = plot_quote_path(src);
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

int plot_figure_finish(struct plot_job *j, int ret, FILE *f, char *path, char *q,
		       const char **keys, size_t *col)
{
	if (ret == 0)
		fprintf(j->gp, "\nunset output\n");
	if (f)
		fclose(f);
	free(keys);
	free(col);
	free(path);
	free(q);
	return ret;
}
