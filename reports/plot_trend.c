/* plot_trend.c: the trend figure: one line per engine over run start time, its
 * change points as dashed lines labelled with their change, and the baseline band
 * or each segment's own band shaded behind. */
#include "reports/plot.h"
#include "reports/plot_int.h"
#include "tpsdb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
	char *q = NULL, **paths = NULL, **cps = NULL, **sps = NULL, *band = NULL;
	double xmin = INFINITY, xmax = -INFINITY, step;
	size_t i, k, npts = 0, *col = NULL;
	const char **keys = NULL;
	struct plot_text w = { 0 };
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
	plot_trend_text(t, &w);
	if (plot_figure_begin(j, out, fmt, w.title) < 0) {
		plot_text_release(&w);
		return -1;
	}
	paths = tps_xcalloc(t->n_series, sizeof(*paths));
	cps = tps_xcalloc(t->n_series, sizeof(*cps));
	sps = tps_xcalloc(t->n_series, sizeof(*sps));
	keys = tps_xcalloc(t->n_series + 1, sizeof(*keys));
	col = tps_xcalloc(t->n_series + 1, sizeof(*col));
	for (i = 0; i < t->n_series; i++)
		keys[i] = t->series[i].key ? t->series[i].key : t->series[i].label;
	plot_figure_colours(j, keys, t->n_series, col);
	for (i = 0; i < t->n_series; i++) {
		const struct plot_trend_series *se = &t->series[i];
		char name[32];
		snprintf(name, sizeof(name), "s%zu", i + 1);
		if (!(f = plot_data_open(j, name, &paths[i])))
			goto out;
		plot_put_field(f, "x\t", se->label);
		fputc('\n', f);
		for (k = 0; k < se->n; k++) {
			/* A history in build order may step back in time (a build
			 * first seen earlier measured again later): the line breaks
			 * there (a blank line) rather than run back across the axis. */
			if (k && se->x[k] < se->x[k - 1])
				fputc('\n', f);
			fprintf(f, "%.0f", se->x[k]);
			plot_put_num(f, se->y[k]);
			fputc('\n', f);
		}
		rc = plot_data_close(f, paths[i]);
		f = NULL;
		if (rc < 0)
			goto out;
		if (se->spoiled) {
			/* The runs that are not clean, drawn again hollow over the line. */
			snprintf(name, sizeof(name), "sp%zu", i + 1);
			if (!(f = plot_data_open(j, name, &sps[i])))
				goto out;
			fprintf(f, "x\tspoiled\n");
			for (k = 0; k < se->n; k++) {
				if (!se->spoiled[k])
					continue;
				fprintf(f, "%.0f", se->x[k]);
				plot_put_num(f, se->y[k]);
				fputc('\n', f);
			}
			rc = plot_data_close(f, sps[i]);
			f = NULL;
			if (rc < 0)
				goto out;
		}
		if (!se->n_cp)
			continue;
		snprintf(name, sizeof(name), "cp%zu", i + 1);
		if (!(f = plot_data_open(j, name, &cps[i])))
			goto out;
		fprintf(f, "x\tchange\n");
		for (k = 0; k < se->n_cp; k++) {
			size_t at = se->cp[k];
			char pct[32];
			if (at >= se->n)
				continue;
			fprintf(f, "%.0f", se->x[at]);
			plot_put_num(f, se->y[at]);
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
		rc = plot_data_close(f, cps[i]);
		f = NULL;
		if (rc < 0)
			goto out;
	}
	if (isfinite(t->band_lo) && isfinite(t->band_hi)) {
		if (!(f = plot_data_open(j, "band", &band)))
			goto out;
		plot_put_field(f, "x\t", w.band);
		fprintf(f, "\thi\n");
		fprintf(f, "%.0f\t%.6f\t%.6f\n%.0f\t%.6f\t%.6f\n", xmin, t->band_lo, t->band_hi,
			xmax, t->band_lo, t->band_hi);
		rc = plot_data_close(f, band);
		f = NULL;
		if (rc < 0)
			goto out;
	} else if (t->n_bands) {
		/* One block per band, a blank line apart: filledcurves draws each over
		 * its own x range only, never across a change point. */
		if (!(f = plot_data_open(j, "band", &band)))
			goto out;
		plot_put_field(f, "x\t", w.band);
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
		rc = plot_data_close(f, band);
		f = NULL;
		if (rc < 0)
			goto out;
	}
	q = plot_quote(w.ylabel);
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
		q = plot_quote_path(band);
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
		q = plot_quote_path(paths[i]);
		fprintf(j->gp, "%s%s using 1:2 with linespoints lc rgb '%s' lw 1.5 pt 7 ps 0.6 "
			"title columnheader(2)", first ? "" : ", \\\n     ", q, plot_colour(col[i]));
		free(q);
		q = NULL;
		first = 0;
		if (sps[i]) {
			/* hollow: a white disc, then an open circle (point type 6) */
			q = plot_quote_path(sps[i]);
			fprintf(j->gp, ", \\\n     %s using 1:2 with points lc rgb 'white' pt 7 ps 0.6 "
				"notitle, \\\n     %s using 1:2 with points lc rgb '%s' pt 6 ps 0.6 "
				"notitle", q, q, plot_colour(col[i]));
			free(q);
			q = NULL;
		}
		if (cps[i]) {
			q = plot_quote_path(cps[i]);
			fprintf(j->gp, ", \\\n     %s using 1:2 with points lc rgb '%s' pt 6 ps 2.2 "
				"notitle", q, plot_colour(col[i]));
			free(q);
			q = NULL;
		}
	}
	if (w.hollow) {
		/* One legend entry for every series' hollow marks, in a neutral grey. */
		q = plot_quote(w.hollow);
		fprintf(j->gp, ", \\\n     keyentry with points lc rgb '#59636e' pt 6 ps 0.6 "
			"title %s", q);
		free(q);
		q = NULL;
	}
	ret = 0;
out:
	for (i = 0; i < t->n_series; i++) {
		free(paths[i]);
		free(cps[i]);
		free(sps[i]);
	}
	free(paths);
	free(cps);
	free(sps);
	plot_text_release(&w);
	return plot_figure_finish(j, ret, f, band, q, keys, col);
}
