#!/usr/bin/env bash
# t0520: without --ref the report answers the question 'tpsdb compare --ours ours
# --vs <engine>' answers, for ours against every other engine: three engines (ours
# of role ours, llama.cpp and stock of role other, no upstream engine), two models,
# three instances a side. Each other engine's base cell holds ours' verdicts
# against it, the very rows compare prints (delta, interval, regression); the
# markdown leads with one answer line per other engine, compare's own line; the
# report folder draws prefill beside decode (trend-pp and parity-pp, linked from
# report.md and index.html). A spoiled cell (an instance measured on a busy host)
# reads "spoiled (host-busy)" in every format, and the parity figure draws no bar
# for it and says why.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
need gnuplot python3

# dense-8b: ours within 1% of llama.cpp, stock half its prefill (moe-stock's
# numbers under this model's name: the same prompts, so comparable). moe-30b: ours
# decodes 6.5% slower than llama.cpp.
imp_rounds ours ours dense-8b dense-ours --tag v1
imp_rounds llama.cpp other dense-8b dense-llamacpp --tag v1
imp_rounds stock other dense-8b moe-stock --tag v1
imp_rounds ours ours moe-30b gate-moe-v2 --tag v1
imp_rounds llama.cpp other moe-30b moe-llamacpp --tag v1
imp_rounds stock other moe-30b moe-stock --tag v1 --allow-duplicate

# --- the verdicts are compare's rows ------------------------------------------
tps report --format json
expect_rc 0 "report --format json"
cp "$TMP/out" "$TMP/r.json"
check '.reference == null and .ours == "ours"' "ours is judged, no reference"
check '[.engines[].label] == ["ours", "llama.cpp", "stock"]' "the columns"
check 'all(.base[].cells[] | select(.engine == "ours"); .verdict_pp == null and .verdict_tg == null)' \
	"ours' own cells hold no verdict"
# The answers the data holds: ours decodes moe-30b slower than llama.cpp (decided),
# and is twice stock's prefill.
check '.base[] | select(.model == "moe-30b") | .cells[] | select(.engine == "llama.cpp") |
	.verdict_tg.regression == "yes" and .verdict_tg.verdict == "slower"' "moe-30b tg regression"
check '.base[] | select(.model == "dense-8b") | .cells[] | select(.engine == "stock") |
	.verdict_pp.verdict == "faster" and .verdict_pp.delta_pct > 90' "twice stock's prefill"
for x in llama.cpp stock; do
	tps compare --ours ours --vs "$x" --json
	expect_rc 0 "compare --ours ours --vs $x"
	cp "$TMP/out" "$TMP/c-$x.json"
	jq -e -n --arg x "$x" --slurpfile c "$TMP/c-$x.json" --slurpfile r "$TMP/r.json" '
		def near(a; b): ((a - b) | fabs) < 0.0051;
		($c[0].rows | map(select(.n_max == null))) as $rows |
		[$r[0].base[] | .model as $m | .cells[] | select(.engine == $x) | {m: $m, c: .}] as $cells |
		($rows | length) == 4 and ($cells | length) == 2 and
		all($rows[]; . as $w | ($cells[] | select(.m == $w.model) | .c["verdict_" + $w.metric]) as $v |
			$v.ours == "ours" and $v.vs == $x and
			near($v.delta_pct; $w.delta_pct) and near($v.ci_lo_pct; $w.ci_lo_pct) and
			near($v.ci_hi_pct; $w.ci_hi_pct) and $v.regression == $w.regression and
			$v.verdict == $w.verdict and $v.rounds == $w.rounds) and
		all($cells[]; . as $k | ($rows | map(select(.model == $k.m and .metric == "pp")) |
			length) == 1 and near($k.c.pp; ($rows[] | select(.model == $k.m and .metric == "pp") |
			.vs_median)))' >/dev/null ||
		{ jq -c '.base' "$TMP/r.json" >&2; jq -c '.rows' "$TMP/c-$x.json" >&2;
		  fail "the report's verdicts against $x are not compare's"; }
done

# --- one answer line per other engine, compare's own ---------------------------
tps report --no-plots
expect_rc 0 "report"
cp "$TMP/out" "$TMP/r.md"
[ "$(grep -c '^\*\*ours vs ' "$TMP/r.md")" = 2 ] || { cat "$TMP/r.md" >&2; fail "two answer lines"; }
# The markdown escapes the interval's brackets.
sed 's/\\\([][]\)/\1/g' "$TMP/r.md" >"$TMP/r.plain"
for x in llama.cpp stock; do
	tps compare --ours ours --vs "$x"
	line=$(sed -n 1p "$TMP/out")
	case $line in "ours vs $x: "*) ;; *) fail "compare's answer: $line" ;; esac
	grep -qxF "**$line**" "$TMP/r.plain" || { cat "$TMP/r.md" >&2; fail "the answer against $x is not compare's: $line"; }
done
grep -q '^\*\*ours vs llama.cpp: .*1 regression (moe-30b -6\.' "$TMP/r.md" || fail "the regression named"
grep -q '^| dense-8b | [0-9]* / [0-9.]* (ours) | [0-9]* / [0-9.]* (ours: parity / parity) | ' "$TMP/r.md" ||
	fail "the cells of dense-8b"
grep -q 'No --ref: ours (the engine of role ours, else the first column) is compared with every other engine' \
	"$TMP/r.md" || fail "the legend says whose verdicts"

# --- prefill figures beside decode ---------------------------------------------
tps report --out "$TMP/rep"
expect_rc 0 "report --out"
for f in trend trend-pp parity parity-pp; do
	[ -s "$TMP/rep/$f.png" ] || fail "no $f.png"
	head -c 8 "$TMP/rep/$f.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "$f.png: not a PNG"
	grep -qF "($f.png)" "$TMP/rep/report.md" || fail "report.md does not link $f.png"
done
grep -qF '![trend of prefill tok/s](trend-pp.png)' "$TMP/rep/report.md" || fail "the prefill trend's caption"
grep -qF '![parity deltas of prefill (pp)](parity-pp.png)' "$TMP/rep/report.md" || fail "the prefill parity's caption"
tps report --format html --out "$TMP/html"
expect_rc 0 "report --format html"
for f in trend-pp parity-pp; do
	[ -s "$TMP/html/$f.svg" ] || fail "no $f.svg"
	grep -qF "<img src=\"$f.svg\"" "$TMP/html/index.html" || fail "index.html does not link $f.svg"
done
grep -q 'prefill tok/s (pp) of [a-z0-9-]*, base: median per run' "$TMP/html/trend-pp.svg" || fail "the prefill trend"
grep -q '>ours vs stock<' "$TMP/html/parity-pp.svg" || fail "the pp bars name their comparison"
grep -q '>ours vs llama.cpp<' "$TMP/html/parity-pp.svg" || fail "the pp bars name their comparison"
# plot parity without --ref: the same bars.
tps plot parity --metric pp --out "$TMP/p.svg"
expect_rc 0 "plot parity --metric pp"
grep -q '>ours vs stock<' "$TMP/p.svg" || fail "plot parity: ours against stock"

# --- a spoiled cell --------------------------------------------------------------
# The report fixture with stock-llamafile's q35 run measured on a busy host
# (env_flags 1, host-busy, as collect stores it): ours against it is spoiled,
# ours against llama.cpp is not.
export TPSDB_DB=$TMP/spoiled.sqlite
python3 - "$TPSDB_TEST_DATA/report/study.jsonl" >"$TMP/spoiled.jsonl" <<'PY' || fail "fixture"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["run"]["uuid"] == "00000000-0000-4000-8000-000000000003":
        r["run"]["env_flags"] = 1
    print(json.dumps(r))
PY
"$TPSDB_BIN" import "$TMP/spoiled.jsonl" >/dev/null 2>&1 || fail "import of the spoiled fixture"
tps report --no-plots
expect_rc 0 "report of a spoiled cell"
cp "$TMP/out" "$TMP/s.md"
grep -qF '| q35 | 13157 / 142.7 (ours) | 11806 / 120.5 (ours: spoiled (host-busy) / spoiled (host-busy)) | 13107 / 143.0 (ours: +0.4% undecided / -0.2% undecided) |' \
	"$TMP/s.md" || { cat "$TMP/s.md" >&2; fail "md: the spoiled cell"; }
grep -q '^\*\*ours vs stock-llamafile: pp 1 spoiled (host-busy); tg 1 spoiled (host-busy)\*\*$' "$TMP/s.md" ||
	fail "md: the answer counts it"
grep -q '^"spoiled (<findings>)": an instance the estimate used' "$TMP/s.md" || fail "md: the legend says what spoiled is"
tps report --format json
expect_rc 0 "report --format json of a spoiled cell"
check '.base[] | select(.model == "q35") | .cells[] | select(.engine == "stock-llamafile") |
	.verdict_pp.verdict == "spoiled" and .verdict_tg.verdict == "spoiled" and
	.verdict_tg.regression == "spoiled" and .verdict_tg.spoiled == ["host-busy"] and
	.verdict_tg.vs == "stock-llamafile"' "json: spoiled with its finding"
check '.base[] | select(.model == "q35") | .cells[] | select(.engine == "llama.cpp") |
	.verdict_tg.verdict == "undecided" and .verdict_tg.spoiled == null' "json: the other comparison is clean"
tps report --format csv
expect_rc 0 "report --format csv of a spoiled cell"
grep -q '^base,q35,completion,,stock-llamafile,,,tg,120.47,spoiled,spoiled,.*,ours vs stock-llamafile: spoiled (host-busy)$' \
	"$TMP/out" || fail "csv: spoiled with its finding"
tps report --format html --out "$TMP/shtml"
expect_rc 0 "report --format html of a spoiled cell"
grep -qF '(ours: spoiled (host-busy) / spoiled (host-busy))' "$TMP/shtml/index.html" || fail "html: the spoiled cell"
for f in parity parity-pp; do
	grep -q 'no bar: 1 spoiled cell (host-busy while an instance it used measured)' "$TMP/shtml/$f.svg" ||
		fail "$f.svg does not say why a bar is missing"
	grep -q '>ours vs stock-llamafile<' "$TMP/shtml/$f.svg" && fail "$f.svg draws the spoiled bar"
	grep -q '>ours vs llama.cpp<' "$TMP/shtml/$f.svg" || fail "$f.svg lacks the clean bar"
done
exit 0
