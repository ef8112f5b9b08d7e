/* until_write.h: the lines `tpsdb collect --until-decided` prints as it goes: a
 * watched cell decided (or, at the end, still open), one line per metric, and the
 * count of the cells still open, from the state analyze/until.h keeps. */
#ifndef REPORTS_UNTIL_WRITE_H
#define REPORTS_UNTIL_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/until.h"

/* A verdict's state in words, into buf: "regression no, parity (+0.31% [-0.50%,
 * +1.12%])", "regression yes, slower (-4.52% [-5.60%, -3.41%])"; a non-finite
 * figure is "?". */
void until_write_state(const struct verdict *v, char *buf, size_t len);

/* The newest clean answer of a spoiled cell in words, into buf: "newest clean
 * answer: regression yes, slower (-5.50% [-6.10%, -4.90%]) (batch b-1a2b, 2026-12-01)",
 * or "no clean batch measured it" when c found none. */
void clean_answer_text(const struct clean_answer *c, char *buf, size_t len);

/* Writes watched cell k's lines to f, one per metric, and flushes f:
 * "<what>: tiny tg ours vs llama.cpp: regression no, parity (+0.31% [-0.50%,
 * +1.12%]) after 4 rounds, 212.4 s of server time", or "... not compared (fewer
 * than 3 rounds with both engines)"; a metric the rule does not watch ends in
 * " (not watched: --metric tg)", naming the one it does. what is "decided" or "open"; model, ours and
 * vs are the labels of the cell's model, of ours and of the cell's engine. */
void until_write_cell(FILE *f, const char *what, const struct until *u, size_t k,
		      const char *model, const char *ours, const char *vs);

/* Writes the lines of watched cell k stopped as unanswerable (until.h,
 * futility) to f, one per watched metric the look compared, and flushes f. A
 * metric whose chance of answering by --max-rounds fell under
 * PLAN_FUTILE_CHANCE: "unanswerable: tiny pp ours vs up: mde 3.10%, needs about
 * 42 rounds (of --max-rounds 10); regression undecided, undecided (-1.90%
 * [-5.00%, +1.30%]) after 4 rounds, 12.3 s of server time" ("needs more than
 * 100 rounds" beyond ESTIMATE_MAX_LOOK). A metric that answered is "decided:"
 * with its answer, as the matrix table and compare give it; one that might
 * have answered is "unanswerable: tiny tg ours vs up: stopped with pp; ...",
 * since the two metrics share the cell's runs. */
void until_write_futile(FILE *f, const struct until *u, size_t k, const char *model,
			const char *ours, const char *vs);

/* One model's design as collect --until-decided chose it: the reps of every
 * prompt, from n_cells stored cells (0: the default), for rounds rounds (0: none
 * in reach of --max-rounds). */
struct until_design {
	const char *model;
	size_t reps, n_cells, rounds;
};

/* The design line collect --until-decided prints before its first round when
 * --reps is not given, flushed. One model: "design: 2 reps of every prompt,
 * planned from 3 stored cells of host gpu1 (for 5 rounds; --reps sets it)", or
 * "design: 1 rep of every prompt, the default (no stored cell of host gpu1 to
 * plan from; tpsdb plan says why)" when n_cells is 0. Several, each its own:
 * "design: tiny 2 reps (for 5 rounds), big 1 rep (the default), of every prompt,
 * planned from 3 stored cells of host gpu1 (--reps sets it)". */
void until_write_design(FILE *f, const struct until_design *d, size_t n, const char *host);

/* The progress line's note into buf: "2 of 4 cells open", and ", 1
 * unanswerable" when the futility stop stopped some; with a budget, the matrix
 * and the time: "1 decided, 1 unanswerable, 2 open of 4 cells, about 95 s of
 * server time left (budget 480 s, 312 s spent)". */
void until_write_note(char *buf, size_t len, const struct until *u);

/* The last line: "until-decided: 2 of 4 cells open" (", 1 unanswerable" as the
 * note), flushed. With a budget: "until-decided: 2 decided, 1 unanswerable, 1
 * open of 4 cells (1 for lack of budget); 431.2 s of server time of a 480 s
 * budget". */
void until_write_total(FILE *f, const struct until *u);

/* The table of the matrix that ends collect --until-decided's output: one row
 * per watched cell and metric, model, comparison ("ours vs up", "ours vs up
 * draft n_max=2"), metric, answer (the question's answer of a metric that
 * answers it, in a decided cell or in one the other metric keeps open or had
 * stopped, as compare gives it: "no", "yes", "parity", "faster", "slower";
 * else "unanswerable", "open", "open (budget)" for a model that ran out of
 * budget, or "not compared"), delta and interval, rounds (those the interval
 * pooled, as compare prints them) and server time (of every round run).
 * model[i] and engine[i] label the models and engines; borrowed. Flushed. */
void until_write_matrix(FILE *f, const struct until *u, const char *const *model,
			const char *const *engine);

#endif
