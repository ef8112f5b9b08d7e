/* spec_knobs.c: the one table of the speculative knobs' spellings (spec_knobs.h). */
#include "collect/spec_knobs.h"

#include <stdio.h>
#include <string.h>

static const char *const type_flags[] = { "--spec-type", NULL };
static const char *const drafter_flags[] = { "-md", "--model-draft", "--spec-draft-model",
					     NULL };
static const char *const n_max_flags[] = { "--spec-draft-n-max", "--draft-max", "--draft-n",
					   "--draft", NULL };
static const char *const n_min_flags[] = { "--spec-draft-n-min", "--draft-min",
					   "--draft-n-min", NULL };
static const char *const p_min_flags[] = { "--spec-draft-p-min", "--draft-p-min", NULL };

const struct spec_knob_def spec_knobs[SPEC_N_KNOBS] = {
	[SPEC_KNOB_TYPE] = { "spec", type_flags, 0, 0, 0, NULL },
	[SPEC_KNOB_DRAFTER] = { "drafter", drafter_flags, 0, 0, 0, NULL },
	[SPEC_KNOB_N_MAX] = { "n_max", n_max_flags, 1, 4096, 1, NULL },
	[SPEC_KNOB_N_MIN] = { "n_min", n_min_flags, 0, 4096, 1, NULL },
	/* p_min above 0 means two things: b8390's loop (--draft-p-min) drafts a
	 * token and then stops if its probability is below p_min, v0.4.0's
	 * (--spec-draft-p-min) stops before drafting it; at 0 neither stops. */
	[SPEC_KNOB_P_MIN] = { "p_min", p_min_flags, 0, 1, 0, "0" },
};

int spec_knob_of_flag(const char *word)
{
	for (int k = 0; k < SPEC_N_KNOBS; k++) {
		for (size_t i = 0; spec_knobs[k].flags[i]; i++) {
			size_t n = strlen(spec_knobs[k].flags[i]);

			if (!strncmp(word, spec_knobs[k].flags[i], n) && (!word[n] || word[n] == '='))
				return k;
		}
	}
	return -1;
}

int spec_knob_of_term(const char *name, size_t n)
{
	for (int k = 0; k < SPEC_N_KNOBS; k++)
		if (strlen(spec_knobs[k].term) == n && !strncmp(spec_knobs[k].term, name, n))
			return k;
	return -1;
}

const char *spec_knob_flag_list(enum spec_knob k)
{
	static char buf[256];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; spec_knobs[k].flags[i] && used < sizeof(buf); i++) {
		int w = snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? ", " : "",
				 spec_knobs[k].flags[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}
