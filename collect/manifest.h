/* manifest.h: the two manifest files 'tpsdb collect' reads. A models manifest has
 * lines "label | gguf path | extra server args" (the args are optional); a spec
 * manifest has "label | gguf path | spec args | n_max list", e.g.
 * "q35 | /m/q35.gguf | --spec-type draft-mtp | 1,2,3". The spec args are either
 * raw server args, passed as written, or open with tpsdb's own terms, which
 * collect/dialect.h spells for each engine: "spec=<type>" (llama.cpp's current
 * names: draft-simple, draft-mtp, ngram-mod ...) and "drafter=<gguf>" (alone, it
 * means spec=draft-simple), then any raw args, e.g.
 * "q35 | /m/q35.gguf | drafter=/m/q35-0.6b.gguf -fa on | 1,2,3". '#' starts a
 * comment line; blank lines are skipped. Server args split like a shell's words
 * ('' and ""). */
#ifndef COLLECT_MANIFEST_H
#define COLLECT_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "collect/spec_knobs.h"

enum manifest_kind {
	MANIFEST_MODELS,
	MANIFEST_SPEC,
};

struct manifest_entry {
	char *label, *path;
	char *args;        /* the args field as written, trimmed; "" when none */
	int64_t *n_max;    /* MANIFEST_SPEC: the sweep values, in the order given */
	size_t n_n_max;
	int line;
};

/* The tpsdb terms that open a spec args field. A raw field (what every spec
 * manifest held before the terms) has none: given 0, n 0. */
struct spec_terms {
	int given;            /* 1: the field opens with terms */
	const char *type;     /* spec=, or "draft-simple" for drafter= alone; NULL
				 when not given; borrowed from the words */
	const char *drafter;  /* drafter=; NULL none; borrowed */
	const char *set[SPEC_N_KNOBS]; /* n_min=, p_min= (the settled knobs,
					  spec_knobs.h) as written; NULL: the
					  line leaves it to collect; borrowed */
	size_t n;             /* words taken: the raw args start at words[n] */
};

struct manifest {
	struct manifest_entry *v;
	size_t n;
};

/* Parses text (the content of file, which only names the source in messages) and
 * appends its entries to m. On the first bad line returns -1 with one message
 * "<file>:<line>: <problem>" in err and m unchanged; 0 otherwise. A label used
 * twice, an empty label or path, a wrong number of fields, unbalanced quotes or an
 * n_max list that is not distinct positive integers are errors. Pure. */
int manifest_parse(struct manifest *m, enum manifest_kind kind, const char *text,
		   const char *file, char *err, size_t errlen);
/* The entry labelled label, borrowed; NULL when none. */
const struct manifest_entry *manifest_find(const struct manifest *m, const char *label);
/* Frees every entry; m is empty afterwards. Accepts NULL. */
void manifest_release(struct manifest *m);

/* Splits s into words as a shell would for plain words, '...' and "..." (no
 * expansions; backslash escapes the next character outside single quotes). The
 * words are appended to *argv and *argc (a NULL-terminated heap array, caller frees
 * with manifest_free_args()). -1 with a message in err on an unbalanced quote. */
int manifest_split_args(const char *s, char ***argv, size_t *argc, char *err, size_t errlen);
void manifest_free_args(char **argv);

/* Reads the terms that open words (a spec args field, split): each leading word
 * "key=value" that does not start with '-' is a term; keys spec, drafter, n_min
 * and p_min (spec_knobs.h), once each, values not empty, n_min a whole number
 * from 0 to 4096 and p_min a number from 0 to 1. A raw arg after terms may not
 * spell a knob the terms spell (--spec-type, -md, the n_max, n_min and p_min
 * flags, in any release's words). -1 with the problem in err; 0 ok. Pure. */
int manifest_spec_terms(char *const *words, struct spec_terms *t, char *err, size_t errlen);

#endif
