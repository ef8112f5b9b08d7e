/* plan.h: the matrix 'tpsdb collect' walks. Model by model (in the order given),
 * round by round within a model, engine by engine within a round, one base cell and
 * then one cell per n_max value of the model's spec manifest line. A round is a
 * whole pass over the engines of a model; even rounds take the engines in reverse
 * order (A B C, C B A, A B C ...), so slow drift lands on every engine alike. Each
 * cell of each round is one run in the store, on its own server instance. The plan
 * also builds each cell's server command line, so what a run records as extra_args
 * is exactly what the server got beyond the fixed arguments. */
#ifndef COLLECT_PLAN_H
#define COLLECT_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "collect/spec_knobs.h"

struct manifest_entry;
struct dialect;

struct engine_spec {
	char *label, *binary; /* binary NULL in attach mode */
	char *role;           /* "ours", "upstream" or "other" */
	char *args;           /* extra server args for all its cells, "" none */
	char *home;           /* HOME for its servers; NULL inherits ours */
	int fresh_home;       /* 1: a temporary HOME made for this session */
	char *sha256;         /* of the binary; filled in by the session, NULL unknown */
	struct dialect *dialect; /* its spellings (collect/dialect.h), read by setup for
				    a plan with speculative cells; NULL unknown */
	char *version;        /* /props build_info, kept from the engine's last start */
};

struct model_spec {
	char *label, *path;
	char *args;           /* extra server args for all its cells, "" none */
	char *spec_args;      /* NULL: no speculative sweep */
	char *spec_where;     /* "<spec manifest>:<line>", for error lines; NULL none */
	int64_t *n_max;
	size_t n_n_max;
	/* plan_spec_settle(): per settled knob (spec_knobs.h), the value every
	 * engine gets, canonical ("0.75"); NULL: each engine's own default */
	char *settle[SPEC_N_KNOBS];
	unsigned settle_line;  /* bit k: settle[k] is the line's own (p_min=): an
				  engine without the knob is refused; else an
				  equalised default, passed where it is spelled */
	char *file, *sha256, *quant; /* filled in by the session; NULL unknown */
	int64_t bytes;               /* TPS_NULL unknown */
	int64_t reps;                /* the reps of every prompt collect planned for
					this model (--until-decided); 0: --reps */
};

struct cell {
	size_t engine, model; /* indices into the plan's arrays */
	int64_t n_max;        /* TPS_NULL for the base run */
	char *spec_type;      /* "" for a base run */
	char *drafter;        /* base name of -md/--model-draft, "" when none */
	char *extra_args;     /* the args after the fixed ones, space-joined */
	char *spec_settings;  /* the effective settled knobs, "n_min=0 p_min=0.75"
				 (plan_spec_settings()); "" for a base run, a raw
				 spec line, or knobs no engine states */
	char **extra_argv;    /* the same, one word each, NULL-terminated */
	size_t extra_argc;
	int undrafted_said;   /* the session warned that a run of this spec cell
				 drafted no token (once a cell) */
};

struct plan {
	struct engine_spec *engines;
	size_t n_engines;
	struct model_spec *models;
	size_t n_models;
	struct cell *cells;   /* each cell once, in round 1's order */
	size_t n_cells;
	int64_t rounds;       /* passes over each model's engines; 0 counts as 1 */
	char *spec_note;      /* plan_spec_settle()'s lines, each ending in '\n';
				 NULL none */
};

/* One run of the schedule: a cell in a round. */
struct plan_step {
	size_t cell;          /* index into the plan's cells */
	int64_t round;        /* 1-based */
};

/* Appends an engine (role guessed from the label, see plan_role_guess()). Returns
 * the new engine, borrowed from p until the next add; NULL with a message in err
 * when the label is empty or taken. */
struct engine_spec *plan_add_engine(struct plan *p, const char *label, const char *binary,
				    char *err, size_t errlen);
struct engine_spec *plan_find_engine(struct plan *p, const char *label);
/* Appends a model; NULL with a message in err when the label is empty or taken. */
struct model_spec *plan_add_model(struct plan *p, const char *label, const char *path,
				  const char *args, char *err, size_t errlen);
/* Gives a spec manifest line's sweep to the model of the same label, or appends it
 * as a new model; where ("<file>:<line>", NULL none) names the line in later error
 * lines. -1 with a message in err when that model has another path or already has
 * a sweep; 0 ok. */
int plan_add_spec(struct plan *p, const struct manifest_entry *e, const char *where,
		  char *err, size_t errlen);
/* 1 when some model of p has a speculative sweep. */
int plan_has_spec(const struct plan *p);
/* 1 when model mi's spec args open with tpsdb's terms (spec=, drafter=), which an
 * engine's dialect must spell; 0 raw args; -1 no sweep or args that do not split
 * (plan_spec_words() says why). */
int plan_spec_given(const struct plan *p, size_t mi);
/* The words that follow the fixed arguments of engine ei's n_max cell of model mi:
 * the engine's and the model's args, then the spec args spelled for the engine's
 * dialect (dialect_spell()). *argv is a fresh NULL-terminated heap array (caller
 * frees with manifest_free_args()). -1 with one line in err (an engine lacking a
 * knob, args that do not split); 0 ok. */
int plan_spec_words(const struct plan *p, size_t ei, size_t mi, int64_t n_max, char ***argv,
		    size_t *argc, char *err, size_t errlen);

/* Settles the knobs a spec manifest line in tpsdb's terms leaves unset, once the
 * engines' dialects are read: for each settled knob (n_min, p_min) whose defaults
 * (each engine's --help "(default: X)") differ between the engines that spell it,
 * or that some engine spelling it does not state, every engine gets one value:
 * the value every release reads alike where the knob has one (p_min 0,
 * spec_knobs.h), else the default of the first engine whose role is "upstream"
 * and that states one, else that of the first engine (in the order given) that
 * states one. Each such knob adds one line to p->spec_note ("spec settings: p_min
 * 0 on every engine (defaults differ: new 0.00, old 0.75), the one value every
 * release reads alike; set p_min= in the spec manifest to choose"). A knob the
 * line sets (p_min=0.5) is that value on every engine; where that is not the
 * value every release reads alike and the engines spell the knob in more than one
 * way, a line says the releases read it differently. Fills each model's
 * settle[]. 0 ok; -1 with one line in err (args that do not split). */
int plan_spec_settle(struct plan *p, char *err, size_t errlen);
/* The settled knobs engine ei runs model mi's sweep with, as a run records them:
 * "n_min=0 p_min=0.75", each knob the value it gets (settle[]) or else its own
 * stated default, a knob it does not spell or states no default of left out; ""
 * for a raw spec line. Caller frees. */
char *plan_spec_settings(const struct plan *p, size_t ei, size_t mi);

/* Builds p->cells from the engines and models, each speculative cell spelled for
 * its engine (plan_spec_words()). -1 with a message in err when there is no engine
 * or no model, some args do not split or an engine lacks a knob; 0 ok. */
int plan_build(struct plan *p, char *err, size_t errlen);
/* p->rounds, at least 1. */
int64_t plan_rounds(const struct plan *p);
/* The cells of model mi in the order round `round` (1-based) runs them: engine by
 * engine, in the order the engines were added on odd rounds and in reverse on even
 * rounds; within an engine its base cell, then its n_max cells in manifest order.
 * Writes their indices into order (room for p->n_cells) and returns how many. */
size_t plan_round_order(const struct plan *p, size_t mi, int64_t round, size_t *order);
/* The whole schedule when every model runs plan_rounds(p) rounds: model by model,
 * round by round, each round in plan_round_order(). A heap array of *n steps that
 * the caller frees. */
struct plan_step *plan_schedule(const struct plan *p, size_t *n);

/* Frees everything p owns; p is empty afterwards. Accepts NULL. */
void plan_release(struct plan *p);

/* The full server command line of cell c: binary --host 127.0.0.1 --port <port>
 * -m <gguf> -c <ctx> -ngl 99 and then c->extra_argv. NULL-terminated; caller frees
 * with manifest_free_args(). */
char **plan_argv(const struct plan *p, const struct cell *c, int port, int64_t ctx);

/* Writes the schedule to f, one line per run in the order they start: its number,
 * model, engine (role), base or n_max with spec type and drafter, "round r/k" when
 * there is more than one round, then the server command line (with the HOME it
 * gets), or url in attach mode (url non-NULL). What --dry-run prints. */
void plan_print(FILE *f, const struct plan *p, const char *url, int port, int64_t ctx);

/* The part of path after its last '/' (all of it when there is none); borrowed
 * from path. */
const char *plan_base_name(const char *path);

/* "upstream" when the label contains "llama.cpp" or "stock", else "other". */
const char *plan_role_guess(const char *label);
/* 1 when role is one of "ours", "upstream", "other". */
int plan_role_valid(const char *role);
/* The speculative type and drafter named in argv: the value of --spec-type (or
 * "draft" when only a draft model is given, "custom" when neither), and the base
 * name of -md/--model-draft/--spec-draft-model ("" when none). Both heap strings,
 * caller frees. */
void plan_spec_info(char *const *argv, char **spec_type, char **drafter);
/* The draft model named in argv: the value of the last -md, --model-draft or
 * --spec-draft-model (also as --opt=value); NULL when none. Borrowed from argv. */
const char *plan_draft_model(char *const *argv);

#endif
