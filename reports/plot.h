/* plot.h: the trend, sweep and parity figures, drawn by gnuplot. A job writes one
 * data file per series and one script into a private temporary folder, then runs
 * gnuplot once for all its figures. User labels never reach the script as code:
 * they travel in the data files (columnheader, xtic), and a title is a
 * single-quoted gnuplot string, which gnuplot never expands. */
#ifndef REPORTS_PLOT_H
#define REPORTS_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/figure.h"

/* The Debian package to name when gnuplot is missing. */
#define PLOT_PACKAGE "gnuplot-nox"
/* gnuplot is killed after this many seconds. */
#define PLOT_TIMEOUT_S 60

enum plot_format {
	PLOT_PNG, /* pngcairo when this gnuplot has it, else libgd png */
	PLOT_SVG,
};

/* The format named by path's extension (".png" or ".svg", any case): 0 and *fmt
 * set, or -1 (nothing printed) for another extension. */
int plot_format_of(const char *path, enum plot_format *fmt);

/* The full path of the gnuplot executable found on $PATH; caller frees. NULL
 * (nothing printed) when there is none. */
char *plot_find_gnuplot(void);

/* The half-height of the parity figure's y axis, percent: 1.2 x the largest |delta|,
 * at least 5 x band_pct and at most 25 x band_pct, so that the band stays visible;
 * bars and intervals beyond it are clipped to it and the figure says how many. */
double plot_parity_limit(const struct plot_parity *p);

/* The words of a figure, phrased here from the data analyze/ put in it (figure.h):
 * its title, its y axis and the legend entries that are our words rather than a
 * label alone. Every string is heap; plot_text_release() frees them. */
struct plot_text {
	char *title;
	char *ylabel;   /* NULL: the figure's fixed axis label (the sweep's) */
	char *band;     /* trend: the band's legend entry; NULL: no band drawn */
	char *hollow;   /* trend: the legend entry of the hollow marks (runs that are
			   not clean); NULL: no series has one */
	char **legend;  /* parity: each engine's bars, n_legend = n_engines */
	size_t n_legend;
};

/* A trend: "<metric> of <model>, <config>: median per run", the metric as its
 * y label, the band "baseline <name> (<n> runs)" (band_lo finite) or
 * "<engine> level per segment" (bands), and, where a series flags a run that is
 * not clean, "hollow: run not clean (spoiled or incomplete)". */
void plot_trend_text(const struct plot_trend *t, struct plot_text *out);
/* A sweep: "speculative sweep of <model>, <spec>: decode tok/s and acceptance
 * by n_max" ("" without a model); its axes are fixed, in plot_sweep.c. */
void plot_sweep_text(const struct plot_sweep *sw, struct plot_text *out);
/* Parity: the title and y label name pp or tg, the reference (or ours against
 * each engine) and the intervals' level ("90% interval", or "interval" when the
 * bars' levels differ); a bar's legend is its engine against a reference, else
 * "<ours> vs <engine>". */
void plot_parity_text(const struct plot_parity *p, struct plot_text *out);
/* Frees what a plot_*_text() filled in; accepts one zeroed or released. */
void plot_text_release(struct plot_text *x);

/* Colours. Each engine keeps one colour in every figure, in every run: the
 * palette entry its key hashes to (FNV-1a), so the same engine is drawn alike in
 * the trend, sweep and parity figures and across 'tpsdb plot' calls. Within one
 * figure, a key whose entry an earlier key (in byte order) already holds takes
 * the next free entry, so two engines of one figure never share a colour while
 * there are at most PLOT_N_COLOURS of them. */
#define PLOT_N_COLOURS 10
/* The "#rrggbb" of palette entry i (taken modulo PLOT_N_COLOURS); static. */
const char *plot_colour(size_t i);
/* The palette entry of each of keys[0..n) (NULL counts as ""), for one figure, into
 * out[0..n): equal keys get equal entries. */
void plot_colours(const char *const *keys, size_t n, size_t *out);

struct plot_job;

/* Makes a job with its own temporary folder (under $TMPDIR, else /tmp). NULL
 * after an error line. Free with plot_job_free(), which removes the folder. */
struct plot_job *plot_job_new(void);
void plot_job_free(struct plot_job *j);

/* Fixes the colours of every figure of the job from one set of keys (the
 * report's engines): plot_colours() of the whole set, so that within the job two
 * engines never share a colour even where the hash would collide. A figure with
 * a key outside the set falls back to its own plot_colours(). keys are copied. */
void plot_job_keys(struct plot_job *j, const char *const *keys, size_t n);

/* Add a figure to the job, to be written to out (a path without control
 * characters, refused otherwise) in format fmt when plot_job_run() runs. Each
 * writes its data files now. 0 ok, -1 after an error line (a figure with no data
 * at all is an error: "nothing to plot"). */
int plot_job_trend(struct plot_job *j, const struct plot_trend *t, const char *out,
		   enum plot_format fmt);
int plot_job_sweep(struct plot_job *j, const struct plot_sweep *sw, const char *out,
		   enum plot_format fmt);
int plot_job_parity(struct plot_job *j, const struct plot_parity *p, const char *out,
		    enum plot_format fmt);

/* Runs gnuplot (the executable at path gnuplot, from plot_find_gnuplot()) once,
 * at most once per job, on the job's script, without a shell, stdin from /dev/null, and kills it after
 * timeout_s seconds. gnuplot draws into the job's folder; once it has drawn every
 * figure, each is copied to its out path through outfile_copy() (a file replaced
 * whole, a symlink followed, a device or FIFO written directly). 0 when gnuplot
 * exited 0 and every figure was written; -1 after an error line quoting gnuplot's
 * last line of complaint or naming the timeout; -2 after the error line of a
 * figure that could not be written to its out path (a full disk: the caller's
 * output fails, where a gnuplot failure may only skip the figures). */
int plot_job_run(struct plot_job *j, const char *gnuplot, int timeout_s);

/* Longest title and legend label, in UTF-8 code points; longer ones end in "...",
 * so that a long engine name cannot squeeze the plot to nothing. */
#define PLOT_TEXT_MAX 100
#define PLOT_LABEL_MAX 40

/* Text for a gnuplot single-quoted string (where gnuplot expands neither
 * backquotes nor macros): quotes doubled, and every control character (newline
 * included) and byte 0x7f a space, so the string cannot end the command; cut to
 * PLOT_TEXT_MAX. Returns the text with its quotes; caller frees. */
char *plot_quote(const char *s);
/* A label for a tab-separated data field: tabs, newlines and other control
 * characters become spaces, '"' becomes two single quotes (gnuplot would take it
 * as a quoted field), an empty label "-", cut to PLOT_LABEL_MAX. Caller frees. */
char *plot_field(const char *s);

#endif
