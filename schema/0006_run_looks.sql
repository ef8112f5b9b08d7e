-- 0006_run_looks.sql: the sequential design a run belongs to. A collect batch that
-- ran --until-decided looked at its comparisons after every round from the third
-- to its --max-rounds; looks_to holds that last round, so that every command
-- prints the interval at the per-look level the batch's decisions used (a
-- Pocock boundary over those looks). NULL: a fixed design (one look).
ALTER TABLE run ADD COLUMN looks_to INTEGER CHECK(looks_to IS NULL OR looks_to >= 1);
