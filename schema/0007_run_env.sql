-- 0007_run_env.sql: the environment a run was measured in, and what spoiled it.
-- env is one JSON object of facts (host load and CPU shares, GPU samples from
-- nvidia-smi, what the server's log said about offload, KV cache, load time and
-- CUDA graphs; docs/ENVIRONMENT.md lists its keys), NULL when nothing was recorded
-- (imports of responses, runs collected before this change). env_flags holds the
-- run's environment findings (schema/record.h RUN_ENV_*: host-busy, gpu-contended,
-- gpu-throttled, clocks-changed, partial-offload, kv-on-host), 0 for none.
-- sample.repeat_share is the share of a sample's output text covered by its most
-- repeated short piece (collect/repeat.c), NULL when the text was not seen; a
-- sample flag bit (1 << 6, "degenerate-output") marks a share of 0.5 or more.
ALTER TABLE run ADD COLUMN env TEXT;
ALTER TABLE run ADD COLUMN env_flags INTEGER NOT NULL DEFAULT 0 CHECK(env_flags >= 0);
ALTER TABLE sample ADD COLUMN repeat_share REAL
	CHECK(repeat_share IS NULL OR (repeat_share >= 0 AND repeat_share <= 1));
