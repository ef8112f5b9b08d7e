#!/usr/bin/env bash
# t0321-collect-env.sh: the seed harness's environment drop-in: with no --engine,
# OURS_BIN, STOCK_LLAMAFILE and STOCK_LLAMACPP name the engines (an unset one is
# skipped), MODELS_MANIFEST, MTP_MANIFEST, GPU, PORT, NPRED and OUT_DIR the rest;
# the stock llamafile gets STOCKLF_HOME or a fresh HOME that is removed afterwards.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

printf 'tiny | %s\n' "$MODEL" >"$T/models"
printf 'tiny | %s | --spec-type draft-simple -md %s | 2\n' "$MODEL" "$MODEL" >"$T/mtp"
unset OURS_BIN STOCK_LLAMAFILE STOCK_LLAMACPP STOCKLF_HOME MODELS_MANIFEST MTP_MANIFEST \
	GPU PORT NPRED OUT_DIR OURS_ARGS STOCK_LLAMAFILE_ARGS STOCK_LLAMACPP_ARGS

# Dry run: the matrix and the command lines.
OURS_BIN=$FS STOCK_LLAMAFILE=$FS STOCK_LLAMACPP= MODELS_MANIFEST=$T/models \
	MTP_MANIFEST=$T/mtp PORT="$port" NPRED=16 run_tpsdb collect --dry-run
expect_eq "$rc" 0 "dry run"
expect_eq "$(wc -l <"$T/stdout")" 4 "cells (llama.cpp unset, so skipped)"
grep -q "^1/4 tiny ours (ours) base: $FS --host 127.0.0.1 --port $port -m $MODEL -c 4096 -ngl 99\$" \
	"$T/stdout" || fail "dry run: $(cat "$T/stdout")"
grep -q "^4/4 tiny stock-llamafile (upstream) n_max=2 spec_type=draft-simple drafter=tiny-Q4_K_M.gguf: .* --server --nobrowser --spec-type draft-simple -md $MODEL --spec-draft-n-max 2 \[HOME=<fresh temporary>\]\$" \
	"$T/stdout" || fail "dry run: $(cat "$T/stdout")"

# A real run through the fault server.
mkdir "$T/lfhome"
OURS_BIN=$FS STOCK_LLAMAFILE=$FS MODELS_MANIFEST=$T/models GPU=3 PORT="$port" NPRED=16 \
	OUT_DIR=$T/harness TMPDIR=$T run_tpsdb collect --prompts "$PROMPTS" --reps 1
expect_eq "$rc" 0 "exit status"
expect_no_orphans
[ -s "$T/harness/summary.txt" ] || fail "no \$OUT_DIR/summary.txt"
expect_eq "$(q "SELECT group_concat(e.label || ':' || e.role || ':' || r.n_predict, ' ')
	FROM run r JOIN engine e ON e.id=r.engine_id")" \
	"ours:ours:16 stock-llamafile:upstream:16" "engines from the environment"
grep -q 'CUDA_VISIBLE_DEVICES=3' "$(q "SELECT log_path FROM run WHERE id=1")" ||
	fail "GPU did not reach the server"
lf_log=$(q "SELECT log_path FROM run WHERE id=2")
home=$(grep -o 'HOME=[^ ]*' "$lf_log" | cut -d= -f2)
case $home in "$T"/tpsdb-home-*) ;; *) fail "stock llamafile HOME was '$home'" ;; esac
[ ! -e "$home" ] || fail "the temporary HOME '$home' was not removed"
grep -q "HOME=$HOME " "$(q "SELECT log_path FROM run WHERE id=1")" ||
	fail "ours did not keep HOME"

# STOCKLF_HOME wins, and is kept.
STOCK_LLAMAFILE=$FS STOCKLF_HOME=$T/lfhome MODELS_MANIFEST=$T/models PORT="$port" \
	OUT_DIR=$T/harness2 run_tpsdb collect --prompts "$PROMPTS" --reps 1 --quiet
expect_eq "$rc" 0 "exit status with STOCKLF_HOME"
grep -q "HOME=$T/lfhome " "$(q "SELECT log_path FROM run WHERE id=3")" ||
	fail "STOCKLF_HOME not used"
[ -d "$T/lfhome" ] || fail "STOCKLF_HOME was removed"

# Options win over the environment; an engine flag turns the drop-in off.
OURS_BIN=$FS MODELS_MANIFEST=$T/models NPRED=16 run_tpsdb collect --engine x=/bin/true \
	--model m="$MODEL" --n-predict 8 --dry-run
expect_eq "$(cut -d' ' -f2-4 "$T/stdout")" "m x (other)" "drop-in off with --engine"
echo ok
