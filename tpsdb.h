/* tpsdb.h: what every stage of tpsdb shares: the exit codes, the one-line error
 * printers, allocation that never returns NULL and option and
 * number parsing. Each stage has its own headers beside its sources. */
#ifndef TPSDB_H
#define TPSDB_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The one exit-code enum; main() returns these, and so does every cmd_<name>(). */
enum tps_exit {
	TPS_EXIT_OK = 0,    /* success */
	TPS_EXIT_FAIL = 1,  /* a check or a gate failed */
	TPS_EXIT_USAGE = 2, /* bad command line */
	TPS_EXIT_ERROR = 3, /* runtime, data or network error */
};

/* Prints "tpsdb: error: <msg>" on stderr and returns -1 (git's error()). */
int tps_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes the message into err (errlen bytes, cut to fit) and returns -1, for a
 * parser that leaves printing to its caller: return tps_fail(err, errlen, ...). */
int tps_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prints "tpsdb: warning: <msg>" on stderr. */
void tps_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "tpsdb: error: <msg>" then "see 'tpsdb <command> --help'" on stderr
 * (the command read from usage, "tpsdb <command> ...") and returns
 * TPS_EXIT_USAGE, for a command to return directly. */
int tps_usage_error(const char *usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the second line of a usage error alone: "see 'tpsdb <command> --help'"
 * ("see 'tpsdb --help'" when usage names no command). */
void tps_usage_hint(const char *usage);

/* The edit distance of a and b: insertions, deletions, substitutions and swaps of
 * two neighbours (optimal string alignment), each one edit. */
size_t tps_edit_distance(const char *a, const char *b);
/* Fills order[0..n) with the indexes of v, closest to name first (by
 * tps_edit_distance(); ties keep v's order). */
void tps_closest(const char *name, const char *const *v, size_t n, size_t *order);

/* Allocation that dies with an error line (exit 3) rather than return NULL. */
void *tps_xmalloc(size_t n);
void *tps_xcalloc(size_t n, size_t size);
void *tps_xrealloc(void *p, size_t n);
char *tps_xstrdup(const char *s);      /* NULL stays NULL */
char *tps_xstrndup(const char *s, size_t n);
char *tps_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Copies at most n bytes of src (less when it ends first; NULL is "") into dst of
 * len bytes, cut to fit and always NUL-ended (len > 0). */
void tps_copy(char *dst, size_t len, const char *src, size_t n);

/* getopt_long() for commands that take long options only (plus -h). The caller
 * keeps a zeroed struct tps_getopt for one argument vector: its first call resets
 * the parser, so a command parses its own argv however often it runs in one
 * process. opterr is set off. Returns what getopt_long returns; for an unknown
 * option or a missing argument it prints the one error line itself and returns '?'. */
struct tps_getopt {
	int begun;
};
int tps_getopt(struct tps_getopt *go, int argc, char **argv, const struct option *longopts);

/* Strict number parsing: the whole string, in range, finite. 0 ok, -1 otherwise
 * (nothing printed: the caller names the option). */
int tps_parse_i64(const char *s, int64_t *out);
int tps_parse_double(const char *s, double *out);

/* The TPSDB_* numbers (TPSDB_BUSY_TIMEOUT, TPSDB_QUICK_CHECK_MB, TPSDB_MAX_RESPONSE_MB,
 * TPSDB_HOST_BUSY_PCT, TPSDB_HELP_TIMEOUT) and their ranges are one table in util.c. tps_env_check()
 * checks each that is set and not empty: 0 when all are good, else -1 after one
 * error line naming the first bad one and its range (main() exits 2). tps_env_num()
 * is the value of one, or def when it is unset, empty or bad (main() has refused a
 * bad one before any command reads it). */
int tps_env_check(void);
double tps_env_num(const char *name, double def);
/* Checks s as an ISO 8601 date YYYY-MM-DD, optionally followed by 'T' or ' ',
 * HH:MM[:SS[.f...]] and an optional 'Z' or +HH:MM / -HH:MM, and writes the form
 * SQLite's julianday() reads into buf ('T' as the separator); *date_only says
 * whether the time was absent. 0 ok, -1 when it is not such a date, a field is out
 * of range or it does not fit len. */
int tps_parse_date(const char *s, char *buf, size_t len, int *date_only);

/* Reads a whole file (or stdin for "-") into a NUL-terminated heap buffer with
 * read(), at most TPS_READ_MAX bytes (a longer file or an endless device is refused
 * without holding more than that); caller frees. NULL after an error line naming
 * the file. */
#define TPS_READ_MAX (64 << 20)
char *tps_read_file(const char *path, size_t *len);
/* tps_read_file() for a text the user wrote (prompts, manifests, thresholds): a
 * NUL byte anywhere is refused with an error line (NULL), never cut at. */
char *tps_read_text(const char *path);

/* The current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ" into buf (>= 32 bytes). */
void tps_now_iso(char *buf, size_t len);
/* A random RFC 4122 version-4 uuid into buf (>= 37 bytes). 0 ok, -1 on failure. */
int tps_uuid4(char *buf, size_t len);
/* Monotonic clock in milliseconds. */
double tps_mono_ms(void);

/* SHA-256 through libcrypto's EVP interface (hash.c): model and binary identity,
 * prompt and output hashes. The context is opaque because EVP_MD_CTX is. */
struct sha256 {
	void *evp;            /* EVP_MD_CTX *, owned between init and final/release */
};
/* Starts a digest. Exits with status 3 after an error line when libcrypto cannot
 * allocate or set up the context (as tps_xmalloc does when memory runs out). */
void sha256_init(struct sha256 *c);
/* Feeds n bytes; any split of the same bytes gives the same digest. */
void sha256_update(struct sha256 *c, const void *data, size_t n);
/* Writes 64 lower-case hex digits and a NUL into hex, and frees the context. */
void sha256_final_hex(struct sha256 *c, char hex[65]);
/* Frees a context that will not be finished (an error path); accepts one already
 * finished or released, and one zero-initialised. */
void sha256_release(struct sha256 *c);
/* One-shot helper over a buffer. */
void sha256_hex(const void *data, size_t n, char hex[65]);

#endif
