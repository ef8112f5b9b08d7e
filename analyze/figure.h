/* figure.h: the data of the trend, sweep and parity figures, as plain structs: what
 * analyze/study_figures.c computes and reports/plot.c draws. They sit down here so
 * that the study can return them without including a renderer; the names keep the
 * plot_ prefix of the drawing API that takes them. They hold no words: a title, an
 * axis label or a legend is phrased by reports/plot_text.c from the fields below. */
#ifndef ANALYZE_FIGURE_H
#define ANALYZE_FIGURE_H

#include <stddef.h>
#include <stdint.h>

/* A shaded band over x0..x1 (seconds, as the series' x) from lo to hi. */
struct plot_band {
	double x0, x1, lo, hi;
};

/* One line of a trend plot: a metric per run, at the run's start time. */
struct plot_trend_series {
	const char *label;  /* engine label, any bytes */
	size_t n;
	const double *x;    /* run start, seconds since the epoch (UTC) */
	const double *y;    /* the run's median */
	size_t n_cp;        /* change points of this series */
	const size_t *cp;   /* index into x of the first run after each change */
	const double *cp_pct; /* its change in percent */
	const char *key;    /* what picks its colour (the engine); NULL: label */
	const unsigned char *spoiled; /* n flags, 1: a run that is not clean
					 (run_clean(): an environment finding or
					 incomplete), drawn hollow and never a
					 change point; NULL: none */
};

struct plot_trend {
	int metric;            /* STUDY_PP or STUDY_TG (analyze/study.h) */
	const char *model;     /* any bytes; NULL only without a series */
	const char *spec_type; /* the config, with n_max: "" and STUDY_NULL the base */
	int64_t n_max;
	const struct plot_trend_series *series;
	size_t n_series;
	double band_lo, band_hi; /* the shaded baseline band; NaN: none */
	const char *baseline;    /* that band's baseline (any bytes) ... */
	size_t baseline_runs;    /* ... and how many of its runs it spans */
	/* Bands drawn only over their own x range (a segment's level), used when
	 * band_lo is NaN; one legend entry for all, naming band_engine, the engine
	 * whose series they follow. */
	const struct plot_band *bands;
	size_t n_bands;
	const char *band_engine;
	int first_seen;          /* a series' runs are in first-seen build order
				    (TREND_BY_FIRST_SEEN, analyze/trend.h): builds
				    that name no number told apart by binary */
};

/* One engine's speculative series: decode tok/s and acceptance by n_max. */
struct plot_sweep_series {
	const char *label;      /* engine label */
	size_t n;
	const int64_t *n_max;   /* 0 for the base rung */
	const double *tg;       /* NaN where unknown */
	const double *accept;   /* 0..1; NaN for the base */
	const double *tg_lo, *tg_hi; /* each rung's 95% interval of tg over its runs,
					drawn as error bars; NULL or NaN: none */
	const char *key;        /* what picks its colour (the engine); NULL: label */
};

struct plot_sweep {
	const char *model;      /* NULL only without a series */
	const char *spec_type;  /* "": no spec type (study_spec_name()) */
	const struct plot_sweep_series *series;
	size_t n_series;
};

/* Parity: for each of n_groups x labels (models), one bar per engine. */
struct plot_parity {
	int metric;                 /* STUDY_PP or STUDY_TG (analyze/study.h) */
	const char *ref;            /* the engine every bar is judged against; NULL:
				       none, each bar is ours' against its engine */
	const char *ours;           /* without ref: the engine judged (NULL: "") */
	double level;               /* the level all bars' intervals share (0.9);
				       NaN: they differ (verdict_common_level()) */
	size_t n_groups, n_engines;
	const char *const *groups;  /* x labels */
	const char *const *engines; /* one bar colour each, keyed by the label; an
				       engine without a bar is left out of the legend */
	/* n_engines * n_groups, engine-major: [e * n_groups + g]; NaN: no bar. */
	const double *delta, *lo, *hi;
	double band_pct;            /* the parity band shaded around 0 */
	size_t n_spoiled;           /* cells with no bar because their verdict is
				       spoiled (an environment finding) */
	unsigned spoiled_env;       /* their findings, RUN_ENV_* bits */
};

#endif
