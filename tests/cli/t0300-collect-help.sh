#!/usr/bin/env bash
# t0300-collect-help.sh: 'tpsdb collect --help' prints the whole usage to stdout
# and exits 0, naming every option and the environment drop-in; usage errors go to
# stderr with exit 2.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"

run_tpsdb collect --help
expect_eq "$rc" 0 "--help exit status"
[ -s "$T/stdout" ] || fail "--help printed nothing on stdout"
[ ! -s "$T/stderr" ] || fail "--help wrote to stderr"
grep -q '^usage: tpsdb collect --engine <label>=<binary>' "$T/stdout" || fail "no synopsis"
for opt in engine ours role engine-args home models model spec-manifest url spec-type \
	n-max reps prompts no-reference ctx n-predict endpoint ban-byte-tokens seed warmup \
	gpu port load-timeout request-timeout tag notes host gpu-name driver cuda out-dir \
	quiet dry-run; do
	grep -q -- "--$opt\b" "$T/stdout" || fail "--help does not mention --$opt"
done
for var in OURS_BIN STOCK_LLAMAFILE STOCKLF_HOME STOCK_LLAMACPP MODELS_MANIFEST \
	MTP_MANIFEST GPU PORT NPRED OUT_DIR NO_COLOR; do
	grep -q "$var" "$T/stdout" || fail "--help does not mention $var"
done
grep -q 'Exit status: 0 every cell complete; 1 some cell partial or failed; 2 usage' \
	"$T/stdout" || fail "--help does not give the exit codes"
run_tpsdb collect -h
expect_eq "$rc" 0 "-h exit status"

# Usage errors: one error line and the usage, on stderr, exit 2.
for args in "--bogus" "--reps 0 --engine a=/bin/true --model m=$MODEL" \
	"--reps x --engine a=/bin/true --model m=$MODEL" "--endpoint rest --engine a=/bin/true" \
	"--engine a --model m=$MODEL" "--engine a=/bin/true --engine a=/bin/false --model m=x" \
	"--engine a=/bin/true --role a=boss --model m=x" "--engine a=/bin/true --ours b --model m=x" \
	"--engine a=/bin/true" "--engine a=/bin/true --model m=x extra" \
	"--engine a=/bin/true --model m=x --n-max 2" "--url http://127.0.0.1:1 --engine a=/bin/true"; do
	# shellcheck disable=SC2086
	run_tpsdb collect $args
	expect_eq "$rc" 2 "exit status of 'collect $args'"
	expect_eq "$(grep -c '^tpsdb: error: ' "$T/stderr")" 1 "error lines of 'collect $args'"
	[ ! -s "$T/stdout" ] || fail "'collect $args' wrote to stdout"
done
# Nothing was measured, so no store was made.
[ ! -e "$DB" ] || fail "a usage error created the store"
echo ok
