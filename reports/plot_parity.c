/* plot_parity.c: the parity figure: for each model one bar per engine, its delta
 * with its interval, the parity band shaded around 0, and an axis chosen so the
 * band stays visible, clipping (and counting) what lies beyond it; a line says
 * which cells have no bar because an environment finding spoiled them. */
#include "reports/plot.h"
#include "reports/plot_int.h"
#include "reports/parity.h"
#include "tpsdb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
	struct plot_text words = { 0 };
	double w, lim = 0;
	FILE *f = NULL;
	int ret = -1;

	for (e = 0; e < p->n_engines * p->n_groups; e++)
		nbars += isfinite(p->delta[e]);
	if (!nbars || !p->n_groups)
		return p->n_spoiled ? tps_error("nothing to plot: no cell has a parity delta (%zu "
						"spoiled by an environment finding)", p->n_spoiled)
				    : tps_error("nothing to plot: no cell has a parity delta");
	plot_parity_text(p, &words);
	if (plot_figure_begin(j, out, fmt, words.title) < 0) {
		plot_text_release(&words);
		return -1;
	}
	col = tps_xcalloc(p->n_engines + 1, sizeof(*col));
	plot_figure_colours(j, p->engines, p->n_engines, col);
	w = 0.8 / (double)p->n_engines;
	q = plot_quote(words.ylabel);
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
	/* A spoiled cell has no bar, and the figure says why, so that a missing bar
	 * is not read as parity. Our words and the findings' names only: no label. */
	if (p->n_spoiled) {
		char env[160], *note;

		parity_env_names(p->spoiled_env, env, sizeof(env));
		note = tps_xasprintf("no bar: %zu spoiled cell%s (%s while an instance it used "
				     "measured): not an answer", p->n_spoiled,
				     p->n_spoiled == 1 ? "" : "s", env);
		q = plot_quote(note);
		free(note);
		fprintf(j->gp, "set label 2 %s at graph 0.01, graph 0.93 left front font ',8'\n", q);
		free(q);
		q = NULL;
	}
	if (!(f = plot_data_open(j, "groups", &path)))
		goto out;
	for (g = 0; g < p->n_groups; g++) {
		fprintf(f, "%zu", g);
		plot_put_field(f, "\t", p->groups[g]);
		fputc('\n', f);
	}
	q = plot_data_finish(f, &path);
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
		if (!(f = plot_data_open(j, name, &path)))
			goto out;
		plot_put_field(f, "x\t", words.legend[e]);
		fprintf(f, "\tlo\thi\n");
		for (g = 0; g < p->n_groups; g++) {
			size_t i = e * p->n_groups + g;
			size_t dummy = 0;

			fprintf(f, "%zu", g);
			plot_put_num(f, clip(p->delta[i], lim, &dummy));
			plot_put_num(f, clip(p->lo ? p->lo[i] : NAN, lim, &dummy));
			plot_put_num(f, clip(p->hi ? p->hi[i] : NAN, lim, &dummy));
			fputc('\n', f);
		}
		q = plot_data_finish(f, &path);
		f = NULL;
		if (!q)
			goto out;
		fprintf(j->gp, ", \\\n     %s using ($1%+.6f):2 with boxes fc rgb '%s' title "
			"columnheader(2), \\\n     %s using ($1%+.6f):2:3:4 with yerrorbars lt -1 "
			"pt 0 notitle", q, off, plot_colour(col[e]), q, off);
		free(q);
		q = NULL;
	}
	ret = 0;
out:
	plot_text_release(&words);
	return plot_figure_finish(j, ret, f, path, q, NULL, col);
}
