#!/usr/bin/env bash
# t0310-collect-ok.sh: a clean two-engine run against well-behaved fault servers:
# exit 0, one complete run per cell with host, engine and model rows, every sample
# committed with its seq, the cold-start flag without warm-up, the logs and the
# summary table in the out dir, and no server left behind.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine ours="$FS" --engine stock-llamafile="$FS" --ours ours \
	--model tiny="$MODEL" --prompts "$PROMPTS" --reps 2 --warmup 0 --n-predict 32 \
	--port "$port" --out-dir "$OUT" --host testhost --gpu-name "Test GPU" --driver 1.2 \
	--cuda 12.8 --tag t0310 --notes "a note" --seed 7 --ctx 2048
expect_eq "$rc" 0 "exit status"
expect_no_orphans

expect_eq "$(q "SELECT count(*) FROM run WHERE status='complete' AND source='collect'")" 2 \
	"complete runs"
expect_eq "$(q "SELECT group_concat(e.label || ':' || e.role || ':' || e.version, ' ')
	FROM run r JOIN engine e ON e.id=r.engine_id ORDER BY r.id")" \
	"ours:ours:fault-server-1 stock-llamafile:upstream:fault-server-1" "engines"
expect_match "$(q "SELECT sha256 FROM engine LIMIT 1")" '^[0-9a-f]{64}$' "engine sha256"
expect_eq "$(q "SELECT label || '|' || file || '|' || bytes || '|' || quant FROM model")" \
	"tiny|tiny-Q4_K_M.gguf|18|Q4_K_M" "model row"
expect_eq "$(q "SELECT sha256 FROM model")" "$(sha256sum "$MODEL" | cut -c1-64)" "model sha256"
expect_eq "$(q "SELECT name || '|' || gpu || '|' || driver || '|' || cuda FROM host")" \
	"testhost|Test GPU|1.2|12.8" "host row"
expect_eq "$(q "SELECT DISTINCT ctx || ' ' || n_predict || ' ' || ignore_eos || ' ' ||
	temperature || ' ' || seed || ' ' || endpoint || ' ' || warmup || ' ' || tag || ' ' ||
	notes FROM run")" "2048 32 1 0.0 7 completion 0 t0310 a note" "run config"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL AND http_status=200
	AND predicted_n=32 AND wall_ms > 0 AND timings LIKE '{%'")" 8 "good samples"
# seq counts what each server answered before; seq 0 is cold.
expect_eq "$(q "SELECT group_concat(seq, ',') FROM (SELECT seq FROM sample
	WHERE run_id=1 ORDER BY id)")" "0,1,2,3" "seq of run 1"
expect_eq "$(q "SELECT count(*) FROM sample WHERE seq=0 AND flags & 16")" 2 "cold samples"
expect_eq "$(q "SELECT count(*) FROM prompt")" 2 "prompts"
expect_eq "$(q "SELECT count(*) FROM run WHERE prompt_set <> ''")" 2 "prompt_set hashes"
for f in $(q "SELECT log_path FROM run"); do
	[ -s "$f" ] || fail "log '$f' is missing"
	case $f in "$OUT"/*) ;; *) fail "log '$f' is not in the out dir" ;; esac
done
grep -q '^model  *engine  *n_max  *status' "$OUT/summary.txt" || fail "no summary.txt"
grep -q '^tiny  *ours  *-  *complete  *4  *0  *2000.0  *500.0  *-$' "$T/stdout" ||
	fail "summary row: $(cat "$T/stdout")"
expect_eq "$(q "SELECT count(*) FROM file_hash")" 2 "file_hash rows"
grep -q '^warm-up: none (--warmup 0): each run.s first sample is flagged cold-start' \
	"$OUT/summary.txt" || fail "summary.txt does not say there was no warm-up"

# A second session reuses the hashes and adds two more runs.
run_tpsdb collect --engine ours="$FS" --model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 \
	--port "$port" --out-dir "$OUT" --quiet --no-reference
expect_eq "$rc" 0 "second exit status"
expect_eq "$(q "SELECT count(*) FROM model")" 1 "model rows after two sessions"
expect_eq "$(q "SELECT count(*) FROM prompt")" 4 "prompts without the reference differ"
expect_eq "$(q "SELECT seq FROM sample WHERE run_id=3 ORDER BY id LIMIT 1")" 1 \
	"seq after one warm-up"
grep -q '^warm-up: 1 unrecorded request(s) after each server start' "$T/stdout" ||
	fail "the summary does not state the warm-up: $(cat "$T/stdout")"

# --aa: every cell twice, each on its own server, and calibrate turns the pair into
# stored floors (with jitter: calibrate refuses two runs with identical samples).
run_tpsdb collect --engine ours="$FS" --engine-args ours="--jitter 0.02" --model tiny="$MODEL" \
	--prompts "$PROMPTS" --reps 2 \
	--port "$port" --out-dir "$OUT" --quiet --aa --tag aa
expect_eq "$rc" 0 "--aa exit status"
expect_eq "$(q "SELECT count(*) FROM run WHERE tag='aa' AND status='complete'")" 2 "A/A runs"
expect_eq "$(q "SELECT count(DISTINCT log_path) FROM run WHERE tag='aa'")" 2 \
	"one server start per A/A run"
"$TPSDB_BIN" --db "$DB" calibrate --engine ours --tag aa >/dev/null || fail "calibrate failed"
expect_eq "$(q "SELECT group_concat(metric || ':' || n_pairs, ' ') FROM noise_floor")" \
	"pp:4 tg:4" "stored floors"
expect_no_orphans
echo ok
