/* llama_bench.c: reads llama-bench's -o csv and -o sql text into the row objects of
 * its -o json, so that collect/import.c keeps one path for every format. The sql
 * reader is a small tokenizer for exactly what llama-bench prints (CREATE TABLE and
 * INSERT INTO ... VALUES), not an SQL engine: nothing in the file is executed. */
#include "collect/llama_bench.h"
#include "tpsdb.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 256

/* The csv columns that stay text even when they look like numbers ("1234567" is a
 * valid build_commit). */
static const char *const text_cols[] = {
	"build_commit", "cpu_info", "gpu_info", "backends", "backend", "model_filename",
	"model_type", "cpu_mask", "type_k", "type_v", "split_mode", "devices",
	"tensor_split", "tensor_buft_overrides", "load_mode", "lazy_mode", "test_time",
	"n_threads_str",
};

static int is_text_col(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(text_cols) / sizeof(text_cols[0]); i++) {
		if (!strcmp(text_cols[i], name))
			return 1;
	}
	return 0;
}

/* A JSON number for v when all of it is a finite decimal number, else NULL. */
static cJSON *number_of(const char *v)
{
	char *end;
	double d;

	if (!*v || isspace((unsigned char)*v))
		return NULL;
	errno = 0;
	d = strtod(v, &end);
	if (*end || errno || !isfinite(d) || strpbrk(v, "xXnNiI"))
		return NULL;
	return cJSON_CreateNumber(d);
}

static void set_err(char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
}

struct cols {
	char *name[MAX_COLS];
	int numeric[MAX_COLS]; /* sql: declared INTEGER or REAL */
	int n;
};

static void cols_release(struct cols *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		free(c->name[i]);
	c->n = 0;
}

/* Whether the columns are llama-bench's: they hold the test and its rate. */
static int cols_ok(const struct cols *c)
{
	int i, have = 0;

	for (i = 0; i < c->n; i++)
		have |= (!strcmp(c->name[i], "n_prompt") ? 1 : 0) |
			(!strcmp(c->name[i], "n_gen") ? 2 : 0) | (!strcmp(c->name[i], "avg_ts") ? 4 : 0);
	return have == 7;
}

/* --- csv --- */

/* Reads one csv record from *p (at most stop) into fields (heap strings, at most
 * MAX_COLS); advances *p and *line past it. -1 on a broken quote or too many. */
static int csv_record(const char **p, const char *stop, long *line, char **fields, int *n,
		      char *err, size_t errlen)
{
	const char *q = *p;
	size_t cap = 64, len = 0;
	char *cur = tps_xmalloc(cap);
	int quoted = 0, ret = -1;

	*n = 0;
	for (;;) {
		int end_field = 0, end_rec = 0;
		if (q >= stop) {
			if (quoted) {
				set_err(err, errlen, "a quoted csv field does not end");
				goto out;
			}
			end_field = end_rec = 1;
		} else if (quoted) {
			if (*q == '"' && q + 1 < stop && q[1] == '"') {
				q++;
			} else if (*q == '"') {
				quoted = 0;
				q++;
				continue;
			} else if (*q == '\n') {
				(*line)++;
			}
		} else if (*q == '"' && len == 0) {
			quoted = 1;
			q++;
			continue;
		} else if (*q == ',') {
			end_field = 1;
		} else if (*q == '\n' || (*q == '\r' && q + 1 < stop && q[1] == '\n')) {
			end_field = end_rec = 1;
		}
		if (end_field) {
			if (*n == MAX_COLS) {
				set_err(err, errlen, "a csv line has too many fields");
				goto out;
			}
			cur[len] = '\0';
			fields[(*n)++] = cur;
			cur = tps_xmalloc(cap = 64);
			len = 0;
			if (end_rec) {
				if (q < stop && *q == '\r')
					q++;
				if (q < stop)
					q++;
				break;
			}
			q++;
			continue;
		}
		if (len + 2 > cap)
			cur = tps_xrealloc(cur, cap *= 2);
		cur[len++] = *q++;
	}
	*p = q;
	ret = 0;
out:
	free(cur);
	if (ret < 0) {
		while (*n > 0)
			free(fields[--*n]);
	}
	return ret;
}

static cJSON *parse_csv(const char *buf, size_t len, long **lines, char *err, size_t errlen,
			long *errline)
{
	const char *p = buf, *stop = buf + len;
	char *f[MAX_COLS];
	struct cols c = { 0 };
	cJSON *arr = NULL;
	long line = 1, *ln = NULL;
	int n, i, nrows = 0;

	if (csv_record(&p, stop, &line, f, &n, err, errlen) < 0) {
		*errline = 1;
		return NULL;
	}
	for (i = 0; i < n; i++)
		c.name[i] = f[i];
	c.n = n;
	if (!cols_ok(&c)) {
		set_err(err, errlen, "a llama-bench csv header needs n_prompt, n_gen and avg_ts");
		*errline = 1;
		goto fail;
	}
	arr = cJSON_CreateArray();
	while (p < stop) {
		long at;
		cJSON *o;

		line++;
		at = line;
		if (*p == '\n' || (*p == '\r' && p + 1 < stop && p[1] == '\n')) {
			p += *p == '\r' ? 2 : 1;
			continue; /* blank line */
		}
		if (csv_record(&p, stop, &line, f, &n, err, errlen) < 0) {
			*errline = at;
			goto fail;
		}
		if (n != c.n) {
			snprintf(err, errlen, "a csv row has %d fields where the header has %d", n,
				 c.n);
			*errline = at;
			while (n > 0)
				free(f[--n]);
			goto fail;
		}
		o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		for (i = 0; i < n; i++) {
			cJSON *num = is_text_col(c.name[i]) ? NULL : number_of(f[i]);
			cJSON_AddItemToObject(o, c.name[i], num ? num : cJSON_CreateString(f[i]));
			free(f[i]);
		}
		ln = tps_xrealloc(ln, (size_t)(nrows + 1) * sizeof(*ln));
		ln[nrows++] = at;
	}
	cols_release(&c);
	*lines = ln;
	return arr;
fail:
	cols_release(&c);
	cJSON_Delete(arr);
	free(ln);
	return NULL;
}

/* --- sql --- */

enum tok { T_END, T_WORD, T_STR, T_NUM, T_PUNCT, T_BAD };

struct lexer {
	const char *p, *stop;
	long line;
	char *text; /* the token's text, heap; T_STR unquoted */
	char punct;
};

static void skip_space(struct lexer *lx)
{
	while (lx->p < lx->stop) {
		if (*lx->p == '\n') {
			lx->line++;
			lx->p++;
		} else if (isspace((unsigned char)*lx->p)) {
			lx->p++;
		} else if (*lx->p == '-' && lx->p + 1 < lx->stop && lx->p[1] == '-') {
			while (lx->p < lx->stop && *lx->p != '\n')
				lx->p++;
		} else {
			break;
		}
	}
}

static enum tok next(struct lexer *lx)
{
	const char *s;
	size_t cap, len = 0;

	free(lx->text);
	lx->text = NULL;
	skip_space(lx);
	if (lx->p >= lx->stop)
		return T_END;
	s = lx->p;
	if (isalpha((unsigned char)*s) || *s == '_') {
		while (lx->p < lx->stop && (isalnum((unsigned char)*lx->p) || *lx->p == '_'))
			lx->p++;
		lx->text = tps_xstrndup(s, (size_t)(lx->p - s));
		return T_WORD;
	}
	if (isdigit((unsigned char)*s) || *s == '-' || *s == '+' || *s == '.') {
		while (lx->p < lx->stop && (isalnum((unsigned char)*lx->p) || strchr(".+-", *lx->p)))
			lx->p++;
		lx->text = tps_xstrndup(s, (size_t)(lx->p - s));
		return T_NUM;
	}
	if (*s == '\'' || *s == '"') {
		char quote = *s;
		cap = 64;
		lx->text = tps_xmalloc(cap);
		lx->p++;
		for (;;) {
			if (lx->p >= lx->stop)
				return T_BAD;
			if (*lx->p == quote) {
				if (lx->p + 1 < lx->stop && lx->p[1] == quote) {
					lx->p++;
				} else {
					lx->p++;
					break;
				}
			}
			if (*lx->p == '\n')
				lx->line++;
			if (len + 2 > cap)
				lx->text = tps_xrealloc(lx->text, cap *= 2);
			lx->text[len++] = *lx->p++;
		}
		lx->text[len] = '\0';
		/* A double-quoted token is an identifier in SQL. */
		return quote == '"' ? T_WORD : T_STR;
	}
	if (strchr("(),;", *s)) {
		lx->punct = *s;
		lx->p++;
		return T_PUNCT;
	}
	return T_BAD;
}

static int word_is(const struct lexer *lx, enum tok t, const char *w)
{
	return t == T_WORD && !strcasecmp(lx->text, w);
}

static int punct_is(const struct lexer *lx, enum tok t, char c)
{
	return t == T_PUNCT && lx->punct == c;
}

/* CREATE TABLE [IF NOT EXISTS] name ( col type, ... ) [;] after "CREATE". */
static int sql_create(struct lexer *lx, char **table, struct cols *c, char *err, size_t errlen)
{
	enum tok t = next(lx);

	if (!word_is(lx, t, "TABLE"))
		return set_err(err, errlen, "only CREATE TABLE is expected"), -1;
	t = next(lx);
	if (word_is(lx, t, "IF")) {
		if (!word_is(lx, next(lx), "NOT") || !word_is(lx, next(lx), "EXISTS"))
			return set_err(err, errlen, "a broken CREATE TABLE IF NOT EXISTS"), -1;
		t = next(lx);
	}
	if (t != T_WORD)
		return set_err(err, errlen, "CREATE TABLE without a table name"), -1;
	free(*table);
	*table = tps_xstrdup(lx->text);
	cols_release(c);
	if (!punct_is(lx, next(lx), '('))
		return set_err(err, errlen, "CREATE TABLE without its column list"), -1;
	for (;;) {
		t = next(lx);
		if (t != T_WORD)
			return set_err(err, errlen, "a CREATE TABLE column without a name"), -1;
		if (c->n == MAX_COLS)
			return set_err(err, errlen, "CREATE TABLE has too many columns"), -1;
		c->name[c->n] = tps_xstrdup(lx->text);
		t = next(lx);
		c->numeric[c->n] = word_is(lx, t, "INTEGER") || word_is(lx, t, "REAL") ||
				   word_is(lx, t, "INT") || word_is(lx, t, "NUMERIC");
		c->n++;
		while (t == T_WORD)
			t = next(lx);
		if (punct_is(lx, t, ')'))
			break;
		if (!punct_is(lx, t, ','))
			return set_err(err, errlen, "a broken CREATE TABLE column list"), -1;
	}
	return 0;
}

/* INSERT INTO name ( cols ) VALUES ( vals ) after "INSERT": one row object. */
static cJSON *sql_insert(struct lexer *lx, const char *table, const struct cols *c, char *err,
			 size_t errlen)
{
	char *names[MAX_COLS];
	int n = 0, i, k;
	enum tok t;
	cJSON *o = NULL;

	if (!word_is(lx, next(lx), "INTO") || next(lx) != T_WORD) {
		set_err(err, errlen, "a broken INSERT INTO");
		return NULL;
	}
	if (!table || strcmp(lx->text, table)) {
		set_err(err, errlen, "INSERT INTO a table no CREATE TABLE before it made");
		return NULL;
	}
	if (!punct_is(lx, next(lx), '(')) {
		set_err(err, errlen, "INSERT INTO without its column list");
		return NULL;
	}
	for (;;) {
		if (next(lx) != T_WORD || n == MAX_COLS) {
			set_err(err, errlen, "a broken INSERT INTO column list");
			goto fail;
		}
		names[n++] = tps_xstrdup(lx->text);
		t = next(lx);
		if (punct_is(lx, t, ')'))
			break;
		if (!punct_is(lx, t, ',')) {
			set_err(err, errlen, "a broken INSERT INTO column list");
			goto fail;
		}
	}
	if (!word_is(lx, next(lx), "VALUES") || !punct_is(lx, next(lx), '(')) {
		set_err(err, errlen, "INSERT INTO without VALUES");
		goto fail;
	}
	o = cJSON_CreateObject();
	for (i = 0; i < n; i++) {
		cJSON *v = NULL;
		int numeric = 0;

		for (k = 0; k < c->n; k++) {
			if (!strcmp(c->name[k], names[i]))
				break;
		}
		if (k == c->n) {
			snprintf(err, errlen, "INSERT names column '%.40s' that the table lacks",
				 names[i]);
			goto fail;
		}
		numeric = c->numeric[k];
		t = next(lx);
		if (t == T_STR || t == T_NUM) {
			v = numeric ? number_of(lx->text) : NULL;
			if (!v && numeric && *lx->text) {
				snprintf(err, errlen, "column '%.40s' holds '%.40s', not a number",
					 names[i], lx->text);
				goto fail;
			}
			if (!v)
				v = cJSON_CreateString(lx->text);
		} else if (word_is(lx, t, "NULL")) {
			v = cJSON_CreateNull();
		} else {
			set_err(err, errlen, "a broken VALUES list");
			goto fail;
		}
		if (cJSON_GetObjectItemCaseSensitive(o, names[i])) {
			cJSON_Delete(v);
			snprintf(err, errlen, "INSERT names column '%.40s' twice", names[i]);
			goto fail;
		}
		cJSON_AddItemToObject(o, names[i], v);
		t = next(lx);
		if (i + 1 < n ? !punct_is(lx, t, ',') : !punct_is(lx, t, ')')) {
			set_err(err, errlen, "VALUES does not match the column list");
			goto fail;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	return o;
fail:
	for (i = 0; i < n; i++)
		free(names[i]);
	cJSON_Delete(o);
	return NULL;
}

static cJSON *parse_sql(const char *buf, size_t len, long **lines, char *err, size_t errlen,
			long *errline)
{
	struct lexer lx = { buf, buf + len, 1, NULL, 0 };
	struct cols c = { 0 };
	char *table = NULL;
	cJSON *arr = cJSON_CreateArray();
	long *ln = NULL;
	int nrows = 0;
	enum tok t;

	while ((t = next(&lx)) != T_END) {
		long at = lx.line;
		if (punct_is(&lx, t, ';'))
			continue;
		*errline = at;
		if (word_is(&lx, t, "CREATE")) {
			if (sql_create(&lx, &table, &c, err, errlen) < 0)
				goto fail;
			if (!cols_ok(&c)) {
				set_err(err, errlen, "the table's columns are not llama-bench's "
					"(n_prompt, n_gen and avg_ts)");
				goto fail;
			}
		} else if (word_is(&lx, t, "INSERT")) {
			cJSON *o = sql_insert(&lx, table, &c, err, errlen);
			if (!o)
				goto fail;
			cJSON_AddItemToArray(arr, o);
			ln = tps_xrealloc(ln, (size_t)(nrows + 1) * sizeof(*ln));
			ln[nrows++] = at;
		} else {
			set_err(err, errlen, "only CREATE TABLE and INSERT INTO statements are read");
			goto fail;
		}
	}
	free(lx.text);
	free(table);
	cols_release(&c);
	*lines = ln;
	return arr;
fail:
	free(lx.text);
	free(table);
	cols_release(&c);
	cJSON_Delete(arr);
	free(ln);
	return NULL;
}

cJSON *llama_bench_text_parse(const char *buf, size_t len, long **lines, char *err,
			      size_t errlen, long *errline)
{
	const char *p = buf, *stop = buf + len, *nul;

	*lines = NULL;
	*errline = 0;
	if (errlen)
		err[0] = '\0';
	/* A NUL byte would cut a field short in C strings: the text is refused. */
	if ((nul = memchr(buf, '\0', len))) {
		const char *q;
		*errline = 1;
		for (q = buf; q < nul; q++)
			*errline += *q == '\n';
		set_err(err, errlen, "a NUL byte: not a text file");
		return NULL;
	}
	while (p < stop && isspace((unsigned char)*p))
		p++;
	if ((size_t)(stop - p) >= 6 && !strncasecmp(p, "CREATE", 6))
		return parse_sql(buf, len, lines, err, errlen, errline);
	if ((size_t)(stop - p) >= 6 && !strncasecmp(p, "INSERT", 6))
		return parse_sql(buf, len, lines, err, errlen, errline);
	if (p == buf && ((size_t)len >= 13 && !strncmp(p, "build_commit,", 13)))
		return parse_csv(buf, len, lines, err, errlen, errline);
	if (p == buf && memchr(buf, ',', len) && memchr(buf, '\n', len)) {
		const char *nl = memchr(buf, '\n', len);
		/* Some other column order: a header with the test and its rate. */
		if (memmem(buf, (size_t)(nl - buf), "avg_ts", 6) &&
		    memmem(buf, (size_t)(nl - buf), "n_prompt", 8))
			return parse_csv(buf, len, lines, err, errlen, errline);
	}
	return NULL;
}
