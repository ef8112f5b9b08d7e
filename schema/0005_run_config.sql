-- 0005_run_config.sql: what llama-bench says about a run beyond the server columns.
-- config is the benchmark configuration as one canonical text (the test, e.g.
-- "pp64@d512", then fa=, ngl=, b=, ub=, ctk=, ctv=, t=, sm=, nkvo=, backend=); it is
-- part of the cell key, so runs of different configurations are never paired. ''
-- for server runs, whose configuration is the other columns. cpu is the host's CPU
-- (llama-bench's cpu_info); model_type and model_n_params are the engine's words
-- for the model. A sample flag bit (1 << 5, "aggregate-only") marks a sample that
-- holds an average over repetitions (llama-bench -o csv/sql), not one repetition.
ALTER TABLE run ADD COLUMN config TEXT NOT NULL DEFAULT '';
ALTER TABLE run ADD COLUMN cpu TEXT NOT NULL DEFAULT '';
ALTER TABLE run ADD COLUMN model_type TEXT NOT NULL DEFAULT '';
ALTER TABLE run ADD COLUMN model_n_params INTEGER;
