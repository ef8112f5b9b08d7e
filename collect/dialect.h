/* dialect.h: how an engine spells the speculative knobs. llama.cpp renames its
 * flags between releases (b8390 takes -md D --draft-max N and draft-model
 * speculation by -md alone; later releases removed --draft-max and want
 * --spec-type draft-simple -md D --spec-draft-n-max N), so a spec manifest line in
 * tpsdb's own terms (collect/manifest.h) is spelled for each engine from what its
 * `--help` lists. The help text is read once per binary, by sha256, and kept in
 * the cache folder (dialect_cache_dir()). */
#ifndef COLLECT_DIALECT_H
#define COLLECT_DIALECT_H

#include <stddef.h>
#include <stdint.h>

#include "collect/spec_knobs.h"

struct spec_terms;

/* What an engine's --help says it accepts. */
struct dialect {
	char **flags;         /* every spelling it accepts, sorted; NULL-terminated */
	size_t n_flags;
	/* Per knob (spec_knobs.h): the first of its spellings this engine accepts
	 * ("-md"; "--spec-draft-n-max" or "--draft-max"), NULL none; borrowed from
	 * the table. */
	const char *flag[SPEC_N_KNOBS];
	/* Per knob: what that option's description says after "(default: " up to
	 * its ")" ("0.75"), NULL when it states none. */
	char *deflt[SPEC_N_KNOBS];
	char **types;         /* what --spec-type accepts, NULL-terminated; NULL when
				 it has no --spec-type */
};

/* How long `<binary> --help` may take (TPSDB_HELP_TIMEOUT, whole seconds, sets
 * it), the most of its output read, and its longest line. */
#define DIALECT_HELP_TIMEOUT_S 30.0
#define DIALECT_HELP_MAX (4u << 20)
#define DIALECT_HELP_LINE_MAX 65536u
/* The cache entries' format: 2 has a header line naming what the entry was made
 * from; 1 (before it) was the bare text. */
#define DIALECT_CACHE_FORMAT 2

/* Reads a llama.cpp-style option list: each option a line that starts with its
 * spellings ("-md, --model-draft FNAME"), then its value hint and description
 * (which may go on over indented lines, where a "(default: X)" is read); an
 * option whose description says "the argument has been removed" is not
 * accepted. Fills d (release with dialect_release()). 0 ok; -1 when help lists no
 * option at all (not llama.cpp's format: the dialect is unknown), d empty. Pure. */
int dialect_parse(const char *help, struct dialect *d);
void dialect_release(struct dialect *d);
/* 1 when d accepts the spelling flag. */
int dialect_accepts(const struct dialect *d, const char *flag);

/* The one spelling rule: appends to *argv (NULL-terminated, manifest_split_args()'s
 * form) the words that start the speculative cell of n_max over the spec args
 * words (a manifest line's third field, split): in tpsdb's terms (t->given), the
 * speculative type as --spec-type <type> (draft-simple as a draft model alone
 * where --spec-type does not know it), the draft model with the engine's flag,
 * the raw words after the terms untouched, n_max with the engine's flag, then
 * each settled knob that settle names (settle[k] not NULL: the value collect
 * settled on, plan_spec_settle()) with the engine's flag; in raw args, the words
 * as written and then n_max with the engine's flag (--spec-draft-n-max when d is
 * NULL or names none, as before dialects). settle may be NULL (none). d NULL:
 * the dialect is unknown. -1 with one line in err naming engine and the knob it
 * lacks (argv as it came in); 0 ok. Pure. */
int dialect_spell(const struct dialect *d, const char *engine, char *const *words,
		  const struct spec_terms *t, int64_t n_max, const char *const *settle,
		  char ***argv, size_t *argc, char *err, size_t errlen);

/* The folder of tpsdb's cache: $TPSDB_CACHE, else $HOME/.cache/tpsdb (as
 * scripts/llama-server.sh has it). Caller frees; NULL when neither is set. */
char *dialect_cache_dir(void);

/* Checks a --help text of len bytes as text: 0, or -1 with why in err ("a NUL
 * byte at byte N": a NUL is refused, never read as the end of the text nor as a
 * blank, since a help with one is not what the binary prints for help; "line N
 * is longer than 65536 bytes"). Pure. */
int dialect_check_text(const char *text, size_t len, char *err, size_t errlen);

/* The dialect of the engine binary (a path, or a bare name looked up in PATH).
 * Its sha256 names the cache entry <cache>/dialect/<sha256>.help: a regular file
 * (a link, FIFO, folder or device there is never opened for reading, nor waited
 * on) whose first line says what it was made from ("tpsdb-dialect-cache 2
 * binary-sha256=<hex> binary-bytes=<n> help-bytes=<n>"), then the text. An entry
 * that is not a regular file, is damaged, cut, made from another binary, holds a
 * NUL or lists no option is not used: one warning line naming its path and why,
 * and the binary is asked again (an older tpsdb's headerless entry or another
 * format's is replaced quietly). When there is no entry to use, `<binary> --help`
 * runs (proc_capture_why(), TPSDB_HELP_TIMEOUT or DIALECT_HELP_TIMEOUT_S) and a
 * text that parses is written whole (a synced temporary sibling renamed over the
 * entry; a cache that cannot be written is only not kept).
 * 0: *out is the dialect (free with dialect_free()). 1: the help lists no option
 * (not llama.cpp's format: the dialect is unknown), *out NULL, err says so. -1:
 * the binary cannot be found or hashed (filehash_compute() has printed its line),
 * or its --help cannot be read: err is "cannot read its --help (<why>): <path>",
 * why from proc_capture_why() or dialect_check_text(); *out NULL. */
int dialect_detect(const char *binary, struct dialect **out, char *err, size_t errlen);
void dialect_free(struct dialect *d);

#endif
