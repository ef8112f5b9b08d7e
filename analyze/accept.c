/* accept.c: the per-prompt acceptance of a compared cell's two pools (accept.h).
 * The figures are the store's per-prompt sums over a run's samples usable for
 * decode (schema/cellset.c, RUN_LOAD_PROMPTS); a pool sums its runs'. */
#include "analyze/accept.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The row of prompt (NULL: the total) among rows [from, s->n_rows), made when new. */
static struct accept_row *row_of(struct accept_set *s, size_t from, size_t row,
				 const char *prompt)
{
	struct accept_row *r;
	size_t i;

	for (i = from; i < s->n_rows; i++) {
		r = &s->rows[i];
		if (prompt ? r->prompt && !strcmp(r->prompt, prompt) : !r->prompt)
			return r;
	}
	s->rows = tps_xrealloc(s->rows, (s->n_rows + 1) * sizeof(*s->rows));
	r = &s->rows[s->n_rows++];
	memset(r, 0, sizeof(*r));
	r->row = row;
	r->prompt = prompt ? tps_xstrdup(prompt) : NULL;
	return r;
}

static int row_cmp(const void *a, const void *b)
{
	const struct accept_row *x = a, *y = b;

	if (!x->prompt || !y->prompt)
		return !x->prompt - !y->prompt;
	return strcmp(x->prompt, y->prompt);
}

int accept_add(struct accept_set *s, const struct pool *ours, const struct pool *vs,
	       size_t row)
{
	const struct pool *side[2] = { ours, vs };
	size_t from = s->n_rows, i, q;
	int64_t drafted = 0;
	int k;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < side[k]->n; i++) {
			const struct run *r = side[k]->runs[i];
			struct accept_row *all;

			if (!(r->loaded & RUN_LOAD_PROMPTS))
				continue;
			all = row_of(s, from, row, NULL);
			all->runs[k]++;
			for (q = 0; q < r->n_prompts; q++) {
				const struct run_prompt *p = &r->prompts[q];
				struct accept_row *w = row_of(s, from, row, p->name);

				w->runs[k]++;
				w->drafted[k] += p->draft_n;
				w->accepted[k] += p->draft_n_accepted;
				all = row_of(s, from, row, NULL);
				all->drafted[k] += p->draft_n;
				all->accepted[k] += p->draft_n_accepted;
				drafted += p->draft_n;
			}
		}
	}
	if (drafted <= 0) {
		for (i = from; i < s->n_rows; i++)
			free(s->rows[i].prompt);
		s->n_rows = from;
		return 0;
	}
	qsort(s->rows + from, s->n_rows - from, sizeof(*s->rows), row_cmp);
	return 1;
}

double accept_share(const struct accept_row *r, int k)
{
	return r->drafted[k] > 0 ? (double)r->accepted[k] / (double)r->drafted[k] : NAN;
}

void accept_release(struct accept_set *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_rows; i++)
		free(s->rows[i].prompt);
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
