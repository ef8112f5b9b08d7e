-- 0003_run_round.sql: which round of a collect invocation a run belongs to. With
-- `collect --rounds <k>` every engine starts k times for every cell, one server
-- instance per run, and the runs of one invocation share a batch id. The instance is
-- the unit a comparison pools over, so each run says its round (1..k) and batch.
-- Runs collected before this change, or imported without them, keep both NULL.

ALTER TABLE run ADD COLUMN round INTEGER CHECK(round IS NULL OR round >= 1);
ALTER TABLE run ADD COLUMN batch TEXT;
CREATE INDEX run_batch ON run(batch, round);
