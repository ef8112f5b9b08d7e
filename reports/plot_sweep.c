/* plot_sweep.c: the speculative-decoding sweep figure: decode tok/s (solid, left
 * axis, with each rung's interval as error bars) and acceptance (dashed, right
 * axis) by n_max, one colour per engine. */
#include "reports/plot.h"
#include "reports/plot_int.h"
#include "tpsdb.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int plot_job_sweep(struct plot_job *j, const struct plot_sweep *sw, const char *out,
		   enum plot_format fmt)
{
	char *path = NULL, *q = NULL;
	int64_t xmax = 1;
	size_t i, k, npts = 0, n_ci = 0, *col = NULL;
	const char **keys = NULL;
	struct plot_text w;
	FILE *f = NULL;
	int ret = -1, rc;

	for (i = 0; i < sw->n_series; i++) {
		npts += sw->series[i].n;
		for (k = 0; k < sw->series[i].n; k++)
			xmax = sw->series[i].n_max[k] > xmax ? sw->series[i].n_max[k] : xmax;
	}
	if (!npts)
		return tps_error("nothing to plot: no speculative rungs");
	plot_sweep_text(sw, &w);
	rc = plot_figure_begin(j, out, fmt, w.title);
	plot_text_release(&w);
	if (rc < 0)
		return -1;
	keys = tps_xcalloc(sw->n_series + 1, sizeof(*keys));
	col = tps_xcalloc(sw->n_series + 1, sizeof(*col));
	for (i = 0; i < sw->n_series; i++)
		keys[i] = sw->series[i].key ? sw->series[i].key : sw->series[i].label;
	plot_figure_colours(j, keys, sw->n_series, col);
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
		if (!(f = plot_data_open(j, name, &path)))
			goto out;
		a = tps_xasprintf("%s decode tok/s", se->label ? se->label : "");
		b = tps_xasprintf("%s acceptance", se->label ? se->label : "");
		plot_put_field(f, "n_max\t", a);
		plot_put_field(f, "\t", b);
		fprintf(f, "\ttg_lo\ttg_hi\n");
		free(a);
		free(b);
		for (k = 0; k < se->n; k++) {
			fprintf(f, "%lld", (long long)se->n_max[k]);
			plot_put_num(f, se->tg[k]);
			plot_put_num(f, se->accept[k]);
			plot_put_num(f, se->tg_lo ? se->tg_lo[k] : NAN);
			plot_put_num(f, se->tg_hi ? se->tg_hi[k] : NAN);
			fputc('\n', f);
		}
		q = plot_data_finish(f, &path);
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
	ret = 0;
out:
	return plot_figure_finish(j, ret, f, path, q, keys, col);
}
