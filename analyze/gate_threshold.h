/* gate_threshold.h: the gate's regression thresholds as the user writes them:
 * "<pct>" for every metric or "<metric>=<pct>" for one ("*" names every metric), on
 * the command line or as 'metric = pct' lines of a thresholds file. Parsing only:
 * the command reads the file and words the errors. */
#ifndef ANALYZE_GATE_THRESHOLD_H
#define ANALYZE_GATE_THRESHOLD_H

#include "analyze/gate.h"

enum gate_threshold_error {
	GATE_THRESHOLD_OK,
	GATE_THRESHOLD_METRIC, /* name: not tg, pp, accept or "*" */
	GATE_THRESHOLD_VALUE,  /* value: not a number >= 0 */
	GATE_THRESHOLD_SYNTAX, /* a file line without '=' */
};

/* Where parsing stopped and on what. */
struct gate_threshold_err {
	enum gate_threshold_error kind;
	char name[32];     /* METRIC: the name, blanks trimmed, cut to 31 bytes */
	const char *value; /* VALUE: the text after '=' (or all of it), borrowed */
	long line;         /* gate_threshold_parse_text(): the 1-based line */
};

/* Parses one spec into th[] (GATE_N_METRICS entries), marking each metric it sets
 * in set[]. Blanks around the name and before the value are skipped. Returns 0, or
 * -1 with *err filled (th and set untouched). */
int gate_threshold_parse(const char *spec, double *th, int *set, struct gate_threshold_err *err);

/* Parses a thresholds file's text, modified in place: '#' starts a comment, blank
 * lines are skipped, every other line is a spec with '='. Later lines override
 * earlier ones in th[]. Returns 0, or -1 at the first bad line with *err filled
 * (err->value borrows text; th holds the lines before it). */
int gate_threshold_parse_text(char *text, double *th, struct gate_threshold_err *err);

#endif
