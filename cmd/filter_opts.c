/* filter_opts.c: the run-selection options every command that reads runs shares,
 * checked here once (label lists against the store, dates ISO 8601, a limit a
 * whole number). */
#include "cmd/filter_opts.h"
#include "schema/labels.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int filter_list_same(const struct filter_list *a, const struct filter_list *b)
{
	if (a->n_arg != b->n_arg)
		return 0;
	for (size_t i = 0; i < a->n_arg; i++)
		if (strcmp(a->arg[i], b->arg[i]))
			return 0;
	return 1;
}

int filter_pair_check(const char *usage, const char *ours, const struct filter_list *ours_tag,
		      const char *vs, const struct filter_list *vs_tag, const char *hint)
{
	if (strcmp(ours, vs) || !filter_list_same(ours_tag, vs_tag))
		return 0;
	return tps_usage_error(usage, "--ours and --vs are both '%s': the same runs compared "
			       "with themselves (%s)", ours, hint);
}

struct label_list filter_list_labels(const struct filter_list *l)
{
	struct label_list x = { l->v ? l->v : l->arg, l->v ? l->n : l->n_arg };

	return x;
}

void filter_list_release(struct filter_list *l)
{
	for (size_t i = 0; i < l->n_own; i++)
		free(l->own[i]);
	free(l->own);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int known(char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return 1;
	return 0;
}

int filter_list_check(struct store *s, enum store_label_kind k, struct filter_list *l,
		      const char *opt)
{
	const char **out = NULL;
	char **names = NULL;
	size_t n_out = 0, n_names = 0, i;
	int ret = -1;

	if (!l->n_arg || l->v)
		return 0;
	if (store_labels(s, k, &names, &n_names) < 0)
		return -1;
	for (i = 0; i < l->n_arg; i++) {
		const char *arg = l->arg[i], *p = arg, *comma;

		if (known(names, n_names, arg) || !strchr(arg, ',')) {
			out = tps_xrealloc(out, (n_out + 1) * sizeof(*out));
			out[n_out++] = arg;
			continue;
		}
		/* "a,b": two labels, unless the store holds "a,b" itself (above). */
		do {
			comma = strchr(p, ',');
			if (comma == p || !*p) {
				tps_error("%s '%s': an empty name in the list", opt, arg);
				goto out;
			}
			l->own = tps_xrealloc(l->own, (l->n_own + 1) * sizeof(*l->own));
			l->own[l->n_own] = comma ? tps_xstrndup(p, (size_t)(comma - p)) :
					   tps_xstrdup(p);
			out = tps_xrealloc(out, (n_out + 1) * sizeof(*out));
			out[n_out++] = l->own[l->n_own++];
			p = comma ? comma + 1 : NULL;
		} while (p);
	}
	for (i = 0; i < n_out; i++)
		if (!known(names, n_names, out[i]) && store_label_check(s, k, out[i], opt) != 1)
			goto out;
	l->v = out;
	l->n = n_out;
	out = NULL;
	ret = 0;
out:
	free(out);
	store_labels_free(names, n_names);
	return ret;
}

int filter_opts_check(struct store *s, struct filter_opts *fo)
{
	int ret = filter_list_check(s, STORE_LABEL_ENGINE, &fo->engine, "--engine") < 0 ||
		  filter_list_check(s, STORE_LABEL_MODEL, &fo->model, "--model") < 0 ||
		  filter_list_check(s, STORE_LABEL_TAG, &fo->tag, "--tag") < 0 ||
		  filter_list_check(s, STORE_LABEL_HOST, &fo->host, "--host") < 0 ||
		  filter_list_check(s, STORE_LABEL_BATCH, &fo->batch, "--batch") < 0 ? -1 : 0;

	fo->f.engine = filter_list_labels(&fo->engine);
	fo->f.model = filter_list_labels(&fo->model);
	fo->f.tag = filter_list_labels(&fo->tag);
	fo->f.host = filter_list_labels(&fo->host);
	fo->f.batch = filter_list_labels(&fo->batch);
	return ret;
}

void filter_opts_release(struct filter_opts *fo)
{
	filter_list_release(&fo->engine);
	filter_list_release(&fo->model);
	filter_list_release(&fo->tag);
	filter_list_release(&fo->host);
	filter_list_release(&fo->batch);
	memset(&fo->f, 0, sizeof(fo->f));
}
