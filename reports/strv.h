/* strv.h: a growing array of heap strings, held as a (char **, size_t) pair: the
 * warnings of a comparison or a gate, the files and outputs of a plot job. Start
 * both at NULL and 0. */
#ifndef REPORTS_STRV_H
#define REPORTS_STRV_H

#include <stddef.h>

/* Appends a copy of s. */
void strv_add(char ***v, size_t *n, const char *s);
/* Appends a string made from a printf format, cut to 511 bytes: a warning is a
 * line, not a document. */
void strv_addf(char ***v, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Frees the n strings and the array; accepts NULL. */
void strv_free(char **v, size_t n);

#endif
