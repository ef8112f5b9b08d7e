/* tail.h: the last line of a log, to quote in a one-line message: the server log
 * of a failed load in a finding, gnuplot's complaint in a warning. Logs end in
 * blank lines and can be long; a message wants one line of bounded length. */
#ifndef REPORTS_TAIL_H
#define REPORTS_TAIL_H

#include <stddef.h>

/* The last line of text that is not blank after trailing '\n', '\r' and ' ' are
 * dropped, cut to its last max bytes. "" when there is none (text NULL, empty or
 * all blanks). Caller frees. */
char *tail_line(const char *text, size_t max);

#endif
