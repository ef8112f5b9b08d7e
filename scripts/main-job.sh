#!/usr/bin/env bash
# scripts/main-job.sh: the README's main job, end to end on this machine. It builds
# tpsdb and a real llama-server (CPU, cached), writes a tiny random-weight model, and
# collects two engine labels (an A/A pair of one binary) over a base run and an
# n_max 1,2,3 speculative sweep in three rounds (every cell on a fresh server per
# round); then, until decided (at most 6 rounds), the base cell of ours against the
# A/A label and a label that is a real, large regression of the same binary (one
# thread instead of two). It prints the analysis and writes the report.
# Everything lands in ${OUT_DIR:-out}/: the store, server logs, report and plots.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p "${OUT_DIR:-out}"
out=$(cd "${OUT_DIR:-out}" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

scripts/deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# tpsdb and its manual pages: what `cmake --install build/release` installs.
cmake --build build/release -j"$jobs" --target tpsdb man >/dev/null
tpsdb=build/release/tpsdb

llama_dir=$(scripts/llama-server.sh)
server="$llama_dir/bin/llama-server"
model="$out/tiny.gguf"
scripts/tiny-model.sh "$model" >&2

cat >"$out/models.txt" <<EOM
# label | gguf | extra server args
tiny | $model |
EOM
cat >"$out/spec.txt" <<EOM
# label | gguf | spec server args | n_max list
tiny | $model | --spec-type draft-simple -md $model | 1,2,3
EOM

db="$out/tpsdb.sqlite"
rm -f "$db" "$db-wal" "$db-shm"
"$tpsdb" --db "$db" collect --engine ours="$server" --engine llama.cpp="$server" \
	--ours ours --models "$out/models.txt" --spec-manifest "$out/spec.txt" \
	--rounds 3 --tag demo --out-dir "$out" || [ $? -eq 1 ]

# A decision the tool can show on any machine: the A/A label answered "no
# regression" (or stopped as unanswerable, on a machine too noisy for 6 rounds) and
# the slowed label a decided regression against ours, the cell the batch decided
# (its A/A partner stops with the A/A cell); a label decided early is not started
# again.
"$tpsdb" --db "$db" collect --engine ours="$server" --engine llama.cpp="$server" \
	--engine slow="$server" --engine-args "slow=-t 1" --engine-args "ours=-t 2" \
	--engine-args "llama.cpp=-t 2" --ours ours --models "$out/models.txt" \
	--until-decided --max-rounds 6 --tag decide --out-dir "$out/decide" || [ $? -eq 1 ]

# Each cell ran three times, a whole pass apart, on restarted servers (--rounds 3, the
# engine order alternating): compare and gate pool the three instances of a side and
# take their interval from the spread across rounds. The sweep runs three fixed
# rounds: on this 2-core CPU the A/A scatter is 15-30%, so until-decided would run
# every rung to --max-rounds; the decision is shown on the base cell above instead.
# calibrate pairs each cell's two latest runs (rounds 2 and 3) for the A/A floor,
# which the one-run views (report, check) still use.
echo
"$tpsdb" --db "$db" calibrate

echo
"$tpsdb" --db "$db" compare --ours ours --vs llama.cpp --tag demo || [ $? -eq 1 ]
echo
"$tpsdb" --db "$db" compare --ours slow --vs ours --tag decide || [ $? -eq 1 ]
echo
"$tpsdb" --db "$db" sweep || [ $? -eq 1 ]
echo
"$tpsdb" --db "$db" check || [ $? -eq 1 ]
"$tpsdb" --db "$db" report --out "$out/report"
echo
echo "store: $db   report: $out/report/report.md   plots: $out/report/*.png"
