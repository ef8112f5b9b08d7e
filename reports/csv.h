/* csv.h: the one RFC 4180 field quoter of tpsdb. `tpsdb export --format csv` and
 * the report's CSV both write their fields through it, so a label holding a comma,
 * a quote or a newline reads back the same in either file. */
#ifndef REPORTS_CSV_H
#define REPORTS_CSV_H

#include <stdio.h>

/* Writes s to f as one field, without a separator: as it is, or, when it holds a
 * comma, a double quote, CR or LF, in double quotes with each quote doubled. NULL
 * writes nothing (an empty field). Write errors are left in ferror(f). */
void csv_put(FILE *f, const char *s);

#endif
