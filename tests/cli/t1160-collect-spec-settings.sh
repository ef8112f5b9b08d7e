#!/usr/bin/env bash
# t1160-collect-spec-settings.sh: issue 37's fair speculative arm. Two engines
# answer --help with the real texts of llama-server b8390 (--draft-p-min,
# default 0.75) and v0.4.0 (--spec-draft-p-min, default 0.00) and serve as the
# fault server otherwise. One spec line in tpsdb's terms: --dry-run says p_min is
# set to one value on every engine (0, the one value both releases read alike,
# whichever engine is upstream) and spells it per release; the manifest's p_min=
# wins, with a line saying the two releases read it differently unless it is 0;
# a real collect records the effective settings as run.spec_settings
# ('' for base runs); compare and sweep pair them, and refuse, naming the
# settings, once the two engines' settings differ.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here

export TPSDB_CACHE=$T/cache
# stand <name> <help fixture>: --help prints that text; anything else is a fault server.
stand() {
	printf '#!/bin/sh\n[ "$1" = --help ] && exec cat "%s"\nexec python3 "%s/tests/fault_server.py" "$@"\n' \
		"$TPSDB_SRC/tests/data/dialect/$2" "$TPSDB_SRC" >"$T/$1"
	chmod +x "$T/$1"
}
stand old llama-server-b8390.help
stand new llama-server-v0.4.0.help
D=$T/draft.gguf
printf 'not really a gguf either\n' >"$D"
printf 'tiny | %s | drafter=%s | 2\n' "$MODEL" "$D" >"$T/spec"
note() { printf 'spec settings: p_min %s on every engine (defaults differ: %s), the one value every release reads alike; set p_min= in the spec manifest to choose' "$1" "$2"; }

# No upstream engine: 0 on both.
run_tpsdb collect --engine new="$T/new" --engine old="$T/old" --spec-manifest "$T/spec" --dry-run
expect_eq "$rc" 0 "dry-run exit: $(cat "$T/stderr")"
expect_eq "$(sed -n 1p "$T/stdout")" "$(note 0 'new 0.00, old 0.75')" "the line (first engine)"
expect_match "$(grep ' new (other) n_max=2' "$T/stdout")" " --spec-draft-n-max 2 --spec-draft-p-min 0\$" \
	"v0.4.0 spelled with p_min 0"
expect_match "$(grep ' old (other) n_max=2' "$T/stdout")" " --draft-max 2 --draft-p-min 0\$" \
	"b8390 spelled with p_min 0"
grep -q 'min' <(grep ' base:' "$T/stdout") && fail "a base run got a spec setting"
# n_min's defaults agree (0 and 0): left to the engines, no line for it.
expect_eq "$(grep -c '^spec settings:' "$T/stdout")" 1 "one line: n_min's defaults agree"

# Nor does the upstream engine's default (b8390's 0.75) win: 0 is what both
# releases read alike (test_collect_plan holds the upstream rule of a knob
# without such a value).
run_tpsdb collect --engine new="$T/new" --engine old="$T/old" --role old=upstream \
	--spec-manifest "$T/spec" --dry-run
expect_eq "$rc" 0 "dry-run exit (upstream)"
expect_eq "$(sed -n 1p "$T/stdout")" "$(note 0 'new 0.00, old 0.75')" "the line (upstream)"
expect_match "$(grep ' new (other) n_max=2' "$T/stdout")" " --spec-draft-p-min 0\$" \
	"v0.4.0 takes p_min 0"
expect_match "$(grep ' old (upstream) n_max=2' "$T/stdout")" " --draft-p-min 0\$" \
	"b8390 takes p_min 0"

# The manifest's own value wins, both engines spelled with it; a p_min other
# than 0 gets one line: the two releases read it differently.
printf 'tiny | %s | drafter=%s p_min=0.5 n_min=1 | 2\n' "$MODEL" "$D" >"$T/spec-own"
run_tpsdb collect --engine new="$T/new" --engine old="$T/old" --role old=upstream \
	--spec-manifest "$T/spec-own" --dry-run
expect_eq "$rc" 0 "dry-run exit (manifest)"
expect_eq "$(grep '^spec settings:' "$T/stdout")" "spec settings: p_min 0.5 as the spec manifest sets it, which the releases read differently (new --spec-draft-p-min, old --draft-p-min); p_min=0 is the one value every release reads alike" \
	"the line for a p_min the releases read differently"
expect_match "$(grep ' new (other) n_max=2' "$T/stdout")" " --spec-draft-n-max 2 --spec-draft-n-min 1 --spec-draft-p-min 0.5\$" \
	"v0.4.0 with the manifest's values"
expect_match "$(grep ' old (upstream) n_max=2' "$T/stdout")" " --draft-max 2 --draft-min 1 --draft-p-min 0.5\$" \
	"b8390 with the manifest's values"
# A raw p-min after the terms is refused: the terms spell it.
printf 'tiny | %s | drafter=%s --draft-p-min 0.5 | 2\n' "$MODEL" "$D" >"$T/spec-raw"
run_tpsdb collect --engine new="$T/new" --spec-manifest "$T/spec-raw" --dry-run
expect_eq "$rc" 2 "a raw p-min among terms"
expect_eq "$(cat "$T/stderr")" "tpsdb: error: $T/spec-raw:1: the spec args of 'tiny': '--draft-p-min' among the raw args: write p_min= (the terms spell it for each engine)" \
	"the refusal of a raw p-min"
run_tpsdb collect --engine new="$T/new" --spec-manifest <(printf 'tiny | %s | drafter=%s p_min=2 | 2\n' "$MODEL" "$D") --dry-run
expect_eq "$rc" 2 "p_min out of range"
expect_match "$(cat "$T/stderr")" "'p_min=2' is not a number from 0 to 1" "the out-of-range refusal"

# A real collect: the line before the first run, the settings recorded.
run_tpsdb collect --engine new="$T/new" --engine old="$T/old" --role old=upstream \
	--spec-manifest "$T/spec" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16 \
	--rounds 2 --port "$PORT" --quiet --out-dir "$OUT"
expect_eq "$rc" 0 "collect exit: $(cat "$T/stderr")"
expect_eq "$(sed -n 1p "$T/stdout")" "$(note 0 'new 0.00, old 0.75')" "the line before the first run"
settings() {
	q "SELECT DISTINCT r.spec_settings FROM run r JOIN engine e ON e.id=r.engine_id
		WHERE e.label='$1' AND r.n_max $2"
}
expect_eq "$(settings new '= 2')" "n_min=0 p_min=0" "v0.4.0's spec runs record p_min 0"
expect_eq "$(settings old '= 2')" "n_min=0 p_min=0" "b8390's spec runs record p_min 0"
expect_eq "$(settings new 'IS NULL')" "" "base runs record none"
expect_eq "$(q "SELECT count(*) FROM run WHERE n_max=2 AND extra_args LIKE '%p-min 0'")" 4 \
	"every spec run was given the p_min"
expect_eq "$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id WHERE r.n_max=2 AND s.draft_n > 0")" \
	"$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id WHERE r.n_max=2")" \
	"both releases' stand-ins drafted"
# Equal settings pair.
run_tpsdb compare --ours new --vs old
expect_eq "$rc" 0 "compare of equal settings: $(cat "$T/stderr")"
run_tpsdb sweep
[ "$rc" -le 1 ] || fail "sweep of equal settings: exit $rc: $(cat "$T/stderr")"
# The export carries the settings, and an import keeps them.
run_tpsdb export --out "$T/runs.jsonl"
expect_eq "$rc" 0 "export exit: $(cat "$T/stderr")"
grep -q '"spec_settings":"n_min=0 p_min=0"' "$T/runs.jsonl" || fail "export lacks spec_settings"
rc=0
"$TPSDB_BIN" --db "$T/imported.sqlite" import "$T/runs.jsonl" >/dev/null 2>"$T/stderr" || rc=$?
expect_eq "$rc" 0 "import: $(cat "$T/stderr")"
"$TPSDB_BIN" --db "$T/imported.sqlite" export --out "$T/again.jsonl"
cmp -s "$T/runs.jsonl" "$T/again.jsonl" || fail "export, import, export differ"
rc=0
"$TPSDB_BIN" --db "$T/merged.sqlite" merge "$DB" >/dev/null 2>"$T/stderr" || rc=$?
expect_eq "$rc" 0 "merge: $(cat "$T/stderr")"
expect_eq "$(sqlite3 "$T/merged.sqlite" "SELECT count(*) FROM run WHERE spec_settings='n_min=0 p_min=0'")" 4 \
	"merge keeps spec_settings"

# Settings that differ: compare and sweep refuse, naming them; nothing judged.
q "UPDATE run SET spec_settings='n_min=0 p_min=0.75' WHERE n_max=2 AND engine_id=(SELECT id FROM engine WHERE label='new')"
run_tpsdb compare --ours new --vs old
expect_eq "$rc" 3 "compare refuses"
expect_match "$(cat "$T/stderr")" "^tpsdb: error: refusing to compare cell '.*': spec settings differ \(n_min=0 p_min=0.75 vs n_min=0 p_min=0\) \(--force compares anyway\)\$" \
	"compare's refusal"
run_tpsdb sweep
expect_eq "$rc" 3 "sweep refuses"
expect_eq "$(cat "$T/stderr")" "tpsdb: error: refusing to hold 'new' against 'old' (model 'tiny', n_max 2): spec settings differ (n_min=0 p_min=0.75 vs n_min=0 p_min=0), a difference of settings, not of engines (--batch or --tag chooses runs collected alike)" \
	"sweep's refusal"
expect_eq "$(cat "$T/stdout")" "" "no gap line for settings that differ"
# A knob only one side names proves nothing (runs stored before the column).
q "UPDATE run SET spec_settings='' WHERE engine_id=(SELECT id FROM engine WHERE label='new')"
run_tpsdb sweep
[ "$rc" -le 1 ] || fail "sweep of unknown settings: exit $rc: $(cat "$T/stderr")"

# The manifest's p_min 0.75 on both: the stand-ins read it as the releases do (the
# fault server's drafter is 0.5 sure of every token), so v0.4.0's drafts nothing
# and b8390's drafts. collect warns once for that cell (not per round, not for
# b8390), and sweep's gap names the side that did not speculate.
printf 'tiny | %s | drafter=%s p_min=0.75 | 2\n' "$MODEL" "$D" >"$T/spec-075"
DB=$T/p075.sqlite
run_tpsdb collect --engine new="$T/new" --engine old="$T/old" --role old=upstream \
	--spec-manifest "$T/spec-075" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16 \
	--rounds 2 --port "$PORT" --quiet --out-dir "$OUT/p075"
expect_eq "$rc" 0 "collect at p_min 0.75: $(cat "$T/stderr")"
expect_eq "$(grep 'drafted a token' "$T/stderr")" "tpsdb: warning: tiny / new / n_max=2: no request drafted a token (no draft_n in any answer), so the run decoded without speculation (n_min=0 p_min=0.75)" \
	"one warning, for v0.4.0's cell"
expect_eq "$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id JOIN engine e ON e.id=r.engine_id
	WHERE e.label='new' AND r.n_max=2 AND s.draft_n > 0")" 0 "v0.4.0's stand-in drafted nothing"
run_tpsdb sweep --ref old
[ "$rc" -le 1 ] || fail "sweep at p_min 0.75: exit $rc: $(cat "$T/stderr")"
expect_match "$(grep 'at n_max=2' "$T/stdout")" ", and new drafted no token there \(no request reported one\)" \
	"sweep's gap names new"
expect_no_orphans
echo ok
