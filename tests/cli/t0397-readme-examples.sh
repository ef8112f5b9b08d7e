#!/usr/bin/env bash
# t0397-readme-examples.sh: the README's examples run as written. The CI gate snippet
# (the sh block after '<!-- readme-example: ci-gate') runs line for line against the
# real CPU llama-server on the tests' tiny model: ./llama-server is a link to it and
# /opt/upstream/llama-server, the one path the test cannot make, is replaced by the
# same binary; models.txt names the tiny model and spec.txt holds no line (a sweep
# would take the suite's time). Every command ends as the README says (gate 0, or 1
# on a failure), the batch decides nothing wrongly, gate.xml is written. The
# llama-bench example's output block ('<!-- readme-example: llama-bench') is what the
# current binary prints for tests/data/llama-bench/ (master = lb.json, pr =
# lb-commit2.json): its lines, verbatim; TPSDB_UPDATE_GOLDEN=1 rewrites the block.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
no_golden_update_in_ci
README=$TPSDB_SRC/README.md

# block <marker>: the fenced block after the marker comment, without its fences.
block() {
	awk -v m="<!-- readme-example: $1" '
		index($0, m) == 1 { on = 1; next }
		on == 1 && /^```/ { on = 2; next }
		on == 2 && /^```/ { exit }
		on == 2 { print }' "$README"
}

# The llama-bench example: the lines of compare's output the block shows.
mkdir -p "$T/lb" "$T/bin"
ln -s "$(realpath "$TPSDB_BIN")" "$T/bin/tpsdb"
cp "$TPSDB_TEST_DATA/llama-bench/lb.json" "$T/lb/master.json"
cp "$TPSDB_TEST_DATA/llama-bench/lb-commit2.json" "$T/lb/pr.json"
(cd "$T/lb" && export PATH="$T/bin:$PATH" TPSDB_DB="$T/lb/t.sqlite" &&
	tpsdb import --engine master master.json >/dev/null &&
	tpsdb import --engine pr pr.json >/dev/null &&
	tpsdb compare --ours pr --vs master >"$T/lb/out.txt") || fail "llama-bench example: $?"
grep -E '^(config of every row|cell |tiny \(llama-bench\) \{(pp128|tg16) fa=0\}  |model  test|tiny   (pp128|tg16) fa=0 |llama-bench geomean)' \
	"$T/lb/out.txt" | sed 's/ *$//' >"$T/lb/want.txt"
[ "$(wc -l <"$T/lb/want.txt")" -eq 8 ] || fail "the example's lines: $(cat "$T/lb/out.txt")"
block llama-bench >"$T/lb/have.txt"
if ! cmp -s "$T/lb/have.txt" "$T/lb/want.txt"; then
	if [ "${TPSDB_UPDATE_GOLDEN:-}" = 1 ]; then
		python3 - "$README" "$T/lb/want.txt" <<'PY'
import sys
path, want = sys.argv[1], open(sys.argv[2]).read()
s = open(path).read()
i = s.index("<!-- readme-example: llama-bench")
a = s.index("```\n", i) + 4
b = s.index("```", a)
open(path, "w").write(s[:a] + want + s[b:])
PY
		echo "README: the llama-bench example rewritten"
	else
		diff "$T/lb/have.txt" "$T/lb/want.txt" >&2 || true
		fail "the README's llama-bench output is not what compare prints (TPSDB_UPDATE_GOLDEN=1 rewrites it)"
	fi
fi

# The CI gate snippet, as written.
real_llama
block ci-gate >"$T/snippet.sh"
grep -q '^tpsdb collect ' "$T/snippet.sh" && grep -q '^tpsdb gate ' "$T/snippet.sh" ||
	fail "no CI snippet in the README: $(cat "$T/snippet.sh")"
mkdir -p "$T/ci"
ln -s "$dir/bin/llama-server" "$T/ci/llama-server"
sed -i "s#/opt/upstream/llama-server#$dir/bin/llama-server#" "$T/snippet.sh"
printf 'tiny | %s\n' "$tiny" >"$T/ci/models.txt"
printf '# label | gguf | spec server args | n_max list\n' >"$T/ci/spec.txt"
# Each line its own command, its exit status kept: the README says what each may end
# with.
rc=0
(cd "$T/ci" && export PATH="$T/bin:$PATH" TPSDB_DB="$T/ci/t.sqlite" GIT_SHA=0123abc &&
	python3 - "$T/snippet.sh" >"$T/ci/log.txt" 2>&1 <<'PY') || rc=$?
import subprocess, sys
lines, cmd = open(sys.argv[1]).read().splitlines(), ""
for line in lines:
    cmd += line.split("#")[0].rstrip().rstrip("\\") + " "
    if line.split("#")[0].rstrip().endswith("\\"):
        continue
    if cmd.strip():
        r = subprocess.run(["bash", "-c", cmd], timeout=1800)
        word = cmd.split()[1]
        print("== %s exit %d" % (word, r.returncode), flush=True)
        # gate: 1 is a failed gate; every other command 0.
        if r.returncode not in ((0, 1) if word == "gate" else (0,)):
            sys.exit("%s exited %d" % (word, r.returncode))
    cmd = ""
PY
expect_eq "$rc" 0 "the CI snippet: $(tail -n 30 "$T/ci/log.txt")"
expect_eq "$(grep -c '^== ' "$T/ci/log.txt")" 4 "four commands ran: $(grep '^== ' "$T/ci/log.txt")"
grep -q "^until-decided: " "$T/ci/log.txt" || fail "collect --until-decided printed no count"
grep -q "^baseline 'upstream': [0-9]* run(s) frozen" "$T/ci/log.txt" ||
	fail "the baseline froze nothing: $(cat "$T/ci/log.txt")"
[ -s "$T/ci/gate.xml" ] || fail "gate wrote no gate.xml"
# An engine against itself: never a decided regression.
! grep -Eq '^decided: .* regression yes' "$T/ci/log.txt" || fail "A/A decided a regression"
echo ok
