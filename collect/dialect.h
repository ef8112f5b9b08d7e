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

/* How long `<binary> --help` may take, and the most of its output read. */
#define DIALECT_HELP_TIMEOUT_S 30.0
#define DIALECT_HELP_MAX (4u << 20)

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

/* The dialect of the engine binary (a path, or a bare name looked up in PATH):
 * its sha256 names <cache>/dialect/<sha256>.help; when that file is missing,
 * `<binary> --help` runs (through proc.c, with DIALECT_HELP_TIMEOUT_S) and its
 * output is kept there (a cache that cannot be written is only not kept). Returns
 * a heap dialect (free with dialect_free()), or NULL with why in err: the binary
 * cannot be found or read (filehash_compute() has printed its error line), its
 * --help failed, or lists no option. */
struct dialect *dialect_detect(const char *binary, char *err, size_t errlen);
void dialect_free(struct dialect *d);

#endif
