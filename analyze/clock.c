/* clock.c: the timings-disagree rule. The medians of each side, not a median of
 * ratios: the finding then reads as two rates a reader can check against the
 * run's samples. */
#include "analyze/clock.h"
#include "analyze/stats.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

void clock_check(const double *server, const double *client, size_t n,
		 struct clock_check *out)
{
	double *s = tps_xcalloc(n ? n : 1, sizeof(*s));
	double *c = tps_xcalloc(n ? n : 1, sizeof(*c));
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		if (isnan(server[i]) || isnan(client[i]))
			continue;
		s[m] = server[i];
		c[m] = client[i];
		m++;
	}
	out->n = m;
	out->server = m ? stats_median(s, m) : NAN;
	out->client = m ? stats_median(c, m) : NAN;
	out->share = m && out->client > 0 ? out->server / out->client - 1 : NAN;
	out->disagree = !isnan(out->share) && fabs(out->share) > CLOCK_DISAGREE_SHARE;
	free(s);
	free(c);
}
