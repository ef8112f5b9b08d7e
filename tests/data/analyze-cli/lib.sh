# lib.sh: shared setup for the compare, sweep, baseline and gate CLI tests
# (tests/cli/t04NN-*.sh source it). Each test gets a fresh store in a temporary
# folder and imports the fixtures gen.py wrote, as 'tpsdb import' would in a study.
set -eu
: "${TPSDB_BIN:?TPSDB_BIN must name the tpsdb binary}"
: "${TPSDB_TEST_DATA:?TPSDB_TEST_DATA must name tests/data}"
. "${TPSDB_SRC:?TPSDB_SRC must name the source tree}/tests/cli/skip-lib.sh" || exit 1
need jq

FIX=$TPSDB_TEST_DATA/analyze-cli
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TPSDB_DB=$TMP/store.sqlite
unset GITHUB_ACTIONS

. "$TPSDB_SRC/tests/cli/tps-lib.sh" || exit 1

# check <jq filter> <what>: the filter must print true (once) over $TMP/out. all(g;
# c) is redefined to be false on an empty g: a check over rows that are not there
# must not pass.
check() {
	local nonvacuous='def all(g; c): [g] as $a | ($a | length) > 0 and ($a | map(c) | all);'
	[ "$(jq -e "$nonvacuous $1" "$TMP/out" 2>/dev/null)" = true ] ||
		{ cat "$TMP/out" >&2; fail "$2 ($1)"; }
}

# imp <engine> <role> <model> <file> [more import options]
imp() {
	local e=$1 r=$2 m=$3 f=$4
	shift 4
	"$TPSDB_BIN" import --engine "$e" --role "$r" --model "$m" --warmup 1 "$@" \
		"$FIX/$f" >/dev/null || fail "import of $f"
}

# imp_rounds <engine> <role> <model> <stem> [more import options]: three server
# instances of the stem (stem.jsonl, stem-r2.jsonl, stem-r3.jsonl), each a run, in
# that order: pass a --tag so that compare and gate pool them.
imp_rounds() {
	local e=$1 r=$2 m=$3 stem=$4 f
	shift 4
	for f in "$stem.jsonl" "$stem-r2.jsonl" "$stem-r3.jsonl"; do
		imp "$e" "$r" "$m" "$f" "$@"
	done
}

# The speculative sweep of (c): ours collapses at n_max=3, upstream rises. With
# "rounds", three instances of every rung, round by round, tagged r.
imp_sweep() {
	local e r n k sfx tag=()
	local ks=1
	[ "${1:-}" = rounds ] && { ks="1 2 3"; tag=(--tag r); }
	for k in $ks; do
		sfx=; [ "$k" = 1 ] || sfx=-r$k
		for e in ours upstream; do
			r=$e
			imp "$e" "$r" qwen3-8b "spec-$e-base$sfx.jsonl" "${tag[@]}"
			for n in 1 2 3; do
				imp "$e" "$r" qwen3-8b "spec-$e-n$n$sfx.jsonl" --spec-type draft-simple \
					--n-max "$n" "${tag[@]}"
			done
		done
	done
}

# imp_speedup_each: imports the real llama-bench json of two builds
# (tests/data/llama-bench-speedup), engine new and engine old, one import a file.
imp_speedup_each() {
	local r d=$TPSDB_TEST_DATA/llama-bench-speedup
	for r in 1 2 3; do
		tps import --engine new "$d/new-r$r.json"
		expect_rc 0 "import new-r$r"
		tps import --engine old "$d/old-r$r.json"
		expect_rc 0 "import old-r$r"
	done
}
