-- v3.sql: a tpsdb store at schema version 3, written by make-fixtures.py (do not
-- edit; run it again): migrations 0001 to 0003 as they are in schema/, then rows
-- with every column of that version filled. t1200-store-old-versions.sh migrates
-- it and checks that nothing is lost; t1201-store-damaged.sh damages it.
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

INSERT INTO host(id,name,gpu,driver,cuda)
  VALUES(1,'gpu-a','NVIDIA H200','580.159.04','13.0');
INSERT INTO engine(id,label,role,version,sha256)
  VALUES(1,'ours','ours','b9859-abc','e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1');
INSERT INTO engine(id,label,role,version,sha256)
  VALUES(2,'llama.cpp','upstream','b9859','e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2');
INSERT INTO model(id,label,file,bytes,sha256,quant)
  VALUES(1,'q35','q35-Q4_K_M.gguf',5680000000,'5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a','Q4_K_M');
INSERT INTO prompt(id,name,text_hash,n_tokens)
  VALUES(1,'code','1111111111111111111111111111111111111111111111111111111111111111',1762);
INSERT INTO prompt(id,name,text_hash,n_tokens)
  VALUES(2,'math','2222222222222222222222222222222222222222222222222222222222222222',1650);
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,notes,warmup,prompt_set,round,batch)
  VALUES(1,'11111111-1111-4111-8111-000000000003','2026-11-30T10:00:00.000Z','2026-11-30T10:00:40.000Z','complete','collect',1,1,1,4096,128,1,0.0,42,'completion','',NULL,'v3','fixture v3',1,'ps-3',1,'batch-3');
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,notes,warmup,prompt_set,round,batch)
  VALUES(2,'22222222-2222-4222-8222-000000000003','2026-11-30T10:01:00.000Z','2026-11-30T10:01:40.000Z','complete','collect',1,2,1,4096,128,1,0.0,42,'completion','',NULL,'v3','fixture v3',1,'ps-3',1,'batch-3');
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,notes,warmup,prompt_set,round,batch)
  VALUES(3,'33333333-3333-4333-8333-000000000003','2026-11-30T10:02:00.000Z','2026-11-30T10:02:40.000Z','complete','collect',1,1,1,4096,128,1,0.0,42,'completion','draft-simple',8,'v3','fixture v3',1,'ps-3',2,'batch-3');
INSERT INTO run(id,uuid,started_at,ended_at,status,source,host_id,engine_id,model_id,ctx,n_predict,ignore_eos,temperature,seed,endpoint,spec_type,n_max,tag,notes,warmup,prompt_set,round,batch)
  VALUES(4,'44444444-4444-4444-8444-000000000003','2026-11-30T11:00:00.000Z','2026-11-30T11:00:40.000Z','complete','llama-bench',1,2,1,NULL,128,NULL,NULL,NULL,'llama-bench','',NULL,'v3','fixture v3',NULL,'',NULL,NULL);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(1,1,1,1,1,0,1762,121.0,14561.983471,128,2011.0,63.15266,NULL,NULL,2139.5,200,'limit','0000000000000000000000000000000000000000000000000000000000001111','{"predicted_n":128,"prompt_n":1762}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(2,1,1,2,2,0,1762,122.0,14442.622951,128,2021.0,62.840178,NULL,NULL,2150.5,200,'limit','0000000000000000000000000000000000000000000000000000000000002222','{"predicted_n":128,"prompt_n":1762}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(3,1,2,1,3,0,1650,121.0,13636.363636,128,2012.0,63.121272,NULL,NULL,2140.5,200,'limit','0000000000000000000000000000000000000000000000000000000000003333','{"predicted_n":128,"prompt_n":1650}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(4,1,2,2,4,0,1650,122.0,13524.590164,128,2022.0,62.8091,NULL,NULL,2151.5,200,'limit','0000000000000000000000000000000000000000000000000000000000004444','{"predicted_n":128,"prompt_n":1650}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(5,2,1,1,5,0,1762,125.8,14006.3593,128,2091.0,60.73649,NULL,NULL,2224.3,200,'limit','0000000000000000000000000000000000000000000000000000000000005555','{"predicted_n":128,"prompt_n":1762}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(6,2,1,2,6,0,1762,126.8,13895.899054,128,2101.0,60.447406,NULL,NULL,2235.3,200,'limit','0000000000000000000000000000000000000000000000000000000000006666','{"predicted_n":128,"prompt_n":1762}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(7,2,2,1,7,0,1650,125.8,13116.057234,128,2092.0,60.707457,NULL,NULL,2225.3,200,'limit','0000000000000000000000000000000000000000000000000000000000007777','{"predicted_n":128,"prompt_n":1650}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(8,2,2,2,8,0,1650,126.8,13012.618297,128,2102.0,60.418649,NULL,NULL,2236.3,200,'limit','0000000000000000000000000000000000000000000000000000000000008888','{"predicted_n":128,"prompt_n":1650}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(9,3,1,1,9,0,1762,97.0,18164.948454,128,1611.0,78.833023,96,71,1715.5,200,'limit','0000000000000000000000000000000000000000000000000000000000009999','{"predicted_n":128,"prompt_n":1762}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(10,3,1,2,10,0,1762,98.0,17979.591837,128,1621.0,78.3467,96,72,1726.5,200,'limit','000000000000000000000000000000000000000000000000000000000000aaaa','{"predicted_n":128,"prompt_n":1762}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(11,3,2,1,11,0,1650,97.0,17010.309278,128,1612.0,78.784119,96,71,1716.5,200,'limit','000000000000000000000000000000000000000000000000000000000000bbbb','{"predicted_n":128,"prompt_n":1650}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(12,3,2,2,12,0,1650,98.0,16836.734694,128,1622.0,78.298397,96,72,1727.5,200,'limit','000000000000000000000000000000000000000000000000000000000000cccc','{"predicted_n":128,"prompt_n":1650}',0);
INSERT INTO sample(id,run_id,prompt_id,rep,seq,cache_n,prompt_n,prompt_ms,prompt_per_second,predicted_n,predicted_ms,predicted_per_second,draft_n,draft_n_accepted,wall_ms,http_status,stop_type,output_hash,timings,flags)
  VALUES(13,4,1,1,NULL,NULL,NULL,NULL,NULL,128,2081.3,61.5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0);
INSERT INTO baseline(id,name,created_at)
  VALUES(1,'upstream-b9859','2026-11-30T12:00:00.000Z');
INSERT INTO baseline_run(baseline_id,run_id)
  VALUES(1,2);
INSERT INTO file_hash(path,bytes,mtime_ns,sha256)
  VALUES('/models/q35-Q4_K_M.gguf',5680000000,1764000000000000000,'5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a');
INSERT INTO noise_floor(id,measured_at,host_id,engine_id,model_id,ctx,n_predict,endpoint,spec_type,n_max,metric,noise_pct,n_pairs,run_a,run_b)
  VALUES(1,'2026-11-30T12:00:00.000Z',1,1,1,4096,128,'completion','',NULL,'tg',1.7,3,1,1);
PRAGMA application_id = 1414550340;
PRAGMA user_version = 3;
