/* loaderr.h: the one line of a failed start that says why. A run whose server
 * never got ready keeps the reason and the tail of the server's log in
 * run.load_error; the line that matters (llama.cpp's "error while handling
 * argument ...", the first error of its log) is somewhere in that tail, rarely
 * last: llama.cpp ends a refused argument with its usage text. */
#ifndef COLLECT_LOADERR_H
#define COLLECT_LOADERR_H

#include <stddef.h>

/* The most a line is kept to, in bytes. */
#define LOADERR_LINE_MAX 300

/* The first line of text (a load_error, or a whole server log) that says what
 * went wrong: one that opens with "error" (an argument refused), a llama.cpp log
 * line at level E (without its time and level), or one that says "error:",
 * "what():" (an uncaught exception) or "cannot execute"; runs of blanks squeezed
 * to one, cut to LOADERR_LINE_MAX bytes. A heap string the caller frees, or NULL
 * when no line does (text NULL too). Pure. */
char *loaderr_line(const char *text);

#endif
