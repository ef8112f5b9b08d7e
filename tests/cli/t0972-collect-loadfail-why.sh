#!/usr/bin/env bash
# t0972-collect-loadfail-why.sh: the real llama-server (v0.4.0) refuses the removed
# --draft-max; its own error line, not the usage text that ends its log, is what
# collect's progress line and summary, runs --json (load_error_line) and check
# show. With TPSDB_LLAMA_SERVER_OLD (a b8390 llama-server), its refusal of a flag
# it does not know shows the same way.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

real_llama
export TPSDB_CACHE=$T/cache
ln -s "$dir/bin/llama-server" "$T/new"

# why <engine> <raw models manifest args> <the expected error line> <load_error's end>
why() {
	local engine=$1 args=$2 want=$3 end=$4 uuid row
	printf 'tiny | %s | %s\n' "$tiny" "$args" >"$T/models"
	rm -f "$DB"
	run_tpsdb collect --engine "$engine"="$T/$engine" --models "$T/models" \
		--prompts "$PROMPTS" --port "$port" --out-dir "$OUT"
	expect_eq "$rc" 1 "$engine: exit status"
	pgrep -f "^$T/$engine --host " >/dev/null && fail "a llama-server outlived tpsdb"
	expect_eq "$(cat "$T/stderr")" "[1/1] tiny / $engine / base: LOADFAIL, 0 ok, 0 failed (0 s): $want" \
		"$engine: the progress line"
	row=$(sed -n 2p "$T/stdout")
	expect_match "$row" "^tiny +$engine +- +LOADFAIL +0 +0 +- +- +- +" "$engine: the summary row"
	expect_eq "${row##*  -  }" "$want" "$engine: the summary's why column"
	expect_eq "$(sed -n 1p "$T/stdout")" \
		"model  engine  n_max  status    ok  failed  pp tok/s  tg tok/s  accept  why" \
		"$engine: the summary's header"
	run_tpsdb runs --json
	expect_eq "$(jq -r '.[0].load_error_line' "$T/stdout")" "$want" "$engine: runs --json"
	# The stored tail is kept as it was (v0.4.0's ends with its usage text: the
	# line is picked, not the last).
	expect_match "$(jq -r '.[0].load_error' "$T/stdout")" "$end" "$engine: load_error keeps the tail"
	uuid=$(jq -r '.[0].uuid' "$T/stdout")
	run_tpsdb check
	expect_eq "$rc" 1 "$engine: check exit"
	grep -qxF "run $uuid $engine/tiny: LOADFAIL: $want" "$T/stdout" ||
		{ cat "$T/stdout"; fail "$engine: check's finding"; }
	run_tpsdb check --json
	expect_eq "$(jq -r '.findings[] | select(.kind=="load-failed") | .detail' "$T/stdout")" \
		"LOADFAIL: $want" "$engine: check --json"
}

why new "-md $tiny --draft-max 2" 'error while handling argument "--draft-max": the argument has been removed. use --spec-draft-n-max or --spec-ngram-mod-n-max' \
	'to show complete usage, run with -h$'
if [ -n "${TPSDB_LLAMA_SERVER_OLD:-}" ]; then
	ln -s "$TPSDB_LLAMA_SERVER_OLD" "$T/old"
	why old "--spec-draft-n-max 2" 'error: invalid argument: --spec-draft-n-max' \
		'invalid argument: --spec-draft-n-max$'
else
	echo "TPSDB_LLAMA_SERVER_OLD is not set: b8390 not run"
fi
echo ok
