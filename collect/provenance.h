/* provenance.h: where a run was measured: the host name and, from nvidia-smi when
 * it exists, the GPU, its driver and the CUDA version. Each can be overridden from
 * the command line, which is also how a CPU-only host names itself. */
#ifndef COLLECT_PROVENANCE_H
#define COLLECT_PROVENANCE_H

/* How long nvidia-smi may take before it counts as wedged, and the most of its
 * output read (its answers are a few kilobytes). */
#define PROVENANCE_SMI_TIMEOUT_S 10.0
#define PROVENANCE_SMI_MAX (1u << 20)

#include "schema/record.h"

/* This host's name from gethostname() ("unknown" when it has none), a heap
 * string. */
char *provenance_host_name(void);

/* Fills h (whose strings it owns afterwards; release with the run) from
 * gethostname() and nvidia-smi. gpu_index picks the line of a multi-GPU host (the
 * first device in --gpu; -1 for the first line). A missing nvidia-smi leaves gpu,
 * driver and cuda "". Never fails. */
void provenance_detect(struct host_rec *h, int gpu_index);

/* Parses `nvidia-smi --query-gpu=name,driver_version --format=csv,noheader`
 * output: line `index` (0-based; the first line when out of range) into heap
 * strings *gpu and *driver. 0 ok, -1 when no line has two fields. Pure. */
int provenance_parse_query(const char *out, int index, char **gpu, char **driver);
/* The "CUDA Version: X.Y" of plain `nvidia-smi` output as a heap string, or NULL.
 * Pure. */
char *provenance_parse_cuda(const char *out);

#endif
