/* store.h: the tpsdb store, one SQLite file. Only schema/ talks SQL; every other
 * stage goes through the typed functions declared here and in the other schema/
 * headers (statements and bind helpers are private: schema/store_int.h). Writers
 * own their transaction: store_begin() ... store_commit(). */
#ifndef SCHEMA_STORE_H
#define SCHEMA_STORE_H

#include <stdint.h>

#include "schema/record.h"

struct store;

enum store_open_flags {
	/* Open without creating or changing a byte: URI mode=ro, or immutable=1 when
	 * the file or its directory is not writable (no -wal/-shm left behind). An
	 * empty file, a foreign file and an older schema are refused. */
	STORE_READONLY = 1 << 0,
	STORE_NO_MIGRATE = 1 << 1, /* tests: leave the schema as found */
	STORE_EXISTING = 1 << 2,   /* a writer that refuses a missing or empty file (migrate) */
};

/* Opens (creating unless STORE_READONLY or STORE_EXISTING) the store at path, in WAL
 * mode with foreign keys on and a busy timeout ($TPSDB_BUSY_TIMEOUT seconds, default
 * 300), and migrates it to the latest schema under the write lock, so concurrent
 * openers of one new file all succeed. A writer first runs store_quick_check() and
 * refuses a corrupt store. ":memory:" works. Returns a store the caller frees with
 * store_close(), or NULL after an error line. A database newer than this program,
 * or a SQLite file that is not a tpsdb store, is refused and left untouched. */
struct store *store_open(const char *path, int flags);
/* Opens like store_open() but stops migrating at schema version `upto` (tests). */
struct store *store_open_version(const char *path, int flags, int upto);
/* Closes the store; accepts NULL. */
void store_close(struct store *s);

/* The path given to store_open(), borrowed. */
const char *store_path(const struct store *s);
/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. 0 ok, -1 after an error line. Rollback is
 * quiet and safe to call when no transaction is open. */
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);

/* The schema version of the open store. */
int store_version(struct store *s);
/* The schema version the file had before this open migrated it (0: new file). */
int store_found_version(const struct store *s);
/* Seconds a writer waits for another one's lock: $TPSDB_BUSY_TIMEOUT, default 300. */
int store_busy_timeout_s(void);

/* PRAGMA quick_check(1) on a store of at most $TPSDB_QUICK_CHECK_MB megabytes
 * (default 512; larger stores, and ":memory:", are not checked). 0 sound or not
 * checked, -1 after one error line "store '<path>' is corrupt: <problem>". */
int store_quick_check(struct store *s);

/* Runs PRAGMA integrity_check; returns 0 when "ok", 1 when problems were found (each
 * line of each passed to cb, without SQLite's "*** in database main ***" header; a
 * file so damaged that the check cannot run passes SQLite's message as the one
 * problem), -1 on another error (a lock, I/O) after an error line. */
int store_integrity(struct store *s, void (*cb)(const char *problem, void *arg), void *arg);

/* --- writing runs (schema/ingest.c) --- */

/* Finds or creates the host, engine and model rows and inserts the run. The uuid must
 * be set and new. Returns the run's id, or -1 after an error line. Inside the
 * caller's transaction. */
int64_t store_run_insert(struct store *s, const struct run_rec *r);
/* 1 if a run with this uuid exists, 0 if not, -1 on error. */
int store_run_exists(struct store *s, const char *uuid);
/* Inserts one sample of run_id, creating its prompt row if new. 0 ok, -1 after an
 * error line (a duplicate prompt/rep is an error). */
int store_sample_insert(struct store *s, int64_t run_id, const struct sample_rec *smp);
/* Sets a run's status, end time (now when NULL), and load error (kept when NULL), and
 * recomputes its prompt_set hash from its samples. 0 ok, -1 after an error line. */
int store_run_finish(struct store *s, int64_t run_id, const char *status,
		     const char *ended_at, const char *load_error);
/* After a write of run_id failed (its error line printed): marks the run failed if
 * the store still takes a write (a full disk may not), printing nothing more, so
 * that one failure makes one error line. 0 marked, -1 not. */
int store_run_abandon(struct store *s, int64_t run_id);
/* Records what the collector learnt about a run's environment (migration 0007):
 * env, a JSON object's text or NULL. The findings are derived from it when the
 * run is read (analyze/envrule.h); env_flags stays 0. Inside the caller's
 * transaction. 0 ok, -1 after an error line. */
int store_run_env(struct store *s, int64_t run_id, const char *env);

/* Inserts a run kept whole elsewhere (an export line, another store) with its own
 * uuid, status and flags. Returns 0 when inserted, 1 when a run with that uuid is
 * already here (left as it is: merge and re-import are idempotent), -1 on error. */
int store_run_restore(struct store *s, const struct run_rec *r, const struct sample_rec *smp,
		      size_t n);

/* --- reading runs back whole (schema/read.c): export and merge --- */

/* The labels a filter accepts for one field: any one of them (v[0..n), borrowed);
 * n 0: no condition. */
struct label_list {
	const char *const *v;
	size_t n;
};

/* Which runs a listing holds: every condition set must match (an empty list or
 * NULL: any). One WHERE fragment with bound parameters (schema/run_filter.c)
 * serves every listing and the cell set's loader (schema/cellset.h), so runs,
 * check, export, trend, compare, gate, sweep, report and plan select alike. */
struct run_filter {
	struct label_list engine, model, tag, host; /* exact labels */
	struct label_list batch;                     /* collect invocations' ids */
	const char *uuid;                            /* one run */
	const char *engine_version;                  /* the engine's version string */
	const char *baseline;                        /* only runs frozen in it */
	/* Start-time bounds, inclusive: an ISO 8601 date or date-time, UTC unless it
	 * carries an offset; cmd/filter_opts.c checks them and turns a date alone in
	 * until into the end of that day. */
	const char *since, *until;
	int64_t limit; /* > 0: only the latest limit runs (per series in a history); 0: all */
	/* 1: the cell set loader (schema/cellset.h) also takes the llama-bench runs
	 * none of whose samples is usable, a combined pp+tg test's: no pp or tg
	 * value, but an avg_ts for compare's speedups (analyze/speedup.h). */
	int bench_rates;
};

/* Whether f chooses runs by name (a tag, a batch or a baseline), which the cell
 * set pools whole, rather than only narrowing them (analyze/cellset.h). */
int run_filter_chooses(const struct run_filter *f);

/* Calls cb once per matching run, in start order, with the run and all its samples
 * (ordered by prompt name, rep). Both are borrowed for the call. Stops and returns
 * cb's value when it is non-zero; 0 when all were visited; -1 after an error line. */
int store_runs_foreach(struct store *s, const struct run_filter *f,
		       int (*cb)(const struct run_rec *run, const struct sample_rec *smp,
				 size_t n, void *arg),
		       void *arg);

#endif
