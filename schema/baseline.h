/* baseline.h: named, frozen sets of runs (tables baseline and baseline_run). A gate
 * compares a candidate with one of these sets, so a later run of the same cell never
 * moves the baseline under it. */
#ifndef SCHEMA_BASELINE_H
#define SCHEMA_BASELINE_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* Creates the baseline name holding the runs ids[0..n), stamped now. When a
 * baseline of that name exists it is an error (-1, one line naming it) unless
 * replace, which drops the old set first. Inside the caller's transaction. 0 ok,
 * -1 after an error line. */
int store_baseline_create(struct store *s, const char *name, int replace, const int64_t *ids,
			  size_t n);

/* 1 when a baseline of this name exists, 0 when not, -1 after an error line. */
int store_baseline_exists(struct store *s, const char *name);

/* Removes the baseline name (its runs stay). 1 removed, 0 no such baseline, -1
 * after an error line. Inside the caller's transaction. */
int store_baseline_remove(struct store *s, const char *name);

/* Calls cb once per baseline in name order with its name, creation time and the
 * number of runs and samples it holds (all borrowed for the call). 0 ok, -1 after
 * an error line. */
int store_baseline_foreach(struct store *s,
			   void (*cb)(const char *name, const char *created_at, int64_t n_runs,
				      int64_t n_samples, void *arg),
			   void *arg);

#endif
