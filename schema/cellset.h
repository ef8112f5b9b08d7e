/* cellset.h: the store's one loader of runs for a decision. It fills the plain
 * cell set of analyze/cellset.h from one run filter (schema/store.h): first every
 * matching run that answered at least one request, with who it is, its design,
 * environment and the cell's stored A/A floors; then, for the runs the decision
 * pools (struct run.want, set by analyze/'s pooling rule), their samples' usable
 * values in one pass per run. Only ids, labels and values cross; no decision is
 * taken here. */
#ifndef SCHEMA_CELLSET_H
#define SCHEMA_CELLSET_H

#include "analyze/cellset.h"

struct store;
struct run_filter;

/* Appends to *set every run matching f (NULL: every run) that holds at least one
 * sample that did not fail (a server that never loaded has no timings), and
 * with f->bench_rates every llama-bench run, in the store's cell order, without
 * samples. A run already in the set is not added
 * twice. 0 ok, -1 after an error line (the set keeps what it held). */
int store_cellset_load(struct store *s, const struct run_filter *f, struct cellset *set);

/* Reads, for every run of set whose want asks for what it has not loaded, its
 * samples: the usable values of each metric (a sample with a flag that spoils
 * the metric, or without its value, is left out and counted), the flag counts,
 * the decode sums, the output hashes, and on request the requests' wall times and
 * the per-prompt figures. 0 ok, -1 after an error line. */
int store_cellset_samples(struct store *s, struct cellset *set);

#endif
