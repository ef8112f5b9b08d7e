/* provenance.c: host and GPU identity for the host row. nvidia-smi runs through
 * proc.c with a deadline; its absence, failure or silence just leaves the fields
 * empty. */
#include "collect/provenance.h"
#include "proc.h"
#include "schema/json_strict.h"
#include "tpsdb.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* nvidia-smi's whole stdout with args, or NULL when it is missing, failed or did
 * not answer within SMI_TIMEOUT_S (a wedged driver hangs it). Caller frees. */
static char *smi_capture(const char *a1, const char *a2)
{
	char *argv[] = { (char *)"nvidia-smi", (char *)a1, (char *)a2, NULL };

	return proc_capture(argv, PROVENANCE_SMI_TIMEOUT_S, PROVENANCE_SMI_MAX, NULL);
}

/* s[0, n) trimmed, and repaired to UTF-8 (U+FFFD a bad byte): a driver may say
 * anything, and a run whose host text is not UTF-8 cannot be stored (RELIABILITY.md). */
static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return json_utf8_repair(s, n);
}

int provenance_parse_query(const char *out, int index, char **gpu, char **driver)
{
	const char *line = out, *first = NULL, *pick = NULL, *eol, *comma;
	int i = 0;

	for (; line && *line; line = eol ? eol + 1 : NULL, i++) {
		eol = strchr(line, '\n');
		comma = strchr(line, ',');
		if (!comma || (eol && comma > eol))
			continue;
		if (!first)
			first = line;
		if (i == index)
			pick = line;
	}
	if (!pick)
		pick = first;
	if (!pick)
		return -1;
	eol = strchr(pick, '\n');
	if (!eol)
		eol = pick + strlen(pick);
	comma = strchr(pick, ',');
	*gpu = trim_dup(pick, (size_t)(comma - pick));
	*driver = trim_dup(comma + 1, (size_t)(eol - comma - 1));
	return 0;
}

char *provenance_parse_cuda(const char *out)
{
	const char *p = out ? strstr(out, "CUDA Version:") : NULL;
	size_t n = 0;

	if (!p)
		return NULL;
	p += strlen("CUDA Version:");
	while (*p == ' ')
		p++;
	while (isdigit((unsigned char)p[n]) || p[n] == '.')
		n++;
	return n ? tps_xstrndup(p, n) : NULL;
}

char *provenance_host_name(void)
{
	char name[256] = "";

	if (gethostname(name, sizeof(name) - 1) < 0 || !*name)
		snprintf(name, sizeof(name), "unknown");
	return json_utf8_repair(name, strlen(name));
}

void provenance_detect(struct host_rec *h, int gpu_index)
{
	char *out;

	h->name = provenance_host_name();
	out = smi_capture("--query-gpu=name,driver_version", "--format=csv,noheader");
	if (!out || provenance_parse_query(out, gpu_index, &h->gpu, &h->driver) < 0) {
		h->gpu = tps_xstrdup("");
		h->driver = tps_xstrdup("");
	}
	free(out);
	out = smi_capture(NULL, NULL);
	h->cuda = provenance_parse_cuda(out);
	if (!h->cuda)
		h->cuda = tps_xstrdup("");
	free(out);
}
