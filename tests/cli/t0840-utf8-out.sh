#!/usr/bin/env bash
# t0840-utf8-out.sh: UTF-8 out, whatever is in. Invalid UTF-8 put into a store by
# another tool (labels, tag, notes, host, a sample's error, raw timings) comes out
# of export JSONL, export CSV and report --format csv as valid UTF-8 (U+FFFD), and
# the export imports again. A server whose /props model path is not UTF-8 is still
# measured, with --model and without.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"

"$TPSDB_BIN" --db "$DB" import --engine ours --model q35 "$TPSDB_SRC/tests/data/import/completion-reps.jsonl" >/dev/null
python3 - "$DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
bad = b"x\xff\xfe y \xc3\x28 \xed\xa0\x80 \xc0\xaf".decode("latin-1")
def b(s): return s.encode("latin-1")
db.execute("UPDATE run SET tag = CAST(? AS TEXT), notes = CAST(? AS TEXT)", (b(bad), b("n," + bad)))
db.execute("UPDATE host SET name = CAST(? AS TEXT)", (b("h" + bad),))
db.execute("UPDATE model SET label = CAST(? AS TEXT)", (b("m" + bad),))
db.execute("UPDATE sample SET error = CAST(? AS TEXT) WHERE id = (SELECT min(id) FROM sample)", (b('e"' + bad),))
db.execute("UPDATE sample SET timings = CAST(? AS TEXT) WHERE id = (SELECT max(id) FROM sample)",
           (b('{"prompt_n":1802,"note":"' + bad + '"}'),))
db.commit()
PY
[ "$(q "SELECT count(*) FROM run WHERE tag LIKE '%y%'")" = 1 ] || fail "the store was not altered"

utf8() { # file what
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$1" ||
		fail "$2 is not valid UTF-8"
	grep -q $'\xef\xbf\xbd' "$1" || fail "$2 holds no U+FFFD"
}
"$TPSDB_BIN" --db "$DB" export >"$T/e.jsonl"
utf8 "$T/e.jsonl" "export JSONL"
python3 -c '
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    json.loads(line)' "$T/e.jsonl" || fail "export JSONL is not JSON"
run_tpsdb --db "$T/b.db" import "$T/e.jsonl"
[ "$rc" = 0 ] || fail "the export does not import again: $(cat "$T/stderr")"
"$TPSDB_BIN" --db "$T/b.db" export | cmp - "$T/e.jsonl" || fail "the repaired export does not round-trip"
"$TPSDB_BIN" --db "$DB" export --format csv >"$T/e.csv"
utf8 "$T/e.csv" "export CSV"
"$TPSDB_BIN" --db "$DB" report --format csv --out "$T/rep" >/dev/null
utf8 "$T/rep/report.csv" "report --format csv"

# /props with a model path in Latin-1.
port=$(free_port 1)
python3 "$TPSDB_SRC/tests/fault_server.py" --port $port -m "$MODEL" --fault props-bad-utf8 --lifetime 600 \
	2>"$T/attached.log" &
srv=$!
wait_listening "$port"
rm -f "$DB"*
run_tpsdb collect --url "http://127.0.0.1:$port" --engine theirs --model mine \
	--prompts "$PROMPTS" --reps 1 --out-dir "$OUT" --quiet
expect_eq "$rc" 0 "collect --model from a server with a non-UTF-8 model path"
expect_eq "$(q "SELECT m.label || '|' || hex(m.file) FROM model m")" \
	"mine|$(printf 'mod\xef\xbf\xbdle-\xef\xbf\xbd.gguf' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" \
	"the model file, repaired"
run_tpsdb collect --url "http://127.0.0.1:$port" --engine theirs \
	--prompts "$PROMPTS" --reps 1 --out-dir "$OUT" --quiet
expect_eq "$rc" 0 "collect without --model"
expect_eq "$(q "SELECT count(*) FROM run WHERE status = 'complete'")" 2 "two runs"
kill "$srv"
wait "$srv" 2>/dev/null || true
echo ok
