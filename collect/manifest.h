/* manifest.h: the two manifest files 'tpsdb collect' reads. A models manifest has
 * lines "label | gguf path | extra server args" (the args are optional); a spec
 * manifest has "label | gguf path | spec server args | n_max list", e.g.
 * "q35 | /m/q35.gguf | --spec-type draft-mtp | 1,2,3". '#' starts a comment line;
 * blank lines are skipped. Server args split like a shell's words ('' and ""). */
#ifndef COLLECT_MANIFEST_H
#define COLLECT_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

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

#endif
