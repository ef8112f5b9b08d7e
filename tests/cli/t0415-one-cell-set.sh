#!/usr/bin/env bash
# t0415-one-cell-set.sh: one cell, one answer. Every command that shows a cell's
# answer reads it through the one cell set: the same pool, centres, interval, level
# and answer, on an --until-decided store and on a store of two batches. Those are
# collect --until-decided's "decided:" lines, compare, gate, sweep, report and plot
# (its parity bars); runs --pooled and baseline set show the pool itself. check,
# plan, trend and calibrate show no answer of a pair (findings, a design, one
# engine's history, an A/A floor) and are not held here (docs/ARCHITECTURE.md).
#  - until-decided (ours 6% slower than up, a base cell and an n_max 1,2 sweep):
#    collect's "decided:" lines, the follow-up compare with no selector, compare
#    --batch, gate against a baseline frozen from up's runs of the batch (at the
#    band as threshold), sweep's gaps, report's verdicts and plot's parity bars
#    (at the per-look level, not 90%) print the same numbers.
#  - two fixed batches tagged t1 and t2: no selector pools the newest batch
#    (batch 1, an earlier batch of the cell on this machine, is history: its round
#    scatter joins the interval unless the F test finds batch 2 louder);
#    --tag t1,t2, --tag t1 --tag t2 and --batch b1,b2 pool both (6 rounds) at the
#    level a second look pays (a 99.2% interval); gate and plot pool the same way.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

common=(--prompts "$PROMPTS" --reps 2 --warmup 0 --n-predict 16 --port "$port" --quiet)
printf 'tiny | %s | --spec-type draft-simple -md %s | 1,2\n' "$MODEL" "$MODEL" >"$T/spec"

# same_rows <compare json> <other json> <jq filter mapping the other's rows to
# compare's fields> <what>: every row of the other has compare's row of the same
# cell and metric with equal numbers.
same_rows() {
	jq -e -n --slurpfile c "$1" --slurpfile o "$2" "
		[\$o[0] | $3] as \$rows | (\$rows | length) > 0 and all(\$rows[];
		. as \$x | [\$c[0].rows[] | select(.metric == \$x.metric and .n_max == \$x.n_max)]
		| length == 1 and (.[0] | .delta_pct == \$x.delta_pct and
		  .ci_lo_pct == \$x.ci_lo_pct and .ci_hi_pct == \$x.ci_hi_pct and
		  .mde_pct == \$x.mde_pct and .instances_ours == \$x.instances_ours and
		  .instances_vs == \$x.instances_vs and
		  ((\$x | has(\"ci_level\") | not) or .ci_level == \$x.ci_level)))" >/dev/null ||
		{ jq -c . "$2" >&2; fail "$4: not compare's numbers"; }
}

# --- an --until-decided batch ---------------------------------------------------
run_tpsdb collect --engine ours="$FS" --engine up="$FS" --ours ours \
	--engine-args "ours=--jitter 0.004 --slow 1.06" --engine-args "up=--jitter 0.004" \
	--spec-manifest "$T/spec" --until-decided --max-rounds 5 "${common[@]}" --out-dir "$OUT/a"
expect_eq "$rc" 0 "until-decided collect: $(cat "$T/stderr")"
b=$(q "SELECT DISTINCT batch FROM run")
grep -c '^decided: ' "$T/stdout" | grep -qx 6 || fail "three cells decided, pp and tg: $(cat "$T/stdout")"
cp "$T/stdout" "$T/collect.out"

# The follow-up to the collect is that collect's answer: no selector pools the batch.
"$TPSDB_BIN" --db "$DB" compare --ours ours --vs up --json >"$T/c.json" || fail "compare"
"$TPSDB_BIN" --db "$DB" compare --ours ours --vs up --batch "$b" --json >"$T/cb.json" ||
	fail "compare --batch"
cmp -s "$T/c.json" "$T/cb.json" || fail "compare without a selector is not the batch's"
jq -e '.rows | length == 6 and all(.[]; .ci_level > 0.9 and .ci_level < 0.99 and .instances_ours >= 3)' \
	"$T/c.json" >/dev/null || fail "the batch's rows at its per-look level: $(cat "$T/c.json")"

# collect's decided lines are compare's rows, figure for figure.
python3 - "$T/collect.out" "$T/c.json" <<'PY' || fail "decided lines against compare"
import json, re, sys
rows = json.load(open(sys.argv[2]))["rows"]
pat = re.compile(r"^decided: tiny(?: draft-simple n_max=(\d+))? (pp|tg) ours vs up: "
                 r"regression (\w+), (\w+) \(([+-][0-9.]+)% \[([+-][0-9.]+)%, ([+-][0-9.]+)%\]\)")
seen = 0
for line in open(sys.argv[1]):
    m = pat.match(line)
    if not m:
        continue
    n_max = int(m.group(1)) if m.group(1) else None
    (r,) = [r for r in rows if r["metric"] == m.group(2) and r["n_max"] == n_max]
    got = (m.group(3), m.group(4), m.group(5), m.group(6), m.group(7))
    want = (r["regression"], r["verdict"], "%+.2f" % r["delta_pct"], "%+.2f" % r["ci_lo_pct"],
            "%+.2f" % r["ci_hi_pct"])
    assert got == want, (line, want)
    seen += 1
assert seen == 6, seen
PY

# gate = compare: a baseline of up's runs of the batch, the threshold the band.
"$TPSDB_BIN" --db "$DB" baseline set up-a --engine up >/dev/null || fail "baseline set"
expect_eq "$(q "SELECT count(*) FROM baseline_run")" \
	"$(q "SELECT count(*) FROM run r JOIN engine e ON e.id=r.engine_id WHERE e.label='up'")" \
	"the baseline freezes the batch of up's runs"
run_tpsdb gate --baseline up-a --engine ours --max-regress 2 --metric pp --metric tg --json
cp "$T/stdout" "$T/g.json"
same_rows "$T/c.json" "$T/g.json" '.cells[] | . + {instances_vs: .instances_vs}' "gate"
jq -e -n --slurpfile c "$T/c.json" --slurpfile g "$T/g.json" '
	all($g[0].cells[]; . as $x | ($c[0].rows[] | select(.metric == $x.metric and
	  .n_max == $x.n_max)) as $r | $x.regression == $r.regression and
	  $x.status == ({"yes": "fail", "no": "pass"}[$r.regression] // "inconclusive"))' \
	>/dev/null || fail "gate's status is compare's answer: $(cat "$T/g.json")"
expect_eq "$rc" 1 "gate fails the 6% regression"

# sweep = compare: a gap is the tg row of its cell.
"$TPSDB_BIN" --db "$DB" sweep --json >"$T/s.json" || [ $? = 1 ] || fail "sweep"
same_rows "$T/c.json" "$T/s.json" \
	'.gaps[] | select(.ours == "ours" and .ref == "up") | {metric: "tg", n_max,
	 delta_pct: .tg_pct, ci_lo_pct, ci_hi_pct, mde_pct, instances_ours,
	 instances_vs: .instances_ref}' "sweep"

# report = compare: the base cell's verdicts (report.json rounds to 0.01).
"$TPSDB_BIN" --db "$DB" report --ref up --format json >"$T/r.json" || fail "report"
jq -e -n --slurpfile c "$T/c.json" --slurpfile r "$T/r.json" '
	def near(a; b): ((a - b) | fabs) < 0.0051;
	[$r[0].base[] | .cells[] | select(.engine == "ours")] as $cells | ($cells | length) == 1 and
	($cells[0] as $x | all($c[0].rows[] | select(.n_max == null);
	  . as $row | $x["verdict_" + $row.metric] as $v | near($v.delta_pct; $row.delta_pct) and
	  near($v.ci_lo_pct; $row.ci_lo_pct) and near($v.ci_hi_pct; $row.ci_hi_pct) and
	  $v.regression == $row.regression and $v.rounds == $row.rounds))' >/dev/null ||
	{ jq -c '.base' "$T/r.json" >&2; fail "report's verdicts are not compare's"; }

# plot = compare: the parity figure's bar of each metric is the base cell's delta
# and interval, at compare's level (a stand-in gnuplot keeps the figure's data).
mkdir -p "$T/bin" "$T/gp"
cat >"$T/bin/gnuplot" <<'SH'
#!/bin/sh
# A stand-in gnuplot: keeps the figure's script and data files, draws a stub.
cp "$(dirname "$1")"/*.gp "$(dirname "$1")"/*.dat "$GP_KEEP/"
sed -n "s/^set output '\(.*\)'$/\1/p" "$1" | while IFS= read -r o; do echo fig >"$o"; done
SH
chmod +x "$T/bin/gnuplot"
# plot_same <compare json> <what> [plot options]: each metric's parity bar of ours
# against up is compare's base row of that metric, to the data file's 6 decimals.
plot_same() {
	local c=$1 what=$2 m
	shift 2
	for m in pp tg; do
		rm -f "$T/gp/"*
		GP_KEEP="$T/gp" PATH="$T/bin:$PATH" "$TPSDB_BIN" --db "$DB" plot parity \
			--metric "$m" --out "$T/p.svg" "$@" >/dev/null || fail "$what: plot parity $m"
		python3 - "$c" "$T/gp" "$m" <<'PY' || fail "$what: plot's $m bar is not compare's"
import glob, json, os, sys
row, = [r for r in json.load(open(sys.argv[1]))["rows"]
        if r["metric"] == sys.argv[3] and r["n_max"] is None]
gp = open(os.path.join(sys.argv[2], "plot.gp")).read()
assert "(0 clipped)" in gp, gp
# One bar, ours against up, labelled so; its interval at compare's level.
(dat,) = glob.glob(os.path.join(sys.argv[2], "f*_s1.dat"))
lines = open(dat).read().splitlines()
assert lines[0].split("\t")[1] == "ours vs up" and len(lines) == 2, lines
x, delta, lo, hi = (float(v) for v in lines[1].split("\t"))
want = (row["delta_pct"], row["ci_lo_pct"], row["ci_hi_pct"])
assert all(abs(a - b) < 5e-7 for a, b in zip((delta, lo, hi), want)), ((delta, lo, hi), want)
assert "%.3g%% interval" % (100 * row["ci_level"]) in gp, (row["ci_level"], gp)
PY
	done
}
plot_same "$T/c.json" "until-decided"

# --- two fixed batches ----------------------------------------------------------
rm -f "$DB" "$DB"-wal "$DB"-shm
for t in t1 t2; do
	run_tpsdb collect --engine ours="$FS" --engine up="$FS" --ours ours \
		--engine-args "ours=--jitter 0.004 --slow 1.01" --engine-args "up=--jitter 0.004" \
		--model tiny="$MODEL" --rounds 3 --tag "$t" "${common[@]}" --out-dir "$OUT/$t"
	expect_eq "$rc" 0 "collect $t: $(cat "$T/stderr")"
done
b1=$(q "SELECT DISTINCT batch FROM run WHERE tag='t1'")
b2=$(q "SELECT DISTINCT batch FROM run WHERE tag='t2'")
# runs --pooled lists what the commands pool: the newest batch, or both.
expect_eq "$("$TPSDB_BIN" --db "$DB" runs --pooled --json | jq -r '[.[].batch] | unique | join(",")')" \
	"$b2" "runs --pooled: the newest batch"
expect_eq "$("$TPSDB_BIN" --db "$DB" runs --pooled --tag t1,t2 --json | jq length)" 12 \
	"runs --pooled --tag t1,t2: both batches"
cmpj() { "$TPSDB_BIN" --db "$DB" compare --ours ours --vs up --json "$@"; }
cmpj >"$T/none.json" && cmpj --batch "$b2" >"$T/b2.json" || fail "compare"
jq -e -n --slurpfile n "$T/none.json" --slurpfile b "$T/b2.json" '
	def strip: del(.ci_lo_pct, .ci_hi_pct, .mde_pct, .history, .hist_batches, .hist_df,
		      .scatter_source, .round_scatter_pct, .decided, .significant, .regression,
		      .verdict);
	($n[0].rows | length) == ($b[0].rows | length) and
	([$n[0].rows[] | strip] == [$b[0].rows[] | strip]) and
	all($b[0].rows[]; .history == "none" and .hist_batches == 0) and
	all($n[0].rows[]; .history != "none" and .hist_batches == 1 and .hist_df == 2 and
	    .ci_lo_pct < .delta_pct and .delta_pct < .ci_hi_pct)' >/dev/null ||
	fail "no selector: not the newest batch with batch 1 as history: $(diff "$T/none.json" "$T/b2.json")"
jq -e 'all(.rows[]; .rounds == 3 and .ci_level == 0.9)' "$T/none.json" >/dev/null ||
	fail "one fixed batch: 3 rounds at 90%"
cmpj --tag t1,t2 >"$T/tags.json" && cmpj --tag t1 --tag t2 >"$T/tags2.json" &&
	cmpj --batch "$b1,$b2" >"$T/batches.json" || fail "compare of both batches"
cmp -s "$T/tags.json" "$T/tags2.json" || fail "--tag t1,t2 and --tag t1 --tag t2 differ"
cmp -s "$T/tags.json" "$T/batches.json" || fail "--tag t1,t2 and --batch b1,b2 differ"
jq -e 'all(.rows[]; .rounds == 6 and .instances_ours == 6 and .ci_level > 0.99 and
	.ci_level < 0.995)' "$T/tags.json" >/dev/null ||
	fail "two batches pooled: 6 rounds, at the level of a second look: $(cat "$T/tags.json")"
# plot pools as compare does: the newest batch with batch 1 as history, or both.
plot_same "$T/none.json" "no selector"
plot_same "$T/tags.json" "--tag t1,t2" --tag t1,t2
# gate pools both sides the same way and prints compare's numbers.
"$TPSDB_BIN" --db "$DB" baseline set up-both --engine up --tag t1,t2 >/dev/null || fail "baseline"
run_tpsdb gate --baseline up-both --engine ours --tag t1,t2 --max-regress 2 --json
cp "$T/stdout" "$T/g2.json"
same_rows "$T/tags.json" "$T/g2.json" '.cells[]' "gate of two batches"
exit 0
