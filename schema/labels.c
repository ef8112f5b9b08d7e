/* labels.c: the known engine, model, tag and baseline names, and the one check
 * that refuses a name matching nothing, listing the known ones by edit distance
 * (closest first) so that a typo reads as one. */
#include "schema/labels.h"

#include <stdlib.h>
#include <string.h>

#include "schema/store_int.h"
#include "tpsdb.h"

int store_labels(struct store *s, enum store_label_kind k, char ***out, size_t *n)
{
	static const char engine_sql[] =
		"SELECT DISTINCT e.label FROM engine e JOIN run r ON r.engine_id = e.id "
		"ORDER BY e.label";
	static const char model_sql[] =
		"SELECT DISTINCT m.label FROM model m JOIN run r ON r.model_id = m.id "
		"ORDER BY m.label";
	static const char tag_sql[] =
		"SELECT DISTINCT tag FROM run WHERE tag <> '' ORDER BY tag";
	static const char baseline_sql[] = "SELECT name FROM baseline ORDER BY name";
	static const char host_sql[] =
		"SELECT DISTINCT h.name FROM host h JOIN run r ON r.host_id = h.id ORDER BY h.name";
	static const char batch_sql[] =
		"SELECT DISTINCT batch FROM run WHERE batch IS NOT NULL AND batch <> '' "
		"ORDER BY batch";
	const char *sql = k == STORE_LABEL_ENGINE ? engine_sql :
			  k == STORE_LABEL_MODEL  ? model_sql :
			  k == STORE_LABEL_TAG    ? tag_sql :
			  k == STORE_LABEL_HOST   ? host_sql :
			  k == STORE_LABEL_BATCH  ? batch_sql :
						    baseline_sql;
	sqlite3_stmt *st = store_stmt(s, sql);
	char **v = NULL;
	size_t cnt = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = tps_xrealloc(v, (cnt + 1) * sizeof(*v));
		v[cnt++] = store_col_text(st, 0);
	}
	if (rc != SQLITE_DONE) {
		store_labels_free(v, cnt);
		return store_fail(s, "cannot list the known names");
	}
	*out = v;
	*n = cnt;
	return 0;
}

void store_labels_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static const char *kind_name(enum store_label_kind k)
{
	switch (k) {
	case STORE_LABEL_ENGINE: return "engine";
	case STORE_LABEL_MODEL: return "model";
	case STORE_LABEL_TAG: return "tag";
	case STORE_LABEL_BASELINE: return "baseline";
	case STORE_LABEL_HOST: return "host";
	case STORE_LABEL_BATCH: return "batch";
	}
	return "name";
}

int store_label_check(struct store *s, enum store_label_kind k, const char *name,
		      const char *opt)
{
	char **v = NULL, *list = NULL;
	size_t n = 0, i;
	size_t *order = NULL;
	int ret = -1;

	if (store_labels(s, k, &v, &n) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (!strcmp(v[i], name)) {
			ret = 1;
			goto out;
		}
	}
	order = tps_xcalloc(n ? n : 1, sizeof(*order));
	tps_closest(name, (const char *const *)v, n, order);
	list = tps_xstrdup("");
	for (i = 0; i < n && i < 20; i++) {
		char *t = tps_xasprintf("%s%s%s", list, i ? ", " : "", v[order[i]]);
		free(list);
		list = t;
	}
	if (n > 20) {
		char *t = tps_xasprintf("%s, ... %zu more", list, n - 20);
		free(list);
		list = t;
	}
	if (n)
		tps_error("%s '%s': no %s of that name in the store (known, closest first: %s)",
			  opt, name, kind_name(k), list);
	else
		tps_error("%s '%s': no %s of that name in the store (it holds none)", opt, name,
			  kind_name(k));
	ret = 0;
out:
	free(order);
	free(list);
	store_labels_free(v, n);
	return ret;
}
