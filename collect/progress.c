/* progress.c: draws the status line with "\r" and an erase-to-end-of-line, never
 * scrolling. The ETA extrapolates the elapsed time over the fraction of the matrix
 * done, which counts a cell's load time in the same way as its requests. */
#include "collect/progress.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct progress {
	int enabled, plain, color, drawn; /* enabled: live; plain: one line per run */
	size_t n_cells, k, done, total;
	int64_t rounds;
	double t0, cell_t0;
	char what[256], phase[32];
	const char *note;
};

struct progress *progress_new(enum progress_mode mode, int color, size_t n_runs,
			      int64_t rounds)
{
	struct progress *p = tps_xcalloc(1, sizeof(*p));

	p->enabled = mode == PROGRESS_LIVE;
	p->plain = mode == PROGRESS_PLAIN;
	p->color = color;
	p->n_cells = n_runs ? n_runs : 1;
	p->rounds = rounds;
	p->t0 = tps_mono_ms();
	return p;
}

void progress_clear(struct progress *p)
{
	if (p && p->enabled && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = 0;
	}
}

void progress_free(struct progress *p)
{
	progress_clear(p);
	free(p);
}

static void fmt_secs(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, (t / 60) % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

static void draw(struct progress *p)
{
	double frac = ((double)p->k + (p->total ? (double)p->done / (double)p->total : 0)) /
		      (double)p->n_cells;
	double elapsed = (tps_mono_ms() - p->t0) / 1000;
	char eta[32] = "?";

	if (!p->enabled)
		return;
	/* A try measured again (collect --wait-quiet) runs past the plan. */
	if (frac > 0.001 && elapsed > 1)
		fmt_secs(fmax(0, elapsed / frac - elapsed), eta, sizeof(eta));
	if (p->total)
		fprintf(stderr, "\r\033[K[%zu/%zu] %s: request %zu/%zu, ETA %s", p->k + 1,
			p->n_cells, p->what, p->done, p->total, eta);
	else
		fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s %.0f s, ETA %s", p->k + 1, p->n_cells,
			p->what, p->phase, (tps_mono_ms() - p->cell_t0) / 1000, eta);
	fflush(stderr);
	p->drawn = 1;
}

void progress_label(char *buf, size_t len, int64_t round, int64_t rounds, const char *model,
		    const char *engine, int64_t n_max, const char *note)
{
	char r[64] = "", nm[48] = "base";

	if (rounds > 1)
		snprintf(r, sizeof(r), "round %lld/%lld ", (long long)round, (long long)rounds);
	if (n_max != TPS_NULL)
		snprintf(nm, sizeof(nm), "n_max=%lld", (long long)n_max);
	snprintf(buf, len, "%s%s / %s / %s%s%s", r, model, engine, nm, note && *note ? ", " : "",
		 note && *note ? note : "");
}

void progress_note(struct progress *p, const char *note)
{
	if (p)
		p->note = note;
}

void progress_cell(struct progress *p, size_t k, int64_t round, const char *model,
		   const char *engine, int64_t n_max, const char *phase)
{
	if (!p || (!p->enabled && !p->plain))
		return;
	p->k = k;
	p->done = p->total = 0;
	p->cell_t0 = tps_mono_ms();
	progress_label(p->what, sizeof(p->what), round, p->rounds, model, engine, n_max,
		       p->note);
	snprintf(p->phase, sizeof(p->phase), "%s", phase);
	if (p->enabled)
		draw(p);
}

void progress_tick(void *arg)
{
	struct progress *p = arg;

	if (p && p->enabled)
		draw(p);
}

void progress_requests(struct progress *p, size_t done, size_t total)
{
	if (!p || !p->enabled)
		return;
	p->done = done;
	p->total = total;
	draw(p);
}

/* " pp 1234.5 tok/s," or "" for a NaN. */
static void rate(char *buf, size_t len, const char *metric, double v)
{
	if (isfinite(v))
		snprintf(buf, len, ", %s %.1f tok/s", metric, v);
	else
		snprintf(buf, len, "%s", "");
}

void progress_cell_done(struct progress *p, const char *status, size_t n_ok,
			size_t n_failed, double pp, double tg, const char *why)
{
	const char *on = "", *off = "";

	if (p && p->plain) {
		char a[48], b[48];

		rate(a, sizeof(a), "pp", pp);
		rate(b, sizeof(b), "tg", tg);
		fprintf(stderr, "[%zu/%zu] %s: %s, %zu ok, %zu failed%s%s (%.0f s)%s%s\n",
			p->k + 1, p->n_cells, p->what, status, n_ok, n_failed, a, b,
			(tps_mono_ms() - p->cell_t0) / 1000, why ? ": " : "", why ? why : "");
		fflush(stderr);
		p->k++;
		return;
	}
	if (!p || !p->enabled)
		return;
	if (p->color) {
		off = "\033[0m";
		on = !strcmp(status, "complete") ? "\033[32m" :
		     !strcmp(status, "partial") ? "\033[33m" : "\033[31m";
	}
	progress_clear(p);
	fprintf(stderr, "[%zu/%zu] %s: %s%s%s, %zu ok, %zu failed (%.0f s)%s%s\n", p->k + 1,
		p->n_cells, p->what, on, status, off, n_ok, n_failed,
		(tps_mono_ms() - p->cell_t0) / 1000, why ? ": " : "", why ? why : "");
	fflush(stderr);
	p->k++;
	p->done = p->total = 0;
}
