#!/usr/bin/env bash
# t1041-compare-aa-floor.sh: issue 41. One binary under two labels (an A/A pair:
# the same fault server, the same arguments), 3 rounds of the base and n_max 1, 2,
# 3, each start scaled by a seeded factor within +-10% (--jitter 0.10; the seeds
# are chosen so that at n_max 2 and 3 the three round ratios agree by chance:
# +8% and -6%, while each label's instances there spread by 3-8%). The rounds
# alone (2 degrees of freedom) would decide both as differences: "faster" at
# n_max 2, "regression yes" at n_max 3 (checked here from the stored values).
# The round scatter an estimate uses is never smaller than the instances' own
# spread, so compare answers no A/A cell as a difference (JSON scatter_source
# "instances" on those cells, and the text says so), sweep prints no decided
# gap, and gate passes or stays inconclusive. After calibrate stores the pair's
# floors, still no difference.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

printf 'tiny | %s | --spec-type draft-simple -md %s | 1,2,3\n' "$MODEL" "$MODEL" >"$T/spec"
echo 287 >"$T/seed-ours"
echo 299 >"$T/seed-aa"
run_tpsdb collect --engine ours="$FS" --engine aa="$FS" --ours ours \
	--engine-args "ours=--jitter 0.10 --seed-file $T/seed-ours" \
	--engine-args "aa=--jitter 0.10 --seed-file $T/seed-aa" \
	--spec-manifest "$T/spec" --rounds 3 --prompts "$PROMPTS" --reps 1 --warmup 0 \
	--n-predict 16 --port "$port" --quiet --out-dir "$OUT/a"
expect_eq "$rc" 0 "collect: $(cat "$T/stderr")"

# The store's shape: the rounds alone, a t interval on the round log ratios (each
# start-order group at half weight, as estimate.c does), decide n_max 2 faster
# and n_max 3 slower with regression yes.
q "SELECT e.label, COALESCE(r.n_max, 0), r.round, r.started_at, s.predicted_per_second
   FROM run r JOIN engine e ON e.id = r.engine_id JOIN sample s ON s.run_id = r.id
   WHERE s.predicted_per_second > 0" >"$T/values"
python3 - "$T/values" <<'PY' || fail "the store has not the issue's shape"
import collections, math, statistics, sys
runs = collections.defaultdict(list)
start = {}
for line in open(sys.argv[1]):
    label, n_max, rnd, t, v = line.rstrip("\n").split("|")
    runs[(label, int(n_max), int(rnd))].append(math.log(float(v)))
    start[(label, int(n_max), int(rnd))] = t
T2 = 2.919985580355516  # t(0.95, 2 df)
alone = {}
for n_max in (0, 1, 2, 3):
    d, g1, g2, a, b = [], [], [], [], []
    for rnd in (1, 2, 3):
        lo = statistics.mean(runs[("ours", n_max, rnd)])
        lv = statistics.mean(runs[("aa", n_max, rnd)])
        d.append(lo - lv)
        a.append(lo)
        b.append(lv)
        (g1 if start[("ours", n_max, rnd)] < start[("aa", n_max, rnd)] else g2).append(lo - lv)
    m = (statistics.mean(g1) + statistics.mean(g2)) / 2
    half = T2 * statistics.stdev(d) * 0.5 * math.sqrt(1 / len(g1) + 1 / len(g2))
    alone[n_max] = (100 * math.expm1(m - half), 100 * math.expm1(m + half))
    spread = math.sqrt(statistics.variance(a) + statistics.variance(b))
    print("n_max %d: rounds alone [%+.2f%%, %+.2f%%], instance spread %.2f%%"
          % (n_max, alone[n_max][0], alone[n_max][1], 100 * spread), file=sys.stderr)
assert alone[2][0] > 2, alone[2]   # "faster", decided by the rounds alone
assert alone[3][1] < -2, alone[3]  # "regression yes"
PY

# compare: no A/A cell is a difference; the two cells say what widened them.
run_tpsdb compare --ours ours --vs aa --json
expect_eq "$rc" 0 "compare: $(cat "$T/stderr")"
cp "$T/stdout" "$T/c.json"
jq -e '.rows | length == 8 and all(.[]; .regression != "yes" and .verdict != "faster" and
	.verdict != "slower" and .method == "rounds" and .scatter_source != null and
	.round_scatter_pct > 0)' "$T/c.json" >/dev/null ||
	fail "an A/A cell answered as a difference: $(jq -c '.rows[] | [.n_max, .metric, .regression, .verdict, .ci_lo_pct, .ci_hi_pct, .scatter_source]' "$T/c.json")"
jq -e '[.rows[] | select(.metric == "tg" and (.n_max == 2 or .n_max == 3))] | length == 2 and
	all(.[]; .scatter_source == "instances" and .round_scatter_pct > 3 and .decided == false)' \
	"$T/c.json" >/dev/null || fail "n_max 2, 3: scatter from the instances: $(cat "$T/c.json")"
run_tpsdb compare --ours ours --vs aa --metric tg
expect_eq "$rc" 0 "compare text"
grep -q "tiny \[draft-simple n_max=3\] tg: regression undecided: .*its round scatter raised to [0-9.]*% by the spread of each side's instances" \
	"$T/stdout" || fail "the answer says what widened it: $(cat "$T/stdout")"

# sweep: no decided gap, and no side or cause named.
run_tpsdb sweep --ref aa --json
expect_eq "$rc" 0 "sweep --json: $(cat "$T/stderr")"
jq -e '.gaps | length >= 4 and all(.[]; .decided == false)' "$T/stdout" >/dev/null ||
	fail "a decided gap: $(jq -c '.gaps' "$T/stdout")"
run_tpsdb sweep --ref aa
expect_eq "$rc" 0 "sweep: $(cat "$T/stderr")"
if grep -Eq "decodes [0-9.]+% (faster|slower)|decodes on par|each cycle costs|not the drafter" "$T/stdout"; then
	fail "sweep states an undecided gap as a finding: $(cat "$T/stdout")"
fi
grep -q "ours against aa decode at n_max=2: .*decides neither a gap" "$T/stdout" ||
	fail "sweep's n_max 2 gap, undecided: $(cat "$T/stdout")"

# With the pair's stored A/A floors (calibrate), still no difference.
run_tpsdb calibrate
expect_eq "$rc" 0 "calibrate: $(cat "$T/stderr")"
run_tpsdb compare --ours ours --vs aa --json
expect_eq "$rc" 0 "compare after calibrate"
jq -e '.rows | all(.[]; .regression != "yes" and .verdict != "faster" and .verdict != "slower")' \
	"$T/stdout" >/dev/null || fail "after calibrate: $(cat "$T/stdout")"
echo ok
