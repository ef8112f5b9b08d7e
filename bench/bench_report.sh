#!/usr/bin/env bash
# bench_report.sh: times 'tpsdb report --out <dir>' (tables plus the three PNG
# plots) on a store of 10,000 runs, against one bare gnuplot start, since starting
# gnuplot is most of the cost. The store is made through tpsdb's own export format
# (fixed uuids), so only 'tpsdb import' writes it.
#   bench/bench_report.sh [<tpsdb binary>] [<runs>] [<keep dir>]   (goal: <= 2 s)
# With a keep dir, the store and the report stay there for a closer look.
set -eu

bin=${1:-${TPSDB_BIN:-build/tpsdb}}
runs=${2:-10000}
[ -x "$bin" ] || { echo "bench_report: no tpsdb binary at '$bin'" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
if [ -n "${3:-}" ]; then
	tmp=$3
	mkdir -p "$tmp"
	rm -f "$tmp/store.sqlite" "$tmp/store.sqlite-wal" "$tmp/store.sqlite-shm"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }

# 3 engines x 2 models x (base + n_max 1..3) = 24 cells, each a history of runs an
# hour apart; 3 prompts x 2 repetitions per run, decode with a slow drift and a
# 5% step halfway through ours' history so that trend has something to find.
t0=$(now)
awk -v runs="$runs" 'BEGIN {
	split("ours llama.cpp stock-llamafile", eng, " ")
	split("ours upstream other", role, " ")
	split("q35 g4", model, " ")
	split("chat code math", prompt, " ")
	hash["chat"] = "1111111111111111111111111111111111111111111111111111111111111111"
	hash["code"] = "2222222222222222222222222222222222222222222222222222222222222222"
	hash["math"] = "3333333333333333333333333333333333333333333333333333333333333333"
	for (i = 0; i < runs; i++) {
		cell = i % 24; k = int(i / 24)
		e = cell % 3 + 1; m = int(cell / 3) % 2 + 1; nmax = int(cell / 6)
		step = (e == 1 && k > runs / 48) ? 0.95 : 1.0
		tg = (m == 1 ? 142.6 : 88.1) * (1 + 0.3 * nmax) * step * (1 + 0.002 * ((k * 7) % 5 - 2))
		pp = (m == 1 ? 13150 : 5400) * (1 + 0.001 * ((k * 3) % 5 - 2))
		t = 1735689600 + k * 3600 + cell * 60
		ts = strftime("%Y-%m-%dT%H:%M:%S.000Z", t, 1)
		printf "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"%08d-0000-4000-8000-%012d\",", i, i
		printf "\"started_at\":\"%s\",\"ended_at\":\"%s\",\"status\":\"complete\",", ts, ts
		printf "\"source\":\"collect\",\"host\":{\"name\":\"h200\"},"
		printf "\"engine\":{\"label\":\"%s\",\"role\":\"%s\"},", eng[e], role[e]
		printf "\"model\":{\"label\":\"%s\",\"file\":\"%s.gguf\"},", model[m], model[m]
		printf "\"ctx\":8192,\"n_predict\":256,\"endpoint\":\"completion\","
		printf "\"spec_type\":\"%s\",\"n_max\":%s,", nmax ? "draft" : "", nmax ? nmax : "null"
		printf "\"tag\":\"b%d\",\"warmup\":1},\"samples\":[", 9000 + k
		n = 0
		for (p = 1; p <= 3; p++) {
			for (rep = 1; rep <= 2; rep++) {
				w = 1 + 0.001 * (p - 2) + 0.0005 * rep
				printf "%s{\"prompt\":\"%s\",\"prompt_hash\":\"%s\",\"rep\":%d,\"seq\":%d,",
					n++ ? "," : "", prompt[p], hash[prompt[p]], rep, n
				printf "\"cache_n\":0,\"prompt_n\":1024,\"prompt_per_second\":%.2f,", pp * w
				printf "\"predicted_n\":256,\"predicted_ms\":%.3f,", 256000 / (tg * w)
				printf "\"predicted_per_second\":%.3f,\"http_status\":200,\"flags\":0", tg * w
				if (nmax)
					printf ",\"draft_n\":%d,\"draft_n_accepted\":%d", 60 * nmax, 60 * nmax * (0.9 - 0.1 * nmax + 0.02 * p)
				printf "}"
			}
		}
		printf "]}\n"
	}
}' >"$tmp/runs.jsonl"
gen_s=$(since "$t0")
t0=$(now)
"$bin" --db "$tmp/store.sqlite" import "$tmp/runs.jsonl" >/dev/null
import_s=$(since "$t0")

# Best of three for both, so a cold page cache does not count.
best() { awk 'BEGIN { m = 1e9 } { if ($1 < m) m = $1 } END { printf "%.3f", m }'; }
for i in 1 2 3; do
	rm -rf "$tmp/out"
	t0=$(now)
	"$bin" --db "$tmp/store.sqlite" report --out "$tmp/out" >/dev/null
	since "$t0"
	echo
done | best >"$tmp/report_s"
ls "$tmp/out"/*.png >/dev/null 2>&1 || { echo "bench_report: the report drew no plots" >&2; exit 1; }
nplots=$(ls "$tmp/out"/*.png | wc -l)
for i in 1 2 3; do
	rm -rf "$tmp/out"
	t0=$(now)
	"$bin" --db "$tmp/store.sqlite" report --out "$tmp/out" --no-plots >/dev/null
	since "$t0"
	echo
done | best >"$tmp/text_s"
for i in 1 2 3; do
	t0=$(now)
	gnuplot -e "exit" </dev/null
	since "$t0"
	echo
done | best >"$tmp/gnuplot_s"

report_s=$(cat "$tmp/report_s")
text_s=$(cat "$tmp/text_s")
gnuplot_s=$(cat "$tmp/gnuplot_s")
samples=$((runs * 6))
echo "store: $runs runs, $samples samples (generate ${gen_s} s, import ${import_s} s)"
echo "tpsdb report --out <dir> with $nplots plots: ${report_s} s (goal <= 2 s)"
echo "tpsdb report --out <dir> --no-plots:       ${text_s} s"
echo "one bare gnuplot start (gnuplot -e exit):  ${gnuplot_s} s"
awk -v r="$report_s" -v g="$gnuplot_s" -v t="$text_s" 'BEGIN {
	printf "report / gnuplot start: %.1fx; plots add %.3f s over the text\n", r / g, r - t }'
awk -v r="$report_s" 'BEGIN { exit !(r <= 2.0) }' || { echo "bench_report: over the 2 s goal" >&2; exit 1; }
