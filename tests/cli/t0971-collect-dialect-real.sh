#!/usr/bin/env bash
# t0971-collect-dialect-real.sh: a spec manifest line in tpsdb's terms run by the
# real llama-server (v0.4.0, scripts/llama-server.sh, cached) with the tiny model as
# its own drafter: spelled --spec-type draft-simple -md ... --spec-draft-n-max, the
# run completes and drafts. With TPSDB_LLAMA_SERVER_OLD naming a b8390
# llama-server (scripts/llama-server.sh --nlc 3.18.1), the same line runs there too,
# spelled -md ... --draft-max; CI builds only the first. With both, their p-min
# defaults differ (b8390 0.75, v0.4.0 0.00): both get 0, the one value both
# releases read alike, though b8390 is upstream; each real server takes it, both
# draft, and both runs record it (issue 37).
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

real_llama
export TPSDB_CACHE=$T/cache
# Started through links in $T, so this test's servers are told apart.
ln -s "$dir/bin/llama-server" "$T/new"
engines=(--engine new="$T/new")
want_old=
if [ -n "${TPSDB_LLAMA_SERVER_OLD:-}" ]; then
	[ -x "$TPSDB_LLAMA_SERVER_OLD" ] || fail "TPSDB_LLAMA_SERVER_OLD is not executable"
	ln -s "$TPSDB_LLAMA_SERVER_OLD" "$T/old"
	engines+=(--engine old="$T/old" --role old=upstream)
	want_old=1
fi

printf '## one\nWrite a C function that parses an ISO 8601 date.\n' >"$T/one.txt"
printf 'tiny | %s | drafter=%s | 2\n' "$tiny" "$tiny" >"$T/spec"
run_tpsdb collect "${engines[@]}" --spec-manifest "$T/spec" --prompts "$T/one.txt" \
	--reps 1 --n-predict 32 --port "$port" --out-dir "$OUT" --ban-byte-tokens --tag t0971
[ "$rc" = 0 ] || { cat "$T/stdout"; tail -n 20 "$T/stderr" >&2; fail "exit status $rc"; }
pgrep -f "^$T/(new|old) --host " >/dev/null && fail "a llama-server outlived tpsdb"

# spec_type says what the line said, whatever each engine's spelling.
spec_row() {
	q "SELECT r.status || '|' || r.spec_type || '|' || r.drafter || '|' || r.extra_args
		FROM run r JOIN engine e ON e.id=r.engine_id WHERE e.label='$1' AND r.n_max=2"
}
pmin_new= pmin_old=
[ -z "$want_old" ] || { pmin_new=" --spec-draft-p-min 0"; pmin_old=" --draft-p-min 0"; }
expect_eq "$(spec_row new)" "complete|draft-simple|$(basename "$tiny")|--spec-type draft-simple -md $tiny --spec-draft-n-max 2$pmin_new" \
	"v0.4.0's spec run"
expect_eq "$(q "SELECT spec_settings FROM run r JOIN engine e ON e.id=r.engine_id
	WHERE e.label='new' AND r.n_max=2")" "n_min=0 p_min=0" "v0.4.0's settings recorded"
expect_eq "$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id JOIN engine e
	ON e.id=r.engine_id WHERE e.label='new' AND r.n_max=2 AND s.draft_n > 0")" 1 \
	"v0.4.0 drafted"
if [ -n "$want_old" ]; then
	expect_eq "$(spec_row old)" "complete|draft-simple|$(basename "$tiny")|-md $tiny --draft-max 2$pmin_old" \
		"b8390's spec run"
	expect_eq "$(q "SELECT spec_settings FROM run r JOIN engine e ON e.id=r.engine_id
		WHERE e.label='old' AND r.n_max=2")" "n_min=0 p_min=0" "b8390's settings recorded"
	expect_eq "$(sed -n 1p "$T/stdout")" "spec settings: p_min 0 on every engine (defaults differ: new 0.00, old 0.75), the one value every release reads alike; set p_min= in the spec manifest to choose" \
		"the line before the first run"
	expect_eq "$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id JOIN engine e
		ON e.id=r.engine_id WHERE e.label='old' AND r.n_max=2 AND s.draft_n > 0")" 1 \
		"b8390 drafted"
else
	echo "TPSDB_LLAMA_SERVER_OLD is not set: b8390 not run"
fi
echo ok
