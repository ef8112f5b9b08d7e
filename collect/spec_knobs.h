/* spec_knobs.h: the one table of the speculative knobs, in tpsdb's terms and in
 * every release's spellings. A spec manifest line says spec=, drafter=, n_min=
 * and p_min= (and n_max in its fourth field); collect/dialect.c picks the first
 * spelling an engine's --help accepts, collect/manifest.c refuses a raw arg that
 * spells a term's knob, and collect/plan.c reads a draft model out of raw args,
 * all from this table. Nothing else in tpsdb spells these flags. */
#ifndef COLLECT_SPEC_KNOBS_H
#define COLLECT_SPEC_KNOBS_H

#include <stddef.h>

enum spec_knob {
	SPEC_KNOB_TYPE,    /* spec=: --spec-type */
	SPEC_KNOB_DRAFTER, /* drafter=: -md */
	SPEC_KNOB_N_MAX,   /* the n_max list: the most tokens drafted */
	SPEC_KNOB_N_MIN,   /* n_min=: the fewest tokens drafted */
	SPEC_KNOB_P_MIN,   /* p_min=: the least probability a drafted token needs */
	SPEC_N_KNOBS,
};

/* The knobs collect settles alike on every engine of a cell (SPEC_KNOB_N_MIN up to
 * SPEC_N_KNOBS): their values are numbers, and an engine's --help states its
 * default. */
#define SPEC_SETTLED_FIRST SPEC_KNOB_N_MIN

struct spec_knob_def {
	const char *term;          /* tpsdb's name: "spec", "drafter", "n_max" ... */
	const char *const *flags;  /* every release's spellings, NULL-terminated, the
				      newest first (the one tpsdb writes where an
				      engine accepts several) */
	double min, max;           /* a settled knob's range */
	int whole;                 /* 1: a settled knob takes whole numbers */
	const char *alike;         /* the one value every release's drafting loop
				      reads alike (p_min 0: drafting never stops
				      early), chosen where the engines' defaults
				      differ; NULL: none known */
};

extern const struct spec_knob_def spec_knobs[SPEC_N_KNOBS];

/* The knob that word spells ("--draft-p-min", or "--draft-p-min=0.5"), or -1. */
int spec_knob_of_flag(const char *word);

/* The knob whose term is name (n bytes: "p_min"), or -1. */
int spec_knob_of_term(const char *name, size_t n);

/* The spellings of knob k as one list for an error line: "--spec-draft-p-min,
 * --draft-p-min". Static storage, rewritten by the next call. */
const char *spec_knob_flag_list(enum spec_knob k);

#endif
