/* session.c: the collector's run loop. Everything a cell needs that does not change
 * from cell to cell (the host, the files' sha256, the HOMEs, the batch id) is
 * settled once here first (session_open()); then each round the caller asks for
 * (session_round()) measures and records its cells, one run each, and a signal
 * stops it between cells (cell_measure() stops it within one). */
#include "collect/session.h"

#include "collect/cell.h"
#include "collect/filehash.h"
#include "collect/http.h"
#include "collect/interrupt.h"
#include "collect/plan.h"
#include "collect/progress.h"
#include "collect/provenance.h"
#include "collect/quant.h"
#include "collect/setup.h"
#include "collect/workdir.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* File name, quant, size and sha256 of each model; sha256 of each binary.
 * setup_plan() refused a binary or model it could not find or read, so a file
 * missing here went missing since (its server fails to load, a LOADFAIL run) or is
 * an attached server's model path, on the server's machine: its sha256 is unknown. */
static int identify(struct store *s, struct plan *p)
{
	char hex[65];
	int64_t bytes;
	size_t i;

	for (i = 0; i < p->n_engines; i++) {
		struct engine_spec *e = &p->engines[i];
		char *real;
		if (!e->binary)
			continue;
		if (!(real = filehash_resolve(e->binary)))
			continue;
		if (filehash_get(s, real, hex, NULL) == 0)
			e->sha256 = tps_xstrdup(hex);
		free(real);
		if (interrupt_pending())
			return -1;
	}
	for (i = 0; i < p->n_models; i++) {
		struct model_spec *m = &p->models[i];
		m->file = tps_xstrdup(plan_base_name(m->path));
		m->quant = tps_xstrdup(quant_guess(m->path));
		if (access(m->path, R_OK) != 0)
			continue;
		if (filehash_get(s, m->path, hex, &bytes) == 0) {
			m->sha256 = tps_xstrdup(hex);
			m->bytes = bytes;
		}
		if (interrupt_pending())
			return -1;
	}
	return 0;
}

static void set_host(struct host_rec *h, const struct collect_setup *o)
{
	int gpu_index = -1;

	if (o->c.gpu && *o->c.gpu >= '0' && *o->c.gpu <= '9')
		gpu_index = atoi(o->c.gpu);
	provenance_detect(h, gpu_index);
	if (o->host) {
		free(h->name);
		h->name = tps_xstrdup(o->host);
	}
	if (o->gpu_name) {
		free(h->gpu);
		h->gpu = tps_xstrdup(o->gpu_name);
	}
	if (o->driver) {
		free(h->driver);
		h->driver = tps_xstrdup(o->driver);
	}
	if (o->cuda) {
		free(h->cuda);
		h->cuda = tps_xstrdup(o->cuda);
	}
}

/* The row's status outlives res, whose status is a buffer. */
static const char *row_status(const struct cell_result *res)
{
	if (res->load_failed)
		return "LOADFAIL";
	if (!strcmp(res->status, "complete"))
		return "complete";
	if (!strcmp(res->status, "partial"))
		return "partial";
	if (!strcmp(res->status, "interrupted"))
		return "interrupted";
	return "failed";
}

/* A spec run whose requests answered but drafted no token in any of them did not
 * speculate (a p_min its drafter never reaches, a drafter that did not load):
 * one warning a cell, the first time. */
static void warn_undrafted(const struct cell_env *env, size_t k, const struct cell_result *cr)
{
	struct cell *c = &env->plan->cells[k];

	if (c->n_max == TPS_NULL || !cr->n_ok || !isnan(cr->accept) || c->undrafted_said)
		return;
	c->undrafted_said = 1;
	progress_clear(env->progress);
	tps_warning("%s / %s / n_max=%lld: no request drafted a token (no draft_n in any "
		    "answer), so the run decoded without speculation%s%s%s",
		    env->plan->models[c->model].label, env->plan->engines[c->engine].label,
		    (long long)c->n_max, *c->spec_settings ? " (" : "", c->spec_settings,
		    *c->spec_settings ? ")" : "");
}

/* Measures cell k in round `round` as the session's next run and adds its row. */
static int run_one(const struct cell_env *env, size_t k, int64_t round,
		   struct session_result *res)
{
	struct session_row *row;
	struct cell_result cr;
	double t0 = tps_mono_ms();

	if (res->n_rows == res->cap_rows) {
		res->cap_rows = 2 * res->cap_rows + 8;
		res->rows = tps_xrealloc(res->rows, res->cap_rows * sizeof(*res->rows));
	}
	row = &res->rows[res->n_rows];
	memset(row, 0, sizeof(*row));
	if (cell_measure(env, k, res->n_rows, round, &cr) < 0) {
		free(cr.load_line);
		free(cr.env);
		return -1;
	}
	row->wall_s = (tps_mono_ms() - t0) / 1000;
	progress_cell_done(env->progress, cr.load_failed ? "LOADFAIL" : cr.status, cr.n_ok,
			   cr.n_failed, cr.pp, cr.tg, cr.load_line);
	warn_undrafted(env, k, &cr);
	row->load_line = cr.load_line;
	row->env = cr.env;
	row->gpu_index = cr.gpu_index;
	row->cell = k;
	row->round = round;
	row->status = row_status(&cr);
	row->n_ok = cr.n_ok;
	row->n_failed = cr.n_failed;
	row->pp = cr.pp;
	row->tg = cr.tg;
	row->accept = cr.accept;
	res->n_rows++;
	if (strcmp(cr.status, "complete"))
		res->n_bad++;
	return 0;
}

struct session {
	struct cell_env env;
	struct run_rec hostrun;
	struct session_result *res;
	size_t *order;             /* room for a round's cells */
};

int session_round(struct session *ss, size_t mi, int64_t round, const unsigned char *run)
{
	size_t n = plan_round_order(ss->env.plan, mi, round, ss->order), i;

	for (i = 0; i < n && !interrupt_pending(); i++) {
		/* A decided cell costs no more GPU time. */
		if (run && !run[ss->order[i]])
			continue;
		if (run_one(&ss->env, ss->order[i], round, ss->res) < 0)
			return -1;
	}
	progress_clear(ss->env.progress);
	return 0;
}

int session_cell(struct session *ss, size_t k, int64_t round)
{
	return run_one(&ss->env, k, round, ss->res);
}

void session_clear(struct session *ss)
{
	progress_clear(ss->env.progress);
}

struct session *session_open(struct store *s, struct plan *p, const struct prompt_set *ps,
			     const struct collect_setup *setup, const char *note,
			     struct session_result *res)
{
	struct session *ss = tps_xcalloc(1, sizeof(*ss));

	memset(res, 0, sizeof(*res));
	run_rec_init(&ss->hostrun);
	ss->res = res;
	ss->env.plan = p;
	http_global_init();
	interrupt_install();
	res->rounds = plan_rounds(p);
	res->n_planned = p->n_cells * (size_t)res->rounds;
	res->cap_rows = res->n_planned + 1;
	res->rows = tps_xcalloc(res->cap_rows, sizeof(*res->rows));
	ss->order = tps_xcalloc(p->n_cells + 1, sizeof(*ss->order));
	if (tps_uuid4(res->batch, sizeof(res->batch)) < 0 || workdir_make_homes(p) < 0)
		goto fail;
	set_host(&ss->hostrun.host, setup);
	if (interrupt_pending()) {
		/* nvidia-smi was stopped at the signal: nothing has started yet. */
		tps_error("interrupted by signal %d before the first run", interrupt_pending());
		goto fail;
	}
	if (identify(s, p) < 0)
		goto fail;
	ss->env.progress = progress_new(setup->quiet ? PROGRESS_OFF : isatty(2) ?
					PROGRESS_LIVE : PROGRESS_PLAIN,
					!setup_getenv("NO_COLOR"), res->n_planned, res->rounds);
	progress_note(ss->env.progress, note);
	ss->env.store = s;
	ss->env.o = &setup->c;
	ss->env.host = &ss->hostrun.host;
	ss->env.prompts = ps;
	ss->env.batch = res->batch;
	return ss;
fail:
	session_close(ss);
	return NULL;
}

void session_close(struct session *ss)
{
	if (!ss)
		return;
	ss->res->signal = interrupt_pending();
	progress_free(ss->env.progress);
	workdir_remove_homes(ss->env.plan);
	run_rec_release(&ss->hostrun);
	free(ss->order);
	free(ss);
}

void session_result_release(struct session_result *res)
{
	for (size_t k = 0; k < res->n_rows; k++) {
		free(res->rows[k].load_line);
		free(res->rows[k].env);
	}
	free(res->rows);
	res->rows = NULL;
	res->n_rows = res->cap_rows = res->n_bad = 0;
}
