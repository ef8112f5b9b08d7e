/* escape.c: untrusted text made safe per sink (escape.h). Every function walks the
 * string once, UTF-8 sequence by sequence, so an invalid byte is seen as such by
 * every sink and a multi-byte character is never cut. */
#include "escape.h"
#include "strbuf.h"
#include "tpsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void puts_(struct strbuf *b, const char *s)
{
	strbuf_put(b, s, strlen(s));
}

static void put_hex(struct strbuf *b, const char *fmt, unsigned v)
{
	char e[12];

	snprintf(e, sizeof(e), fmt, v);
	puts_(b, e);
}

static char *start(struct strbuf *b)
{
	b->p = NULL;
	b->len = b->cap = 0;
	strbuf_put(b, "", 0);
	return b->p;
}

size_t escape_utf8_seq(const char *s, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned v, min;
	size_t n, i;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0) {
		n = 2, v = u[0] & 0x1f, min = 0x80;
	} else if ((u[0] & 0xf0) == 0xe0) {
		n = 3, v = u[0] & 0x0f, min = 0x800;
	} else if ((u[0] & 0xf8) == 0xf0) {
		n = 4, v = u[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
			return 0;
		v = (v << 6) | (u[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* A C0 or C1 control character, or DEL. */
static int is_control(unsigned cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f);
}

/* One sink's rule for one character: cp, n bytes at s (n == 0: a byte that is not
 * UTF-8) appended to b as the sink wants it. Returns how many bytes it used, 0 for one. */
typedef size_t (*escape_char_fn)(struct strbuf *b, const char *s, size_t n, unsigned cp,
				 int arg);

/* The one walk: s sequence by sequence, each through f. */
static void walk(struct strbuf *b, const char *s, escape_char_fn f, int arg)
{
	unsigned cp;
	size_t n;

	for (; s && *s; s += n ? n : 1) {
		n = escape_utf8_seq(s, &cp);
		n = f(b, s, n, cp, arg);
	}
}

/* s walked through f into a new string; caller frees. */
static char *escaped(const char *s, escape_char_fn f, int arg)
{
	struct strbuf b;

	start(&b);
	walk(&b, s, f, arg);
	return b.p;
}

/* The end of escape_text() and escape_github(): a control made visible, else as is. */
static size_t put_visible(struct strbuf *b, const char *s, size_t n, unsigned cp)
{
	if (cp < 0x20 || cp == 0x7f)
		put_hex(b, "\\x%02x", cp);
	else if (cp >= 0x80 && cp <= 0x9f)
		put_hex(b, "\\u%04x", cp);
	else
		strbuf_put(b, s, n);
	return n;
}

static size_t utf8_char(struct strbuf *b, const char *s, size_t n, unsigned cp, int arg)
{
	(void)cp, (void)arg;
	if (n)
		strbuf_put(b, s, n);
	else
		puts_(b, "\xef\xbf\xbd");
	return n;
}

char *escape_utf8(const char *s)
{
	return s ? escaped(s, utf8_char, 0) : NULL;
}

static size_t text_char(struct strbuf *b, const char *s, size_t n, unsigned cp, int arg)
{
	(void)arg;
	if (!n)
		put_hex(b, "\\x%02x", (unsigned char)*s);
	else if (cp == '\n')
		puts_(b, "\\n");
	else if (cp == '\t')
		puts_(b, "\\t");
	else if (cp == '\r')
		puts_(b, "\\r");
	else
		put_visible(b, s, n, cp);
	return n;
}

char *escape_text(const char *s)
{
	struct strbuf b;

	start(&b);
	if (!s)
		return b.p;
	if (s[0] == ':' && s[1] == ':') {
		puts_(&b, "\\x3a");
		s++;
	}
	walk(&b, s, text_char, 0);
	return b.p;
}

static size_t github_char(struct strbuf *b, const char *s, size_t n, unsigned cp, int prop)
{
	if (!n)
		put_hex(b, "\\x%02x", (unsigned char)*s);
	else if (cp == '%')
		puts_(b, "%25");
	else if (cp == '\r')
		puts_(b, "%0D");
	else if (cp == '\n')
		puts_(b, "%0A");
	else if (prop && cp == ':')
		puts_(b, "%3A");
	else if (prop && cp == ',')
		puts_(b, "%2C");
	else if (cp == '\t')
		puts_(b, " ");
	else
		put_visible(b, s, n, cp);
	return n;
}

char *escape_github(const char *s, int prop)
{
	return escaped(s, github_char, prop);
}

static size_t xml_char(struct strbuf *b, const char *s, size_t n, unsigned cp, int arg)
{
	(void)arg;
	if (!n)
		puts_(b, "\xef\xbf\xbd");
	else if (cp == '&')
		puts_(b, "&amp;");
	else if (cp == '<')
		puts_(b, "&lt;");
	else if (cp == '>')
		puts_(b, "&gt;");
	else if (cp == '"')
		puts_(b, "&quot;");
	else if (cp == '\'')
		puts_(b, "&apos;");
	else if (cp == '\t' || cp == '\n' || cp == '\r')
		strbuf_put(b, s, 1);
	else if (is_control(cp))
		puts_(b, "?");
	else
		strbuf_put(b, s, n);
	return n;
}

char *escape_xml(const char *s)
{
	return escaped(s, xml_char, 0);
}

static size_t cdata_char(struct strbuf *b, const char *s, size_t n, unsigned cp, int arg)
{
	(void)cp, (void)arg;
	if (!n)
		puts_(b, "\xef\xbf\xbd");
	else if (!strncmp(s, "]]>", 3))
		puts_(b, "]] >"), n = 3;
	else
		strbuf_put(b, s, n);
	return n;
}

char *escape_cdata(const char *s)
{
	return escaped(s, cdata_char, 0);
}

char *escape_html(const char *s)
{
	return escape_xml(s);
}

static size_t md_char(struct strbuf *b, const char *s, size_t n, unsigned cp, int arg)
{
	(void)arg;
	if (!n) {
		puts_(b, "\xef\xbf\xbd"); /* U+FFFD for a byte that is not UTF-8 */
	} else if (cp < 0x80 && strchr("\\|`*<>[]", (int)cp)) {
		char e[2] = { '\\', (char)cp };
		strbuf_put(b, e, 2);
	} else if (cp == '\n') {
		puts_(b, "<br>");
	} else if (cp == '\r') {
		; /* dropped */
	} else if (cp == '\t') {
		puts_(b, " ");
	} else if (is_control(cp)) {
		puts_(b, "?");
	} else {
		strbuf_put(b, s, n);
	}
	return n;
}

char *escape_md(const char *s)
{
	return escaped(s, md_char, 0);
}

char *escape_csv(const char *s)
{
	struct strbuf b;
	char *fixed;
	const char *p;

	if (!s)
		return NULL;
	fixed = escape_utf8(s);
	if (!strpbrk(fixed, ",\"\r\n"))
		return fixed;
	start(&b);
	puts_(&b, "\"");
	for (p = fixed; *p; p++) {
		if (*p == '"')
			puts_(&b, "\"");
		strbuf_put(&b, p, 1);
	}
	puts_(&b, "\"");
	free(fixed);
	return b.p;
}

char *escape_gnuplot(const char *s, size_t max, int field)
{
	size_t n = strlen(s ? s : ""), i = 0, cp = 0, len;
	char *q = tps_xmalloc(3 * n + 8);
	const char *p;
	unsigned c;

	for (p = s ? s : ""; *p; p += len ? len : 1) {
		len = escape_utf8_seq(p, &c);
		if (cp++ == max) {
			memcpy(q + i, "...", 3);
			i += 3;
			break;
		}
		if (!len) {
			memcpy(q + i, "\xef\xbf\xbd", 3);
			i += 3;
		} else if (is_control(c)) {
			q[i++] = ' ';
		} else if (c == '\'' && !field) {
			q[i++] = '\'';
			q[i++] = '\'';
		} else if (c == '"' && field) {
			q[i++] = '\'';
			q[i++] = '\'';
		} else if (!strncmp(p, "]]>", 3)) {
			memcpy(q + i, "]] >", 4);
			i += 4;
			len = 3;
			cp += 2;
		} else {
			memcpy(q + i, p, len);
			i += len;
		}
	}
	q[i] = '\0';
	return q;
}
