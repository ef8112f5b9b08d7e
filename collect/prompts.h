/* prompts.h: what the collector asks. Every prompt is a shared reference text of
 * about 1760 tokens followed by one task, so prefill is measured on a prompt long
 * enough to be throughput rather than overhead (see collect/quality.h), and the
 * decode starts from the same context for every engine. */
#ifndef COLLECT_PROMPTS_H
#define COLLECT_PROMPTS_H

#include <stddef.h>

struct prompt_item {
	char *name;      /* e.g. "code", "math" */
	char *text;      /* exactly what is sent: reference, a blank line, the task */
	char hash[65];   /* the prompt row's text_hash, see prompts_hash() */
};

struct prompt_set {
	struct prompt_item *v;
	size_t n;
};

/* The built-in reference text, static. */
const char *prompts_reference(void);

/* Fills ps with the nine built-in prompts (code, explanation, summary, factual-qa,
 * translation, creative, math, code-review, extraction), each after the reference
 * unless with_reference is 0. chat selects the hash flavour (prompts_hash()). */
void prompts_builtin(struct prompt_set *ps, int with_reference, int chat);

/* Parses a prompt file. Lines "## <name>" start a prompt and the lines after it,
 * up to the next "## " line, are its text (blank lines around it are dropped). One
 * block may be named "@reference": it replaces the built-in reference text. Before
 * the first block only blank lines and '#' comments may appear. Names are
 * [A-Za-z0-9._-]+ and unique. -1 with "<file>:<line>: <problem>" in err; 0 ok. */
int prompts_parse(struct prompt_set *ps, const char *text, const char *file,
		  int with_reference, int chat, char *err, size_t errlen);

/* The text_hash of a prompt: sha256 of the text for /completion; for the chat route
 * sha256 of "[chat]\n" and the text, since the server adds a template around it and
 * counts other tokens. Pure. */
void prompts_hash(const char *text, int chat, char hex[65]);

/* Frees the items; ps is empty afterwards. Accepts NULL. */
void prompts_release(struct prompt_set *ps);

#endif
