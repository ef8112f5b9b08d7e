/* stats.h: the descriptive statistics and the hypothesis tests that the verdict,
 * the gate and the change-point search are built from. Pure functions over arrays
 * of doubles: no I/O, and scratch memory only through tps_xmalloc(), so nothing
 * here can fail for want of memory. NaN is "no value" everywhere: each function
 * says whether it skips NaN inputs or returns NaN. */
#ifndef ANALYZE_STATS_H
#define ANALYZE_STATS_H

#include <stddef.h>

/* The number of values in x[0..n) that are not NaN. Every function below that
 * skips NaN works on these values only, so n - stats_count(x, n) is how many it
 * left out. x may be NULL when n is 0. */
size_t stats_count(const double *x, size_t n);

/* Arithmetic mean of the non-NaN values; NaN when there are none. An infinite
 * value is a value: it makes the mean infinite (or NaN for +inf and -inf). */
double stats_mean(const double *x, size_t n);

/* Median of the non-NaN values (the mean of the middle two for an even count);
 * NaN when there are none. */
double stats_median(const double *x, size_t n);

/* Sample standard deviation (divisor m - 1) of the non-NaN values, computed in two
 * passes; NaN when fewer than two values remain. */
double stats_stddev(const double *x, size_t n);

/* The Student-t quantile with df > 0 degrees of freedom (df need not be a whole
 * number): the t with P(T <= t) = p, solved by bisection on the CDF (from the
 * regularized incomplete beta function) to about 1e-12 relative. NaN for p
 * outside [0, 1], NaN or df <= 0; -inf / +inf at p = 0 / 1. The two-sided 95%
 * critical value is stats_t_quantile(0.975, df): 12.706 at df 1, 2.228 at 10,
 * 1.960 at infinity. */
double stats_t_quantile(double p, double df);

/* The confidence interval of the mean of the non-NaN values by the t distribution:
 * mean -/+ t((1 + level) / 2, m - 1) * s / sqrt(m). Returns the mean (NaN with no
 * values) and stores the bounds in *lo and *hi, which are NaN when fewer than two
 * values remain or level is outside (0, 1). lo and hi may be NULL. */
double stats_mean_ci(const double *x, size_t n, double level, double *lo, double *hi);

/* The result of a two-sided test. Fields a test does not use are NaN or 0. */
struct stats_test {
	double statistic; /* t (Student) */
	double z;         /* normal score when the p-value is approximate, else NaN */
	double df;        /* degrees of freedom (Student), else NaN */
	double p;         /* two-sided p-value; NaN when no test is possible */
	size_t n;         /* observations the test used (both samples for two-sample tests) */
	size_t n_nan;     /* NaN inputs skipped */
};

/* Student's two-sample t test with a pooled variance (equal variances assumed,
 * scipy's ttest_ind default, and Otava's change-point test); NaN skipped. df is
 * m1 + m2 - 2. A side may have a single value as long as df >= 1; p is NaN
 * otherwise. When both samples are constant the test degenerates: equal means give
 * t = 0 and p = 1, different means t = +-inf and p = 0. Where one side is short,
 * the pooled variance is far steadier than Welch's per-side one. */
void stats_student(const double *x, size_t nx, const double *y, size_t ny, struct stats_test *out);

/* Welch's difference of the means of the non-NaN values of x and y: returns
 * mean(x) - mean(y) and stores its standard error sqrt(sx^2/nx + sy^2/ny) in *se
 * and the Welch-Satterthwaite degrees of freedom in *df. Both are NaN when a side
 * has fewer than two values; df is +inf when both sides are constant. */
double stats_welch(const double *x, size_t nx, const double *y, size_t ny, double *se,
		   double *df);

/* P(F > f) for Snedecor's F with d1 and d2 degrees of freedom (f >= 0): the
 * upper tail of the ratio of two independent variance estimates of one
 * variance. NaN for a bad argument. */
double stats_f_upper(double f, double d1, double d2);

#endif
