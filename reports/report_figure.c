/* report_figure.c: 'tpsdb plot' draws its one figure here, through a plot job of
 * one figure, after warning that a named baseline gave the trend no band. */
#include "reports/report_figure.h"
#include "tpsdb.h"

#include <stdio.h>

int report_figure_write(const char *gnuplot, const struct report_figure *f, const char *out,
			enum plot_format fmt)
{
	struct plot_job *j = NULL;
	int ret = -1;

	if (f->trend && f->no_band)
		tps_warning("baseline '%s' holds no run of '%s' in this config: no band",
			    f->baseline, f->no_band);
	if (!(j = plot_job_new()))
		goto out;
	if (f->trend ? plot_job_trend(j, f->trend, out, fmt) < 0 :
	    f->sweep ? plot_job_sweep(j, f->sweep, out, fmt) < 0 :
	    plot_job_parity(j, f->parity, out, fmt) < 0)
		goto out;
	if (plot_job_run(j, gnuplot, PLOT_TIMEOUT_S) < 0)
		goto out;
	printf("wrote %s\n", out);
	ret = 0;
out:
	plot_job_free(j);
	return ret;
}
