/* docs/man/mangen.c: writes the manual pages, in man(7) roff, at build time:
 * tpsdb-<command>(1) from each command's entry (its summary, and its --help text,
 * docs/help/<command>.txt as compiled in, so the page says what --help says), and
 * tpsdb(1) from the template docs/man/tpsdb.1.in with the version and the command
 * list filled in. CMake runs it as
 *
 *   tpsdb-mangen <template> <version> <outdir> <command>...
 *
 * with the commands that docs/help holds texts for; one the table (cmd/cmd.h) lacks, or
 * one of the table without a text, is an error. The pages hold no date, so a build
 * writes the same bytes every time.
 *
 * A help text is plain text for an 80-column terminal; it becomes roff thus. The
 * synopsis block (up to the first blank line) holds forms, "usage: " or "or: " and
 * the lines under it: each is a paragraph hanging from its "tpsdb <command>" (.TP),
 * filled, with the spaces inside brackets unbreakable. A line
 * at the left margin is prose, filled (.PP), or, alone as "Word:", a subheading
 * (.SS). An indented block is a list: a line at the block's least indent opens an
 * item, its tag up to a gap of two spaces or up to the column its deeper-indented
 * continuation lines start at (.TP, option words bold); a line that neither splits
 * so nor has continuation lines, a table row (a second gap) and a line of prose
 * following such a line are kept as they are (.nf), or, several lines without a
 * gap, filled as an indented paragraph; a filled line that ends in a
 * word broken at '-' or '_' joins the next without a space. Text is escaped for roff: a
 * backslash as \e, every '-' as \- (so options copy as typed), a leading '.' or
 * '\'' behind \&, and any other character than ASCII as \[uXXXX]. */
#include "cmd/cmd.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An output page: the file, and whether the next byte starts a line. */
struct page {
	FILE *f;
	int bol;
};

struct line {
	const char *s;
	int len;
	int indent;  /* leading spaces; -1 for a blank line */
};

/* Writes n bytes of s as roff text. */
static void text(struct page *p, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (p->bol && (c == '.' || c == '\''))
			fputs("\\&", p->f);
		p->bol = 0;
		if (c == '\\') {
			fputs("\\e", p->f);
		} else if (c == '-') {
			fputs("\\-", p->f);
		} else if (c == '\n') {
			fputc('\n', p->f);
			p->bol = 1;
		} else if (c < 0x80) {
			fputc(c, p->f);
		} else {
			/* One UTF-8 sequence as \[uXXXX]; a stray byte as '?'. */
			unsigned long cp = 0;
			int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0, j;

			cp = k == 3 ? c & 0x07 : k == 2 ? c & 0x0f : c & 0x1f;
			for (j = 1; j <= k && i + j < n && ((unsigned char)s[i + j] & 0xc0) == 0x80; j++)
				cp = cp << 6 | ((unsigned char)s[i + j] & 0x3f);
			if (k == 0 || j <= k) {
				fputc('?', p->f);
			} else {
				fprintf(p->f, "\\[u%04lX]", cp);
				i += k;
			}
		}
	}
}

static void str(struct page *p, const char *s)
{
	text(p, s, strlen(s));
}

/* Ends the current line, if any. */
static void eol(struct page *p)
{
	if (!p->bol)
		text(p, "\n", 1);
}

/* Writes a line of filled text, n bytes of s, and ends it. A line that ends inside
 * a word broken at a '-' or '_' ("degenerate-", "predicted_per_") joins the next
 * line, next, without a space (\c), as the help text meant. */
static void fill_line(struct page *p, const char *s, size_t n, const struct line *next)
{
	text(p, s, n);
	if (next && n >= 2 && (s[n - 1] == '-' || s[n - 1] == '_') && isalnum((unsigned char)s[n - 2]) &&
	    isalpha((unsigned char)next->s[next->indent]))
		fputs("\\c", p->f);
	eol(p);
}

/* A request (or a comment) on a line of its own, as it is: never escaped. */
static void req(struct page *p, const char *r)
{
	eol(p);
	fputs(r, p->f);
	fputc('\n', p->f);
	p->bol = 1;
}

/* A list item's tag: the words that start with '-' bold. */
static void tag(struct page *p, const char *s, size_t n)
{
	size_t i = 0;

	req(p, ".TP");
	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != ' ')
			j++;
		if (s[i] == '-') {
			fputs("\\fB", p->f);
			p->bol = 0;
			text(p, s + i, j - i);
			fputs("\\fR", p->f);
		} else {
			text(p, s + i, j - i);
		}
		if (j < n)
			text(p, " ", 1);
		i = j + 1;
	}
	eol(p);
}

/* A piece of a synopsis, filled: a space inside brackets or parentheses does not
 * break the line, so '[--tag <t>[,<t>...]]' stays whole. */
static void synopsis_words(struct page *p, const char *s, size_t n)
{
	size_t i;
	int depth = 0;

	while (n > 0 && *s == ' ')
		s++, n--;
	for (i = 0; i < n; i++) {
		if (s[i] == '[' || s[i] == '(')
			depth++;
		else if ((s[i] == ']' || s[i] == ')') && depth > 0)
			depth--;
		if (s[i] == ' ' && depth > 0) {
			fputs("\\ ", p->f);
			p->bol = 0;
		} else if (s[i] == ' ' && i + 1 < n && s[i + 1] == ' ') {
			continue;
		} else {
			text(p, s + i, 1);
		}
	}
	eol(p);
}

/* Where the first gap of two or more spaces at or after from ends (the next word),
 * or -1; *gap is where it starts. */
static int after_gap(const struct line *l, int from, int *gap)
{
	int i;

	for (i = from; i + 1 < l->len; i++) {
		if (l->s[i] == ' ' && l->s[i + 1] == ' ') {
			int j = i;

			while (j < l->len && l->s[j] == ' ')
				j++;
			if (j == l->len)
				return -1;
			*gap = i;
			return j;
		}
	}
	return -1;
}

/* Whether a line from a until b holds a gap of two spaces after its indent. */
static int gapped(const struct line *l, int a, int b)
{
	int gap;

	for (; a < b; a++)
		if (after_gap(&l[a], l[a].indent, &gap) > 0)
			return 1;
	return 0;
}

/* Lines as written, from a until b, in no-fill mode. */
static void verbatim(struct page *p, const struct line *l, int a, int b)
{
	int i;

	req(p, ".PP");
	req(p, ".nf");
	for (i = a; i < b; i++) {
		text(p, l[i].s, (size_t)l[i].len);
		eol(p);
	}
	req(p, ".fi");
}

/* Where the item that opens at line i ends: the first line after it at the block's
 * least indent, or b. */
static int item_end(const struct line *l, int i, int b, int least)
{
	for (i++; i < b && l[i].indent > least; i++)
		;
	return i;
}

/* Whether the item of lines i until j splits into a tag and a description, and
 * where (*tagend, *desc); col is the block's description column, kept whether the
 * line before was kept as written (then only a gap splits). */
static int item_split(const struct line *l, int i, int j, int least, int col, int kept,
		      int *tagend, int *desc)
{
	int c = j > i + 1 ? l[i + 1].indent : col, gap, g2, s;

	*tagend = -1;
	if (l[i].indent != least)
		return 0;
	if ((*desc = after_gap(&l[i], least, &gap)) > 0) {
		if (after_gap(&l[i], *desc, &g2) > 0)
			return 0;  /* a table row */
		*tagend = gap;
	} else if (!kept && c > least && c < l[i].len && l[i].s[c - 1] == ' ' &&
		   l[i].s[c] != ' ') {
		*tagend = c - 1;
		*desc = c;
	} else if (j > i + 1) {
		for (s = c < l[i].len ? c : l[i].len - 1; s > least && l[i].s[s] != ' '; s--)
			;
		if (s <= least)
			return 0;
		*tagend = s;
		*desc = s + 1;
	} else {
		return 0;
	}
	while (*tagend > least && l[i].s[*tagend - 1] == ' ')
		(*tagend)--;
	return 1;
}

/* An indented block, lines a until b (none blank, each indented). */
static void block(struct page *p, const struct line *l, int a, int b)
{
	int least = l[a].indent, col = -1, i, gap;

	for (i = a; i < b; i++)
		if (l[i].indent < least)
			least = l[i].indent;
	/* The block's description column: where its first continuation line starts,
	 * else where its first item's description does. */
	for (i = a; i < b && col < 0; i++)
		if (l[i].indent > least)
			col = l[i].indent;
	for (i = a; i < b && col < 0; i++)
		col = after_gap(&l[i], least, &gap);
	i = a;
	while (i < b) {
		int j = item_end(l, i, b, least), tagend, desc;

		if (!item_split(l, i, j, least, col, 0, &tagend, &desc)) {
			int k = j, m;

			/* Kept as written, with the items after it that do not split either
			 * (the rows of a table, the lines of a paragraph). */
			while (k < b && !item_split(l, k, item_end(l, k, b, least), least, col, 1,
						    &tagend, &desc))
				k = item_end(l, k, b, least);
			if (k > i + 1 && !gapped(l, i, k)) {
				/* Prose, indented: filled, indented as written. */
				req(p, ".PP");
				req(p, ".RS 2");
				for (m = i; m < k; m++)
					fill_line(p, l[m].s + l[m].indent, (size_t)(l[m].len - l[m].indent),
						  m + 1 < k ? &l[m + 1] : NULL);
				req(p, ".RE");
			} else {
				verbatim(p, l, i, k);
			}
			i = k;
			continue;
		}
		tag(p, l[i].s + least, (size_t)(tagend - least));
		fill_line(p, l[i].s + desc, (size_t)(l[i].len - desc), i + 1 < j ? &l[i + 1] : NULL);
		for (i++; i < j; i++)
			fill_line(p, l[i].s + l[i].indent, (size_t)(l[i].len - l[i].indent),
				  i + 1 < j ? &l[i + 1] : NULL);
	}
}

/* Splits text into lines; caller frees *out. */
static int split(const char *t, struct line **out)
{
	int n = 0, cap = 64;
	struct line *l = malloc(sizeof(*l) * (size_t)cap);

	if (!l)
		return -1;
	while (*t) {
		const char *e = strchr(t, '\n');
		int len = e ? (int)(e - t) : (int)strlen(t), k = 0;

		if (n == cap) {
			struct line *m = realloc(l, sizeof(*l) * (size_t)(cap *= 2));
			if (!m) {
				free(l);
				return -1;
			}
			l = m;
		}
		while (len > 0 && t[len - 1] == ' ')
			len--;
		while (k < len && t[k] == ' ')
			k++;
		l[n].s = t;
		l[n].len = len;
		l[n].indent = k == len ? -1 : k;
		n++;
		t += e ? (size_t)(e - t) + 1 : strlen(t);
	}
	*out = l;
	return n;
}

static int heading(const struct line *l)
{
	int i;

	if (l->len < 2 || l->s[l->len - 1] != ':' || l->s[0] < 'A' || l->s[0] > 'Z')
		return 0;
	for (i = 1; i < l->len - 1; i++)
		if (!((l->s[i] >= 'a' && l->s[i] <= 'z') || (l->s[i] >= 'A' && l->s[i] <= 'Z') || l->s[i] == ' '))
			return 0;
	return 1;
}

static void header(struct page *p, const char *title, const char *version)
{
	req(p, ".\\\" Generated by tpsdb-mangen (docs/man/mangen.c); do not edit.");
	fputs(".TH \"", p->f);
	p->bol = 0;
	str(p, title);
	fputs("\" 1 \"\" \"", p->f);
	str(p, "tpsdb ");
	str(p, version);
	fputs("\" \"tpsdb Manual\"\n", p->f);
	p->bol = 1;
	req(p, ".nh");
	req(p, ".ad l");
}

static int command_page(struct page *p, const struct cmd_entry *cmd, const char *version)
{
	struct line *l = NULL;
	char title[64];
	size_t i;
	int n, k, prose = 0, ulen = 7 + 6 + (int)strlen(cmd->name);

	if ((n = split(cmd->help, &l)) < 0)
		return -1;
	if (n == 0 || l[0].len < ulen || strncmp(l[0].s, "usage: tpsdb ", 13) ||
	    strncmp(l[0].s + 13, cmd->name, strlen(cmd->name))) {
		fprintf(stderr, "tpsdb-mangen: the help of '%s' does not open with its usage\n",
			cmd->name);
		free(l);
		return -1;
	}
	snprintf(title, sizeof(title), "TPSDB-%s", cmd->name);
	for (i = 0; title[i]; i++)
		if (title[i] >= 'a' && title[i] <= 'z')
			title[i] = (char)(title[i] - 'a' + 'A');
	header(p, title, version);
	req(p, ".SH NAME");
	str(p, "tpsdb-");
	str(p, cmd->name);
	str(p, " - ");
	str(p, cmd->summary);
	eol(p);
	req(p, ".SH SYNOPSIS");
	for (k = 0; k < n && l[k].indent >= 0; k++) {
		const char *s = l[k].s + l[k].indent;
		int len = l[k].len - l[k].indent, skip;

		/* A form opens with "usage: " or "or: ", its further lines go on it. */
		skip = !strncmp(s, "usage: ", 7) ? 7 : !strncmp(s, "or: ", 4) ? 4 : 0;
		if (skip) {
			char w[32];

			if (len - skip < ulen - 7 || strncmp(s + skip, l[0].s + 7, (size_t)(ulen - 7))) {
				fprintf(stderr, "tpsdb-mangen: '%s': a usage form of another command\n",
					cmd->name);
				free(l);
				return -1;
			}
			snprintf(w, sizeof(w), ".TP %dn", ulen - 7 + 1);
			req(p, w);
			fputs("\\fB", p->f);
			p->bol = 0;
			text(p, s + skip, (size_t)(ulen - 7));
			fputs("\\fR", p->f);
			eol(p);
			s += skip + ulen - 7;
			len -= skip + ulen - 7;
		}
		synopsis_words(p, s, (size_t)len);
	}
	req(p, ".SH DESCRIPTION");
	while (k < n) {
		if (l[k].indent < 0) {
			prose = 0;
			k++;
		} else if (l[k].indent == 0 && heading(&l[k])) {
			eol(p);
			fputs(".SS ", p->f);
			p->bol = 0;
			text(p, l[k].s, (size_t)l[k].len - 1);
			eol(p);
			prose = 0;
			k++;
		} else if (l[k].indent == 0) {
			if (!prose)
				req(p, ".PP");
			prose = 1;
			fill_line(p, l[k].s, (size_t)l[k].len,
				  k + 1 < n && l[k + 1].indent == 0 && !heading(&l[k + 1]) ? &l[k + 1] : NULL);
			k++;
		} else {
			int e = k;

			while (e < n && l[e].indent > 0)
				e++;
			block(p, l, k, e);
			prose = 0;
			k = e;
		}
	}
	req(p, ".SH SEE ALSO");
	req(p, ".BR tpsdb (1)");
	free(l);
	return 0;
}

/* tpsdb(1): the template, "@VERSION@" replaced, and the line "@COMMANDS@" as the
 * command list, in the order of `tpsdb --help`. */
static int main_page(struct page *p, FILE *tmpl, const char *version)
{
	char buf[4096];
	size_t i;

	while (fgets(buf, sizeof(buf), tmpl)) {
		char *at;

		if (!strcmp(buf, "@COMMANDS@\n")) {
			for (i = 0; i < cmd_table_n; i++) {
				req(p, ".TP");
				fputs(".BR ", p->f);
				p->bol = 0;
				str(p, "tpsdb-");
				str(p, cmd_table[i]->name);
				fputs(" (1)\n", p->f);
				p->bol = 1;
				str(p, cmd_table[i]->summary);
				eol(p);
			}
			continue;
		}
		p->bol = 0;
		while ((at = strstr(buf, "@VERSION@"))) {
			*at = '\0';
			fputs(buf, p->f);
			str(p, version);
			memmove(buf, at + 9, strlen(at + 9) + 1);
		}
		fputs(buf, p->f);
		p->bol = 1;
	}
	return ferror(tmpl) ? -1 : 0;
}

/* Writes one page, dir/name.1, through a temporary file renamed over it. */
static int write_page(const char *dir, const char *name, const struct cmd_entry *cmd,
		      FILE *tmpl, const char *version)
{
	char path[4096], tmp[4200];
	struct page p = { NULL, 1 };
	int ret;

	snprintf(path, sizeof(path), "%s/%s.1", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(p.f = fopen(tmp, "w"))) {
		fprintf(stderr, "tpsdb-mangen: cannot write '%s': %s\n", tmp, strerror(errno));
		return -1;
	}
	ret = cmd ? command_page(&p, cmd, version) : main_page(&p, tmpl, version);
	if (fclose(p.f) != 0 || ret < 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "tpsdb-mangen: cannot write '%s'\n", path);
		remove(tmp);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	FILE *tmpl;
	size_t i;
	int a, ret = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: tpsdb-mangen <template> <version> <outdir> <command>...\n");
		return 2;
	}
	/* The table and docs/help name the same commands. */
	for (a = 4; a < argc; a++) {
		for (i = 0; i < cmd_table_n && strcmp(cmd_table[i]->name, argv[a]); i++)
			;
		if (i == cmd_table_n) {
			fprintf(stderr, "tpsdb-mangen: no command '%s' in docs/man/mangen.c's table\n",
				argv[a]);
			return 1;
		}
	}
	for (i = 0; i < cmd_table_n; i++) {
		for (a = 4; a < argc && strcmp(cmd_table[i]->name, argv[a]); a++)
			;
		if (a == argc) {
			fprintf(stderr, "tpsdb-mangen: no docs/help/%s.txt\n", cmd_table[i]->name);
			return 1;
		}
	}
	if (!(tmpl = fopen(argv[1], "r"))) {
		fprintf(stderr, "tpsdb-mangen: cannot read '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (write_page(argv[3], "tpsdb", NULL, tmpl, argv[2]) < 0)
		ret = 1;
	fclose(tmpl);
	for (i = 0; i < cmd_table_n && !ret; i++) {
		char name[64];

		snprintf(name, sizeof(name), "tpsdb-%s", cmd_table[i]->name);
		if (write_page(argv[3], name, cmd_table[i], NULL, argv[2]) < 0)
			ret = 1;
	}
	return ret;
}
