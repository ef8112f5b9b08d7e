#!/usr/bin/env bash
# t0962-export-client-clock.sh: the client's clock (migration 0010) travels with its
# samples: export -> import gives the same bytes and the same columns, merge copies
# them, the CSV has them; an export from before them (no client_* keys) and a
# plain response imported give NULL, never a zero.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

run_tpsdb collect --engine e="$FS" --engine-args e="--token-ms 3" --model m="$MODEL" \
	--prompts "$PROMPTS" --reps 2 --n-predict 8 --port "$port" --out-dir "$OUT"
expect_eq "$rc" 0 "collect"
cols="client_ttft_ms, client_decode_per_second, client_e2e_ms"
expect_eq "$(q "SELECT count(*) FROM sample WHERE client_ttft_ms > 0
	AND client_decode_per_second > 0 AND client_e2e_ms > 0")" 4 "collected"
want=$(q "SELECT $cols FROM sample ORDER BY id")

"$TPSDB_BIN" --db "$DB" export >"$T/e1.jsonl"
"$TPSDB_BIN" --db "$T/b.sqlite" import "$T/e1.jsonl" >/dev/null
expect_eq "$(sqlite3 "$T/b.sqlite" "SELECT $cols FROM sample ORDER BY id")" "$want" "import"
"$TPSDB_BIN" --db "$T/b.sqlite" export >"$T/e2.jsonl"
cmp "$T/e1.jsonl" "$T/e2.jsonl" || fail "export -> import -> export changed bytes"

"$TPSDB_BIN" --db "$T/c.sqlite" merge "$DB" >/dev/null
expect_eq "$(sqlite3 "$T/c.sqlite" "SELECT $cols FROM sample ORDER BY id")" "$want" "merge"

"$TPSDB_BIN" --db "$DB" export --format csv >"$T/e.csv"
python3 - "$T/e.csv" "$want" <<'PY' || fail "csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
got = "\n".join("|".join(r[k] for k in ("client_ttft_ms", "client_decode_per_second",
                                         "client_e2e_ms")) for r in rows)
want = sys.argv[2]
assert len(rows) == 4
# The CSV prints fewer digits than SQLite: compare as numbers.
for g, w in zip(got.split("\n"), want.split("\n")):
    for a, b in zip(g.split("|"), w.split("|")):
        assert abs(float(a) - float(b)) <= 1e-6 * float(b), (a, b)
PY

# An export from before migration 0010, and a plain answer: NULL.
jq -c '.samples |= map(del(.client_ttft_ms, .client_decode_per_second, .client_e2e_ms))' \
	"$T/e1.jsonl" >"$T/old.jsonl"
"$TPSDB_BIN" --db "$T/d.sqlite" import "$T/old.jsonl" >/dev/null
"$TPSDB_BIN" --db "$T/d.sqlite" import --engine up "$TPSDB_SRC/tests/data/import/completion.json" \
	>/dev/null
expect_eq "$(sqlite3 "$T/d.sqlite" "SELECT count(*) || ' ' || count(client_ttft_ms) ||
	count(client_decode_per_second) || count(client_e2e_ms) FROM sample")" "5 000" \
	"no clock, NULL"
echo ok
