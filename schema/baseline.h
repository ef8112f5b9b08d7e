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

/* One baseline as `tpsdb baseline list` shows it. */
struct baseline_info {
	char *name, *created_at;
	int64_t n_runs, n_samples; /* the runs it holds and their samples */
};

/* Lists the baselines in name order into *out, a heap array of *n that the caller
 * frees with baseline_infos_free(). 0 ok, -1 after an error line (then *out is
 * NULL and *n 0). */
int store_baseline_list(struct store *s, struct baseline_info **out, size_t *n);
/* Frees the n entries of b and b; accepts NULL. */
void baseline_infos_free(struct baseline_info *b, size_t n);

#endif
