#!/usr/bin/env bash
# t0435: sweep pools every run of a rung. Three instances per rung of ours and
# llama.cpp (tag r, tests/data/sweep-pooled/gen.py); an older run of ours under
# another tag is not pooled. Each rung carries a 90% interval across its runs,
# and the k-th runs of two rungs pair as a round. The same 6% fall from n_max=2
# to 3 is a violation for ours (tight rounds: exit 1) and undecided for llama.cpp
# (rounds that scatter: reported, exit 0 alone). A gap the runs decide keeps its
# explanation; one they do not names no side and no cause, only its interval and
# mde. --format md shows the same.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
FIX=$TPSDB_TEST_DATA/sweep-pooled

imp_rung() { # <engine> <role> <file stem> [n_max]
	local e=$1 r=$2 stem=$3 n=${4:-} k
	for k in 1 2 3; do
		if [ -n "$n" ]; then
			imp "$e" "$r" m7b "$stem-$k.jsonl" --tag r --spec-type draft-simple --n-max "$n"
		else
			imp "$e" "$r" m7b "$stem-$k.jsonl" --tag r
		fi
	done
}
imp ours ours m7b ours-n3-old.jsonl --tag old --spec-type draft-simple --n-max 3
for e in ours llama; do
	role=ours label=ours
	[ "$e" = llama ] && role=upstream label=llama.cpp
	imp_rung "$label" "$role" "$e-base"
	for n in 1 2 3; do
		imp_rung "$label" "$role" "$e-n$n" "$n"
	done
done

tps sweep --json
expect_rc 1 "a decided violation fails the check"
check '[.series[] | .engine] == ["llama.cpp","ours"]' "two series"
check 'all(.series[].points[]; .instances == 3 and .n_samples == 18)' "three runs pooled per rung, the old tag left out"
check '.series[1].points[3].tg > 168 and .series[1].points[3].tg < 170' "ours n_max=3: the pooled runs, not the old one"
check 'all(.series[].points[]; .tg_ci_lo < .tg and .tg < .tg_ci_hi and .mde_pct > 0)' "an interval per rung"
check 'all(.series[1].points[]; .mde_pct < 1)' "tight instances: mde under 1%"
check '.series[0].points[3].mde_pct > 10' "scattered instances: a wide interval"
check 'all(.series[].points[1:][]; .accept_ci_lo < .accept and .accept < .accept_ci_hi)' "acceptance interval"
check '.series[0].points[0].accept_ci_lo == null' "the base has no acceptance"
# ours: decided.
check '.series[1].monotone == false and (.series[1].violations | length) == 1' "ours not monotone"
check '.series[1].violations[0] | .from == 2 and .to == 3 and .decided == true and .drop_pct > 5.9 and .drop_pct < 6.1 and .ci_hi_pct < -5 and .ci_lo_pct > -7' "ours: a decided violation"
# llama.cpp: the same fall, undecided.
check '.series[0].monotone == null and .series[0].monotonicity == "undecided" and (.series[0].violations | length) == 1' "llama.cpp: reported, its shape undecided (never monotone)"
check '.series[1].monotonicity == "not-monotone"' "ours: not monotone"
check '.series[0].violations[0] | .decided == false and .drop_pct > 5.9 and .drop_pct < 6.1 and .ci_lo_pct < -5 and .ci_hi_pct > -5 and .rounds == 3' "llama.cpp: undecided"
# Gaps.
check '.gaps[] | select(.n_max == 1) | .decided == true and .tg_pct > 7.5 and .ci_lo_pct > 1 and (.explain | test("^ours decodes 8\\.[0-9]% faster than llama.cpp at n_max=1: .*cheaper cycles, not the drafter$"))' "n_max=1: decided, explained"
check '.gaps[] | select(.n_max == 3) | .decided == false and .mde_pct > 5 and .instances_ours == 3 and .instances_ref == 3' "n_max=3: undecided"
check '.gaps[] | select(.n_max == 3) | .explain | test("^ours against llama.cpp decode at n_max=3: [-+][0-9.]+%, interval [-+][0-9.]+% to [-+][0-9.]+%, decides neither a gap beyond 1\\.0% nor parity within it \\(mde [0-9]+\\.[0-9]%\\)$")' "undecided gap sentence"
check '.gaps[] | select(.n_max == 3) | (.explain | capture("mde (?<m>[0-9.]+)%").m | tonumber) as $m | ($m - .mde_pct | fabs) < 0.051' "the sentence gives its mde"
check '.gaps[] | select(.n_max == 3) | (.explain | capture("n_max=3: (?<d>[-+][0-9.]+)%").d | tonumber) as $d | ($d - .tg_pct | fabs) < 0.051' "and the figure the JSON gives"
check '[.gaps[] | select(.decided == false) | .explain | test("faster|slower|drafter|cost")] | all(. == false)' "undecided gaps state nothing undecided"

tps sweep
expect_rc 1 "text"
grep -q '^  VIOLATION: tg falls 6\.0% from n_max=2 to n_max=3 (tolerance 5%; 90% interval -[0-9.]*% to -[0-9.]*%)$' "$TMP/out" || fail "violation line"
grep -q '^  undecided: tg falls 6\.0% from n_max=2 to n_max=3, but its 90% interval .* holds -5%' "$TMP/out" || fail "undecided line"
grep -q '^  n_max .* runs  *tg 90% interval  *mde  *run  *status$' "$TMP/out" || fail "interval columns"
grep -q 'ours against llama.cpp decode at n_max=3: .* decides neither' "$TMP/out" || fail "gap line"
grep -q '^llama\.cpp .*  shape undecided$' "$TMP/out" || fail "llama.cpp's heading: shape undecided"
grep -q '^ours .*  NOT MONOTONE$' "$TMP/out" || fail "ours' heading"

# Markdown of the pooled rungs: the columns of the text (each rung's count of
# runs, the 90% interval of its decode speed, its newest run); only the decided fall is bold, the
# undecided dip is plain and counted apart, and the exit code is the text form's.
. "$TPSDB_SRC/tests/cli/md-lib.sh"
tps sweep --format md
expect_rc 1 "md"
md_rows "$TMP/out" 13
[ "$(grep -c '^| .* |  *3 | [0-9.]*-[0-9.]*  *| .* | [0-9a-f-]\{36\} | ' "$TMP/out")" = 8 ] ||
	fail "md: eight pooled rungs with their interval"
[ "$(grep -c '| \*\*falls -6\.0%\*\*  *|$' "$TMP/out")" = 1 ] || fail "md: the decided fall in bold"
[ "$(grep -c '| undecided -6\.0% (90% interval -[0-9.]*% to [-+][0-9.]*%)  *|$' "$TMP/out")" = 1 ] ||
	fail "md: the undecided dip plain"
grep -q '^\*\*FAIL\*\*: 1 violation ' "$TMP/out" || fail "md: one decided violation"
grep -q '^1 undecided dip: ' "$TMP/out" || fail "md: the undecided dip counted"

tps sweep --engine llama.cpp --json
expect_rc 0 "an undecided dip fails nothing"
check '.series[0].violations[0].decided == false' "reported"

# --tag old: that run alone, the old single-run rule (instances 1, no interval).
tps sweep --tag old --json
expect_rc 0 "--tag old"
check '.series[0].points == [.series[0].points[0]] and .series[0].points[0].instances == 1 and .series[0].points[0].tg_ci_lo == null and .series[0].points[0].mde_pct == null' "one run: instances 1, interval null"

# --batch: imported runs carry none, so no batch of that name is known.
tps sweep --batch b1
expect_rc 3 "--batch selects no run"
grep -q "^tpsdb: error: --batch 'b1': no batch of that name in the store (it holds none)$" \
	"$TMP/err" || fail "--batch error: $(cat "$TMP/err")"
tps sweep --batch ''
expect_rc 2 "--batch ''"
exit 0
