/* fuzz_dialect.c: libFuzzer target for the --help reader (collect/dialect.c): an
 * engine's help text is bytes from outside. It is checked as text (a NUL, an
 * over-long line), and a parsed dialect is asked about a few flags and spells a
 * speculative cell, as collect does with it. Built with
 * -DTPSDB_FUZZ=ON under clang. */
#include "collect/dialect.h"
#include "collect/manifest.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dialect d;
	char *help = malloc(size + 1), err[256];
	char *words[] = { NULL };
	struct spec_terms t;
	char **argv = NULL;
	size_t argc = 0;

	if (!help)
		return 0;
	memcpy(help, data, size);
	help[size] = '\0';
	(void)dialect_check_text(help, size, err, sizeof(err));
	if (dialect_parse(help, &d) == 0) {
		(void)dialect_accepts(&d, "--spec-draft-n-max");
		(void)dialect_accepts(&d, "-md");
		memset(&t, 0, sizeof(t));
		t.given = 1;
		t.type = "draft-simple";
		t.drafter = "d.gguf";
		if (dialect_spell(&d, "fuzz", words, &t, 3, NULL, &argv, &argc, err, sizeof(err)) == 0 &&
		    argv) {
			for (size_t i = 0; argv[i]; i++)
				free(argv[i]);
		}
		free(argv);
		dialect_release(&d);
	}
	free(help);
	return 0;
}
