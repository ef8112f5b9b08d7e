/* report_figure.h: the one figure of 'tpsdb plot', drawn from the study's figure
 * data (analyze/study.h) into one PNG or SVG file: the same plot.h path the
 * report's figures take. */
#ifndef REPORTS_REPORT_FIGURE_H
#define REPORTS_REPORT_FIGURE_H

#include "analyze/figure.h"
#include "reports/plot.h"

/* One figure: exactly one of trend, sweep and parity is set. With a trend,
 * no_band names the model whose baseline held no run (study_trend()), for the
 * warning; NULL: none. */
struct report_figure {
	const struct plot_trend *trend;
	const struct plot_sweep *sweep;
	const struct plot_parity *parity;
	const char *baseline, *no_band;
};

/* Draws f into out in fmt with gnuplot (the executable from plot_find_gnuplot())
 * and prints "wrote <out>". 0 ok, -1 after an error line. */
int report_figure_write(const char *gnuplot, const struct report_figure *f, const char *out,
			enum plot_format fmt);

#endif
