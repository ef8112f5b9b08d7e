#!/usr/bin/env bash
# t0502: the markdown holds the study's tables line for line: the three-way base
# table with one 'pp / tg' column per engine (ours, then other, then upstream),
# each other engine's cell holding ours' verdicts against it (with --ref, each
# engine's against the reference),
# the speculative table with 'decode · accept' cells and the best rung in bold,
# and the per-prompt acceptance table with its aggregate and decode rows.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1

load study.jsonl
tps report --no-plots
expect_rc 0 "report"
md=$TMP/out

# expect <line>...: the lines must appear, consecutively, exactly as given.
expect() {
	printf '%s\n' "$@" >"$TMP/want"
	local n first
	n=$(wc -l <"$TMP/want")
	first=$(head -n1 "$TMP/want")
	grep -nFx -- "$first" "$md" | cut -d: -f1 | while read -r at; do
		if sed -n "${at},$((at + n - 1))p" "$md" | cmp -s - "$TMP/want"; then
			echo ok
		fi
	done | grep -q ok || { cat "$md" >&2; fail "lines not found: $first ..."; }
}

# Without --ref (was: llama.cpp, the upstream engine, the reference; below with
# --ref llama.cpp): ours against stock-llamafile and against llama.cpp. g4 of
# ours is on another GGUF than both: not comparable, twice.
expect '| model | ours pp / tg | stock-llamafile pp / tg | llama.cpp pp / tg |' \
	'|---|---|---|---|' \
	'| g4 | 5400 / 88.1 (ours) | 5390 / 88.0 (not comparable) | 5600 / 92.5 (not comparable) |' \
	'| q35 | 13157 / 142.7 (ours) | 11806 / 120.5 (ours: +11.4% undecided / +18.4% undecided) | 13107 / 143.0 (ours: +0.4% undecided / -0.2% undecided) |'

expect '| model / config | ours n1 | llama.cpp n1 | ours n2 | llama.cpp n2 | ours n3 | llama.cpp n3 |' \
	'|---|---|---|---|---|---|---|' \
	'| q35 / draft | 190.2 · 0.80 | 195.1 · 0.81 | 230.7 · 0.71 | 236.4 · 0.72 | 221.0 · 0.62 | 240.3 · 0.64 |'

expect '### q35 / draft' '' \
	'| prompt | ours n1 | llama.cpp n1 | ours n2 | llama.cpp n2 | ours n3 | llama.cpp n3 |' \
	'|---|---|---|---|---|---|---|' \
	'| chat | 0.72 | 0.73 | 0.63 | 0.64 | 0.54 | 0.56 |' \
	'| code | 0.90 | 0.92 | 0.81 | 0.82 | 0.72 | 0.74 |' \
	'| math | 0.82 | 0.83 | 0.73 | 0.74 | 0.64 | 0.66 |' \
	'| summary | 0.77 | 0.77 | 0.67 | 0.68 | 0.58 | 0.60 |' \
	'| all prompts | 0.80 | 0.81 | 0.71 | 0.72 | 0.62 | 0.64 |' \
	'| decode tok/s | 190.2 | 195.1 | 230.7 | 236.4 | 221.0 | 240.3 |'

# The findings: flagged samples of a run shown, the LOADFAIL that explains a
# missing model, the alarm, and the comparison forced across two GGUFs.
expect '- run 00000000-0000-4000-8000-000000000002 ours/q35: 1 of 12 samples truncated decode (predicted_n 40 \< n_predict 256)' \
	'- run 00000000-0000-4000-8000-000000000002 ours/q35: 1 of 12 samples cold-start prefill (first request after the server started)' \
	"- run 00000000-0000-4000-8000-000000000013 ours/mx: LOADFAIL: error: unknown model architecture: 'mx9'"
grep -q '^- ALARM: file .g4.gguf. holds different bytes' "$md" || fail "alarm"
grep -q "^- ours vs stock-llamafile: FORCED comparison of cell 'g4' although model sha256 differs" "$md" ||
	fail "forced against stock-llamafile"
grep -q "^- ours vs llama.cpp: FORCED comparison of cell 'g4' although model sha256 differs" "$md" ||
	fail "forced against llama.cpp"

# Every number's run: twelve runs, with their tags.
[ "$(grep -c '^| 00000000-0000-4000-8000-0000000000[01][0-9] | ' "$md")" = 12 ] || fail "12 runs listed"
grep -qFx '| 00000000-0000-4000-8000-000000000011 | ours | q35 | draft n_max=2 | v1 | 2025-06-01T00:50:00.000Z | - |' "$md" \
	|| fail "run row"

# --ref llama.cpp: the table as it was when the upstream engine was the default
# reference.
tps report --no-plots --ref llama.cpp
expect_rc 0 "report --ref llama.cpp"
expect '| model | ours pp / tg | stock-llamafile pp / tg | llama.cpp pp / tg |' \
	'|---|---|---|---|' \
	'| g4 | 5400 / 88.1 (not comparable) | 5390 / 88.0 (-3.7% undecided / -4.9% undecided) | 5600 / 92.5 (ref) |' \
	'| q35 | 13157 / 142.7 (+0.4% undecided / -0.2% undecided) | 11800 / 120.4 (-9.9% undecided / -15.8% undecided) | 13107 / 143.0 (ref) |'
grep -q "^- FORCED comparison of cell 'g4' although model sha256 differs" "$md" || fail "forced"

# --engine picks and orders the columns; ours is still the engine of role ours.
tps report --no-plots --engine llama.cpp --engine ours --model q35
expect_rc 0 "report --engine"
grep -qFx '| model | llama.cpp pp / tg | ours pp / tg |' "$TMP/out" || fail "--engine order"
grep -qFx '| q35 | 13107 / 143.0 (ours: +0.4% undecided / -0.2% undecided) | 13157 / 142.7 (ours) |' "$TMP/out" ||
	fail "ours against llama.cpp"

# --ref moves the reference.
tps report --no-plots --engine llama.cpp --engine ours --ref ours --model q35
expect_rc 0 "report --engine --ref"
grep -qFx '| model | llama.cpp pp / tg | ours pp / tg |' "$TMP/out" || fail "--engine order"
grep -qFx '| q35 | 13107 / 143.0 (-0.4% undecided / +0.2% undecided) | 13157 / 142.7 (ref) |' "$TMP/out" || fail "--ref"
grep -q '^| g4 ' "$TMP/out" && fail "--model q35 leaves g4 out"

tps report --no-plots --engine nope
expect_rc 3 "an engine without runs"
grep -q "^tpsdb: error: --engine 'nope': no engine of that name in the store (known, closest first: " "$TMP/err" || fail "names the engine"
tps report --format xml
expect_rc 2 "a bad --format"

# In the words of 'tpsdb check': summary.txt's finding lines are check's lines.
tps report --no-plots --out "$TMP/txt"
expect_rc 0 "report --out"
tps check
expect_rc 1 "check"
[ "$(grep '^run ' "$TMP/out")" = "$(sed -n 's/^- \(run \)/\1/p' "$TMP/txt/summary.txt")" ] ||
	fail "the report's findings are not the lines of 'tpsdb check'"
exit 0
