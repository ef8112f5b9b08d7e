#!/usr/bin/env bash
# t0102-models-alarm.sh: one file name with two sha256 values on two hosts raises a
# file-sha256-mismatch alarm naming both (exit 1); one label at two quants raises a
# label-quant-mismatch; unknown sha256 values raise nothing (exit 0).
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store import
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb

imp() { "$TPSDB_BIN" import --allow-duplicate "$@" "$D/eos.json" >/dev/null; }
not() { if "$@"; then echo "unexpectedly true: $*" >&2; exit 1; fi; }

# Same file, unknown sha256 on one host: no alarm.
imp --host a --model q35 --model-file /models/same-Q4_K_M.gguf
imp --host b --model q35 --model-file same-Q4_K_M.gguf --model-sha256 $A
"$TPSDB_BIN" models >"$tmp/out"
grep -q '^LABEL' "$tmp/out"
not grep -q ALARM "$tmp/out"

# The same name holding other bytes on host c: an alarm, exit 1.
imp --host c --model q35 --model-file same-Q4_K_M.gguf --model-sha256 $B
rc=0; "$TPSDB_BIN" models >"$tmp/out" || rc=$?
test $rc = 1
grep -q "^ALARM: file 'same-Q4_K_M.gguf' holds different bytes" "$tmp/out"
grep -q "sha256 $A on b" "$tmp/out"
grep -q "sha256 $B on c" "$tmp/out"
test "$(grep -c '^ALARM' "$tmp/out")" = 1

rc=0; "$TPSDB_BIN" models --json >"$tmp/out.json" || rc=$?
test $rc = 1
python3 - "$tmp/out.json" "$A" "$B" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"models", "alarms"}, d.keys()
for m in d["models"]:
    assert set(m) == {"label", "file", "bytes", "sha256", "quant", "hosts", "runs"}, m
assert len(d["models"]) == 3
assert {tuple(m["hosts"]) for m in d["models"]} == {("a",), ("b",), ("c",)}
assert all(m["quant"] == "Q4_K_M" and m["runs"] == 1 for m in d["models"])
(a,) = d["alarms"]
assert a["kind"] == "file-sha256-mismatch" and a["file"] == "same-Q4_K_M.gguf", a
assert a["variants"] == [{"sha256": sys.argv[2], "hosts": ["b"]},
                         {"sha256": sys.argv[3], "hosts": ["c"]}], a["variants"]
assert a["message"].startswith("file 'same-Q4_K_M.gguf'")
PY

# One label at two quants: a second alarm.
imp --host a --model q35 --model-file q35-other.gguf --quant Q8_0
rc=0; "$TPSDB_BIN" models >"$tmp/out" || rc=$?
test $rc = 1
grep -q "^ALARM: model 'q35' was measured at different quants: Q4_K_M on a, b, c; Q8_0 on a" "$tmp/out"
rc=0; "$TPSDB_BIN" models --json >"$tmp/out.json" || rc=$?
test $rc = 1
python3 -c '
import json, sys
kinds = [a["kind"] for a in json.load(open(sys.argv[1]))["alarms"]]
assert kinds == ["file-sha256-mismatch", "label-quant-mismatch"], kinds' "$tmp/out.json"

# A clean store: exit 0 and an empty alarms array.
TPSDB_DB=$tmp/clean.db "$TPSDB_BIN" import --host a "$D/eos.json" >/dev/null
TPSDB_DB=$tmp/clean.db "$TPSDB_BIN" models --json | python3 -c '
import json, sys
assert json.load(sys.stdin)["alarms"] == []'
