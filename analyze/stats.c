/* stats.c: descriptive statistics, the Student-t distribution and the tests
 * tpsdb uses (Student's pooled t for the change points, Welch's standard error for
 * unpaired instances). Everything works on copies with NaN removed; sorting is
 * qsort, the incomplete beta is Lentz's continued fraction as in Numerical Recipes'. */
#include "analyze/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpsdb.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A heap copy of the non-NaN values of x, sorted when asked; caller frees. The
 * count goes to *m. Never NULL (tps_xmalloc dies instead). */
static double *clean_copy(const double *x, size_t n, size_t *m, int sorted)
{
	double *c = tps_xmalloc((n ? n : 1) * sizeof(*c));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			c[k++] = x[i];
	if (sorted)
		qsort(c, k, sizeof(*c), cmp_double);
	*m = k;
	return c;
}

size_t stats_count(const double *x, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			k++;
	return k;
}

/* Mean of the non-NaN values, and their count in *m. */
static double mean_count(const double *x, size_t n, size_t *m)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		sum += x[i];
		k++;
	}
	*m = k;
	return k ? sum / (double)k : NAN;
}

double stats_mean(const double *x, size_t n)
{
	size_t m;
	return mean_count(x, n, &m);
}

double stats_median(const double *x, size_t n)
{
	size_t m;
	double *s = clean_copy(x, n, &m, 1);
	double r = NAN;

	if (m % 2)
		r = s[m / 2];
	else if (m)
		r = s[m / 2 - 1] == s[m / 2] ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
	free(s);
	return r;
}

/* Sample variance of the non-NaN values (two passes); NaN below two values. The
 * mean and the count go to *mean and *m. */
static double variance(const double *x, size_t n, double *mean, size_t *m)
{
	double mu = mean_count(x, n, m), ss = 0;

	*mean = mu;
	if (*m < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			ss += (x[i] - mu) * (x[i] - mu);
	return ss / (double)(*m - 1);
}

double stats_stddev(const double *x, size_t n)
{
	double mu;
	size_t m;
	return sqrt(variance(x, n, &mu, &m));
}

/* One step of Lentz's method: the next c and d of a continued fraction whose
 * partial numerator is aa (each kept off zero), and the factor d * c the value
 * takes. */
static double lentz_step(double aa, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

/* The continued fraction of I_x(a, b), evaluated by the modified Lentz method. It
 * converges fast for x < (a + 1) / (a + b + 2); the caller arranges that. Large a
 * (Student-t with huge df) needs on the order of sqrt(a) terms, hence the cap. */
static double betacf(double a, double b, double x)
{
	const double eps = 1e-16, tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 100000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		h *= lentz_step(aa, &c, &d);
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		del = lentz_step(aa, &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* The Stirling-series remainder of lgamma: lgamma(v) - ((v - 1/2) log v - v +
 * log(2 pi) / 2), good to 1e-16 for v >= 10. */
static double stirling_rest(double v)
{
	double v2 = v * v;
	return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / (1680 * v2)) / v2) / v2) / v;
}

/* log B(a, b). The plain lgamma(a) + lgamma(b) - lgamma(a + b) cancels away its
 * precision when one argument is large (a Student t with df = 1e7 has a = 5e6),
 * so there the difference lgamma(big + small) - lgamma(big) is taken from the
 * Stirling series, where it is a log1p. */
static double log_beta(double a, double b)
{
	double big = a > b ? a : b, small = a > b ? b : a, diff;

	if (big < 10)
		return lgamma(a) + lgamma(b) - lgamma(a + b);
	diff = (big - 0.5) * log1p(small / big) + small * log(big + small) - small +
		stirling_rest(big + small) - stirling_rest(big);
	return lgamma(small) - diff;
}

/* I_x(a, b) given both x and y = 1 - x, so that callers who know 1 - x more
 * precisely than 1 - x rounds to (the t CDF near t = 0, or with a huge df) keep
 * that precision. */
static double incbeta(double a, double b, double x, double y)
{
	double lbt, lx, ly;

	if (isnan(a) || isnan(b) || isnan(x) || a <= 0 || b <= 0 || x < 0 || x > 1)
		return NAN;
	if (x == 0)
		return 0;
	if (y == 0)
		return 1;
	lx = x > 0.5 ? log1p(-y) : log(x);
	ly = y > 0.5 ? log1p(-x) : log(y);
	lbt = a * lx + b * ly - log_beta(a, b);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, y) / b;
}

/* Bisection for the root of f(v) = target on [lo, hi] where f increases; stops at
 * the resolution of doubles. Slow next to Newton but it cannot diverge, and no
 * caller is hot. */
static double bisect(double (*f)(double, double), double arg, double target, double lo, double hi)
{
	for (int i = 0; i < 2000; i++) {
		double mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (f(mid, arg) < target)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* Upper tail P(T > t) for t >= 0, from the incomplete beta with 1 - x computed
 * directly so that small t keeps its precision. With a huge df the continued
 * fraction loses digits to 1 - (a + b) x / (a + 1) cancelling, so past 1e6 the first
 * term of the 1/df expansion around the normal takes over; its error is O(1/df^2),
 * below 1e-12 there. */
static double t_upper(double t, double df)
{
	double t2 = t * t;

	if (isinf(t))
		return 0;
	if (df > 1e6)
		return 0.5 * erfc(t / sqrt(2.0)) +
			exp(-t2 / 2) / 2.5066282746310002 /* sqrt(2 pi) */ * (t2 * t + t) / (4 * df);
	return 0.5 * incbeta(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
}

static double t_upper_neg(double t, double df)
{
	return -t_upper(t, df);
}

double stats_t_quantile(double p, double df)
{
	double q, hi = 1;

	if (isnan(p) || isnan(df) || df <= 0 || p < 0 || p > 1)
		return NAN;
	if (p == 0 || p == 1)
		return p == 0 ? -INFINITY : INFINITY;
	if (p == 0.5)
		return 0;
	q = p < 0.5 ? p : 1 - p;
	while (t_upper(hi, df) > q && hi < 1e300)
		hi *= 2;
	q = bisect(t_upper_neg, df, -q, 0, hi);
	return p < 0.5 ? -q : q;
}

double stats_f_upper(double f, double d1, double d2)
{
	double den;

	if (isnan(f) || !(d1 > 0) || !(d2 > 0) || f < 0)
		return NAN;
	if (isinf(f))
		return 0;
	den = d2 + d1 * f;
	return incbeta(d2 / 2, d1 / 2, d2 / den, d1 * f / den);
}

double stats_mean_ci(const double *x, size_t n, double level, double *lo, double *hi)
{
	double mu, v = NAN, half = NAN;
	size_t m;

	v = variance(x, n, &mu, &m);
	if (m >= 2 && level > 0 && level < 1)
		half = stats_t_quantile((1 + level) / 2, (double)(m - 1)) * sqrt(v / (double)m);
	if (lo)
		*lo = mu - half;
	if (hi)
		*hi = mu + half;
	return mu;
}

static void test_init(struct stats_test *out)
{
	memset(out, 0, sizeof(*out));
	out->statistic = NAN;
	out->z = NAN;
	out->df = NAN;
	out->p = NAN;
}

void stats_student(const double *x, size_t nx, const double *y, size_t ny, struct stats_test *out)
{
	double m1, m2, v1, v2, pooled, se2;
	size_t k1, k2;

	test_init(out);
	v1 = variance(x, nx, &m1, &k1);
	v2 = variance(y, ny, &m2, &k2);
	out->n = k1 + k2;
	out->n_nan = (nx - k1) + (ny - k2);
	/* One value on a side is enough when the other side supplies the variance. */
	if (k1 < 1 || k2 < 1 || k1 + k2 < 3)
		return;
	out->df = (double)(k1 + k2 - 2);
	pooled = ((k1 > 1 ? v1 * (double)(k1 - 1) : 0) + (k2 > 1 ? v2 * (double)(k2 - 1) : 0)) /
		out->df;
	se2 = pooled * (1 / (double)k1 + 1 / (double)k2);
	if (!(se2 > 0)) {
		out->statistic = m1 == m2 ? 0 : m1 > m2 ? INFINITY : -INFINITY;
		out->p = m1 == m2 ? 1 : 0;
		return;
	}
	out->statistic = (m1 - m2) / sqrt(se2);
	out->p = 2 * t_upper(fabs(out->statistic), out->df);
	if (out->p > 1)
		out->p = 1;
}

double stats_welch(const double *x, size_t nx, const double *y, size_t ny, double *se,
		   double *df)
{
	double mx, my, vx, vy, ax, ay;
	size_t m1, m2;

	vx = variance(x, nx, &mx, &m1);
	vy = variance(y, ny, &my, &m2);
	*se = *df = NAN;
	if (m1 < 2 || m2 < 2)
		return mx - my;
	ax = vx / (double)m1;
	ay = vy / (double)m2;
	*se = sqrt(ax + ay);
	*df = ax + ay > 0 ?
		(ax + ay) * (ax + ay) / (ax * ax / (double)(m1 - 1) + ay * ay / (double)(m2 - 1)) :
		INFINITY;
	return mx - my;
}
