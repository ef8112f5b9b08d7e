/* plot_text.c: the words of the trend, sweep and parity figures: titles, axis
 * labels and legend entries, phrased from the numbers and names analyze/ hands
 * over (figure.h), so that analyze/ decides and this file alone words. The HTML
 * report's caption of a trend is its title, from here too. */
#include "reports/plot.h"
#include "analyze/cell_label.h"
#include "analyze/study.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *metric_name(int metric)
{
	return metric == STUDY_PP ? "prefill tok/s (pp)" : "decode tok/s (tg)";
}

void plot_trend_text(const struct plot_trend *t, struct plot_text *out)
{
	char *cfg = cell_label(t->spec_type, t->n_max, "");

	memset(out, 0, sizeof(*out));
	out->title = tps_xasprintf("%s of %s, %s: median per run%s", metric_name(t->metric),
				   t->model ? t->model : "", cfg,
				   t->first_seen ? ", builds by first seen" : "");
	free(cfg);
	out->ylabel = tps_xstrdup(metric_name(t->metric));
	/* The same test plot_job_trend() draws the band by. */
	if (isfinite(t->band_lo) && isfinite(t->band_hi))
		out->band = tps_xasprintf("baseline %s (%zu runs)", t->baseline ? t->baseline : "",
					  t->baseline_runs);
	else if (t->n_bands)
		out->band = tps_xasprintf("%s level per segment",
					  t->band_engine ? t->band_engine : "");
	for (size_t i = 0; i < t->n_series; i++)
		if (t->series[i].spoiled) {
			out->hollow = tps_xstrdup("hollow: run not clean (spoiled or incomplete)");
			break;
		}
}

void plot_sweep_text(const struct plot_sweep *sw, struct plot_text *out)
{
	memset(out, 0, sizeof(*out));
	out->title = sw->model ? tps_xasprintf("speculative sweep of %s, %s: decode tok/s and "
					       "acceptance by n_max", sw->model,
					       study_spec_name(sw->spec_type)) :
				 tps_xstrdup("");
}

void plot_parity_text(const struct plot_parity *p, struct plot_text *out)
{
	const char *mn = p->metric == STUDY_PP ? "pp" : "tg";
	char *ci = isnan(p->level) ? tps_xstrdup("interval") :
		   tps_xasprintf("%.3g%% interval", 100 * p->level);
	size_t e;

	memset(out, 0, sizeof(*out));
	if (p->ref) {
		out->title = tps_xasprintf("parity: %s delta %% against %s per model (%s), "
					   "shaded: parity band", mn, p->ref, ci);
		out->ylabel = tps_xasprintf("%s delta %% vs %s", mn, p->ref);
	} else {
		/* The labels travel in the legend (a data file); the title names the
		 * roles only. */
		out->title = tps_xasprintf("parity: %s delta %% of ours against each other "
					   "engine per model (%s), shaded: parity band", mn, ci);
		out->ylabel = tps_xasprintf("%s delta %% of ours vs the engine", mn);
	}
	free(ci);
	out->n_legend = p->n_engines;
	out->legend = tps_xcalloc(p->n_engines + 1, sizeof(*out->legend));
	for (e = 0; e < p->n_engines; e++) {
		const char *eng = p->engines[e] ? p->engines[e] : "";
		out->legend[e] = p->ref ? tps_xstrdup(eng) :
			tps_xasprintf("%s vs %s", p->ours ? p->ours : "", eng);
	}
}

void plot_text_release(struct plot_text *x)
{
	size_t i;

	if (!x)
		return;
	free(x->title);
	free(x->ylabel);
	free(x->band);
	free(x->hollow);
	for (i = 0; i < x->n_legend; i++)
		free(x->legend[i]);
	free(x->legend);
	memset(x, 0, sizeof(*x));
}
