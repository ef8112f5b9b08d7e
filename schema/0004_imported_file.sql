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
