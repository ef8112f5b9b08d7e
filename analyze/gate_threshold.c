/* gate_threshold.c: "<pct>", "<metric>=<pct>" and thresholds files into the
 * per-metric percentages analyze/gate.c takes. */
#include "analyze/gate_threshold.h"

#include <string.h>

#include "tpsdb.h"

int gate_threshold_parse(const char *spec, double *th, int *set, struct gate_threshold_err *err)
{
	const char *eq = strchr(spec, '=');
	double v;
	int m = -1, i;

	memset(err, 0, sizeof(*err));
	if (eq) {
		size_t n = (size_t)(eq - spec);
		while (n && (spec[n - 1] == ' ' || spec[n - 1] == '\t'))
			n--;
		while (n && (*spec == ' ' || *spec == '\t')) {
			spec++;
			n--;
		}
		if (n >= sizeof(err->name))
			n = sizeof(err->name) - 1;
		memcpy(err->name, spec, n);
		err->name[n] = '\0';
		if (strcmp(err->name, "*") && (m = gate_metric_index(err->name)) < 0) {
			err->kind = GATE_THRESHOLD_METRIC;
			return -1;
		}
		spec = eq + 1;
		while (*spec == ' ' || *spec == '\t')
			spec++;
	}
	if (tps_parse_double(spec, &v) < 0 || v < 0) {
		err->kind = GATE_THRESHOLD_VALUE;
		err->value = spec;
		return -1;
	}
	for (i = 0; i < GATE_N_METRICS; i++) {
		if (m < 0 || m == i) {
			th[i] = v;
			set[i] = 1;
		}
	}
	err->name[0] = '\0';
	return 0;
}

int gate_threshold_parse_text(char *text, double *th, struct gate_threshold_err *err)
{
	char *line, *next;
	int set[GATE_N_METRICS] = { 0 };
	long no = 0;

	memset(err, 0, sizeof(*err));
	for (line = text; line; line = next) {
		char *hash, *end;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		end = line + strlen(line);
		while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			*--end = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			continue;
		if (!strchr(line, '=')) {
			err->kind = GATE_THRESHOLD_SYNTAX;
			err->line = no;
			return -1;
		}
		if (gate_threshold_parse(line, th, set, err) < 0) {
			err->line = no;
			return -1;
		}
	}
	return 0;
}
