/* collector.h: who collects a run (schema migration 0008). A collector is known by
 * its machine's host name, that machine's boot id, its pid and its start time, so
 * that a run still marked 'running' can be told to be orphaned once that process is
 * gone, even when its pid has been reused. */
#ifndef SCHEMA_COLLECTOR_H
#define SCHEMA_COLLECTOR_H

#include <stdint.h>

#include "schema/record.h"

/* Fills r's collector_* fields with this process's identity (strings the record
 * owns; a part that cannot be read stays NULL/TPS_NULL). Never fails. */
void collector_self(struct run_rec *r);

/* 1 when the process recorded as host/boot/pid/start is certainly gone: it was on
 * this machine (same host name) and the machine has rebooted since, or no process
 * with that pid and start time is alive. 0 when it may be alive or cannot be told
 * (another machine, nothing recorded). */
int collector_gone(const char *host, const char *boot, int64_t pid, int64_t start);

#endif
