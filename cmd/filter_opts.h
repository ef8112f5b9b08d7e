/* filter_opts.h: the run-selection options every command that reads runs shares
 * (--engine, --model, --engine-version, --tag, --host, --batch, --since, --until
 * and, where a command offers it, --limit), parsed once into a struct run_filter
 * (schema/store.h): the one parser of a label list ("--tag a,b", "--tag a --tag
 * b"), checked against the store once. Their rows are cmd/opts.h's OPT_FILTERS. */
#ifndef CMD_FILTER_OPTS_H
#define CMD_FILTER_OPTS_H

#include "schema/labels.h"
#include "schema/store.h"
#include "tpsdb.h"

/* The synopsis and the help lines of the shared filters are docs/help/_synopsis.txt,
 * _synopsis-more.txt, _filters.txt, _filters-more.txt and _limit.txt, which the
 * commands' texts include. */

/* The most times one list option may be given. */
#define FILTER_LIST_MAX 64

/* The labels one list option gathered: each argument as given (borrowed from
 * argv, no heap until the check), until the store check splits those it does
 * not hold whole at their commas (then v is a heap array and own the parts). */
struct filter_list {
	const char *arg[FILTER_LIST_MAX];
	size_t n_arg;
	const char **v;
	size_t n;
	char **own;
	size_t n_own;
};

/* Checks l against the labels of kind k the store holds: an argument the store
 * holds whole stays; another is split at its commas and each part must be held.
 * 0 when every label is known, else -1 after one error line naming opt and
 * listing the known names, closest first (schema/labels.h). */
int filter_list_check(struct store *s, enum store_label_kind k, struct filter_list *l,
		      const char *opt);
/* 1 when a and b hold the same arguments in the same order: the same runs. */
int filter_list_same(const struct filter_list *a, const struct filter_list *b);
/* Refuses a pair that is one side twice: engine ours with tags ours_tag and vs with
 * vs_tag select the same runs, compared with themselves (compare, plan). hint says
 * what to give instead. 0, or TPS_EXIT_USAGE after the usage error line. */
int filter_pair_check(const char *usage, const char *ours, const struct filter_list *ours_tag,
		      const char *vs, const struct filter_list *vs_tag, const char *hint);
/* The list as a run filter reads it (borrowing l). */
struct label_list filter_list_labels(const struct filter_list *l);
void filter_list_release(struct filter_list *l);

/* The parsed filters: f points into argv, into the lists and into the normalised
 * dates held here, so the struct must outlive every use of f. Zero it before the
 * first option; release it with filter_opts_release(). */
struct filter_opts {
	struct run_filter f;
	char since[40], until[40];
	struct filter_list engine, model, tag, host, batch;
};

/* Checks every list of fo against the store (filter_list_check()) and points
 * fo->f at the checked lists: 0, or -1 after one error line. */
int filter_opts_check(struct store *s, struct filter_opts *fo);
/* Frees what fo's lists own. */
void filter_opts_release(struct filter_opts *fo);

#endif
