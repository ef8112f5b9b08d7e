#!/usr/bin/env bash
# t0390-collect-real-llama.sh: the collector against a real llama-server (built on
# CPU by scripts/llama-server.sh, cached; the first build takes minutes) and a tiny
# random-weight model (scripts/tiny-model.sh): an A/A pair of engines, base plus an
# n_max 1,2,3 draft-simple sweep, two reps; then what landed in the store.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

real_llama
# Started through a link in $T, so this test's servers are told apart from those
# of another run of it; the engine's sha256 is still the real binary's.
L=$T/llama-server
ln -s "$dir/bin/llama-server" "$L"
"$L" --help 2>&1 | grep -q -- '--spec-draft-n-max' || fail "llama-server lacks --spec-draft-n-max"
"$L" --help 2>&1 | grep -q -- 'draft-simple' || fail "llama-server lacks --spec-type draft-simple"

printf '# the A/A sweep\ntiny | %s | --spec-type draft-simple -md %s | 1,2,3\n' "$tiny" \
	"$tiny" >"$T/spec"
run_tpsdb collect --engine ours="$L" --engine llama.cpp="$L" --ours ours \
	--spec-manifest "$T/spec" --reps 2 --port "$port" --out-dir "$OUT" --ban-byte-tokens \
	--tag t0390
cat "$T/stdout"
[ "$rc" = 0 ] || { tail -n 20 "$T/stderr" >&2; fail "exit status $rc"; }
if pgrep -f "^$L --host " >/dev/null; then
	fail "a llama-server outlived tpsdb"
fi

expect_eq "$(q "SELECT count(*) FROM run WHERE status='complete' AND tag='t0390'")" 8 "runs"
expect_eq "$(q "SELECT group_concat(ifnull(n_max, 'base'), ',') FROM (SELECT n_max FROM run
	ORDER BY id)")" "base,1,2,3,base,1,2,3" "matrix order"
expect_eq "$(q "SELECT group_concat(label || ':' || role, ' ') FROM engine")" \
	"ours:ours llama.cpp:upstream" "engine rows"
expect_eq "$(q "SELECT count(DISTINCT sha256) || ' ' || count(DISTINCT version) FROM engine")" \
	"1 1" "A/A: one binary"
expect_eq "$(q "SELECT sha256 FROM engine LIMIT 1")" \
	"$(sha256sum "$dir/bin/llama-server" | cut -c1-64)" "engine sha256"
expect_match "$(q "SELECT version FROM engine LIMIT 1")" '^b[0-9]+-[0-9a-f]+$' "build_info"
expect_eq "$(q "SELECT file || '|' || bytes || '|' || quant || '|' || sha256 FROM model")" \
	"$(basename "$tiny")|$(stat -c %s "$tiny")|F16|$(sha256sum "$tiny" | cut -c1-64)" "model row"
expect_eq "$(q "SELECT count(*) FROM host")" 1 "host rows"
expect_eq "$(q "SELECT count(*) FROM run WHERE n_max IS NOT NULL AND spec_type='draft-simple'
	AND drafter='$(basename "$tiny")' AND extra_args LIKE '%--spec-draft-n-max ' || n_max")" \
	6 "spec runs"

# 8 runs x 9 prompts x 2 reps, all good: long prompts, full decodes, no flags.
expect_eq "$(q "SELECT count(*) FROM sample")" 144 "samples"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL AND http_status=200
	AND prompt_n >= 1700 AND predicted_n = 512 AND cache_n = 0 AND flags = 0
	AND seq >= 1")" 144 "good samples"
expect_eq "$(q "SELECT count(*) FROM sample WHERE http_status=500")" 0 "HTTP 500s"
expect_eq "$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id
	WHERE r.n_max IS NOT NULL AND s.draft_n > 0 AND s.draft_n_accepted <= s.draft_n")" 108 \
	"draft_n on spec runs"
expect_eq "$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id
	WHERE r.n_max IS NULL AND s.draft_n IS NOT NULL")" 0 "no draft_n on base runs"
expect_eq "$(q "SELECT count(*) FROM prompt WHERE n_tokens >= 1700")" 9 "prompt rows"
for f in $(q "SELECT log_path FROM run"); do
	[ -s "$f" ] || fail "log '$f' is missing"
done
expect_eq "$(grep -c '  complete  ' "$OUT/summary.txt")" 8 "summary rows"
expect_eq "$(grep -Ec ' [0-9.]+%$' "$OUT/summary.txt")" 6 "acceptance on spec rows"

# The analyzers over real-engine data: compare, sweep and report read this store,
# give the cells it holds (model tiny: the base and n_max 1, 2, 3 of draft-simple)
# and print JSON that parses.
run_tpsdb compare --ours ours --vs llama.cpp --json
[ "$rc" = 0 ] || { cat "$T/stderr" >&2; fail "compare: exit $rc"; }
python3 - "$T/stdout" <<'PY' || fail "compare --json"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
cells = sorted({(r["model"], r["n_max"] or 0) for r in rows})
assert cells == [("tiny", 0), ("tiny", 1), ("tiny", 2), ("tiny", 3)], cells
assert all(r["n_pairs"] > 0 and r["ours_median"] > 0 and r["vs_median"] > 0 for r in rows), rows
PY
# sweep exits 1 when it finds a violation: the drafter here is as large as the
# model, so on two busy CPU cores a rung may decode slower than the one below it.
# Either way the exit code and the JSON must agree.
run_tpsdb sweep --json
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat "$T/stderr" >&2; fail "sweep: exit $rc"; }
python3 - "$T/stdout" "$rc" <<'PY' || fail "sweep --json"
import json, sys
series = json.load(open(sys.argv[1]))["series"]
got = sorted((s["engine"], s["model"], s["spec_type"]) for s in series)
assert got == [("llama.cpp", "tiny", "draft-simple"), ("ours", "tiny", "draft-simple")], got
for s in series:
    assert sorted(p["n_max"] or 0 for p in s["points"]) == [0, 1, 2, 3], s["points"]
    assert all(p["tg"] > 0 for p in s["points"]), s["points"]
    # monotone is true, false, or null while only undecided dips stand (README).
    decided = any(v["decided"] for v in s["violations"])
    want = False if decided else (None if s["violations"] else True)
    assert s["monotone"] is want, s
    assert s["monotonicity"] == {True: "monotone", False: "not-monotone", None: "undecided"}[want], s
assert (sys.argv[2] == "1") == any(s["monotone"] is False for s in series), series
PY
run_tpsdb report --out "$T/rep" --no-plots
[ "$rc" = 0 ] || { cat "$T/stderr" >&2; fail "report: exit $rc"; }
grep -q '^| tiny |' "$T/rep/report.md" || fail "report.md has no row for model tiny"
run_tpsdb report --format json --no-plots
[ "$rc" = 0 ] || { cat "$T/stderr" >&2; fail "report --format json: exit $rc"; }
python3 - "$T/stdout" <<'PY' || fail "report --format json"
import json, sys
d = json.load(open(sys.argv[1]))
assert [b["model"] for b in d["base"]] == ["tiny"], d["base"]
assert len(d["runs"]) == 8, len(d["runs"])
PY
echo ok
