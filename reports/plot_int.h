/* plot_int.h: what the files behind plot.h share and nothing else includes: the
 * job (plot_job.c) that every figure (plot_trend.c, plot_sweep.c, plot_parity.c)
 * writes its data files and script lines through, and the driver (plot.c) runs. */
#ifndef REPORTS_PLOT_INT_H
#define REPORTS_PLOT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "reports/plot.h"

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

/* A path for the script, quoted as plot_quote() does but never cut (ours, or an
 * out path without control characters); caller frees. (plot_style.c) */
char *plot_quote_path(const char *path);

/* --- plot_job.c --- */

/* Records a file of the job's folder: removed by plot_job_free(), or by a fatal
 * signal (outfile_track()). */
void plot_job_file(struct plot_job *j, const char *path);
/* The colours of one figure's keys into out[0..n): the job's when it knows every
 * one, else the figure's own plot_colours(). */
void plot_figure_colours(const struct plot_job *j, const char *const *keys, size_t n,
			 size_t *out);
/* The settings every figure starts from: reset, tab-separated data without
 * comment characters (a label may start with '#'), the terminal, the output (a
 * file of the job's folder that plot_job_run() copies to out) and the title.
 * 0, or -1 after an error line (out holds a control character). */
int plot_figure_begin(struct plot_job *j, const char *out, enum plot_format fmt,
		      const char *title);
/* The common end of a figure: when ret is 0, closes its plot line and its script
 * lines; either way closes f when it is open and frees path, q, keys and col (each
 * may be NULL). Returns ret, so a figure can end with return plot_figure_finish(). */
int plot_figure_finish(struct plot_job *j, int ret, FILE *f, char *path, char *q,
		       const char **keys, size_t *col);

/* Opens a new data file of the current figure, named after name; its path (heap)
 * in *path. NULL after an error line. */
FILE *plot_data_open(struct plot_job *j, const char *name, char **path);
/* Closes a data file: 0, or -1 after an error line naming path. */
int plot_data_close(FILE *f, const char *path);
/* Closes a finished data file and gives its path quoted for the script (heap);
 * *path is freed either way. NULL after an error line. */
char *plot_data_finish(FILE *f, char **path);
/* One label into a data file, after sep, through plot_field(). */
void plot_put_field(FILE *f, const char *sep, const char *label);
/* A tab and v with six decimals, or "NaN" when it is not finite. */
void plot_put_num(FILE *f, double v);

#endif
