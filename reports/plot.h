/* plot.h: the trend, sweep and parity figures, drawn by gnuplot. A job writes one
 * data file per series and one script into a private temporary folder, then runs
 * gnuplot once for all its figures. User labels never reach the script as code:
 * they travel in the data files (columnheader, xtic), and a title is a
 * single-quoted gnuplot string, which gnuplot never expands. */
#ifndef REPORTS_PLOT_H
#define REPORTS_PLOT_H

#include <stddef.h>
#include <stdint.h>

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

/* One line of a trend plot: a metric per run, at the run's start time. */
struct plot_trend_series {
	const char *label;  /* engine label, any bytes */
	size_t n;
	const double *x;    /* run start, seconds since the epoch (UTC) */
	const double *y;    /* the run's median */
	size_t n_cp;        /* change points of this series */
	const size_t *cp;   /* index into x of the first run after each change */
	const double *cp_pct; /* its change in percent */
};

struct plot_trend {
	const char *title;  /* any bytes */
	const char *ylabel; /* any bytes */
	const struct plot_trend_series *series;
	size_t n_series;
	double band_lo, band_hi; /* the shaded baseline band; NaN: none */
	const char *band_label;  /* any bytes */
};

/* One engine's speculative series: decode tok/s and acceptance by n_max. */
struct plot_sweep_series {
	const char *label;      /* engine label */
	size_t n;
	const int64_t *n_max;   /* 0 for the base rung */
	const double *tg;       /* NaN where unknown */
	const double *accept;   /* 0..1; NaN for the base */
};

struct plot_sweep {
	const char *title;
	const struct plot_sweep_series *series;
	size_t n_series;
};

/* Parity: for each of n_groups x labels (models), one bar per engine. */
struct plot_parity {
	const char *title;
	const char *ylabel;
	size_t n_groups, n_engines;
	const char *const *groups;  /* x labels */
	const char *const *engines; /* one bar colour each */
	/* n_engines * n_groups, engine-major: [e * n_groups + g]; NaN: no bar. */
	const double *delta, *lo, *hi;
	double band_pct;            /* the parity band shaded around 0 */
};

struct plot_job;

/* Makes a job with its own temporary folder (under $TMPDIR, else /tmp). NULL
 * after an error line. Free with plot_job_free(), which removes the folder. */
struct plot_job *plot_job_new(void);
void plot_job_free(struct plot_job *j);

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
 * last line of complaint, naming the timeout, or naming the write error. */
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
