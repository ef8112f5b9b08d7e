/* escape.h: the one place where untrusted text (labels, tags, models, hosts, notes,
 * error texts) is made safe for a sink on its way out: a terminal, a GitHub workflow
 * command, a JSON string, an XML/SVG text. Every writer of reports/ goes through
 * these, so a sink cannot be escaped one way here and another way there. */
#ifndef TPSDB_ESCAPE_H
#define TPSDB_ESCAPE_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when s does not start
 * one (a stray continuation byte, an overlong form, a surrogate, above U+10FFFF or
 * cut by the end of the string). *cp gets the code point when valid. */
size_t escape_utf8_seq(const char *s, unsigned *cp);

/* s with every invalid UTF-8 sequence replaced by U+FFFD, one per bad byte, and
 * nothing else changed. Caller frees; NULL gives NULL. */
char *escape_utf8(const char *s);

/* s for a terminal or a plain-text line: tab "\t", newline "\n", carriage return
 * "\r", every other C0 control character and DEL "\xHH", a C1 control character
 * (U+0080 to U+009F) "\u00HH", a byte that is not valid UTF-8 "\xHH", and a leading
 * "::" becomes "\x3a:" so a label printed at the start of a line can never be read
 * as a GitHub workflow command. The result is valid UTF-8 with no control character
 * and stays on one line. Caller frees; NULL gives "". */
char *escape_text(const char *s);

/* s for the message of a GitHub workflow command ("::error ...::<message>"), as
 * GitHub documents: '%' "%25", CR "%0D", LF "%0A"; with prop set (a property value,
 * e.g. title=), also ':' "%3A" and ',' "%2C". Any other control character, C1
 * character or invalid byte is made visible as escape_text() does. Caller frees;
 * NULL gives "". */
char *escape_github(const char *s, int prop);

/* s for XML 1.0 character data or an attribute value (the JUnit report, SVG):
 * the five entities, tab/LF/CR kept, other control characters (XML cannot carry
 * them) and C1 characters '?', invalid UTF-8 U+FFFD. The output holds no "]]>"
 * (its '>' is an entity), so it is safe inside CDATA as well. Caller frees; NULL
 * gives "". */
char *escape_xml(const char *s);

/* s for HTML text or a double-quoted attribute value: escape_xml(), whose five
 * entities are HTML's too. Caller frees; NULL gives "". */
char *escape_html(const char *s);

/* s for a string that ends up inside a CDATA section (gnuplot's SVG writes text
 * that way): "]]>" becomes "]] >", invalid UTF-8 U+FFFD. Caller frees; NULL
 * gives "". */
char *escape_cdata(const char *s);

/* s for a markdown table cell or a line of markdown: the characters that could end
 * a cell or start markup ('\\', '|', '`', '*', '<', '>', '[', ']') get a backslash, a
 * newline becomes "<br>", a carriage return is dropped, a tab a space, any other
 * control character (C0, DEL, C1) "?" and a byte that is not UTF-8 U+FFFD. '_' is
 * left alone: GitHub never reads one inside a word (n_max) as emphasis. Caller
 * frees; NULL gives "". */
char *escape_md(const char *s);

/* s for gnuplot: a copy with control characters (C0, DEL, C1) as spaces and, for a
 * script string (field 0), each single quote doubled, or, for a field of a data
 * file (field 1), each '"' as two single quotes; at most max UTF-8 code points, a
 * cut one ending in "...". A byte that is not UTF-8 becomes U+FFFD and "]]>"
 * becomes "]] >": gnuplot's SVG terminal writes text into CDATA sections of an
 * XML file, which either would break. Caller frees; NULL gives "". */
char *escape_gnuplot(const char *s, size_t max, int field);

/* s as one RFC 4180 CSV field: as it is, or, when it holds a comma, a double quote,
 * CR or LF, in double quotes with each quote doubled; invalid UTF-8 U+FFFD, so every
 * CSV is valid UTF-8. Caller frees; NULL gives NULL (an empty field). */
char *escape_csv(const char *s);

#endif
