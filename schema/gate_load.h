/* gate_load.h: everything `tpsdb gate` judges, read in one call: the candidate's
 * latest runs and the baseline's frozen ones with their values per metric, the
 * candidate's noise floors and flagged-sample counts, and on request its history
 * (--trend) and decode runs (--sweep), filled into analyze/gate.h's plain input. */
#ifndef SCHEMA_GATE_LOAD_H
#define SCHEMA_GATE_LOAD_H

#include <stddef.h>

#include "analyze/gate.h"
#include "schema/cells.h"
#include "schema/history.h"
#include "schema/series_load.h"

struct store;

struct gate_load_opts {
	const char *baseline;         /* required: the frozen set */
	const char *engine;           /* required: the candidate's engine label */
	const char *tag, *model;      /* NULL: any */
	const char *batch;            /* NULL: any; else the candidate's runs of this
					 collect batch, every one of them pooled */
	int metrics[GATE_N_METRICS];  /* 1: load this metric's values (and floor) */
	int history;                  /* load the candidate's history of those metrics */
	int decode;                   /* load the candidate's decode runs for the sweep */
	const char *ignore_config;    /* NULL: none; else llama-bench config keys
					 (comma list) cells are matched regardless of */
};

/* A loaded gate. `in` borrows everything from the rest, which the set owns until
 * gate_set_release(); in.sweep is left NULL (the caller assembles the series from
 * decode[]). */
struct gate_set {
	struct gate_input in;
	struct cell_run *cand_runs, *base_runs;
	struct gate_cell *cand, *base;  /* one per pool (its newest run), in the store's
					   cell order */
	size_t n_cand, n_base;
	size_t n_cand_runs, n_base_runs; /* runs loaded, pooled or not */
	struct parity_side *sides;      /* one per run loaded: cand's, then base's */
	struct gate_instance *inst;     /* the pooled runs the cells point to */
	double **values;                /* every value array the cells point to */
	size_t n_values;
	struct history_series *hist[GATE_N_METRICS];
	size_t n_hist[GATE_N_METRICS];
	struct gate_hist_run **hist_runs; /* every history view the cells point to */
	size_t n_hist_runs;
	struct store_decode *decode;    /* with o->decode: store_load_series() */
	size_t n_decode;
	char *ignored[2];               /* with o->ignore_config: the "key=value"s of
					   those keys the candidate's and the
					   baseline's runs held, NULL none */
};

/* Loads the gate of o->engine's runs against the baseline o->baseline, pooling
 * every run of a cell (series) on each side: the candidate's runs tagged o->tag
 * when set (and of o->batch when set: all of them), else those carrying the tag of
 * the cell's newest run (that run alone when it has none); the baseline's frozen runs, all of them. Only o->model when
 * set. Each cell's newest run is its gate_cell; inst lists every pooled run, with
 * round and batch read by store_run_round_batch(). For each run and each
 * metric in o->metrics: its usable values (acceptance off the base rung only);
 * for the candidate's runs also the newest stored noise floor of pp and tg (NaN
 * when none), the count of samples carrying each flag, and with o->history its
 * history series of the cell (every run of the engine, o->model). With o->decode,
 * decode[] holds the candidate's runs as store_load_decode() reads them.
 * Configurations are matched in canonical form, without the keys of
 * o->ignore_config (store_runs_canon_config()). Fills
 * *out, released with gate_set_release() (also after -1). 0 ok, -1 after an error
 * line (one naming the baseline when it does not exist). */
int store_gate_load(struct store *s, const struct gate_load_opts *o, struct gate_set *out);

/* Frees what *set holds and zeroes it; accepts NULL and a zeroed set. */
void gate_set_release(struct gate_set *set);

#endif
