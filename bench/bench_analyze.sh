#!/usr/bin/env bash
# bench_analyze.sh: times 'tpsdb compare' and 'tpsdb gate' over a store of one million
# samples, next to the plain sqlite3 CLI running the equivalent GROUP BY over the same
# file (the floor no tpsdb query can beat), and prints wall time, max RSS and ratio.
# Goal: each command <= 2x its floor and <= 64 MB. Usage: bench/bench_analyze.sh
# [store] (TPSDB_BIN names the binary; otherwise a Release build is made under
# build-bench/). OLD_BIN=path measures an older binary beside it in the same run;
# BENCH_ROUNDS=k (default 1) measures k rounds, the order reversed every other
# round (the machine's speed moves between rounds: read each round's ratios).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
bin=${TPSDB_BIN:-}
if [ -z "$bin" ]; then
	cmake -S "$src" -B "$src/build-bench" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$src/build-bench" --target tpsdb -j"$(nproc)" >/dev/null
	bin=$src/build-bench/tpsdb
fi
old=${OLD_BIN:-}
[ -z "$old" ] || [ -x "$old" ] || { echo "bench_analyze: no tpsdb at '$old' (OLD_BIN)" >&2; exit 1; }
rounds=${BENCH_ROUNDS:-1}
case $rounds in ''|*[!0-9]*|0) echo "bench_analyze: BENCH_ROUNDS must be a count >= 1" >&2; exit 1;; esac
for tool in sqlite3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "bench_analyze: needs $tool" >&2; exit 3; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=${1:-$work/bench.sqlite}

# The shape: 2 engines x 10 models x 5 cells (base, n_max 1..4) x 10 runs of history
# = 1000 runs, each 100 prompts x 10 repetitions = 1,000,000 samples.
ENGINES=2 MODELS=10 CELLS=5 HIST=10 PROMPTS=100 REPS=10

build_store() {
	rm -f "$db" "$db"-wal "$db"-shm
	# tpsdb creates and migrates the file; one fixture run is imported, then dropped.
	"$bin" --db "$db" import --engine seed --model seed --warmup 1 \
		"$src/tests/data/analyze-cli/trend-1.jsonl" >/dev/null
	sqlite3 "$db" >/dev/null <<SQL
PRAGMA journal_mode=WAL;
PRAGMA synchronous=OFF;
BEGIN;
DELETE FROM sample; DELETE FROM run; DELETE FROM prompt; DELETE FROM model; DELETE FROM engine;
INSERT INTO engine(id, label, role) VALUES(1, 'ours', 'ours'), (2, 'llama.cpp', 'upstream');
WITH RECURSIVE m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < $MODELS)
INSERT INTO model(id, label, sha256) SELECT i, 'model-' || i, printf('%064d', i) FROM m;
WITH RECURSIVE p(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM p WHERE i < $PROMPTS)
INSERT INTO prompt(id, name, text_hash, n_tokens) SELECT i, 'p' || i, printf('%064d', i), 1024 + i FROM p;
-- Runs: engine e, model m, cell c (0 = base, else n_max c), history step h (h$HIST is the latest).
WITH RECURSIVE
  e(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM e WHERE i < $ENGINES),
  m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < $MODELS),
  c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < $CELLS - 1),
  h(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM h WHERE i < $HIST)
INSERT INTO run(uuid, started_at, status, source, host_id, engine_id, model_id, ctx, n_predict,
                endpoint, spec_type, n_max, tag, warmup)
SELECT printf('00000000-0000-4000-8000-%012d', (((e.i * 100 + m.i) * 10 + c.i) * 100 + h.i)),
       printf('2026-01-%02dT%02d:%02d:00Z', h.i, m.i, c.i * 10 + e.i), 'complete', 'import',
       (SELECT min(id) FROM host), e.i, m.i, 8192, 256, 'completion',
       CASE WHEN c.i = 0 THEN '' ELSE 'draft' END, CASE WHEN c.i = 0 THEN NULL ELSE c.i END,
       'h' || h.i, 1
FROM e, m, c, h;
-- In run order, as imports write them: a run's samples sit on neighbouring pages.
-- Ours decodes 1% faster on the base cells; every 200th sample is cache-inflated.
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < $REPS),
v AS MATERIALIZED (
  SELECT run.id AS rid, run.n_max AS nm, prompt.id AS pid, prompt.n_tokens AS nt, r.i AS rep,
         13000 * (1 + (abs(random()) % 1000) / 1e5) AS pp,
         140 * (CASE WHEN run.engine_id = 1 AND run.n_max IS NULL THEN 1.01 ELSE 1 END)
             * (1 + (abs(random()) % 1000) / 1e5) AS tg,
         CASE WHEN abs(random()) % 200 = 0 THEN 2 ELSE 0 END AS flags
  FROM run, prompt, r ORDER BY run.id, prompt.id, r.i)
-- pp_rate and tg_rate are what ingest stores (record_rate(): the counts over the
-- times), here the same numbers as the reported rates by construction.
INSERT INTO sample(run_id, prompt_id, rep, seq, cache_n, prompt_n, prompt_ms, prompt_per_second,
                   predicted_n, predicted_ms, predicted_per_second, pp_rate, tg_rate, draft_n,
                   draft_n_accepted, http_status, stop_type, flags)
SELECT rid, pid, rep, (pid - 1) * $REPS + rep, flags / 2 * 64, nt, nt / pp * 1000, pp,
       256, 256 / tg * 1000, tg, pp, tg,
       CASE WHEN nm IS NULL THEN NULL ELSE 100 * nm END,
       CASE WHEN nm IS NULL THEN NULL ELSE 100 * nm - 20 * nm * nm END,
       200, 'limit', flags
FROM v ORDER BY rid, pid, rep;
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
ANALYZE;
SQL
	"$bin" --db "$db" baseline set bench-base --engine ours --tag h1 >/dev/null
}

# measure <label> <cmd...>: best wall time of 5 runs and the max RSS, via /usr/bin/time.
measure() {
	local label=$1 best=999 rss=0 i t r
	shift
	for i in 1 2 3 4 5; do
		/usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || true
		read -r t r <"$work/time"
		best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b) ? a : b }')
		[ "$r" -gt "$rss" ] && rss=$r
	done
	printf '%-34s %7.3f s %8.1f MB\n' "$label" "$best" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
	last_t=$best
}

start=$(date +%s.%N)
[ -n "${1:-}" ] && [ -s "$db" ] || build_store
built=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
n=$(sqlite3 "$db" 'SELECT count(*) FROM sample')
echo "store: $db, $n samples in $(sqlite3 "$db" 'SELECT count(*) FROM run') runs ($(du -h "$db" | cut -f1); built in ${built}s)"

floor_compare="WITH latest AS (SELECT id, engine_id, model_id, spec_type, n_max FROM (
  SELECT r.*, row_number() OVER (PARTITION BY engine_id, model_id, spec_type, n_max, endpoint
  ORDER BY started_at DESC, id DESC) AS rn FROM run r) WHERE rn = 1)
SELECT l.model_id, l.spec_type, l.n_max, l.engine_id, count(*), avg(s.pp_rate),
  avg(s.tg_rate) FROM latest l JOIN sample s ON s.run_id = l.id
WHERE s.flags = 0 GROUP BY l.model_id, l.spec_type, l.n_max, l.engine_id;"
floor_gate="WITH latest AS (SELECT id, model_id, spec_type, n_max FROM (
  SELECT r.*, row_number() OVER (PARTITION BY engine_id, model_id, spec_type, n_max, endpoint
  ORDER BY started_at DESC, id DESC) AS rn FROM run r WHERE engine_id = 1) WHERE rn = 1),
 base AS (SELECT br.run_id AS id, r.model_id, r.spec_type, r.n_max FROM baseline_run br
  JOIN baseline b ON b.id = br.baseline_id JOIN run r ON r.id = br.run_id WHERE b.name = 'bench-base'),
 both_ AS (SELECT *, 'c' AS side FROM latest UNION ALL SELECT *, 'b' FROM base)
SELECT x.model_id, x.spec_type, x.n_max, x.side, avg(s.pp_rate), avg(s.tg_rate),
  total(s.draft_n_accepted) / total(s.draft_n) FROM both_ x JOIN sample s ON s.run_id = x.id
WHERE s.flags = 0 GROUP BY x.model_id, x.spec_type, x.n_max, x.side;"

# one_round <binary> <name>: compare and gate of that binary beside their floors.
one_round() {
	local b=$1 name=$2 tc fc tg fg
	measure "$name compare (200 verdicts)" "$b" --db "$db" compare --ours ours --vs llama.cpp --json
	tc=$last_t
	[ "$(jq '.rows | length' "$work/out" 2>/dev/null || echo '?')" != 0 ] || echo "  (compare printed no rows)"
	measure "sqlite3 floor (compare GROUP BY)" sqlite3 "$db" "$floor_compare"
	fc=$last_t
	measure "$name gate (140 checks)" "$b" --db "$db" gate --baseline bench-base --engine ours --json
	tg=$last_t
	measure "sqlite3 floor (gate GROUP BY)" sqlite3 "$db" "$floor_gate"
	fg=$last_t
	awk -v a="$tc" -v b="$fc" -v n="$name" 'BEGIN { printf "%s compare / floor: %.2fx\n", n, (b > 0 ? a / b : 0) }'
	awk -v a="$tg" -v b="$fg" -v n="$name" 'BEGIN { printf "%s gate / floor:    %.2fx\n", n, (b > 0 ? a / b : 0) }'
}

for r in $(seq 1 "$rounds"); do
	echo
	echo "round $r"
	printf '%-34s %9s %11s\n' "what" "wall" "max RSS"
	if [ -n "$old" ] && [ $((r % 2)) = 0 ]; then
		one_round "$old" old
		one_round "$bin" tpsdb
	else
		one_round "$bin" tpsdb
		[ -z "$old" ] || one_round "$old" old
	fi
done
