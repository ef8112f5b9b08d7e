-- 0008_run_collector.sql: who collects a run, so that a run left 'running' by a
-- collector that died (SIGKILL, out of memory, power loss) can be told from one
-- still being measured. collector_host is the machine's host name (not the run's
-- --host label), collector_boot its boot id (/proc/sys/kernel/random/boot_id),
-- collector_pid the collecting process and collector_start its start time in clock
-- ticks since boot (/proc/<pid>/stat field 22), which a reused pid does not share.
-- NULL for runs that no collector wrote (imports) and for runs already stored.
ALTER TABLE run ADD COLUMN collector_host TEXT;
ALTER TABLE run ADD COLUMN collector_boot TEXT;
ALTER TABLE run ADD COLUMN collector_pid INTEGER CHECK (collector_pid IS NULL OR collector_pid >= 1);
ALTER TABLE run ADD COLUMN collector_start INTEGER CHECK (collector_start IS NULL OR collector_start >= 0);
