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
