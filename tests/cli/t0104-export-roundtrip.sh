#!/usr/bin/env bash
# t0104-export-roundtrip.sh: export, import into a fresh store, export again gives
# the same bytes; importing an export twice restores nothing twice; --out writes
# what stdout would; filters select runs.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=$TPSDB_TEST_DATA/import
A=$tmp/a.db
B=$tmp/b.db

"$TPSDB_BIN" --db "$A" import --engine ours --role ours --model q35 --host a \
	--model-file q35-Q4_K_M.gguf --model-sha256 \
	0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef \
	--tag 'b1, "quoted"' --notes $'two\nlines' --ctx 4096 \
	"$D/completion.json" "$D/completion-reps.jsonl" >/dev/null
"$TPSDB_BIN" --db "$A" import --engine ours --spec-type draft-simple --n-max 8 \
	--gpu 'NVIDIA H200' --driver 570.86.15 --cuda 12.8 "$D/spec.jsonl" >/dev/null
"$TPSDB_BIN" --db "$A" import --engine up --prompt chat-p "$D/chat.json" >/dev/null
"$TPSDB_BIN" --db "$A" import --engine up "$D/llama-bench.jsonl" >/dev/null
"$TPSDB_BIN" --db "$A" import --engine up "$D/eos.json" >/dev/null

"$TPSDB_BIN" --db "$A" export >"$tmp/e1.jsonl"
test "$(wc -l <"$tmp/e1.jsonl")" = 6
"$TPSDB_BIN" --db "$B" import "$tmp/e1.jsonl" >"$tmp/msg"
grep -qxF "restored 6 run(s) with 14 sample(s); 0 already present" "$tmp/msg"
"$TPSDB_BIN" --db "$B" export >"$tmp/e2.jsonl"
cmp "$tmp/e1.jsonl" "$tmp/e2.jsonl"

# Again into the same store: every run is already there, nothing changes.
"$TPSDB_BIN" --db "$B" import --allow-duplicate "$tmp/e1.jsonl" >"$tmp/msg"
grep -qxF "restored 0 run(s) with 0 sample(s); 6 already present" "$tmp/msg"
"$TPSDB_BIN" --db "$B" export | cmp - "$tmp/e1.jsonl"
# The other listings agree too.
"$TPSDB_BIN" --db "$A" runs --json >"$tmp/ra"
"$TPSDB_BIN" --db "$B" runs --json >"$tmp/rb"
cmp "$tmp/ra" "$tmp/rb"

# --out writes the same bytes, and only on success.
"$TPSDB_BIN" --db "$A" export --out "$tmp/out.jsonl"
cmp "$tmp/out.jsonl" "$tmp/e1.jsonl"
test -z "$(ls "$tmp" | grep '\.tmp\.' || true)"

# Filters.
test "$("$TPSDB_BIN" --db "$A" export --engine up | wc -l)" = 4
test "$("$TPSDB_BIN" --db "$A" export --model q35 | wc -l)" = 1
test "$("$TPSDB_BIN" --db "$A" export --tag 'b1, "quoted"' | wc -l)" = 1
test -z "$("$TPSDB_BIN" --db "$A" export --host nowhere)"
