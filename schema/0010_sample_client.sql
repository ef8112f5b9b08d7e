-- 0010_sample_client.sql: what the collector's own clock saw of a streamed answer
-- (collect/stream.c), beside what the server reported of itself. Engines define
-- their timings differently (where prefill ends, which token opens the decode);
-- the client's monotonic clock is one definition for all of them, so it is the
-- witness 'tpsdb check' holds the server's decode rate against (timings-disagree).
-- client_ttft_ms: request sent to the first streamed token; client_e2e_ms: request
-- sent to the last byte; client_decode_per_second: the tokens after the first over
-- the time from the first token to the last. NULL where nothing was streamed: old
-- runs, imports of plain responses, a failed request, a one-token answer (no rate).
ALTER TABLE sample ADD COLUMN client_ttft_ms REAL CHECK (client_ttft_ms IS NULL OR client_ttft_ms >= 0);
ALTER TABLE sample ADD COLUMN client_decode_per_second REAL CHECK (client_decode_per_second IS NULL OR client_decode_per_second >= 0);
ALTER TABLE sample ADD COLUMN client_e2e_ms REAL CHECK (client_e2e_ms IS NULL OR client_e2e_ms >= 0);
