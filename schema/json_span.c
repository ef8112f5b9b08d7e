/* json_span.c: values read out of checked JSON text (json_span.h). Every walk here
 * trusts json_strict_check(): it skips strings with memchr() and containers by
 * counting brackets outside strings, and never reads past the span it is given. */
#include "schema/json_span.h"
#include "schema/json_strict.h"

#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The offset after the string that opens at s[i] ('"'): a quote closes it unless an
 * odd number of backslashes precede it. len when it is not closed. Short strings
 * (member names, most values) are scanned in place; memchr() takes the long ones
 * (the prompt, the generated text). */
static size_t skip_string(const char *s, size_t len, size_t i)
{
	const char *q;
	size_t stop = i + 1 + 24 < len ? i + 1 + 24 : len;

	for (i++; i < stop; i++) {
		if (s[i] == '"')
			return i + 1;
		if (s[i] == '\\')
			i++;
	}
	for (; i < len; i = (size_t)(q - s) + 1) {
		size_t k = 0;
		if (!(q = memchr(s + i, '"', len - i)))
			return len;
		while (q - k > s + i && q[-1 - (ptrdiff_t)k] == '\\')
			k++;
		/* i never stops inside an escape, so the run counted lies after it. */
		if (!(k & 1))
			return (size_t)(q - s) + 1;
	}
	return len;
}

/* The offset after the value that starts at s[i]. */
static size_t skip_value(const char *s, size_t len, size_t i)
{
	int depth = 0;

	if (i >= len)
		return len;
	if (s[i] == '"')
		return skip_string(s, len, i);
	if (s[i] != '{' && s[i] != '[') {
		/* A number or a literal runs to the next delimiter. */
		while (i < len && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_ws(s[i]))
			i++;
		return i;
	}
	while (i < len) {
		char c = s[i];
		if (c == '"') {
			i = skip_string(s, len, i);
			continue;
		}
		if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return len;
}

static size_t skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len && is_ws(s[i]))
		i++;
	return i;
}

struct json_span json_span_of(const char *text, size_t len)
{
	struct json_span v = { NULL, 0 };
	size_t i = skip_ws(text, len, 0), end = len;

	/* Checked text is one value with white space around it. */
	while (end > i && is_ws(text[end - 1]))
		end--;
	if (i < end) {
		v.p = text + i;
		v.n = end - i;
	}
	return v;
}

enum json_type json_span_type(struct json_span v)
{
	if (!v.p || !v.n)
		return JSON_ABSENT;
	switch (v.p[0]) {
	case '{': return JSON_OBJECT;
	case '[': return JSON_ARRAY;
	case '"': return JSON_STRING;
	case 't': return JSON_TRUE;
	case 'f': return JSON_FALSE;
	case 'n': return JSON_NULL;
	default: return JSON_NUMBER;
	}
}

void json_span_members(struct json_span v, const char *const *keys, size_t n,
		       struct json_span *out)
{
	const char *s = v.p, *name;
	size_t i = 1, k, found = 0, nlen, klen[JSON_SPAN_MAX_KEYS];
	char *decoded = NULL;

	for (k = 0; k < n; k++)
		out[k].p = NULL, out[k].n = 0;
	if (n > JSON_SPAN_MAX_KEYS)
		n = JSON_SPAN_MAX_KEYS;
	for (k = 0; k < n; k++)
		klen[k] = strlen(keys[k]);
	if (json_span_type(v) != JSON_OBJECT)
		return;
	while (found < n) {
		size_t key, end, val;
		i = skip_ws(s, v.n, i);
		if (i >= v.n || s[i] != '"')
			return; /* '}' */
		key = i;
		end = skip_string(s, v.n, i);
		i = skip_ws(s, v.n, end) + 1; /* past ':' */
		val = skip_ws(s, v.n, i);
		i = skip_value(s, v.n, val);
		/* The name's body, decoded when it holds an escape (rare). */
		name = s + key + 1;
		nlen = end - key - 2;
		if (memchr(name, '\\', nlen))
			name = decoded = json_strict_unescape(name, nlen, &nlen);
		for (k = 0; k < n; k++) {
			if (!out[k].p && nlen == klen[k] && !memcmp(name, keys[k], nlen)) {
				out[k].p = s + val;
				out[k].n = i - val;
				found++;
				break;
			}
		}
		free(decoded);
		decoded = NULL;
		i = skip_ws(s, v.n, i) + 1; /* past ',' or '}' */
	}
}

struct json_span json_span_first(struct json_span v)
{
	struct json_span e = { NULL, 0 };
	size_t i;

	if (json_span_type(v) != JSON_ARRAY)
		return e;
	i = skip_ws(v.p, v.n, 1);
	if (i >= v.n || v.p[i] == ']')
		return e;
	e.p = v.p + i;
	e.n = skip_value(v.p, v.n, i) - i;
	return e;
}

double json_span_number(struct json_span v)
{
	char buf[64], *copy = buf;
	double d;

	if (json_span_type(v) != JSON_NUMBER)
		return 0;
	if (v.n >= sizeof(buf))
		copy = tps_xmalloc(v.n + 1);
	memcpy(copy, v.p, v.n);
	copy[v.n] = '\0';
	d = strtod(copy, NULL);
	if (copy != buf)
		free(copy);
	return d;
}

char *json_span_string(struct json_span v, size_t *len)
{
	size_t n;
	char *s;

	if (json_span_type(v) != JSON_STRING || v.n < 2)
		return NULL;
	if (memchr(v.p + 1, '\\', v.n - 2)) {
		s = json_strict_unescape(v.p + 1, v.n - 2, &n);
	} else {
		n = v.n - 2;
		s = tps_xmalloc(n + 1);
		memcpy(s, v.p + 1, n);
	}
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}
