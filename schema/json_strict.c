/* json_strict.c: a one-pass RFC 8259 recogniser over raw bytes. It builds nothing:
 * it only says whether the bytes are one JSON value and, if not, where and why, so
 * that cJSON (lenient) only ever sees text that the RFC accepts. */
#include "schema/json_strict.h"

#include "tpsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const unsigned char *p, *end;
	const unsigned char *at; /* the first bad byte */
	const char *why;
	int depth;
};

static int fail(struct cursor *c, const unsigned char *at, const char *why)
{
	c->at = at;
	c->why = why;
	return -1;
}

/* The length of the UTF-8 sequence at p (1..4), or 0 when it is not valid. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
	unsigned char b = p[0];
	size_t n, i;
	unsigned cp;

	if (b < 0x80)
		return 1;
	if (b >= 0xc2 && b <= 0xdf)
		n = 2, cp = b & 0x1f;
	else if (b >= 0xe0 && b <= 0xef)
		n = 3, cp = b & 0x0f;
	else if (b >= 0xf0 && b <= 0xf4)
		n = 4, cp = b & 0x07;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

int json_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t n = *p < 0x80 ? 1 : utf8_seq(p, end);
		if (!n)
			return 0;
		p += n;
	}
	return 1;
}

char *json_utf8_repair(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	char *out = tps_xmalloc(3 * len + 1), *o = out;

	while (p < end) {
		size_t n = *p < 0x80 ? 1 : utf8_seq(p, end);
		if (n) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3); /* U+FFFD for the one bad byte */
			o += 3;
			p++;
		}
	}
	*o = '\0';
	return out;
}

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int hex4(struct cursor *c, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (c->end - c->p < 4)
		return fail(c, c->p, "unterminated \\u escape");
	for (i = 0; i < 4; i++) {
		unsigned char h = c->p[i];
		v <<= 4;
		if (h >= '0' && h <= '9')
			v |= (unsigned)(h - '0');
		else if (h >= 'a' && h <= 'f')
			v |= (unsigned)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			v |= (unsigned)(h - 'A' + 10);
		else
			return fail(c, c->p + i, "invalid \\u escape");
	}
	c->p += 4;
	*out = v;
	return 0;
}

static int string(struct cursor *c)
{
	const unsigned char *esc;
	unsigned cp, lo;
	size_t n;

	c->p++; /* the opening quote */
	while (c->p < c->end) {
		const unsigned char *p = c->p, *end = c->end;
		unsigned char ch;
		/* The common case first, in a local pointer: printable ASCII other than the
		 * quote and backslash. */
		while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			p++;
		c->p = p;
		if (p == end)
			break;
		ch = *p;
		if (ch == '"') {
			c->p++;
			return 0;
		}
		if (ch < 0x20)
			return fail(c, c->p, ch ? "control character in a string" : "NUL byte in a string");
		if (ch != '\\') {
			if (!(n = utf8_seq(c->p, c->end)))
				return fail(c, c->p, "invalid UTF-8 in a string");
			c->p += n;
			continue;
		}
		esc = c->p++;
		if (c->p >= c->end)
			break;
		switch (*c->p) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			c->p++;
			continue;
		case 'u':
			c->p++;
			if (hex4(c, &cp) < 0)
				return -1;
			if (cp == 0)
				return fail(c, esc, "\\u0000 in a string");
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail(c, esc, "lone surrogate in a string");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (c->end - c->p < 2 || c->p[0] != '\\' || c->p[1] != 'u')
					return fail(c, esc, "lone surrogate in a string");
				c->p += 2;
				if (hex4(c, &lo) < 0)
					return -1;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(c, esc, "lone surrogate in a string");
			}
			continue;
		default:
			return fail(c, esc, "invalid escape in a string");
		}
	}
	return fail(c, c->p, "unterminated string");
}

static int digits(struct cursor *c)
{
	const unsigned char *start = c->p;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		c->p++;
	return c->p > start ? 0 : fail(c, c->p, "invalid number");
}

static int number(struct cursor *c)
{
	if (*c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0') {
		c->p++;
		if (c->p < c->end && *c->p >= '0' && *c->p <= '9')
			return fail(c, c->p - 1, "leading zero in a number");
	} else if (digits(c) < 0) {
		return -1;
	}
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (digits(c) < 0)
			return -1;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (digits(c) < 0)
			return -1;
	}
	return 0;
}

static int literal(struct cursor *c, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n))
		return fail(c, c->p, "unexpected character");
	c->p += n;
	return 0;
}

static int value(struct cursor *c);

/* The keys of one object, as the bytes they stand for, in an open-addressing hash
 * set: a key met twice is refused (cJSON would keep the first while a raw copy of
 * the text keeps the second). A key without a backslash is its raw bytes; one
 * with escapes is decoded (owned, freed with the set), so "a" and "\u0061" meet. */
#define KEYSET_INLINE 32 /* slots on the stack: an object of up to 16 keys allocates nothing */
struct keyset {
	const unsigned char **k;
	size_t *len, n, cap;
	unsigned char **owned;
	size_t n_owned;
	const unsigned char *k0[KEYSET_INLINE];
	size_t len0[KEYSET_INLINE];
};

static void keyset_init(struct keyset *ks)
{
	memset(ks, 0, sizeof(*ks));
	ks->k = ks->k0;
	ks->len = ks->len0;
	ks->cap = KEYSET_INLINE;
}

static void keyset_release(struct keyset *ks)
{
	while (ks->n_owned)
		free(ks->owned[--ks->n_owned]);
	free(ks->owned);
	if (ks->k != ks->k0) {
		free(ks->k);
		free(ks->len);
	}
}

static size_t put_utf8(unsigned char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

static unsigned hex_at(const unsigned char *p)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned char h = p[i];
		v = v << 4 | (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
	}
	return v;
}

/* The bytes a string's body (already checked by string()) stands for; heap, *n
 * set. Never longer than the body. */
static unsigned char *unescape(const unsigned char *s, size_t len, size_t *n)
{
	unsigned char *out = tps_xmalloc(len + 1), *o = out;
	const unsigned char *end = s + len;

	while (s < end) {
		unsigned cp;
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s++) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			cp = hex_at(s);
			s += 4;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (hex_at(s + 2) - 0xdc00);
				s += 6;
			}
			o += put_utf8(o, cp);
			break;
		default: *o++ = s[-1]; break; /* " \ / */
		}
	}
	*n = (size_t)(o - out);
	return out;
}

char *json_strict_unescape(const char *body, size_t len, size_t *n)
{
	return (char *)unescape((const unsigned char *)body, len, n);
}

static size_t key_hash(const unsigned char *k, size_t n)
{
	size_t h = 1469598103934665603u, i;

	for (i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211u;
	return h;
}

/* 1 when the key was there already, 0 when added. */
static int keyset_add(struct keyset *ks, const unsigned char *k, size_t n)
{
	size_t i;

	if (2 * (ks->n + 1) > ks->cap) {
		struct { const unsigned char **k; size_t *len, n, cap; } big = { 0 };
		size_t j, cap = 2 * ks->cap;
		big.k = tps_xcalloc(cap, sizeof(*big.k));
		big.len = tps_xcalloc(cap, sizeof(*big.len));
		big.cap = cap;
		for (i = 0; i < ks->cap; i++) {
			if (!ks->k[i])
				continue;
			for (j = key_hash(ks->k[i], ks->len[i]) & (cap - 1); big.k[j];
			     j = (j + 1) & (cap - 1))
				;
			big.k[j] = ks->k[i];
			big.len[j] = ks->len[i];
		}
		if (ks->k != ks->k0) {
			free(ks->k);
			free(ks->len);
		}
		ks->k = big.k;
		ks->len = big.len;
		ks->cap = big.cap; /* n stays: the same keys */
	}
	for (i = key_hash(k, n) & (ks->cap - 1); ks->k[i]; i = (i + 1) & (ks->cap - 1)) {
		if (ks->len[i] == n && !memcmp(ks->k[i], k, n))
			return 1;
	}
	ks->k[i] = k;
	ks->len[i] = n;
	ks->n++;
	return 0;
}

/* An array or an object; c->p at its opening bracket. */
static int container(struct cursor *c)
{
	int object = *c->p == '{', ret = -1;
	unsigned char close = object ? '}' : ']';
	struct keyset keys;

	if (++c->depth > JSON_STRICT_MAX_DEPTH)
		return fail(c, c->p, "nested too deep");
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		c->depth--;
		return 0;
	}
	if (object)
		keyset_init(&keys);
	for (;;) {
		if (object) {
			const unsigned char *key = c->p, *k;
			size_t klen;
			if (c->p >= c->end || *c->p != '"') {
				fail(c, c->p, "expected a string key");
				goto out;
			}
			if (string(c) < 0)
				goto out;
			k = key + 1;
			klen = (size_t)(c->p - key) - 2;
			if (memchr(k, '\\', klen)) {
				k = unescape(k, klen, &klen);
				keys.owned = tps_xrealloc(keys.owned, (keys.n_owned + 1) *
							  sizeof(*keys.owned));
				keys.owned[keys.n_owned++] = (unsigned char *)k;
			}
			if (keyset_add(&keys, k, klen)) {
				fail(c, key, "duplicate key in an object");
				goto out;
			}
			skip_ws(c);
			if (c->p >= c->end || *c->p != ':') {
				fail(c, c->p, "expected ':'");
				goto out;
			}
			c->p++;
			skip_ws(c);
		}
		if (value(c) < 0)
			goto out;
		skip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			skip_ws(c);
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			c->depth--;
			ret = 0;
			goto out;
		}
		fail(c, c->p, object ? "expected ',' or '}'" : "expected ',' or ']'");
		goto out;
	}
out:
	if (object)
		keyset_release(&keys);
	return ret;
}

static int value(struct cursor *c)
{
	if (c->p >= c->end)
		return fail(c, c->p, "unexpected end of input");
	switch (*c->p) {
	case '{': case '[': return container(c);
	case '"': return string(c);
	case 't': return literal(c, "true");
	case 'f': return literal(c, "false");
	case 'n': return literal(c, "null");
	default:
		if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9'))
			return number(c);
		return fail(c, c->p, *c->p ? "unexpected character" : "NUL byte");
	}
}

int json_strict_check(const char *buf, size_t len, size_t *at, char *why, size_t whylen)
{
	struct cursor c = { (const unsigned char *)buf, (const unsigned char *)buf + len,
			    NULL, NULL, 0 };

	skip_ws(&c);
	if (value(&c) == 0) {
		skip_ws(&c);
		if (c.p == c.end)
			return 0;
		fail(&c, c.p, "text after the value");
	}
	*at = (size_t)(c.at - (const unsigned char *)buf);
	snprintf(why, whylen, "%s", c.why);
	return -1;
}
