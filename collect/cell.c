/* cell.c: runs one cell of the matrix. The server's lifetime is this function's:
 * it starts here and is stopped on every way out. Each sample is committed in its
 * own transaction as soon as it is measured, so an interrupt or a crash loses at
 * most the request in flight. */
#include "collect/cell.h"
#include "collect/http.h"
#include "collect/interrupt.h"
#include "collect/loaderr.h"
#include "collect/plan.h"
#include "collect/progress.h"
#include "collect/prompts.h"
#include "collect/props.h"
#include "collect/quality.h"
#include "collect/request.h"
#include "collect/response.h"
#include "collect/runenv.h"
#include "collect/server.h"
#include "collect/stream.h"
#include "collect/manifest.h"
#include "schema/store.h"
#include "schema/collector.h"
#include "tpsdb.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELL_PORT_TRIES 200
#define CELL_STOP_GRACE_S 10
#define CELL_LOG_TAIL_BYTES 4096
#define CELL_LOG_TAIL_LINES 25
#define CELL_PROPS_TIMEOUT_MS 10000
#define CELL_DEATH_WAIT_MS 500

/* What the request loop learns as it goes. */
struct tally {
	size_t n_ok, n_failed;
	double *pp, *tg;
	size_t n_pp, n_tg;
	int64_t drafted, accepted;
	int64_t seq;              /* requests the server answered; TPS_NULL attached */
	int dead;                 /* no more requests: dead_why says why */
	char dead_why[512];
	int timeouts_in_row;
	int interrupted;
};

static int pick_port(int base)
{
	int port;

	for (port = base; port < base + CELL_PORT_TRIES && port < 65536; port++) {
		if (server_port_free(port))
			return port;
	}
	return -1;
}

static void sanitize(char *s)
{
	for (; *s; s++) {
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '-' && *s != '_')
			*s = '_';
	}
}

/* <out>/<seq>-<model>-<engine>-<base|nN>-<uuid prefix>.log: readable, sorted in
 * the order the runs started, and unique across sessions that share an out dir. */
static void log_name(const struct cell_env *env, size_t k, size_t seq, const char *uuid,
		     char *out, size_t len)
{
	const struct cell *c = &env->plan->cells[k];
	char *m = tps_xstrdup(env->plan->models[c->model].label);
	char *e = tps_xstrdup(env->plan->engines[c->engine].label);

	sanitize(m);
	sanitize(e);
	if (c->n_max == TPS_NULL)
		snprintf(out, len, "%s/%02zu-%s-%s-base-%.8s.log", env->o->out_dir, seq + 1, m,
			 e, uuid);
	else
		snprintf(out, len, "%s/%02zu-%s-%s-n%lld-%.8s.log", env->o->out_dir, seq + 1, m,
			 e, (long long)c->n_max, uuid);
	free(m);
	free(e);
}

static char *dup_or_empty(const char *s)
{
	return tps_xstrdup(s ? s : "");
}

static void fill_run(const struct cell_env *env, size_t k, int64_t round,
		     const struct props *pr, const char *uuid, const char *started,
		     const char *log_path, struct run_rec *run)
{
	const struct collect_opts *o = env->o;
	const struct cell *c = &env->plan->cells[k];
	const struct engine_spec *e = &env->plan->engines[c->engine];
	const struct model_spec *m = &env->plan->models[c->model];

	run_rec_init(run);
	snprintf(run->uuid, sizeof(run->uuid), "%s", uuid);
	run->started_at = tps_xstrdup(started);
	run->status = tps_xstrdup("running");
	run->source = tps_xstrdup("collect");
	collector_self(run); /* so that a run this process never finishes is known orphaned */
	run->host.name = dup_or_empty(env->host->name);
	run->host.gpu = dup_or_empty(env->host->gpu);
	run->host.driver = dup_or_empty(env->host->driver);
	run->host.cuda = dup_or_empty(env->host->cuda);
	run->engine.label = tps_xstrdup(e->label);
	run->engine.role = tps_xstrdup(e->role);
	run->engine.version = dup_or_empty(pr && pr->build_info ? pr->build_info : e->version);
	run->engine.sha256 = dup_or_empty(e->sha256);
	run->model.label = tps_xstrdup(m->label);
	run->model.file = dup_or_empty(m->file);
	run->model.sha256 = dup_or_empty(m->sha256);
	run->model.quant = dup_or_empty(m->quant);
	run->model.bytes = m->bytes;
	run->ctx = pr && pr->n_ctx != TPS_NULL ? pr->n_ctx : o->url ? TPS_NULL : o->ctx;
	run->n_predict = o->n_predict;
	run->ignore_eos = 1;
	run->temperature = 0;
	run->seed = o->seed;
	run->warmup = o->warmup;
	run->endpoint = tps_xstrdup(o->chat ? "chat" : "completion");
	run->spec_type = tps_xstrdup(c->spec_type);
	run->n_max = c->n_max;
	run->drafter = tps_xstrdup(c->drafter);
	run->extra_args = tps_xstrdup(c->extra_args);
	run->spec_settings = dup_or_empty(c->spec_settings);
	run->tag = dup_or_empty(o->tag);
	run->notes = dup_or_empty(o->notes);
	run->log_path = log_path && *log_path ? tps_xstrdup(log_path) : NULL;
	run->round = round;
	run->looks_to = o->looks_to;
	run->looks_metric = o->looks_metric ? tps_xstrdup(o->looks_metric) : NULL;
	run->batch = env->batch ? tps_xstrdup(env->batch) : NULL;
}

/* Inserts the run (and, when status is not NULL, finishes it at once). */
static int64_t record_run(struct store *s, const struct run_rec *run, const char *status,
			  const char *load_error)
{
	int64_t id = -1;

	if (store_begin(s) < 0)
		return -1;
	id = store_run_insert(s, run);
	if (id < 0 || (status && store_run_finish(s, id, status, NULL, load_error) < 0) ||
	    store_commit(s) < 0) {
		store_rollback(s);
		return -1;
	}
	return id;
}

static void read_props(struct http *h, struct props *pr)
{
	struct http_reply r;
	char err[128];

	props_init(pr);
	if (http_get(h, "/props", CELL_PROPS_TIMEOUT_MS, &r) == 0 && r.status == 200 &&
	    props_parse(r.body, r.len, pr, err, sizeof(err)) < 0)
		props_init(pr);
	http_reply_release(&r);
}

/* Why the server cannot take more requests, or NULL while it can. In attach mode
 * a refused connection is the only sign. */
static int server_gone(struct server *srv, const struct http_reply *r, double wait_ms)
{
	if (srv)
		return server_wait_exit(srv, wait_ms);
	return r->fail == HTTP_FAIL_REFUSED;
}

/* Turns a reply and the stream read from it into smp (which has prompt, rep and
 * seq set already). A streamed answer is parsed by stream_finish(); a plain JSON
 * one (a server that ignores "stream") as before, with no client clock. Either
 * fails whole: an error and no measurement, never a part of one. */
static void sample_from_reply(struct sample_rec *smp, const struct http_reply *r,
			      struct stream *st, double timeout_s)
{
	struct response resp;
	char err[256];
	int rc;

	smp->wall_ms = r->wall_ms;
	switch (r->fail) {
	case HTTP_FAIL_NONE:
		break;
	case HTTP_FAIL_TIMEOUT:
		if (st->tokens)
			smp->error = tps_xasprintf("timeout: the stream stalled, no end within "
						   "%g s after %lld tokens (%s)", timeout_s,
						   (long long)st->tokens, r->error);
		else
			smp->error = tps_xasprintf("timeout: no answer within %g s (%s)",
						   timeout_s, r->error);
		return;
	case HTTP_FAIL_REFUSED:
		smp->error = tps_xasprintf("connection refused: %s", r->error);
		return;
	default:
		smp->error = tps_xasprintf("transport error: %s", r->error);
		return;
	}
	smp->http_status = r->status;
	if (r->status != 200) {
		char *msg = request_error_text(r->body, r->len);
		smp->error = tps_xasprintf("HTTP %ld: %s", r->status, msg);
		free(msg);
		return;
	}
	response_init(&resp);
	if (r->event_stream)
		rc = stream_finish(st, r->sent_ms, r->last_ms, &resp, err, sizeof(err));
	else
		rc = response_parse(r->body, r->len, &resp, err, sizeof(err));
	if (rc < 0) {
		smp->error = tps_xasprintf("bad response: %s", err);
		response_release(&resp);
		return;
	}
	/* Take the parsed fields; keep what the caller set. */
	smp->cache_n = resp.sample.cache_n;
	smp->prompt_n = resp.sample.prompt_n;
	smp->predicted_n = resp.sample.predicted_n;
	smp->draft_n = resp.sample.draft_n;
	smp->draft_n_accepted = resp.sample.draft_n_accepted;
	smp->prompt_ms = resp.sample.prompt_ms;
	smp->prompt_per_second = resp.sample.prompt_per_second;
	smp->predicted_ms = resp.sample.predicted_ms;
	smp->predicted_per_second = resp.sample.predicted_per_second;
	smp->repeat_share = resp.sample.repeat_share;
	smp->client_ttft_ms = resp.sample.client_ttft_ms;
	smp->client_decode_per_second = resp.sample.client_decode_per_second;
	smp->client_e2e_ms = resp.sample.client_e2e_ms;
	smp->stop_type = resp.sample.stop_type;
	smp->output_hash = resp.sample.output_hash;
	smp->timings = resp.sample.timings;
	resp.sample.stop_type = resp.sample.output_hash = resp.sample.timings = NULL;
	response_release(&resp);
}

static void tally_sample(struct tally *t, const struct sample_rec *smp)
{
	double pp, tg;

	if (smp->flags & SAMPLE_FAILED) {
		t->n_failed++;
		return;
	}
	t->n_ok++;
	/* The rates the store keeps (schema/record.h), not the engine's own words. */
	pp = record_pp_rate(smp);
	tg = record_tg_rate(smp);
	if (!(smp->flags & SAMPLE_SPOILS_PP) && !isnan(pp)) {
		t->pp = tps_xrealloc(t->pp, (t->n_pp + 1) * sizeof(*t->pp));
		t->pp[t->n_pp++] = pp;
	}
	if (!(smp->flags & SAMPLE_SPOILS_TG) && !isnan(tg)) {
		t->tg = tps_xrealloc(t->tg, (t->n_tg + 1) * sizeof(*t->tg));
		t->tg[t->n_tg++] = tg;
	}
	if (smp->draft_n != TPS_NULL && smp->draft_n_accepted != TPS_NULL) {
		t->drafted += smp->draft_n;
		t->accepted += smp->draft_n_accepted;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void on_piece(void *arg, const char *p, size_t n, double t_ms)
{
	stream_feed(arg, p, n, t_ms);
}

/* Sends one request, its answer read into st as it streams (NULL: not read), and,
 * for a transport failure, decides whether the server is gone. Updates seq, the
 * timeout streak and the dead/interrupted state. */
static void exchange(struct tally *t, struct http *h, struct server *srv,
		     const char *path, const char *body, long timeout_ms,
		     struct stream *st, struct http_reply *r)
{
	int got = http_post_stream(h, path, body, timeout_ms, st ? on_piece : NULL, st,
				   r) == 0;

	if (r->fail == HTTP_FAIL_ABORTED) {
		t->interrupted = 1;
		return;
	}
	/* A timed-out request was received: the server counts it, so we do too. */
	if (t->seq != TPS_NULL && (got || r->fail == HTTP_FAIL_TIMEOUT))
		t->seq++;
	t->timeouts_in_row = r->fail == HTTP_FAIL_TIMEOUT ? t->timeouts_in_row + 1 : 0;
	if (got)
		return;
	if (server_gone(srv, r, r->fail == HTTP_FAIL_TIMEOUT ? 0 : CELL_DEATH_WAIT_MS)) {
		t->dead = 1;
		if (srv)
			snprintf(t->dead_why, sizeof(t->dead_why), "the server %s",
				 server_state(srv));
		else
			snprintf(t->dead_why, sizeof(t->dead_why), "nothing listens at %s any more",
				 http_base(h));
	} else if (t->timeouts_in_row >= CELL_MAX_TIMEOUTS_IN_ROW) {
		t->dead = 1;
		snprintf(t->dead_why, sizeof(t->dead_why), "%d requests in a row timed out",
			 t->timeouts_in_row);
	}
}

static int commit_sample(struct store *s, int64_t run_id, const struct sample_rec *smp)
{
	if (store_begin(s) < 0)
		return -1;
	if (store_sample_insert(s, run_id, smp) < 0 || store_commit(s) < 0) {
		store_rollback(s);
		return -1;
	}
	return 0;
}

/* The warm-ups and then every prompt reps times, rep by rep (the model's own
 * reps when collect planned them, else --reps). -1 on a store error. */
static int send_prompts(const struct cell_env *env, size_t k, int64_t run_id,
			const struct run_rec *run, struct http *h, struct server *srv,
			struct tally *t)
{
	const struct collect_opts *o = env->o;
	const struct prompt_set *ps = env->prompts;
	struct request_opts ro = { o->chat, o->n_predict, o->seed, o->ban_byte_tokens };
	const char *path = request_path(&ro);
	long timeout_ms = (long)(o->request_timeout_s * 1000);
	int64_t reps = env->plan->models[env->plan->cells[k].model].reps > 0 ?
		       env->plan->models[env->plan->cells[k].model].reps : o->reps;
	size_t total = (size_t)reps * ps->n, done = 0, i;
	char **bodies = tps_xcalloc(ps->n, sizeof(*bodies));
	struct http_reply r;
	int64_t w, rep;
	int ret = -1;

	for (i = 0; i < ps->n; i++)
		bodies[i] = request_body(&ro, ps->v[i].text);
	progress_requests(env->progress, 0, total);
	for (w = 0; w < o->warmup && !t->dead && !t->interrupted; w++) {
		exchange(t, h, srv, path, bodies[(size_t)w % ps->n], timeout_ms, NULL, &r);
		http_reply_release(&r);
	}
	for (rep = 1; rep <= reps; rep++) {
		for (i = 0; i < ps->n; i++) {
			struct sample_rec smp;

			if (t->interrupted || interrupt_pending()) {
				t->interrupted = 1;
				goto done;
			}
			sample_rec_init(&smp);
			smp.prompt_name = tps_xstrdup(ps->v[i].name);
			memcpy(smp.prompt_hash, ps->v[i].hash, sizeof(smp.prompt_hash));
			smp.rep = rep;
			if (t->dead) {
				smp.error = tps_xasprintf("not attempted: %s", t->dead_why);
			} else {
				struct stream st;

				smp.seq = t->seq;
				stream_init(&st);
				exchange(t, h, srv, path, bodies[i], timeout_ms, &st, &r);
				if (t->interrupted) {
					/* A cut-short request is no measurement. */
					http_reply_release(&r);
					stream_release(&st);
					sample_rec_release(&smp);
					goto done;
				}
				sample_from_reply(&smp, &r, &st, o->request_timeout_s);
				stream_release(&st);
				if (t->dead && smp.error) {
					char *e = tps_xasprintf("%s (%s)", smp.error, t->dead_why);
					free(smp.error);
					smp.error = e;
				}
				http_reply_release(&r);
			}
			smp.flags = quality_assess(run, &smp);
			if (commit_sample(env->store, run_id, &smp) < 0) {
				sample_rec_release(&smp);
				goto out;
			}
			tally_sample(t, &smp);
			sample_rec_release(&smp);
			progress_requests(env->progress, ++done, total);
		}
	}
done:
	ret = 0;
out:
	for (i = 0; i < ps->n; i++)
		free(bodies[i]);
	free(bodies);
	return ret;
}

int cell_measure(const struct cell_env *env, size_t k, size_t seq, int64_t round,
		 struct cell_result *res)
{
	const struct collect_opts *o = env->o;
	struct cell *c = &env->plan->cells[k];
	struct engine_spec *e = &env->plan->engines[c->engine];
	struct model_spec *m = &env->plan->models[c->model];
	struct tally t = { 0 };
	struct run_rec run;
	struct props pr;
	struct server *srv = NULL;
	struct http *h = NULL;
	char **argv = NULL;
	char *url = NULL, *tail = NULL, *load_error = NULL, *env_json = NULL, *csv = NULL;
	char started[32], why[512], uuid[40];
	struct runenv *renv = NULL;
	double t_start = NAN, t_ready = NAN;
	const char *status;
	int64_t run_id = -1;
	int ret = -1, port;

	memset(res, 0, sizeof(*res));
	snprintf(res->status, sizeof(res->status), "failed");
	res->pp = res->tg = res->accept = NAN;
	res->gpu_index = -1;
	run_rec_init(&run);
	props_init(&pr);
	tps_now_iso(started, sizeof(started));
	if (tps_uuid4(uuid, sizeof(uuid)) < 0)
		goto out;
	progress_cell(env->progress, seq, round, m->label, e->label, c->n_max,
		      o->url ? "attaching" : "loading");
	if (o->url) {
		url = tps_xstrdup(o->url);
		t.seq = TPS_NULL; /* what the server answered before us is unknown */
	} else {
		port = pick_port(o->base_port);
		if (port < 0) {
			tps_error("no free port on 127.0.0.1 from %d to %d", o->base_port,
				  o->base_port + CELL_PORT_TRIES - 1);
			goto out;
		}
		log_name(env, k, seq, uuid, res->log_path, sizeof(res->log_path));
		argv = plan_argv(env->plan, c, port, o->ctx);
		renv = runenv_new(o->gpu);
		runenv_before(renv); /* the GPU as the server finds it */
		/* llama.cpp prints where layers and the KV cache went at INFO, above its
		 * default verbosity (3): ask for 4 unless the user chose. Other engines
		 * ignore the variable. */
		setenv("LLAMA_ARG_LOG_VERBOSITY", "4", 0);
		t_start = tps_mono_ms();
		/* A signal during the GPU's reading starts no server: the run is
		 * recorded interrupted below, by the readiness wait. */
		if (!interrupt_pending() &&
		    !(srv = server_start(argv, o->gpu, e->home, res->log_path)))
			goto out;
		url = tps_xasprintf("http://127.0.0.1:%d", port);
	}
	if (!(h = http_new(url)))
		goto out;
	if (server_wait_ready(h, srv, o->load_timeout_s, &t_ready, progress_tick,
			      env->progress, why, sizeof(why)) < 0) {
		if (interrupt_pending()) {
			status = "interrupted";
		} else {
			status = "failed";
			res->load_failed = 1;
			tail = srv ? server_log_tail(res->log_path, CELL_LOG_TAIL_BYTES,
						     CELL_LOG_TAIL_LINES) : tps_xstrdup("");
			load_error = tps_xasprintf("%s%s%s", why, *tail ? "\n" : "", tail);
			res->load_line = loaderr_line(load_error);
		}
		http_free(h);
		h = NULL;
		server_stop(srv, CELL_STOP_GRACE_S);
		fill_run(env, k, round, NULL, uuid, started, res->log_path, &run);
		if (record_run(env->store, &run, status, load_error) < 0)
			goto out;
		snprintf(res->status, sizeof(res->status), "%s", status);
		ret = 0;
		goto out;
	}
	read_props(h, &pr);
	if (pr.build_info) {
		free(e->version);
		e->version = tps_xstrdup(pr.build_info);
	}
	if (!o->url && pr.n_ctx != TPS_NULL && pr.n_ctx != o->ctx) {
		progress_clear(env->progress);
		tps_warning("%s asked for -c %lld but its slot has n_ctx %lld", e->label,
			    (long long)o->ctx, (long long)pr.n_ctx);
	}
	fill_run(env, k, round, &pr, uuid, started, res->log_path, &run);
	if ((run_id = record_run(env->store, &run, NULL, NULL)) < 0)
		goto out;
	if (!renv)
		renv = runenv_new(NULL); /* attach mode: the host, and a GPU if any */
	if (*res->log_path)
		csv = tps_xasprintf("%s.gpu.csv", res->log_path);
	runenv_begin(renv, srv ? server_pid(srv) : -1, csv);
	if (send_prompts(env, k, run_id, &run, h, srv, &t) < 0) {
		/* The store failed, and said so: leave the run honest if we still can
		 * (a full disk may not let us; then its collector fields tell). */
		store_run_abandon(env->store, run_id);
		goto out;
	}
	if (t.interrupted || interrupt_pending())
		status = "interrupted";
	else if (t.n_failed == 0 && t.n_ok > 0)
		status = "complete";
	else if (t.n_ok > 0)
		status = "partial";
	else
		status = "failed";
	runenv_end(renv); /* while the server still runs: its GPU and its CPU time */
	/* Our connection goes first: a server waits for open clients as it shuts down. */
	http_free(h);
	h = NULL;
	server_stop(srv, CELL_STOP_GRACE_S);
	env_json = runenv_finish(renv, res->log_path, isnan(t_start) ? NAN : t_ready - t_start);
	if (srv && t.dead && server_exited(srv)) {
		tail = server_log_tail(res->log_path, CELL_LOG_TAIL_BYTES, CELL_LOG_TAIL_LINES);
		load_error = tps_xasprintf("%s during the run%s%s", t.dead_why, *tail ? "\n" : "",
					   tail);
	}
	if (store_begin(env->store) < 0)
		goto out;
	if (store_run_finish(env->store, run_id, status, NULL, load_error) < 0 ||
	    store_run_env(env->store, run_id, env_json) < 0 ||
	    store_commit(env->store) < 0) {
		store_rollback(env->store);
		goto out;
	}
	snprintf(res->status, sizeof(res->status), "%s", status);
	res->n_ok = t.n_ok;
	res->n_failed = t.n_failed;
	res->pp = median(t.pp, t.n_pp);
	res->tg = median(t.tg, t.n_tg);
	res->accept = t.drafted > 0 ? (double)t.accepted / (double)t.drafted : NAN;
	res->gpu_index = runenv_gpu(renv);
	res->env = env_json;
	env_json = NULL;
	ret = 0;
out:
	http_free(h);
	server_free(srv);
	manifest_free_args(argv);
	props_release(&pr);
	run_rec_release(&run);
	free(url);
	free(tail);
	free(load_error);
	free(t.pp);
	free(t.tg);
	free(env_json);
	free(csv);
	runenv_free(renv);
	return ret;
}
