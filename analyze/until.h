/* until.h: the state of `tpsdb collect --until-decided` across the rounds of a
 * session. Each cell of another engine that ours also measures (same model, spec
 * type, n_max) is watched; after a comparison (analyze/decided.h over a parity
 * result) it keeps the last verdict of each metric and the round it was decided
 * in. After each round the command asks it which cells of the model to start
 * next (until_next()), none when the model's rounds end. Pure: no stdio, no store; reports/until_write.h words it. */
#ifndef ANALYZE_UNTIL_H
#define ANALYZE_UNTIL_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/decided.h"
#include "analyze/parity.h"
#include "analyze/verdict.h"

/* One cell of the session's plan, as the rule sees it. */
struct until_cell {
	size_t engine, model;      /* indexes into the plan's engines and models */
	const char *spec_type;     /* "" for a base cell; borrowed */
	int64_t n_max;             /* TPS_NULL for a base cell */
};

/* One watched cell's state. */
struct until_watch {
	size_t ours_cell;          /* the ours cell it is compared with; SIZE_MAX: the
				      cell is not watched */
	int64_t decided_at;        /* the round it was decided in; 0 open */
	int64_t last_round;        /* the round of the last comparison; 0 none */
	int have[PARITY_N_METRICS];            /* 1 when the metric had a row then */
	struct verdict last[PARITY_N_METRICS]; /* that row's verdict */
	int answers[PARITY_N_METRICS];         /* 1 when that row answers the
						  question (decided_row()), in a
						  cell open or stopped too */
	int64_t futile_at;         /* the round it was stopped as unanswerable in;
				      0 not (until_set_futility()) */
	double chance[PARITY_N_METRICS]; /* at the last look: the chance of deciding
				      the metric by --max-rounds; NaN unknown or
				      answered */
	size_t needs[PARITY_N_METRICS];  /* the --max-rounds that would reach
				      PLAN's power at the current trend; 0 more
				      than ESTIMATE_MAX_LOOK (or unknown) */
};

/* The rule's state over one session. */
struct until {
	const struct until_cell *cells;  /* borrowed, n_cells of them */
	size_t n_cells, n_models;
	size_t ours;                     /* the engine the others are compared with */
	enum decided_question q;
	int watched;                     /* the metrics the rule asks (decided_watched():
					    PARITY_PP, PARITY_TG or PARITY_BOTH) */
	struct until_watch *w;           /* one per cell; owned */
	int64_t *evaluated;              /* per model: the last round compared; owned */
	int64_t *last_round;             /* per model: the last round a run ended in */
	struct until_run *runs;          /* the runs that ended, in order; owned */
	size_t n_runs, cap_runs;
	int64_t max_rounds;              /* futility on: the batch's --max-rounds;
					    0 off */
	/* The schedule (until_pick()): */
	int64_t rounds;                  /* the most rounds a model runs */
	double budget_s;                 /* --budget: server time, seconds; 0 none */
	int64_t *rounds_run;             /* per model: rounds run; owned */
	unsigned char *done;             /* per model: its rounds ended; owned */
	unsigned char *short_of_budget;  /* per model: ended for lack of budget */
};

/* A run that ended. */
struct until_run {
	size_t cell;
	int64_t round;
	double wall_s;
};

/* Sets u up over cells[0..n_cells) of a plan of n_models models, comparing every
 * engine with ours on question q, asked of the metrics watched (collect's
 * --metric: PARITY_PP, PARITY_TG or PARITY_BOTH; another value is both): a
 * metric not watched is compared and kept but decides nothing. Release with
 * until_release(). */
void until_init(struct until *u, const struct until_cell *cells, size_t n_cells,
		size_t n_models, size_t ours, enum decided_question q, int watched);
/* Turns the futility stop on for a batch of at most max_rounds rounds (0: off,
 * the default): after a look, an open watched cell one of whose watched metrics
 * that does not answer yet has a chance under PLAN_FUTILE_CHANCE of answering by
 * max_rounds (plan_seq_chance_from() at the look's numbers) is stopped as
 * unanswerable: it starts no more, and counts as neither open nor decided. It
 * only stops: it never answers, so no decided cell's error rate grows
 * (non-binding futility; docs/PERFORMANCE.md, "Futility"). */
void until_set_futility(struct until *u, int64_t max_rounds);
/* The schedule of the rounds: every model runs at most rounds rounds; with
 * budget_s > 0 (collect --budget) no instance starts whose estimated cost
 * (until_cost()) would take the server time of the runs ended past budget_s,
 * and the models take turns by what a round buys (until_pick()). */
void until_set_schedule(struct until *u, int64_t rounds, double budget_s);

/* The model and round to run next: without a budget, the first model whose
 * rounds have not ended, round after round, as collect always ran them; with
 * one, of the models whose next round fits the budget, the one whose round buys
 * the most decisions for its cost: the sum over its open cells of their chance
 * of an answer (the least of their watched metrics' at the last look; one half
 * before a look or when unknown, so a cell near a boundary goes first and a
 * hopeless one last) over the round's estimated cost; a model whose round does
 * not fit ends, short of budget. Its cells to start are those until_skip()
 * does not leave out. 1 with *mi and *round set, 0 when every model's rounds
 * ended. */
int until_pick(struct until *u, size_t *mi, int64_t *round);
/* Records that model mi ran a round (until_pick()'s), and ends its rounds when
 * it ran the last one, or from the first look on none of its cells is open. */
void until_round_done(struct until *u, size_t mi);
/* Ends model mi's rounds (a signal, or the machine kept it busy); short: for
 * lack of budget. */
void until_model_end(struct until *u, size_t mi, int short_of_budget);
/* The estimated server time of one instance of cell k: the mean wall time of
 * its runs so far, else of its engine's, else of every run; 0 before any run
 * ended (nothing to estimate from: the first instance starts). */
double until_cost(const struct until *u, size_t k);
/* The server time of every run ended so far, seconds. */
double until_spent(const struct until *u);
/* The estimated server time of model mi's next round (its cells that
 * until_skip() does not leave out). */
double until_round_cost(const struct until *u, size_t mi);
/* An estimate of the server time the models whose rounds have not ended may
 * still take: each its rounds left at its next round's cost, at most the
 * budget left when there is one; NaN before any run ended (no cost known). */
double until_time_left(const struct until *u);
/* 1 when instance of cell k may start under the budget: none, or the time spent
 * and its estimated cost are within it. */
int until_fits(const struct until *u, size_t k);
/* Counts of the watched cells: decided, unanswerable, open, and of those open
 * the ones whose model ended short of budget. */
void until_tally(const struct until *u, size_t *decided, size_t *futile, size_t *open,
		 size_t *short_open);

/* 1 when the rule asks metric m (enum parity_metric) of u. */
int until_watches(const struct until *u, int m);
/* Frees what u owns; accepts one zero-initialised. */
void until_release(struct until *u);

/* Records that a run of cell k in round round (1-based) ended after wall_s seconds
 * of server time. */
void until_run_ended(struct until *u, size_t k, int64_t round, double wall_s);

/* 1 when model mi is to be compared after round round (the first look and after),
 * and marks it compared at that round; 0 when it is too early. */
int until_look(struct until *u, size_t mi, int64_t round);
/* The round model mi is still to be compared at after the session, or 0 when its
 * last round was compared already or it ran too few rounds; marks it compared. */
int64_t until_final_look(struct until *u, size_t mi);

/* Takes the comparison pr of model mi, ours against engine e, made after round
 * round: every open watched cell of e on mi that has a cell in pr keeps its rows'
 * verdicts and, when every watched metric answers the question, is decided at round,
 * else, with futility on, may be stopped as unanswerable at round. The cells
 * decided or stopped by this call are written to newly[] (room for n_cells) and
 * counted in the return value; w[k].decided_at or w[k].futile_at says which. */
size_t until_take(struct until *u, const struct parity_result *pr, size_t mi, size_t e,
		  int64_t round, size_t *newly);

/* 1 when watched cell k is still open: neither decided nor unanswerable. */
int until_open(const struct until *u, size_t k);
/* 1 when model mi has a watched cell still open: another round is worth running. */
int until_model_open(const struct until *u, size_t mi);
/* 1 when cell k need not start again: a watched cell once decided or
 * unanswerable, and an ours cell once every watched cell compared with it is. */
int until_skip(const struct until *u, size_t k);
/* The plan out of a look: after round round of model mi (and the comparison of
 * that round, when it was one to look at), run[k] (room for n_cells) is 1 for each
 * cell to start in the next round, 0 for one until_skip() leaves out. Returns how
 * many of mi's cells are to run: 0 when the model's rounds end (from the first look
 * on, no watched cell of it is open). */
size_t until_next(const struct until *u, size_t mi, int64_t round, unsigned char *run);
/* The watched cells, and how many of them are open. */
void until_count(const struct until *u, size_t *open, size_t *all);
/* How many watched cells are stopped as unanswerable. */
size_t until_count_futile(const struct until *u);
/* The server time of watched cell k up to round: the wall time of its runs and
 * of its ours cell's runs in rounds 1..round, seconds. */
double until_server_time(const struct until *u, size_t k, int64_t round);
/* The last round a run of cell k ended in; 0 none. */
int64_t until_rounds_seen(const struct until *u, size_t k);

#endif
