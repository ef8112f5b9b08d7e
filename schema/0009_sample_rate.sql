-- 0009_sample_rate.sql: the rates tpsdb compares, one definition for every engine.
-- pp_rate = prompt_n / prompt_ms * 1000 and tg_rate = predicted_n / predicted_ms *
-- 1000, tokens over the engine's time for them (llama-bench's and llama.cpp b8390's
-- definition; llama.cpp v0.4.0's server reports decode as (n - 1) / ms, so its
-- self-reported rate and b8390's differ by n / (n - 1) before anything is timed).
-- Where the counts cannot give a rate (n or ms missing or zero) and for an
-- aggregate-only sample (flags bit 1 << 5, a mean of per-repetition rates) the
-- engine's own prompt_per_second or predicted_per_second is used. The rule is
-- record_rate() in schema/record.c, which tps_rate() calls, so the samples already
-- stored are recomputed here by the very function that ingest uses. The
-- self-reported rates stay as they are, raw facts of the response.
ALTER TABLE sample ADD COLUMN pp_rate REAL;
ALTER TABLE sample ADD COLUMN tg_rate REAL;
UPDATE sample SET
	pp_rate = tps_rate(prompt_n, prompt_ms, prompt_per_second, flags),
	tg_rate = tps_rate(predicted_n, predicted_ms, predicted_per_second, flags);
