/* cmd_collect.c: 'tpsdb collect', the measuring front end: options (or the seed
 * harness's environment) become a plan (collect/setup.c), the session measures its
 * cells in the rounds run_rounds() asks it for (collect/session.c), and a summary
 * table (reports/summary.c) goes to stdout and into the out dir. With
 * --until-decided, after each round this batch's runs are compared as compare
 * compares them (cmd/side.h) and the rule (analyze/until.h) says which cells the
 * next round starts, none once every cell of the model is decided. */
#include "analyze/envrule.h"
#include "analyze/estimate.h"
#include "analyze/parity.h"
#include "analyze/plan.h"
#include "analyze/until.h"
#include "collect/cell.h"
#include "collect/interrupt.h"
#include "collect/plan.h"
#include "collect/progress.h"
#include "collect/prompts.h"
#include "collect/provenance.h"
#include "collect/runenv.h"
#include "collect/session.h"
#include "collect/setup.h"
#include "collect/workdir.h"
#include "reports/findings.h"
#include "reports/parity.h"
#include "reports/summary.h"
#include "reports/until_write.h"
#include "cmd/side.h"
#include "schema/record.h"
#include "schema/record_json.h"
#include "schema/store.h"
#include "cmd/opts.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* docs/help/collect.txt gives the count in words. */
_Static_assert(CELL_MAX_TIMEOUTS_IN_ROW == 3, "docs/help/collect.txt says 3 timeouts in a row");

/* --engine, --role, --engine-args, --home and --model: "label=value" (the value
 * optional where the row's val is 0) appended to the pairs at opt->dst. */
static int take_pair(const struct cmd_option *opt, const char *arg, const char *usage)
{
	struct collect_setup s = { .usage = usage };

	return setup_add_pair(&s, opt->dst, opt->name, arg, opt->val);
}

static int take_budget(const struct cmd_option *opt, const char *arg, const char *usage)
{
	struct collect_setup s = { .usage = usage };

	return setup_parse_duration(&s, opt->name, arg, opt->dst);
}

/* Returns -1 to go on, or the exit code (also TPS_EXIT_OK after --help). */
static int parse_options(int argc, char **argv, struct collect_setup *o)
{
	static const struct cmd_choice questions[] = {
		{ "regression", 0 }, { "parity", 1 }, { NULL, 0 },
	}, metrics[] = { { "pp", 0 }, { "tg", 0 }, { "both", 0 }, { NULL, 0 } };
	const struct cmd_option opts[] = {
		OPT_PARSE("engine", &o->engines, take_pair, 0), OPT_STRING("ours", &o->ours),
		OPT_PARSE("role", &o->roles, take_pair, 1),
		OPT_PARSE("engine-args", &o->engine_args, take_pair, 1),
		OPT_PARSE("home", &o->homes, take_pair, 1), OPT_STRING("models", &o->models_file),
		OPT_PARSE("model", &o->models, take_pair, 0),
		OPT_STRING("spec-manifest", &o->spec_file), OPT_STRING("url", &o->url),
		OPT_STRING("spec-type", &o->spec_type), OPT_COUNT("n-max", &o->n_max, 1, 4096),
		{ .name = "reps", .kind = CMD_OPT_COUNT, .dst = &o->c.reps, .size = sizeof(o->c.reps),
		  .min = 1, .max = 100000, .seen = &o->reps_set },
		OPT_STRING("prompts", &o->prompts_file), OPT_FLAG("no-reference", &o->no_reference),
		OPT_COUNT("ctx", &o->c.ctx, 16, 1 << 24),
		OPT_COUNT("n-predict", &o->c.n_predict, 1, 1 << 24),
		OPT_STRING("endpoint", &o->endpoint),
		OPT_FLAG("ban-byte-tokens", &o->c.ban_byte_tokens),
		OPT_COUNT("seed", &o->c.seed, 0, INT64_C(4294967295)),
		OPT_COUNT("warmup", &o->c.warmup, 0, 1000), OPT_STRING("gpu", &o->c.gpu),
		OPT_COUNT("port", &o->c.base_port, 1, 65535),
		OPT_SECONDS("load-timeout", &o->c.load_timeout_s),
		OPT_SECONDS("request-timeout", &o->c.request_timeout_s),
		OPT_STRING("tag", &o->c.tag), OPT_STRING("notes", &o->c.notes),
		OPT_STRING("host", &o->host), OPT_STRING("gpu-name", &o->gpu_name),
		OPT_STRING("driver", &o->driver), OPT_STRING("cuda", &o->cuda),
		OPT_STRING("out-dir", &o->out_dir), OPT_FLAG("quiet", &o->quiet),
		OPT_FLAG("dry-run", &o->dry_run), OPT_FLAG("aa", &o->aa),
		OPT_COUNT("rounds", &o->rounds, 1, 1000),
		OPT_FLAG("until-decided", &o->until_decided),
		OPT_COUNT("max-rounds", &o->max_rounds, ESTIMATE_FIRST_LOOK, ESTIMATE_MAX_LOOK),
		{ .name = "question", .kind = CMD_OPT_CHOICE, .dst = &o->question_parity,
		  .size = sizeof(int), .choices = questions, .seen = &o->question_set },
		OPT_WORD("metric", &o->metric, metrics),
		OPT_NUMBER("wait-quiet", &o->wait_quiet_s, 0, 86400, 0,
			   "a number of seconds from 0 to 86400"),
		OPT_COUNT("max-spoiled", &o->max_spoiled, 0, 1000),
		OPT_PARSE("budget", &o->budget_s, take_budget, 0),
		OPT_END,
	};

	return cmd_opts_parse(&cmd_collect_entry, opts, argc, argv);
}

/* --until-decided's state: the rule (analyze/until.h) over the plan's cells, the
 * session's rows it has been told of, the cells the next round starts and the
 * progress note. After each round the command loads this batch's runs (cmd/side.h),
 * decides them (analyze/parity.h), hands the verdicts to the rule, prints the
 * cells it decided (reports/until_write.h) and asks it which cells run next. */
struct until_state {
	struct until u;
	const struct plan *p;
	const struct session_result *res; /* the session's rows, filled as runs end */
	struct until_cell *cells;  /* the plan's cells as the rule sees them; owned */
	size_t n_fed;              /* rows of res handed to the rule */
	char note[192];
};

/* Hands the runs that ended since the last call to the rule. */
static void until_feed(struct until_state *h)
{
	for (; h->n_fed < h->res->n_rows; h->n_fed++) {
		const struct session_row *r = &h->res->rows[h->n_fed];

		until_run_ended(&h->u, r->cell, r->round, r->wall_s);
	}
}

static void until_print(const struct until_state *h, size_t k, const char *what)
{
	const struct cell *c = &h->p->cells[k];
	const char *model = h->p->models[c->model].label, *ours = h->p->engines[h->u.ours].label;

	if (h->u.w[k].futile_at)
		until_write_futile(stdout, &h->u, k, model, ours, h->p->engines[c->engine].label);
	else
		until_write_cell(stdout, what, &h->u, k, model, ours,
				 h->p->engines[c->engine].label);
}

/* Compares this batch's runs of model mi, ours against every other engine, after
 * round round, and prints the cells it decides. -1 on a store error. */
static int until_compare(struct until_state *h, struct store *s, size_t mi, int64_t round)
{
	const struct plan *p = h->p;
	const char *model = p->models[mi].label;
	struct run_filter f[2];
	struct side sd[2];
	size_t *newly = tps_xcalloc(p->n_cells + 1, sizeof(*newly)), n, i, e;
	int ret = 0;

	memset(f, 0, sizeof(f));
	f[0].model.v = &model;
	f[0].model.n = 1;
	/* No batch named: the newest batch of each series is this one, pooled as
	 * a later plain 'tpsdb compare' pools it, with the earlier batches on this
	 * host as history (cellset.h), so both give the same answer. */
	f[1] = f[0];
	for (e = 0; e < p->n_engines && !ret; e++) {
		struct parity_opts o;
		struct parity_result pr = { 0 };

		if (e == h->u.ours)
			continue;
		parity_opts_init(&o);
		o.ours = p->engines[h->u.ours].label;
		o.vs = p->engines[e].label;
		/* This batch's answer: a side that has no run of it yet is not paired
		 * with an older batch of both (pools_pair()). */
		o.own_newest = 1;
		ret = side_parity(s, f, NULL, &o, sd, &pr);
		if (ret > 0) {
			/* A refused cell stays open; say why once per comparison. */
			parity_stop_error(&pr);
			ret = 0;
		} else if (ret == 0) {
			n = until_take(&h->u, &pr, mi, e, round, newly);
			for (i = 0; i < n; i++)
				until_print(h, newly[i], "decided");
		}
		side_release(&sd[0]);
		side_release(&sd[1]);
		parity_result_release(&pr);
	}
	free(newly);
	return ret;
}

/* After round round of model mi: from the first look on, compare. 0, or -1 on a
 * store error. */
static int until_after_round(struct until_state *h, struct store *s, size_t mi,
			     int64_t round)
{
	until_feed(h);
	if (until_look(&h->u, mi, round) && until_compare(h, s, mi, round) < 0)
		return -1;
	until_write_note(h->note, sizeof(h->note), &h->u);
	return 0;
}

static void until_state_init(struct until_state *h, const struct plan *p,
			     const struct session_result *res, const struct collect_setup *o)
{
	size_t k;

	memset(h, 0, sizeof(*h));
	h->p = p;
	h->res = res;
	h->cells = tps_xcalloc(p->n_cells + 1, sizeof(*h->cells));
	for (k = 0; k < p->n_cells; k++)
		h->cells[k] = (struct until_cell){ .engine = p->cells[k].engine,
			.model = p->cells[k].model, .spec_type = p->cells[k].spec_type,
			.n_max = p->cells[k].n_max };
	until_init(&h->u, h->cells, p->n_cells, p->n_models, setup_ours_index(p),
		   o->question_parity ? DECIDED_PARITY : DECIDED_REGRESSION,
		   o->metric ? parity_metrics_of(o->metric) : PARITY_BOTH);
	until_set_futility(&h->u, plan_rounds(p));
	until_set_schedule(&h->u, plan_rounds(p), o->budget_s);
	until_write_note(h->note, sizeof(h->note), &h->u);
}

/* After the session: compares each model once more when its last round was not,
 * then prints the cells still open and the count. -1 on a store error. */
static int until_finish(struct until_state *h, struct store *s)
{
	size_t mi;
	int64_t last;

	until_feed(h);
	for (mi = 0; mi < h->p->n_models && !h->res->signal; mi++)
		if ((last = until_final_look(&h->u, mi)) && until_compare(h, s, mi, last) < 0)
			return -1;
	return 0;
}

/* The cells still open, the count and the table of the matrix. */
static void until_print_open(struct until_state *h)
{
	const char **model = tps_xcalloc(h->p->n_models + 1, sizeof(*model));
	const char **engine = tps_xcalloc(h->p->n_engines + 1, sizeof(*engine));
	size_t k;

	for (k = 0; k < h->p->n_cells; k++)
		if (until_open(&h->u, k))
			until_print(h, k, "open");
	until_write_total(stdout, &h->u);
	for (k = 0; k < h->p->n_models; k++)
		model[k] = h->p->models[k].label;
	for (k = 0; k < h->p->n_engines; k++)
		engine[k] = h->p->engines[k].label;
	until_write_matrix(stdout, &h->u, model, engine);
	free(model);
	free(engine);
}

static void until_state_release(struct until_state *h)
{
	until_release(&h->u);
	free(h->cells);
	memset(h, 0, sizeof(*h));
}

/* --until-decided without --reps: the reps of every prompt that 'tpsdb plan'
 * finds cheapest for the question's metric (analyze/plan.h) from this host's
 * clean stored runs of each model, ours against every other engine, at the
 * batch's n_predict and max rounds: per model, the most any of its cells needs,
 * or the default when none of its cells has a design. Prints the choice
 * (reports/until_write.h). -1 on a store error. */
static int design_reps(struct store *s, struct plan *p, size_t n_prompts,
		       struct collect_setup *o)
{
	struct plan_opts po;
	struct run_filter f;
	const char *host = o->host, *side[2];
	char *own = NULL;
	size_t mi, e, i, r, rr;
	struct until_design *d = tps_xcalloc(p->n_models + 1, sizeof(*d));
	int m = !o->metric || !strcmp(o->metric, "both") ? PLAN_N_METRICS :
		!strcmp(o->metric, "pp") ? PLAN_PP : PLAN_TG, ret = 0;

	plan_opts_init(&po);
	po.max_rounds = (size_t)plan_rounds(p);
	po.default_prompts = n_prompts;
	po.default_reps = (size_t)o->c.reps;
	if (!host)
		host = own = provenance_host_name();
	memset(&f, 0, sizeof(f));
	f.host.v = &host;
	f.host.n = 1;
	side[0] = p->engines[setup_ours_index(p)].label;
	for (mi = 0; mi < p->n_models && !ret; mi++) {
		d[mi].model = p->models[mi].label;
		f.model.v = (const char **)&p->models[mi].label;
		f.model.n = 1;
		for (e = 0; e < p->n_engines && !ret; e++) {
			struct side sd[2];
			struct plan_input in;
			struct plan_result res;

			side[1] = p->engines[e].label;
			if (e == setup_ours_index(p))
				continue;
			if (side_plan(s, &f, side, &po, sd, &in, &res) < 0)
				ret = -1;
			for (i = 0; !ret && i < res.n_cells; i++) {
				if (in.cells[i].n_predict != o->c.n_predict ||
				    !(r = plan_default_reps(&res, i, m, &rr)))
					continue;
				d[mi].n_cells++;
				if (r > d[mi].reps || (r == d[mi].reps && rr > d[mi].rounds)) {
					d[mi].reps = r;
					d[mi].rounds = rr;
				}
			}
			plan_result_release(&res);
			plan_input_release(&in);
			side_release(&sd[0]);
			side_release(&sd[1]);
		}
		/* Each model its own design: a big model's scatter is not a small one's. */
		p->models[mi].reps = (int64_t)d[mi].reps;
		if (!d[mi].reps)
			d[mi].reps = (size_t)o->c.reps;
	}
	if (!ret)
		until_write_design(stdout, d, p->n_models, host);
	free(d);
	free(own);
	return ret;
}

/* The quiet rule over a session: the rounds' order, the models it stopped. */
struct quiet {
	const struct collect_setup *o;
	const struct plan *p;
	struct session_result *res;
	size_t *order;             /* room for a round's cells; owned */
	unsigned char *stopped;    /* per model: stopped by --max-spoiled; owned */
	size_t n_stopped;
	size_t *stop_row;          /* per model: the row of the try that stopped it,
				      SIZE_MAX none; owned */
};

/* The findings of row r's run, as every reader derives them from its stored facts
 * (analyze/envrule.h). */
static unsigned row_findings(const struct session_row *r)
{
	struct env_facts f;

	if (!r->env)
		return 0;
	record_env_facts(r->env, &f);
	return env_findings(&f, 0);
}

/* What kept the machine from reading quiet, into buf: "other processes used 97%
 * of the CPUs, 1 other compute process(es) on the GPU, utilisation 64%". */
static void quiet_words(const struct runenv_quiet *rq, char *buf, size_t len)
{
	size_t n = 0;

	*buf = '\0';
	if (rq->host_busy)
		n += (size_t)snprintf(buf, len, "other processes used %.0f%% of the CPUs",
				      100 * rq->others_share);
	if (rq->gpu_busy && n < len)
		snprintf(buf + n, len - n, "%s%zu other compute process(es) on the GPU, "
			 "utilisation %g%%", n ? ", " : "", rq->other_procs,
			 isnan(rq->util) ? 0 : rq->util);
}

/* Measures cell k of model mi in round round, and while the machine was busy
 * (RUN_ENV_BUSY) waits for quiet and measures it again, the spoiled try kept as a
 * run of the round (the store's last try of a round is its instance,
 * analyze/cellset.h) and its row marked retried; *in_row counts the model's busy
 * tries in a row. 1 when that count reached --max-spoiled and the model stopped,
 * 0 to go on, -1 on a store or system error. */
static int measure_cell(struct quiet *q, struct session *ss, size_t mi, size_t k,
			int64_t round, int64_t *in_row)
{
	const struct cell *c = &q->p->cells[k];
	const char *model = q->p->models[mi].label;

	for (;;) {
		struct session_row *r;
		struct runenv_quiet rq;
		char names[128], what[256], still[192], *detail;
		unsigned busy;

		if (session_cell(ss, k, round) < 0)
			return -1;
		r = &q->res->rows[q->res->n_rows - 1];
		r->findings = row_findings(r);
		if (!(busy = r->findings & RUN_ENV_BUSY)) {
			*in_row = 0;
			return 0;
		}
		++*in_row;
		session_clear(ss);
		parity_env_names(busy, names, sizeof(names));
		/* The lowest finding's detail. */
		detail = findings_env_detail(r->env, busy & -busy);
		if (q->o->max_spoiled && *in_row >= q->o->max_spoiled) {
			tps_warning("model %s stopped: %s on %lld tries in a row (%s); its cells "
				    "stay open", model, names, (long long)*in_row, detail);
			free(detail);
			q->stopped[mi] = 1;
			q->stop_row[mi] = q->res->n_rows - 1;
			q->n_stopped++;
			return 1;
		}
		if (!(q->o->wait_quiet_s > 0) || interrupt_pending()) {
			free(detail);
			return 0;
		}
		progress_label(what, sizeof(what), round, q->res->rounds, model,
			       q->p->engines[c->engine].label, c->n_max, NULL);
		tps_warning("%s: %s (%s); waiting up to %g s for a quiet machine to measure it "
			    "again", what, names, detail, q->o->wait_quiet_s);
		free(detail);
		/* A machine still busy at the deadline is measured anyway: the try's
		 * own facts decide, and --max-spoiled bounds the tries. */
		switch (runenv_wait_quiet(q->o->c.gpu, r->gpu_index, q->o->wait_quiet_s, &rq)) {
		case -1:
			return 0; /* a signal: the caller stops */
		case 1:
			quiet_words(&rq, still, sizeof(still));
			tps_warning("%s: still busy after %g s (%s); measuring it again anyway",
				    what, q->o->wait_quiet_s, still);
			break;
		}
		r->retried = 1;
	}
}

/* The rounds of --until-decided: the rule picks each next round (until_pick():
 * model by model, or with --budget the model whose round buys the most
 * decisions), starts the cells it leaves open (a decided or unanswerable cell
 * costs no more GPU time), and looks after it. No instance starts past the
 * budget. -1 on a store or system error. */
static int run_until(struct session *ss, struct store *s, struct quiet *q,
		     struct until_state *u)
{
	const struct plan *p = q->p;
	int64_t round, *in_row = tps_xcalloc(p->n_models + 1, sizeof(*in_row));
	size_t mi, i, n, k;
	int ret = -1;

	while (!interrupt_pending() && until_pick(&u->u, &mi, &round)) {
		n = plan_round_order(p, mi, round, q->order);
		for (i = 0; i < n && !interrupt_pending() && !q->stopped[mi]; i++) {
			if (until_skip(&u->u, k = q->order[i]))
				continue;
			if (!until_fits(&u->u, k)) {
				until_model_end(&u->u, mi, 1);
				break;
			}
			if (measure_cell(q, ss, mi, k, round, &in_row[mi]) < 0)
				goto out;
			until_feed(u);
			until_write_note(u->note, sizeof(u->note), &u->u);
		}
		session_clear(ss);
		if (interrupt_pending())
			break;
		if (q->stopped[mi] || u->u.done[mi]) {
			until_model_end(&u->u, mi, u->u.short_of_budget[mi]);
			continue;
		}
		if (until_after_round(u, s, mi, round) < 0)
			goto out;
		until_round_done(&u->u, mi);
	}
	ret = 0;
out:
	free(in_row);
	return ret;
}

/* The rounds of every model: each model runs round 1, 2, ... (every cell on a
 * fresh server, collect/session.h) until its last round, a signal, or a model the
 * machine kept busy (measure_cell()); --until-decided's rounds are run_until()'s.
 * -1 on a store or system error. */
static int run_rounds(struct session *ss, struct store *s, struct quiet *q,
		      struct until_state *u, int until)
{
	const struct plan *p = q->p;
	int64_t rounds = plan_rounds(p), round, in_row;
	size_t mi, i, n;

	if (until)
		return run_until(ss, s, q, u);
	for (mi = 0; mi < p->n_models && !interrupt_pending(); mi++) {
		in_row = 0;
		for (round = 1; round <= rounds; round++) {
			n = plan_round_order(p, mi, round, q->order);
			for (i = 0; i < n && !interrupt_pending() && !q->stopped[mi]; i++)
				if (measure_cell(q, ss, mi, q->order[i], round, &in_row) < 0)
					return -1;
			session_clear(ss);
			if (q->stopped[mi] || interrupt_pending())
				break;
		}
	}
	return 0;
}

int cmd_collect(int argc, char **argv, struct tps_ctx *ctx)
{
	struct collect_setup o;
	struct plan p = { 0 };
	struct prompt_set ps = { 0 };
	struct session_result res = { 0 };
	struct session *ss = NULL;
	struct until_state u = { 0 };
	struct quiet q = { 0 };
	struct summary_row *rows = NULL;
	struct store *s;
	char *out_dir = NULL, *footer = NULL, **why = NULL;
	size_t k, n_run = 0, n_spoiled = 0, n_retried = 0;
	double spoiled_s = 0;
	int ret = TPS_EXIT_ERROR, r;

	setup_init(&o, usage_collect);
	if ((ret = parse_options(argc, argv, &o)) >= 0 || (ret = setup_plan(&o, &p, &ps)))
		goto out;
	/* Before the first run: the spec settings collect equalised. */
	if (p.spec_note)
		fputs(p.spec_note, stdout);
	if (o.dry_run) {
		plan_print(stdout, &p, o.url, o.c.base_port, o.c.ctx);
		ret = TPS_EXIT_OK;
		goto out;
	}

	ret = TPS_EXIT_ERROR;
	if (!(out_dir = workdir_make_out(o.out_dir)))
		goto out;
	o.c.out_dir = out_dir;
	o.c.url = o.url;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (o.until_decided && !o.reps_set && design_reps(s, &p, ps.n, &o) < 0)
		goto out;
	if (o.until_decided)
		until_state_init(&u, &p, &res, &o);
	if (!(ss = session_open(s, &p, &ps, &o, o.until_decided ? u.note : NULL, &res)))
		goto out;
	q.o = &o;
	q.p = &p;
	q.res = &res;
	q.order = tps_xcalloc(p.n_cells + 1, sizeof(*q.order));
	q.stopped = tps_xcalloc(p.n_models + 1, 1);
	q.stop_row = tps_xcalloc(p.n_models + 1, sizeof(*q.stop_row));
	for (k = 0; k < p.n_models; k++)
		q.stop_row[k] = SIZE_MAX;
	r = run_rounds(ss, s, &q, &u, o.until_decided);
	session_close(ss);
	if (r < 0)
		goto out;
	if (o.until_decided && until_finish(&u, s) < 0)
		goto out;
	rows = tps_xcalloc(res.n_rows + 1, sizeof(*rows));
	why = tps_xcalloc(res.n_rows + 1, sizeof(*why));
	for (k = 0; k < res.n_rows; k++) {
		const struct session_row *sr = &res.rows[k];
		const struct cell *c = &p.cells[sr->cell];

		rows[k] = (struct summary_row){
			.model = p.models[c->model].label, .engine = p.engines[c->engine].label,
			.n_max = c->n_max, .round = sr->round, .rounds = res.rounds,
			.status = sr->status, .n_ok = sr->n_ok, .n_failed = sr->n_failed,
			.pp = sr->pp, .tg = sr->tg, .accept = sr->accept, .why = sr->load_line,
		};
		/* A try measured again is not its round's instance; a spoiled one
		 * says why it decides nothing. */
		n_run += !sr->retried;
		n_retried += sr->retried != 0;
		if (sr->findings) {
			char names[128];

			n_spoiled++;
			spoiled_s += sr->wall_s;
			parity_env_names(sr->findings, names, sizeof(names));
			why[k] = tps_xasprintf("spoiled: %s%s", names,
					       sr->retried ? "; measured again" :
					       q.stop_row[c->model] == k ? "; model stopped" : "");
			if (!rows[k].why)
				rows[k].why = why[k];
		}
	}
	footer = summary_footer(&(struct summary_end){
		.n_run = n_run, .n_planned = res.n_planned, .n_bad = res.n_bad,
		.signal = res.signal, .store = store_path(s), .out_dir = out_dir,
		.attach = o.url != NULL, .warmup = o.c.warmup, .rounds = res.rounds,
		.batch = res.batch, .n_spoiled = n_spoiled, .spoiled_s = spoiled_s,
		.n_retried = n_retried }, rows, res.n_rows);
	summary_render(stdout, rows, res.n_rows);
	fputs(footer, stdout);
	fflush(stdout);
	if (o.until_decided)
		until_print_open(&u);
	if (summary_write_file(out_dir, rows, res.n_rows, footer) < 0)
		goto out;
	if (res.signal) {
		tps_error("interrupted by signal %d: the servers are stopped and the samples "
			  "taken are kept", res.signal);
		ret = TPS_EXIT_ERROR;
	} else {
		/* A model the machine kept busy leaves its cells open, as --max-rounds
		 * does; only when every model stopped was nothing measured quiet. */
		ret = res.n_bad || (p.n_models && q.n_stopped == p.n_models) ? TPS_EXIT_FAIL :
			TPS_EXIT_OK;
	}
out:
	interrupt_restore();
	until_state_release(&u);
	free(q.order);
	free(q.stopped);
	free(q.stop_row);
	for (k = 0; why && k < res.n_rows; k++)
		free(why[k]);
	free(why);
	free(rows);
	free(footer);
	free(out_dir);
	session_result_release(&res);
	prompts_release(&ps);
	plan_release(&p);
	setup_release(&o);
	return ret;
}

CMD_ENTRY(collect, "start engines, send prompts, record every timing", 0);
