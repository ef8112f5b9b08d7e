/* setup.c: from what 'tpsdb collect' was told to the plan it walks. Options come
 * first; the seed harness's variables (OURS_BIN, MODELS_MANIFEST, PORT ...) fill in
 * only what no option gave; then the manifests, the prompts and, in attach mode,
 * the running server's /props name the models, and plan_build() makes the cells;
 * last, every binary and model file is checked, before anything starts. */
#include "collect/setup.h"

#include "collect/dialect.h"
#include "collect/filehash.h"
#include "collect/http.h"
#include "collect/interrupt.h"
#include "collect/manifest.h"
#include "collect/plan.h"
#include "collect/prompts.h"
#include "collect/props.h"
#include "collect/server.h"
#include "tpsdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file that must be there before anything starts: an engine's binary (run) or a
 * model's gguf (read), and where it was named, for the error line. */
struct file_check {
	char *where;   /* "--engine 'ours'", "OURS_BIN", "<manifest>:<line>" ... */
	char *path;
	int run;       /* 1: executed; 0: read */
};

struct file_checks {
	struct file_check *v;
	size_t n;
};

void setup_init(struct collect_setup *s, const char *usage)
{
	memset(s, 0, sizeof(*s));
	s->usage = usage;
	/* One pass over the prompts: the instance is the unit (tpsdb plan on the
	 * H200 finds 2 to 4 requests an instance cheapest, 27 cost three times as
	 * much), and every prompt is kept for the speculative cells' acceptance. */
	s->c.reps = 1;
	s->c.ctx = 4096;
	s->c.seed = 1234;
	s->c.warmup = 1;
	s->c.looks_to = INT64_MIN; /* TPS_NULL: a fixed design */
	s->c.load_timeout_s = 600;
	s->c.request_timeout_s = 600;
	s->wait_quiet_s = SETUP_WAIT_QUIET_S;
	s->max_spoiled = SETUP_MAX_SPOILED;
}

static void pairs_add(struct setup_pairs *k, const char *key, const char *value)
{
	k->v = tps_xrealloc(k->v, (k->n + 1) * sizeof(*k->v));
	k->v[k->n].key = tps_xstrdup(key);
	k->v[k->n].value = value ? tps_xstrdup(value) : NULL;
	k->n++;
}

static void pairs_release(struct setup_pairs *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].key);
		free(k->v[i].value);
	}
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

void setup_release(struct collect_setup *s)
{
	pairs_release(&s->engines);
	pairs_release(&s->roles);
	pairs_release(&s->engine_args);
	pairs_release(&s->homes);
	pairs_release(&s->models);
}

int setup_add_pair(const struct collect_setup *s, struct setup_pairs *list,
		   const char *opt, const char *arg, int need_value)
{
	const char *eq = strchr(arg, '=');
	char *key;

	if (eq == arg || (!eq && need_value) || !*arg)
		return tps_usage_error(s->usage, "--%s needs <label>=<value>, not '%s'", opt,
				       arg);
	key = tps_xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	pairs_add(list, key, eq ? eq + 1 : NULL);
	free(key);
	return 0;
}

int setup_parse_count(const struct collect_setup *s, const char *opt, const char *arg,
		      int64_t min, int64_t max, int64_t *out)
{
	if (tps_parse_i64(arg, out) < 0 || *out < min || *out > max)
		return tps_usage_error(s->usage, "--%s needs a whole number from %lld to %lld, "
				       "not '%s'", opt, (long long)min, (long long)max, arg);
	return 0;
}

int setup_parse_duration(const struct collect_setup *s, const char *opt, const char *arg,
			 double *out)
{
	static const struct { char unit; double secs; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 },
	};
	size_t n = strlen(arg), i;
	char num[64];

	for (i = 0; n > 1 && n < sizeof(num) && i < sizeof(units) / sizeof(units[0]); i++) {
		if (arg[n - 1] != units[i].unit)
			continue;
		memcpy(num, arg, n - 1);
		num[n - 1] = '\0';
		if (tps_parse_double(num, out) < 0 || !(*out > 0))
			break;
		*out *= units[i].secs;
		if (*out > 7 * 86400)
			break;
		return 0;
	}
	return tps_usage_error(s->usage, "--%s needs a time such as 90s, 8m or 1h, not '%s'",
			       opt, arg);
}

const char *setup_getenv(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* Adds path to the files to check; where is a heap string fc takes. */
static void checks_add(struct file_checks *fc, int run, const char *path, char *where)
{
	fc->v = tps_xrealloc(fc->v, (fc->n + 1) * sizeof(*fc->v));
	fc->v[fc->n].where = where;
	fc->v[fc->n].path = tps_xstrdup(path);
	fc->v[fc->n].run = run;
	fc->n++;
}

/* Adds the draft model that the server args args name (drafter=, -md ...), if
 * any, to read; where is a heap string fc takes. Args that do not split add
 * nothing: the plan says what is wrong with them. */
static void checks_add_draft(struct file_checks *fc, const char *args, char *where)
{
	char **words = NULL;
	const char *draft = NULL;
	struct spec_terms t;
	size_t n = 0;
	char err[256];

	if (*args && manifest_split_args(args, &words, &n, err, sizeof(err)) == 0)
		draft = manifest_spec_terms(words, &t, err, sizeof(err)) == 0 && t.drafter ?
			t.drafter : plan_draft_model(words);
	if (draft)
		checks_add(fc, 0, draft, where);
	else
		free(where);
	manifest_free_args(words);
}

static void checks_release(struct file_checks *fc)
{
	for (size_t i = 0; i < fc->n; i++) {
		free(fc->v[i].where);
		free(fc->v[i].path);
	}
	free(fc->v);
	fc->v = NULL;
	fc->n = 0;
}

/* Each binary must be a regular file we may execute and each model one we may
 * read, checked in the order they were named. A server started anyway would only
 * fail to load, after the store was opened and the engines before it had run.
 * 0, or TPS_EXIT_USAGE after one error line for the first that fails. */
static int check_files(const struct file_checks *fc)
{
	for (size_t i = 0; i < fc->n; i++) {
		const struct file_check *f = &fc->v[i];
		const char *why = NULL;
		struct stat st;
		char *found;

		if (f->run && !strchr(f->path, '/')) {
			/* Servers start through execvp(): a bare name is what PATH finds. */
			if (!(found = filehash_resolve(f->path)))
				why = "not found in PATH";
			free(found);
		} else if (stat(f->path, &st) < 0) {
			why = strerror(errno);
		} else if (!S_ISREG(st.st_mode)) {
			why = "not a regular file";
		} else if (access(f->path, f->run ? X_OK : R_OK) < 0) {
			why = f->run ? "not executable" : strerror(errno);
		}
		if (why) {
			tps_error("%s: cannot %s '%s': %s", f->where, f->run ? "run" : "read",
				  f->path, why);
			return TPS_EXIT_USAGE;
		}
	}
	return 0;
}

/* The seed harness's variables, for a command line with no engine at all. */
static int apply_env(struct collect_setup *o, struct plan *p, struct file_checks *fc)
{
	static const struct {
		const char *var, *label, *role, *args_var, *default_args;
	} engines[] = {
		{ "OURS_BIN", "ours", "ours", "OURS_ARGS", "" },
		{ "STOCK_LLAMAFILE", "stock-llamafile", "upstream", "STOCK_LLAMAFILE_ARGS",
		  "--server --nobrowser" },
		{ "STOCK_LLAMACPP", "llama.cpp", "upstream", "STOCK_LLAMACPP_ARGS", "" },
	};
	const char *v;
	int64_t n;
	char err[256];

	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		struct engine_spec *e;
		const char *args;
		if (!(v = setup_getenv(engines[i].var)))
			continue;
		e = plan_add_engine(p, engines[i].label, v, err, sizeof(err));
		if (!e)
			return tps_usage_error(o->usage, "%s", err);
		checks_add(fc, 1, v, tps_xstrdup(engines[i].var));
		free(e->role);
		e->role = tps_xstrdup(engines[i].role);
		args = getenv(engines[i].args_var);
		free(e->args);
		e->args = tps_xstrdup(args ? args : engines[i].default_args);
		if (!strcmp(engines[i].label, "stock-llamafile")) {
			/* Never let it load a GPU library another build cached in ~/.llamafile. */
			if ((v = setup_getenv("STOCKLF_HOME")))
				e->home = tps_xstrdup(v);
			else
				e->fresh_home = 1;
		}
	}
	if (!p->n_engines)
		return tps_usage_error(o->usage, "no engine: give --engine <label>=<binary> "
				       "or --url, or set OURS_BIN, STOCK_LLAMAFILE or "
				       "STOCK_LLAMACPP");
	if (!o->models_file && !o->models.n)
		o->models_file = setup_getenv("MODELS_MANIFEST");
	if (!o->spec_file)
		o->spec_file = setup_getenv("MTP_MANIFEST");
	if (!o->c.gpu)
		o->c.gpu = setup_getenv("GPU");
	if (!o->out_dir)
		o->out_dir = setup_getenv("OUT_DIR");
	if (o->c.base_port == 0 && (v = setup_getenv("PORT"))) {
		if (setup_parse_count(o, "port (PORT)", v, 1, 65535, &n))
			return TPS_EXIT_USAGE;
		o->c.base_port = (int)n;
	}
	if (o->c.n_predict == 0 && (v = setup_getenv("NPRED"))) {
		if (setup_parse_count(o, "n-predict (NPRED)", v, 1, 1 << 24, &o->c.n_predict))
			return TPS_EXIT_USAGE;
	}
	return 0;
}
/* Reads and parses a manifest into m: 3 when it cannot be read, 2 on a bad line. */
static int load_manifest(struct manifest *m, enum manifest_kind kind, const char *path)
{
	char err[1024];
	char *text = tps_read_text(path);
	int ret = 0;

	if (!text)
		return TPS_EXIT_ERROR;
	if (manifest_parse(m, kind, text, path, err, sizeof(err)) < 0) {
		tps_error("%s", err);
		ret = TPS_EXIT_USAGE;
	}
	free(text);
	return ret;
}

/* Engines from --engine and the roles, args and homes that go with them. */
static int build_engines(struct collect_setup *o, struct plan *p, struct file_checks *fc)
{
	char err[256];
	size_t i;

	for (i = 0; i < o->engines.n; i++) {
		const struct setup_pair *kv = &o->engines.v[i];
		if (o->url && kv->value)
			return tps_usage_error(o->usage, "attach mode takes --engine <label>, "
					       "without a binary");
		if (!o->url && !kv->value)
			return tps_usage_error(o->usage, "--engine needs <label>=<binary>, not "
					       "'%s'", kv->key);
		if (!o->url && !*kv->value)
			return tps_usage_error(o->usage, "engine '%s' has an empty binary",
					       kv->key);
		if (!plan_add_engine(p, kv->key, kv->value, err, sizeof(err)))
			return tps_usage_error(o->usage, "%s", err);
		if (kv->value)
			checks_add(fc, 1, kv->value, tps_xasprintf("--engine '%s'", kv->key));
	}
	if (o->url && p->n_engines != 1)
		return tps_usage_error(o->usage, "attach mode measures one engine: give "
				       "exactly one --engine <label>");
	if (o->ours) {
		struct engine_spec *e = plan_find_engine(p, o->ours);
		if (!e)
			return tps_usage_error(o->usage, "--ours '%s' is not an engine", o->ours);
		free(e->role);
		e->role = tps_xstrdup("ours");
	}
	for (i = 0; i < o->roles.n; i++) {
		struct engine_spec *e = plan_find_engine(p, o->roles.v[i].key);
		if (!e)
			return tps_usage_error(o->usage, "--role: '%s' is not an engine",
					       o->roles.v[i].key);
		if (!plan_role_valid(o->roles.v[i].value))
			return tps_usage_error(o->usage, "--role: '%s' is not ours, upstream or "
					       "other", o->roles.v[i].value);
		free(e->role);
		e->role = tps_xstrdup(o->roles.v[i].value);
	}
	for (i = 0; i < o->engine_args.n; i++) {
		struct engine_spec *e = plan_find_engine(p, o->engine_args.v[i].key);
		char **words = NULL;
		size_t nw = 0;
		if (!e)
			return tps_usage_error(o->usage, "--engine-args: '%s' is not an engine",
					       o->engine_args.v[i].key);
		if (manifest_split_args(o->engine_args.v[i].value, &words, &nw, err,
					sizeof(err)) < 0) {
			manifest_free_args(words);
			return tps_usage_error(o->usage, "--engine-args: %s", err);
		}
		manifest_free_args(words);
		free(e->args);
		e->args = tps_xstrdup(o->engine_args.v[i].value);
	}
	for (i = 0; i < o->homes.n; i++) {
		struct engine_spec *e = plan_find_engine(p, o->homes.v[i].key);
		if (!e)
			return tps_usage_error(o->usage, "--home: '%s' is not an engine",
					       o->homes.v[i].key);
		free(e->home);
		e->home = tps_xstrdup(o->homes.v[i].value);
		e->fresh_home = 0;
	}
	return 0;
}

/* Models from --models, --model and --spec-manifest, in that order; their files
 * (and the draft models their lines name) go into fc. */
static int build_models(struct collect_setup *o, struct plan *p, struct file_checks *fc)
{
	struct manifest mm = { 0 }, sm = { 0 };
	char err[1024];
	size_t i;
	int ret = TPS_EXIT_USAGE, r;

	if (o->models_file && (r = load_manifest(&mm, MANIFEST_MODELS, o->models_file))) {
		ret = r;
		goto out;
	}
	if (o->spec_file && (r = load_manifest(&sm, MANIFEST_SPEC, o->spec_file))) {
		ret = r;
		goto out;
	}
	for (i = 0; i < mm.n; i++) {
		if (!plan_add_model(p, mm.v[i].label, mm.v[i].path, mm.v[i].args, err,
				    sizeof(err))) {
			tps_error("%s:%d: %s", o->models_file, mm.v[i].line, err);
			goto out;
		}
		checks_add(fc, 0, mm.v[i].path, tps_xasprintf("%s:%d", o->models_file,
							     mm.v[i].line));
		checks_add_draft(fc, mm.v[i].args, tps_xasprintf("%s:%d", o->models_file,
								 mm.v[i].line));
	}
	for (i = 0; i < o->models.n; i++) {
		const struct setup_pair *kv = &o->models.v[i];
		if (!kv->value || !*kv->value) {
			tps_usage_error(o->usage, "--model needs <label>=<gguf>, not '%s'",
					kv->key);
			goto out;
		}
		if (!plan_add_model(p, kv->key, kv->value, "", err, sizeof(err))) {
			tps_usage_error(o->usage, "--model: %s", err);
			goto out;
		}
		checks_add(fc, 0, kv->value, tps_xasprintf("--model '%s'", kv->key));
	}
	for (i = 0; i < sm.n; i++) {
		char *where = tps_xasprintf("%s:%d", o->spec_file, sm.v[i].line);

		r = plan_add_spec(p, &sm.v[i], where, err, sizeof(err));
		free(where);
		if (r < 0) {
			tps_error("%s:%d: %s", o->spec_file, sm.v[i].line, err);
			goto out;
		}
		checks_add(fc, 0, sm.v[i].path, tps_xasprintf("%s:%d", o->spec_file,
							     sm.v[i].line));
		checks_add_draft(fc, sm.v[i].args, tps_xasprintf("%s:%d", o->spec_file,
								 sm.v[i].line));
	}
	ret = 0;
out:
	manifest_release(&mm);
	manifest_release(&sm);
	return ret;
}

static int load_prompts(const struct collect_setup *o, struct prompt_set *ps)
{
	char err[1024];
	char *text;
	int ret = 0;

	if (!o->prompts_file) {
		prompts_builtin(ps, !o->no_reference, o->c.chat);
		return 0;
	}
	if (!(text = tps_read_text(o->prompts_file)))
		return TPS_EXIT_ERROR;
	if (prompts_parse(ps, text, o->prompts_file, !o->no_reference, o->c.chat, err,
			  sizeof(err)) < 0) {
		tps_error("%s", err);
		ret = TPS_EXIT_USAGE;
	}
	free(text);
	return ret;
}
/* Attach mode: wait for the server, then name the model from /props. */
static int attach_model(const struct collect_setup *o, struct plan *p)
{
	struct http *h = http_new(o->url);
	struct http_reply r;
	struct props pr;
	char why[512], err[256];
	const char *label = NULL, *path;
	int ret = TPS_EXIT_ERROR;

	props_init(&pr);
	if (!h)
		goto out;
	if (server_wait_ready(h, NULL, o->c.load_timeout_s, NULL, NULL, NULL, why,
			      sizeof(why)) < 0) {
		tps_error("cannot measure '%s': %s", o->url, why);
		goto out;
	}
	if (http_get(h, "/props", 10000, &r) == 0 && r.status == 200)
		props_parse(r.body, r.len, &pr, err, sizeof(err));
	http_reply_release(&r);
	if (o->models.n > 1 || (o->models.n == 1 && o->models.v[0].value)) {
		ret = tps_usage_error(o->usage, "attach mode takes one --model <label>");
		goto out;
	}
	path = pr.model_path;
	if (o->models.n)
		label = o->models.v[0].key;
	else if (path)
		label = plan_base_name(path);
	if (!label) {
		ret = tps_usage_error(o->usage, "the server does not say its model_path: give "
				      "--model <label>");
		goto out;
	}
	if (!plan_add_model(p, label, path ? path : label, "", err, sizeof(err))) {
		tps_error("%s", err);
		goto out;
	}
	ret = 0;
out:
	props_release(&pr);
	http_free(h);
	return ret;
}
/* --until-decided compares the ours engine with every other: it needs one of each. */
static int check_until_decided(const struct collect_setup *o, const struct plan *p)
{
	if (!setup_ours(p))
		return tps_usage_error(o->usage, "--until-decided needs --ours <label>: the "
				       "engine the others are compared with");
	if (p->n_engines < 2)
		return tps_usage_error(o->usage, "--until-decided needs at least two engines");
	return 0;
}

size_t setup_ours_index(const struct plan *p)
{
	size_t i;

	for (i = 0; i < p->n_engines; i++)
		if (p->engines[i].role && !strcmp(p->engines[i].role, "ours"))
			return i;
	return SIZE_MAX;
}

const char *setup_ours(const struct plan *p)
{
	size_t i = setup_ours_index(p);

	return i == SIZE_MAX ? NULL : p->engines[i].label;
}

/* The options against each other: 0, or TPS_EXIT_USAGE after a usage error. */
static int check_options(struct collect_setup *o)
{
	if (o->endpoint && strcmp(o->endpoint, "completion") && strcmp(o->endpoint, "chat"))
		return tps_usage_error(o->usage, "--endpoint is completion or chat, not '%s'",
				       o->endpoint);
	o->c.chat = o->endpoint && !strcmp(o->endpoint, "chat");
	if (o->aa && o->rounds && o->rounds != 2)
		return tps_usage_error(o->usage, "--aa is --rounds 2; it contradicts --rounds "
				       "%lld", (long long)o->rounds);
	if (o->question_set && !o->until_decided)
		return tps_usage_error(o->usage, "--question goes with --until-decided");
	if (o->max_rounds && !o->until_decided)
		return tps_usage_error(o->usage, "--max-rounds goes with --until-decided");
	if (o->budget_s && !o->until_decided)
		return tps_usage_error(o->usage, "--budget goes with --until-decided: it bounds "
				       "the server time its rounds spend");
	if (o->metric && !o->until_decided)
		return tps_usage_error(o->usage, "--metric goes with --until-decided: it names "
				       "the metric whose answer stops the rounds");
	if (o->until_decided && (o->aa || o->rounds))
		return tps_usage_error(o->usage, "--until-decided picks the number of rounds "
				       "itself; it takes --max-rounds, not --rounds or --aa");
	if (o->url && o->until_decided)
		return tps_usage_error(o->usage, "--until-decided starts every engine once per "
				       "round; attach mode measures one running server");
	if (o->url && (o->aa || o->rounds > 1))
		return tps_usage_error(o->usage, "--rounds and --aa start every engine once "
				       "per round; attach mode measures one running server");
	if (!o->url && (o->spec_type || o->n_max))
		return tps_usage_error(o->usage, "--spec-type and --n-max describe an attached "
				       "server; use --spec-manifest to start speculative runs");
	if (o->url && (o->models_file || o->spec_file || o->engine_args.n || o->homes.n))
		return tps_usage_error(o->usage, "attach mode takes no manifests, --engine-args "
				       "or --home: the server is already running");
	return 0;
}

/* What setup_plan() does after the options and before the cells: the engines,
 * models and prompts, with every binary and model file named put into fc. */
static int build_plan(struct collect_setup *o, struct plan *p, struct prompt_set *ps,
		      struct file_checks *fc)
{
	int r;

	/* The environment's engines take --ours, --role, --engine-args and --home too. */
	if (!o->engines.n && !o->url && (r = apply_env(o, p, fc)))
		return r;
	if ((r = build_engines(o, p, fc)))
		return r;
	if (!o->c.base_port)
		o->c.base_port = 18080;
	if (!o->c.n_predict)
		o->c.n_predict = 512;
	if (!o->url && (r = build_models(o, p, fc)))
		return r;
	if ((r = load_prompts(o, ps)))
		return r;
	if (o->url) {
		http_global_init();
		interrupt_install();
		if ((r = attach_model(o, p)))
			return interrupt_pending() ? TPS_EXIT_ERROR : r;
	}
	if (o->until_decided && (r = check_until_decided(o, p)))
		return r;
	return 0;
}

/* Reads each engine's dialect when the plan has speculative cells, settles the
 * knobs the lines leave unset (plan_spec_settle()), and spells every engine's
 * sweep of every model once: an engine that lacks a knob is refused here, before
 * anything starts. 0; TPS_EXIT_USAGE after one error line naming the spec
 * manifest line, the engine and the knob; TPS_EXIT_ERROR after one naming the
 * line, the engine and why its --help could not be read, when a line in tpsdb's
 * terms needs it (a raw line runs on, n_max spelled as before dialects, after a
 * warning with the same cause). */
static int check_dialects(struct plan *p)
{
	char err[1024], **why = NULL;
	size_t ei, mi, n;
	int ret = 0;

	if (!plan_has_spec(p))
		return 0;
	/* A --help that hangs is stopped at a signal, not at its deadline; the
	 * session keeps these handlers (cmd/ restores them at the end). */
	interrupt_install();
	why = tps_xcalloc(p->n_engines, sizeof(*why));
	for (ei = 0; ei < p->n_engines; ei++) {
		/* Unknown stays NULL: a raw line is spelled as before dialects, and a line
		 * in tpsdb's terms is refused below, naming the engine and the cause. */
		if (p->engines[ei].binary &&
		    dialect_detect(p->engines[ei].binary, &p->engines[ei].dialect, err,
				   sizeof(err)) < 0)
			why[ei] = tps_xstrdup(err);
		if (interrupt_pending()) {
			tps_error("interrupted by signal %d while reading '%s --help'",
				  interrupt_pending(), p->engines[ei].binary);
			ret = TPS_EXIT_ERROR;
			goto out;
		}
	}
	/* The knobs a line leaves unset, alike on every engine (plan_spec_settle()). */
	if (plan_spec_settle(p, err, sizeof(err)) < 0) {
		tps_error("%s", err);
		ret = TPS_EXIT_USAGE;
		goto out;
	}
	for (mi = 0; mi < p->n_models; mi++) {
		const struct model_spec *m = &p->models[mi];
		const char *where = m->spec_where ? m->spec_where : m->label;

		for (ei = 0; ei < p->n_engines && m->n_n_max; ei++) {
			char **words = NULL;
			int r;

			if (why[ei] && plan_spec_given(p, mi) == 1) {
				tps_error("%s: engine '%s': %s", where, p->engines[ei].label,
					  why[ei]);
				ret = TPS_EXIT_ERROR;
				goto out;
			}
			r = plan_spec_words(p, ei, mi, m->n_max[0], &words, &n, err, sizeof(err));
			manifest_free_args(words);
			if (r < 0) {
				tps_error("%s: %s", where, err);
				ret = TPS_EXIT_USAGE;
				goto out;
			}
		}
	}
	for (ei = 0; ei < p->n_engines; ei++)
		if (why[ei])
			tps_warning("engine '%s': %s; n_max is spelled --spec-draft-n-max",
				    p->engines[ei].label, why[ei]);
out:
	for (ei = 0; why && ei < p->n_engines; ei++)
		free(why[ei]);
	free(why);
	return ret;
}

/* The cells, once the files are known to be there: the engines' dialects, then
 * the rounds and plan_build(). */
static int finish_plan(struct collect_setup *o, struct plan *p)
{
	char err[1024];
	int r;

	if ((r = check_dialects(p)))
		return r;
	p->rounds = o->until_decided ? (o->max_rounds ? o->max_rounds : SETUP_MAX_ROUNDS) :
		    o->rounds ? o->rounds : o->aa ? 2 : 1;
	o->c.looks_to = o->until_decided ? p->rounds : INT64_MIN; /* TPS_NULL */
	/* Both metrics watched (the default) is no one-metric question: NULL. */
	o->c.looks_metric = o->until_decided && o->metric && strcmp(o->metric, "both") ?
			    o->metric : NULL;
	if (plan_build(p, err, sizeof(err)) < 0)
		return tps_usage_error(o->usage, "%s", err);
	if (o->url && o->n_max) {
		free(p->cells[0].spec_type);
		p->cells[0].spec_type = tps_xstrdup(o->spec_type ? o->spec_type : "custom");
		p->cells[0].n_max = o->n_max;
	} else if (o->url && o->spec_type) {
		return tps_usage_error(o->usage, "--spec-type needs --n-max");
	}
	return 0;
}

int setup_plan(struct collect_setup *o, struct plan *p, struct prompt_set *ps)
{
	struct file_checks fc = { 0 };
	int r;

	if ((r = check_options(o)))
		return r;
	/* The files after the lines and options, so that a bad one is named first
	 * (attach mode names none); the engines' --help once their binaries are
	 * known to be there. */
	if (!(r = build_plan(o, p, ps, &fc)) && !(r = check_files(&fc)))
		r = finish_plan(o, p);
	checks_release(&fc);
	return r;
}
