-- v5-running.sql: a tpsdb store at schema version 5 (0001..0005 as they shipped), with data:
-- runs with rounds, batches and a llama-bench config, a baseline, a noise floor and
-- a run left 'running' by a collector that recorded no identity (before 0008).
-- tests/test_migrate.c loads it and migrates it to the latest version.
-- 0001_init.sql: the first tpsdb schema. Every per-prompt timing lands in `sample`,
-- with its full context reachable through `run`: host, engine, model, prompt and the
-- config it ran under. Identity rows (host, engine, model, prompt) are deduplicated
-- on their identifying columns, which use '' rather than NULL for "unknown" so that
-- UNIQUE constraints hold.

-- A machine that ran engines. Driver and CUDA upgrades make a new row, so old runs
-- keep the provenance they were measured under.
CREATE TABLE host(
  id      INTEGER PRIMARY KEY,
  name    TEXT NOT NULL,
  gpu     TEXT NOT NULL DEFAULT '',   -- e.g. "NVIDIA H200"
  driver  TEXT NOT NULL DEFAULT '',   -- e.g. "570.86.15"
  cuda    TEXT NOT NULL DEFAULT '',   -- e.g. "12.8"
  UNIQUE(name, gpu, driver, cuda)
);

-- A llama-server-compatible binary. `label` is what users call it ("ours",
-- "stock-llamafile", "llama.cpp"); `version` is /props build_info or similar.
CREATE TABLE engine(
  id      INTEGER PRIMARY KEY,
  label   TEXT NOT NULL,
  role    TEXT NOT NULL DEFAULT 'other' CHECK(role IN ('ours','upstream','other')),
  version TEXT NOT NULL DEFAULT '',
  sha256  TEXT NOT NULL DEFAULT '',   -- of the binary, when known
  UNIQUE(label, role, version, sha256)
);

-- A GGUF file as measured. The same label with another sha256 or quant is a
-- different row; `tpsdb models` raises alarms over exactly those differences.
CREATE TABLE model(
  id      INTEGER PRIMARY KEY,
  label   TEXT NOT NULL,
  file    TEXT NOT NULL DEFAULT '',   -- base name of the .gguf
  bytes   INTEGER,                    -- NULL when unknown
  sha256  TEXT NOT NULL DEFAULT '',
  quant   TEXT NOT NULL DEFAULT '',
  UNIQUE(label, file, bytes, sha256, quant)
);

-- A prompt, identified by the sha256 of its text (or of its name when the text is
-- unknown, see docs). n_tokens is the prompt_n the server first counted for it.
CREATE TABLE prompt(
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  text_hash TEXT NOT NULL UNIQUE,
  n_tokens  INTEGER
);

-- One engine serving one model under one config, with its samples. Spec runs carry
-- spec_type and n_max; the base run of a sweep has n_max NULL.
CREATE TABLE run(
  id          INTEGER PRIMARY KEY,
  uuid        TEXT NOT NULL UNIQUE,
  started_at  TEXT NOT NULL,          -- ISO 8601 UTC
  ended_at    TEXT,
  status      TEXT NOT NULL DEFAULT 'running'
              CHECK(status IN ('running','complete','partial','failed','interrupted')),
  source      TEXT NOT NULL DEFAULT 'import',  -- collect, import, llama-bench
  host_id     INTEGER NOT NULL REFERENCES host(id),
  engine_id   INTEGER NOT NULL REFERENCES engine(id),
  model_id    INTEGER NOT NULL REFERENCES model(id),
  ctx         INTEGER,
  n_predict   INTEGER,                -- as requested
  ignore_eos  INTEGER,                -- 0/1, NULL unknown
  temperature REAL,
  seed        INTEGER,
  endpoint    TEXT NOT NULL DEFAULT 'completion',  -- completion, chat, llama-bench
  spec_type   TEXT NOT NULL DEFAULT '',            -- '' for no speculation
  n_max       INTEGER,                -- --spec-draft-n-max; NULL for the base run
  drafter     TEXT NOT NULL DEFAULT '',
  extra_args  TEXT NOT NULL DEFAULT '',
  tag         TEXT NOT NULL DEFAULT '',
  notes       TEXT NOT NULL DEFAULT '',
  load_error  TEXT,                   -- server log tail when it failed to load
  log_path    TEXT,
  warmup      INTEGER,                -- unrecorded requests sent before the first sample
  prompt_set  TEXT NOT NULL DEFAULT ''  -- sha256 over the sorted prompt hashes
);
CREATE INDEX run_cell ON run(model_id, engine_id, spec_type, n_max, started_at);
CREATE INDEX run_engine ON run(engine_id, started_at);
CREATE INDEX run_tag ON run(tag);

-- One request. Every timings field llama-server returns has a column; the raw
-- timings object is kept verbatim in `timings` so fields added later are not lost.
-- `flags` holds the data-quality findings computed at ingest (see schema/record.h).
CREATE TABLE sample(
  id                   INTEGER PRIMARY KEY,
  run_id               INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  prompt_id            INTEGER NOT NULL REFERENCES prompt(id),
  rep                  INTEGER NOT NULL,   -- k-th repetition of this prompt, from 1
  seq                  INTEGER,            -- requests the server had answered before
  cache_n              INTEGER,
  prompt_n             INTEGER,
  prompt_ms            REAL,
  prompt_per_second    REAL,
  predicted_n          INTEGER,
  predicted_ms         REAL,
  predicted_per_second REAL,
  draft_n              INTEGER,
  draft_n_accepted     INTEGER,
  wall_ms              REAL,               -- client side, whole request
  http_status          INTEGER,
  error                TEXT,
  stop_type            TEXT,
  output_hash          TEXT,
  timings              TEXT,               -- raw JSON
  flags                INTEGER NOT NULL DEFAULT 0,
  UNIQUE(run_id, prompt_id, rep)
);

-- A name for a frozen set of runs, e.g. upstream llama.cpp at build b9859.
CREATE TABLE baseline(
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE baseline_run(
  baseline_id INTEGER NOT NULL REFERENCES baseline(id) ON DELETE CASCADE,
  run_id      INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  PRIMARY KEY(baseline_id, run_id)
) WITHOUT ROWID;

-- The collector hashes binaries and GGUF files; a 30 GB model takes a while, so a
-- hash is reused while the file's path, size and mtime are unchanged.
CREATE TABLE file_hash(
  path     TEXT PRIMARY KEY,
  bytes    INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  sha256   TEXT NOT NULL
);
-- 0002_noise_floor.sql: the measured A/A noise of a host, model and config. The same
-- engine run twice with a server restart between the runs differs by about 2% in
-- decode on a real GPU, so a fixed 2% parity band sits on the noise floor; compare
-- and gate widen their bounds to k times the floor stored here.

CREATE TABLE noise_floor(
  id          INTEGER PRIMARY KEY,
  measured_at TEXT NOT NULL,
  host_id     INTEGER NOT NULL REFERENCES host(id),
  engine_id   INTEGER NOT NULL REFERENCES engine(id),
  model_id    INTEGER NOT NULL REFERENCES model(id),
  ctx         INTEGER,
  n_predict   INTEGER,
  endpoint    TEXT NOT NULL DEFAULT 'completion',
  spec_type   TEXT NOT NULL DEFAULT '',
  n_max       INTEGER,
  metric      TEXT NOT NULL CHECK(metric IN ('pp','tg')),
  noise_pct   REAL NOT NULL CHECK(noise_pct >= 0),  -- |A/A delta| in percent
  n_pairs     INTEGER NOT NULL,
  run_a       INTEGER REFERENCES run(id) ON DELETE SET NULL,
  run_b       INTEGER REFERENCES run(id) ON DELETE SET NULL
);
CREATE INDEX noise_floor_cell ON noise_floor(model_id, metric, measured_at);
-- 0003_run_round.sql: which round of a collect invocation a run belongs to. With
-- `collect --rounds <k>` every engine starts k times for every cell, one server
-- instance per run, and the runs of one invocation share a batch id. The instance is
-- the unit a comparison pools over, so each run says its round (1..k) and batch.
-- Runs collected before this change, or imported without them, keep both NULL.

ALTER TABLE run ADD COLUMN round INTEGER CHECK(round IS NULL OR round >= 1);
ALTER TABLE run ADD COLUMN batch TEXT;
CREATE INDEX run_batch ON run(batch, round);
-- 0004_imported_file.sql: every file `tpsdb import` has taken in, by the sha256 of
-- its bytes. A second import of the same bytes is skipped with a warning (unless
-- --allow-duplicate), so one response file imported three times no longer makes
-- three identical runs, and calibrate no longer finds a 0.00% noise floor in them.

CREATE TABLE imported_file(
  id          INTEGER PRIMARY KEY,
  sha256      TEXT NOT NULL CHECK(length(sha256) = 64),  -- of the file's bytes
  name        TEXT NOT NULL,                             -- the path given, '-' for stdin
  bytes       INTEGER NOT NULL CHECK(bytes >= 0),
  imported_at TEXT NOT NULL,                             -- ISO 8601, UTC
  kind        TEXT NOT NULL,                             -- responses, llama-bench, export
  run_uuid    TEXT,                                      -- the run it went into (not for export)
  samples     INTEGER NOT NULL CHECK(samples >= 0)       -- samples it gave
);
CREATE INDEX imported_file_sha256 ON imported_file(sha256);
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
INSERT INTO host(id,name,gpu,driver,cuda) VALUES(1,'gpu-a','NVIDIA H200','570.86.15','12.8');
INSERT INTO engine(id,label,role,version,sha256) VALUES(1,'ours','ours','b9859-abc','');
INSERT INTO engine(id,label,role,version,sha256) VALUES(2,'llama.cpp','upstream','b9859','');
INSERT INTO model(id,label,file,bytes,sha256,quant) VALUES(1,'q35','q35-Q4_K_M.gguf',123456,'aaaa','Q4_K_M');
INSERT INTO prompt(id,name,text_hash,n_tokens) VALUES(1,'code','1111111111111111111111111111111111111111111111111111111111111111',1762);
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,warmup,prompt_set)
  VALUES(1,'00000000-0000-4000-8000-000000000001','2026-11-01T10:00:00.000Z','2026-11-01T10:05:00.000Z','complete','collect',1,1,1,4096,512,1,0.0,42,'completion','',NULL,'b9859',1,'ps1');
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,warmup,prompt_set)
  VALUES(2,'00000000-0000-4000-8000-000000000002','2026-11-01T10:06:00.000Z','2026-11-01T10:09:00.000Z','complete','collect',1,2,1,4096,512,1,0.0,42,'completion','draft-simple',2,'b9859',1,'ps1');
INSERT INTO sample(run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,timings,flags)
  VALUES(1,1,1,1,0,1762,134.0,13150.0,512,3590.5,142.6,NULL,NULL,3730.0,200,'{"prompt_n":1762}',0);
INSERT INTO sample(run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,timings,flags)
  VALUES(2,1,1,1,0,1762,130.0,13554.0,512,2219.0,230.7,300,212,2360.0,200,'{"draft_n":300}',0);
INSERT INTO baseline(id,name,created_at) VALUES(1,'upstream-b9859','2026-11-01T11:00:00.000Z');
INSERT INTO baseline_run(baseline_id,run_id) VALUES(1,2);
INSERT INTO file_hash(path,bytes,mtime_ns,sha256) VALUES('/m/q35-Q4_K_M.gguf',123456,1700000000000000000,'aaaa');
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,warmup,prompt_set)
  VALUES(3,'00000000-0000-4000-8000-000000000003','2026-11-01T10:10:00.000Z','2026-11-01T10:15:00.000Z','complete','collect',1,1,1,4096,512,1,0.0,42,'completion','',NULL,'b9859',1,'ps1');
INSERT INTO sample(run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,timings,flags)
  VALUES(3,1,1,1,0,1762,135.0,13051.9,512,3600.0,142.2,NULL,NULL,3740.0,200,'{"prompt_n":1762}',0);
INSERT INTO noise_floor(id,measured_at,host_id,engine_id,model_id,ctx,n_predict,endpoint,spec_type,n_max,metric,noise_pct,n_pairs,run_a,run_b)
  VALUES(1,'2026-11-01T10:20:00.000Z',1,1,1,4096,512,'completion','',NULL,'tg',0.28,1,1,3);
UPDATE run SET round=1, batch='11111111-1111-4111-8111-111111111111' WHERE id IN (1,2);
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,warmup,prompt_set,round,batch,config,cpu,model_type,model_n_params)
  VALUES(4,'00000000-0000-4000-8000-000000000004','2026-11-02T10:00:00.000Z',NULL,'running','collect',1,1,1,4096,512,1,0.0,42,'completion','',NULL,'b9860',1,'',2,'11111111-1111-4111-8111-111111111111','pp512@d0 fa=1 ngl=99','AMD EPYC 9654','qwen3 8B Q4_K - Medium',8190735360);
INSERT INTO sample(run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,timings,flags)
  VALUES(4,1,1,1,0,1762,133.0,13248.1,512,3580.0,143.0,NULL,NULL,3720.0,200,'{"prompt_n":1762}',0);
PRAGMA application_id = 1414550340;
PRAGMA user_version = 5;
