/* loaderr.c: picks the error line out of a failed server's log tail. The first
 * such line wins: a model that does not load makes llama.cpp log a cascade of
 * errors, each more general than the one before it. */
#include "collect/loaderr.h"
#include "tpsdb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Case-insensitive: whether s (n bytes) holds word. */
static int has(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word), i;

	for (i = 0; i + w <= n; i++)
		if (!strncasecmp(s + i, word, w))
			return 1;
	return 0;
}

/* A llama.cpp log line, "0.00.022.914 E gguf_init_from_reader: ...": where its
 * text starts when its level is E, else NULL. */
static const char *level_e(const char *s, const char *eol)
{
	const char *p = s;

	while (p < eol && (isdigit((unsigned char)*p) || *p == '.'))
		p++;
	if (p == s || eol - p < 3 || strncmp(p, " E ", 3))
		return NULL;
	return p + 3;
}

/* Where the error of line [s, eol) starts, or NULL when it says none. */
static const char *error_in(const char *s, const char *eol)
{
	const char *t;
	size_t n = (size_t)(eol - s);

	if (!strncasecmp(s, "error", 5) && n > 5 && (s[5] == ':' || s[5] == ' '))
		return s;
	if ((t = level_e(s, eol)))
		return t;
	if (has(s, n, "error:") || has(s, n, "what():") || has(s, n, "cannot execute"))
		return s;
	return NULL;
}

/* [s, eol) with runs of blanks squeezed and the ends trimmed, cut to fit. */
static char *squeeze(const char *s, const char *eol)
{
	char *out = tps_xmalloc(LOADERR_LINE_MAX + 1);
	size_t n = 0;

	for (; s < eol && n < LOADERR_LINE_MAX; s++) {
		int blank = *s == ' ' || *s == '\t' || *s == '\r';
		if (blank && (!n || out[n - 1] == ' '))
			continue;
		out[n++] = blank ? ' ' : *s;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return out;
}

char *loaderr_line(const char *text)
{
	const char *line, *eol, *at;

	for (line = text; line && *line; line = *eol ? eol + 1 : NULL) {
		eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		if ((at = error_in(line, eol)))
			return squeeze(at, eol);
	}
	return NULL;
}
