#!/usr/bin/env bash
# bench/bench_import.sh: how fast `tpsdb import` ingests llama-server responses,
# measured side by side with the sqlite3 shell's `.import --csv` of the same rows
# into one equivalent table (same columns, same UNIQUE key, WAL, synchronous=NORMAL).
# The goal is at least half the shell's rate.
#   bench/bench_import.sh [<responses, default 600000>]   (TPSDB_BIN=path/to/tpsdb)
# 600,000 responses are about 0.9 GB of JSONL, under import's 1 GiB input limit.
# BENCH_ROUNDS=k (default 1) measures k rounds, the order reversed every other round
# (the machine's speed moves between rounds: read each round's ratio); OLD_BIN=path
# adds another tpsdb binary to every round, side by side with TPSDB_BIN.
set -euo pipefail
n=${1:-600000}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${TPSDB_BIN:-$here/build/release/tpsdb}
command -v python3 >/dev/null || { echo "bench_import: needs python3" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "bench_import: needs the sqlite3 shell" >&2; exit 1; }
[ -x "$bin" ] || { echo "bench_import: no tpsdb at '$bin' (set TPSDB_BIN)" >&2; exit 1; }
old=${OLD_BIN:-}
[ -z "$old" ] || [ -x "$old" ] || { echo "bench_import: no tpsdb at '$old' (OLD_BIN)" >&2; exit 1; }
rounds=${BENCH_ROUNDS:-1}
case $rounds in ''|*[!0-9]*|0) echo "bench_import: BENCH_ROUNDS must be a count >= 1" >&2; exit 1;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One million responses shaped like tests/data/import/completion.json (a trimmed
# generation_settings, real timings keys), prompts cycling through nine texts so
# each gets ~111k repetitions, and the same rows as CSV with the columns tpsdb
# stores for a sample (rep, seq, flags and hashes computed the way import does).
python3 - "$n" "$work/responses.jsonl" "$work/samples.csv" <<'PY'
import csv, hashlib, json, random, sys
n, jsonl, csvp = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rnd = random.Random(1)
topics = ["code review", "a short story", "the history of Rome", "SQL indexes", "GPU kernels",
          "a recipe", "tax law", "chess openings", "the weather"]
prompts = ["<s> Write about %s. " % t + ("Explain it step by step, with examples. " * (6 + i))
           for i, t in enumerate(topics)]
hashes = [hashlib.sha256(p.encode()).hexdigest() for p in prompts]
contents = [" ".join(rnd.choice(["the", "model", "token", "speed", "cache", "draft", "layer",
                                 "tensor", "batch", "decode"]) for _ in range(60)) for _ in range(16)]
out_hashes = [hashlib.sha256(c.encode()).hexdigest() for c in contents]
gs = {"seed": 42, "temperature": 0.0, "top_k": 40, "top_p": 0.95, "min_p": 0.05,
      "repeat_last_n": 64, "repeat_penalty": 1.0, "max_tokens": 512, "n_predict": 512,
      "n_keep": 0, "ignore_eos": True, "stream": False, "samplers": ["top_k", "top_p",
      "min_p", "temperature"], "speculative.types": "none"}
reps = [0] * len(prompts)
with open(jsonl, "w") as fj, open(csvp, "w", newline="") as fc:
    w = csv.writer(fc)
    w.writerow(["run_id", "prompt_hash", "rep", "seq", "cache_n", "prompt_n", "prompt_ms",
                "prompt_per_second", "predicted_n", "predicted_ms", "predicted_per_second",
                "draft_n", "draft_n_accepted", "wall_ms", "http_status", "error", "stop_type",
                "output_hash", "timings", "flags"])
    for i in range(n):
        k = i % len(prompts)
        c = i % len(contents)
        reps[k] += 1
        pn = 1700 + 40 * k
        pms = pn / rnd.uniform(11000, 14000) * 1000
        tms = 512 / rnd.uniform(120, 160) * 1000
        t = {"cache_n": 0, "prompt_n": pn, "prompt_ms": round(pms, 3),
             "prompt_per_token_ms": pms / pn, "prompt_per_second": pn / pms * 1000,
             "predicted_n": 512, "predicted_ms": round(tms, 3),
             "predicted_per_token_ms": tms / 512, "predicted_per_second": 512 / tms * 1000}
        r = {"index": 0, "content": contents[c], "tokens": [], "id_slot": 0, "stop": True,
             "model": "q35-Q4_K_M.gguf", "tokens_predicted": 512, "tokens_evaluated": pn,
             "generation_settings": gs, "prompt": prompts[k], "has_new_line": False,
             "truncated": False, "stop_type": "limit", "stopping_word": "",
             "tokens_cached": pn + 511, "timings": t}
        fj.write(json.dumps(r, separators=(",", ":")))
        fj.write("\n")
        w.writerow([1, hashes[k], reps[k], i + 1, 0, pn, t["prompt_ms"], t["prompt_per_second"],
                    512, t["predicted_ms"], t["predicted_per_second"], "", "", "", 200, "",
                    "limit", out_hashes[c], json.dumps(t, separators=(",", ":")), 0])
PY

# <command...>: runs it, prints "<wall seconds> <cpu seconds>" (user + sys). The
# CPU time is the steadier figure on a shared machine.
measure() {
	local TIMEFORMAT='%R %U %S' t
	t=$({ time "$@" >/dev/null 2>"$work/stderr"; } 2>&1) ||
		{ cat "$work/stderr" >&2; return 1; }
	awk -v t="$t" 'BEGIN { split(t, f, " "); printf "%s %.3f", f[1], f[2] + f[3] }'
}

cat >"$work/schema.sql" <<'SQL'
PRAGMA journal_mode=WAL;
CREATE TABLE sample(run_id INTEGER NOT NULL, prompt_hash TEXT NOT NULL, rep INTEGER NOT NULL,
  seq INTEGER, cache_n INTEGER, prompt_n INTEGER, prompt_ms REAL, prompt_per_second REAL,
  predicted_n INTEGER, predicted_ms REAL, predicted_per_second REAL, draft_n INTEGER,
  draft_n_accepted INTEGER, wall_ms REAL, http_status INTEGER, error TEXT, stop_type TEXT,
  output_hash TEXT, timings TEXT, flags INTEGER NOT NULL DEFAULT 0,
  UNIQUE(run_id, prompt_hash, rep));
SQL

# run <who>: one measurement into a fresh store, "<wall> <cpu>"; who is tpsdb, old
# or cli. The row counts are checked every time.
run() {
	local t got
	rm -f "$work/m.sqlite" "$work/m.sqlite-wal" "$work/m.sqlite-shm"
	case $1 in
	cli)
		sqlite3 "$work/m.sqlite" >/dev/null <"$work/schema.sql"
		t=$(measure sqlite3 -cmd 'PRAGMA synchronous=NORMAL' "$work/m.sqlite" \
			".import --csv --skip 1 $work/samples.csv sample")
		got=$(sqlite3 "$work/m.sqlite" 'SELECT count(*) FROM sample');;
	*)
		local b=$bin
		[ "$1" = old ] && b=$old
		t=$(measure "$b" --db "$work/m.sqlite" import --engine bench --host bench \
			--model q35 --warmup 1 "$work/responses.jsonl")
		got=$("$b" --db "$work/m.sqlite" runs --json | python3 -c \
			'import json, sys; print(sum(r["n_samples"] for r in json.load(sys.stdin)))');;
	esac
	[ "$got" = "$n" ] || { echo "bench_import: $1 stored $got rows, want $n" >&2; return 1; }
	echo "$t"
}

echo "input: $n responses, $(du -m "$work/responses.jsonl" | cut -f1) MB JSONL; $(du -m "$work/samples.csv" | cut -f1) MB CSV"
who="tpsdb${old:+ old} cli"
for r in $(seq "$rounds"); do
	declare -A t=()
	order=$who
	[ $((r % 2)) = 0 ] && order=$(echo "$who" | tr ' ' '\n' | tac | paste -sd ' ')
	for w in $order; do
		t[$w]=$(run "$w")
	done
	[ "$rounds" = 1 ] || echo "round $r (order: $order)"
	awk -v n="$n" -v a="${t[tpsdb]}" -v b="${t[cli]}" -v o="${t[old]:-}" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		printf "%-26s %9s %14s %9s %14s\n", "", "wall s", "samples/s", "cpu s", "samples/cpu-s"
		printf "%-26s %9.3f %14.0f %9.3f %14.0f\n", "tpsdb import (JSONL)", x[1], n / x[1], x[2], n / x[2]
		if (o != "") {
			split(o, z, " ")
			printf "%-26s %9.3f %14.0f %9.3f %14.0f\n", "old tpsdb import (JSONL)", z[1], n / z[1], z[2], n / z[2]
		}
		printf "%-26s %9.3f %14.0f %9.3f %14.0f\n", "sqlite3 .import --csv", y[1], n / y[1], y[2], n / y[2]
		printf "ratio tpsdb/sqlite3: %.2fx wall, %.2fx cpu (goal >= 0.50x)\n", y[1] / x[1], y[2] / x[2]
		if (o != "")
			printf "ratio old/sqlite3: %.2fx wall, %.2fx cpu; new/old cpu %.2fx\n", y[1] / z[1], y[2] / z[2], x[2] / z[2]
	}'
	unset t
done
