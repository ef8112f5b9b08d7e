#!/usr/bin/env bash
# t0301-collect-manifest-errors.sh: a bad manifest or prompt file line is one error
# naming file:line, exit 2, before anything starts; an unreadable one is exit 3.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"

# kind | file content | the error's expected text (after "file:")
check() {
	local kind=$1 content=$2 want=$3 f=$T/manifest
	printf '%b' "$content" >"$f"
	case $kind in
	models) run_tpsdb collect --engine a=/bin/true --models "$f" --dry-run ;;
	spec) run_tpsdb collect --engine a=/bin/true --spec-manifest "$f" --dry-run ;;
	prompts) run_tpsdb collect --engine a=/bin/true --model m=x --prompts "$f" --dry-run ;;
	esac
	expect_eq "$rc" 2 "exit status for $kind '$content'"
	expect_eq "$(wc -l <"$T/stderr")" 1 "stderr lines for $kind '$content'"
	expect_match "$(cat "$T/stderr")" "^tpsdb: error: $f:$want" "$kind '$content'"
}

check models 'a | x\n\n# fine\nb | y | | z\n' "4: expected 'label \\| gguf path'"
check models 'a\n' "1: expected 'label \\| gguf path'"
check models '# c\n | /m/x.gguf\n' "2: the label is empty"
check models 'a b | /m/x.gguf\n' "1: label 'a b' has blank space"
check models 'a | /m/x.gguf\na | /m/y.gguf\n' "2: label 'a' is used twice"
check models 'a |  \n' "1: the gguf path of 'a' is empty"
check models 'a | x | --x "unclosed\n' "1: unbalanced \" quote"
check spec 'a | x | --spec-type draft-simple\n' "1: expected 4 fields"
check spec 'a | x | --spec-type d | 1,0\n' "1: n_max '0' is not a whole number"
check spec 'a | x | --spec-type d | 1,x\n' "1: n_max 'x' is not a whole number"
check spec 'a | x | --spec-type d | 2,2\n' "1: n_max 2 is listed twice"
check spec 'a | x | --spec-type d | \n' "1: the n_max list is empty"
check spec 'a | x |  | 1\n' "1: the spec server args of 'a' are empty"
check prompts 'oops\n## a\nx\n' "1: text before the first '## <name>' line"
check prompts '## a b\nx\n' "1: prompt name 'a b'"
check prompts '## a\nx\n## a\ny\n' "3: prompt 'a' appears twice"
check prompts '## a\n\n## b\nx\n' "1: prompt 'a' is empty"

# A spec line that contradicts the models manifest names the spec file and line.
printf 'a | /m/a.gguf\n' >"$T/models"
printf '# sweep\na | /m/other.gguf | -md d.gguf | 1\n' >"$T/spec"
run_tpsdb collect --engine e=/bin/true --models "$T/models" --spec-manifest "$T/spec" --dry-run
expect_eq "$rc" 2 "conflicting spec line"
expect_match "$(cat "$T/stderr")" "^tpsdb: error: $T/spec:2: model 'a' is '/m/other.gguf'" \
	"conflicting spec line"

# Unreadable: a runtime error, exit 3.
run_tpsdb collect --engine a=/bin/true --models "$T/missing" --dry-run
expect_eq "$rc" 3 "missing manifest"
expect_match "$(cat "$T/stderr")" "^tpsdb: error: cannot open '$T/missing'" "missing manifest"
[ ! -e "$DB" ] || fail "a manifest error created the store"
echo ok
