#!/usr/bin/env bash
# t0970-collect-dialect.sh: one spec manifest line in tpsdb's terms, spelled for two
# engines from their --help (the real texts of llama-server b8390 and v0.4.0 in
# tests/data/dialect/, printed by stand-in binaries): --dry-run shows each command
# line; the help is kept by sha256 in the cache (a header line, then the text)
# and read from there next time; a knob an engine lacks is refused before
# anything starts, exit 2, nothing stored; a raw line still passes as written.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"

export TPSDB_CACHE=$T/cache
# stand <name> <help fixture>: an engine whose --help is that text.
stand() {
	printf '#!/bin/sh\n# %s\n[ "$1" = --help ] && exec cat "%s"\nexit 1\n' "$1" \
		"$TPSDB_SRC/tests/data/dialect/$2" >"$T/$1"
	chmod +x "$T/$1"
}
stand old llama-server-b8390.help
stand new llama-server-v0.4.0.help
D=$T/draft.gguf
printf 'not really a gguf either\n' >"$D"

printf '# in tpsdb terms\ntiny | %s | drafter=%s -fa on | 2,4\n' "$MODEL" "$D" >"$T/spec"
run_tpsdb collect --engine old="$T/old" --engine new="$T/new" --spec-manifest "$T/spec" \
	--dry-run
expect_eq "$rc" 0 "dry-run exit"
fixed="--host 127.0.0.1 --port 18080 -m $MODEL -c 4096 -ngl 99"
# Their p-min defaults differ (b8390 0.75, v0.4.0 0.00): both get 0, the one value
# both releases read alike, said on one line (t1160 tests the rule).
cat >"$T/want" <<WANT
spec settings: p_min 0 on every engine (defaults differ: old 0.75, new 0.00), the one value every release reads alike; set p_min= in the spec manifest to choose
1/6 tiny old (other) base: $T/old $fixed
2/6 tiny old (other) n_max=2 spec_type=draft-simple drafter=draft.gguf: $T/old $fixed -md $D -fa on --draft-max 2 --draft-p-min 0
3/6 tiny old (other) n_max=4 spec_type=draft-simple drafter=draft.gguf: $T/old $fixed -md $D -fa on --draft-max 4 --draft-p-min 0
4/6 tiny new (other) base: $T/new $fixed
5/6 tiny new (other) n_max=2 spec_type=draft-simple drafter=draft.gguf: $T/new $fixed --spec-type draft-simple -md $D -fa on --spec-draft-n-max 2 --spec-draft-p-min 0
6/6 tiny new (other) n_max=4 spec_type=draft-simple drafter=draft.gguf: $T/new $fixed --spec-type draft-simple -md $D -fa on --spec-draft-n-max 4 --spec-draft-p-min 0
WANT
diff -u "$T/want" "$T/stdout" || fail "the spelled command lines"
[ ! -e "$DB" ] || fail "a dry run made the store"

# Each --help is kept under its binary's sha256, after a header line naming what
# it was made from, and read from there next time: given v0.4.0's text under the
# b8390 stand-in's header, the stand-in is spelled as v0.4.0.
old_sha=$(sha256sum "$T/old" | cut -c1-64)
help=$TPSDB_SRC/tests/data/dialect/llama-server-b8390.help
expect_eq "$(head -n 1 "$T/cache/dialect/$old_sha.help")" \
	"tpsdb-dialect-cache 2 binary-sha256=$old_sha binary-bytes=$(stat -c %s "$T/old") help-bytes=$(stat -c %s "$help")" \
	"the cache entry's header"
tail -n +2 "$T/cache/dialect/$old_sha.help" | cmp - "$help" || fail "the cache holds b8390's help"
[ -f "$T/cache/dialect/$(sha256sum "$T/new" | cut -c1-64).help" ] || fail "v0.4.0's help kept"
help=$TPSDB_SRC/tests/data/dialect/llama-server-v0.4.0.help
{ printf 'tpsdb-dialect-cache 2 binary-sha256=%s binary-bytes=%s help-bytes=%s\n' "$old_sha" \
	"$(stat -c %s "$T/old")" "$(stat -c %s "$help")"; cat "$help"; } >"$T/cache/dialect/$old_sha.help"
run_tpsdb collect --engine old="$T/old" --spec-manifest "$T/spec" --dry-run
expect_match "$(sed -n 2p "$T/stdout")" "--spec-type draft-simple -md $D -fa on --spec-draft-n-max 2\$" \
	"spelled from the cache (one engine: no p-min to equalise)"
rm "$T/cache/dialect/$old_sha.help"

# A knob b8390 lacks: one line naming the manifest line, the engine and the knob,
# exit 2, before anything starts or is stored, with --dry-run or without.
printf 'tiny | %s | spec=draft-mtp | 1\n' "$MODEL" >"$T/spec"
want="tpsdb: error: $T/spec:1: engine 'old' has no spec=draft-mtp: its --spec-type takes none, ngram-cache, ngram-simple, ngram-map-k, ngram-map-k4v, ngram-mod"
for dry in --dry-run ""; do
	run_tpsdb collect --engine new="$T/new" --engine old="$T/old" --spec-manifest "$T/spec" \
		--prompts "$PROMPTS" --out-dir "$OUT" $dry
	expect_eq "$rc" 2 "exit for a missing knob $dry"
	expect_eq "$(cat "$T/stderr")" "$want" "the refusal $dry"
	expect_eq "$(cat "$T/stdout")" "" "stdout of the refusal $dry"
	[ ! -e "$DB" ] || fail "a refused collect made the store $dry"
	[ ! -e "$OUT" ] || fail "a refused collect made the out dir $dry"
done
# An engine whose --help is not llama.cpp's cannot be spelled for.
run_tpsdb collect --engine fs="$FS" --spec-manifest "$T/spec" --dry-run
expect_eq "$rc" 2 "exit for an unknown dialect"
expect_eq "$(cat "$T/stderr")" "tpsdb: error: $T/spec:1: engine 'fs': cannot spell spec=draft-mtp, its --help lists no option" \
	"an unknown dialect"

# A raw line passes as written; only n_max takes each engine's spelling.
printf 'tiny | %s | -md %s | 3\n' "$MODEL" "$D" >"$T/spec"
run_tpsdb collect --engine old="$T/old" --engine new="$T/new" --engine fs="$FS" \
	--spec-manifest "$T/spec" --dry-run
expect_eq "$rc" 0 "raw line exit"
expect_match "$(sed -n 2p "$T/stdout")" " -md $D --draft-max 3\$" "raw line on b8390"
expect_match "$(sed -n 4p "$T/stdout")" " -md $D --spec-draft-n-max 3\$" "raw line on v0.4.0"
expect_match "$(sed -n 6p "$T/stdout")" " -md $D --spec-draft-n-max 3\$" "raw line, dialect unknown"
echo ok
