#!/usr/bin/env bash
# t0302-collect-refuse-missing.sh: collect refuses what cannot run before anything
# starts. An engine binary (--engine, OURS_BIN) that is missing, not found in PATH,
# not a regular file or not executable, and a model file (--model, a models manifest
# line, a spec manifest's drafter) that is missing, not a regular file or unreadable,
# are one error line naming the option or the manifest file and line, the path and
# the cause; exit 2, with and without --dry-run; no server starts, no out dir is
# made, and the store is not created (or, when it holds runs, is left byte for byte).
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

mkdir "$T/bin" "$T/adir"
cp "$FS" "$T/noexec"
chmod 644 "$T/noexec"
ln -s "$FS" "$T/bin/fs-in-path"
cp "$MODEL" "$T/locked.gguf"
chmod 000 "$T/locked.gguf"
printf 'tiny | %s\n# a comment\n\nlost | %s/missing.gguf | -ngl 1\n' "$MODEL" "$T" >"$T/models"
printf 'tiny | %s\n' "$MODEL" >"$T/good-models"
printf 'tiny | %s | --spec-type draft-simple -md %s/no-draft.gguf | 1,2\n' "$MODEL" "$T" \
	>"$T/spec"
unset OURS_BIN STOCK_LLAMAFILE STOCK_LLAMACPP MODELS_MANIFEST MTP_MANIFEST

common=(--prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 8 --port "$port"
	--out-dir "$OUT" --quiet --load-timeout 5)
E="tpsdb: error:"
ENOENT="No such file or directory"

# The store as it was before the command: absent, or a copy of it in $T/before.
store_unchanged() { # <what>
	if [ -e "$T/before" ]; then
		cmp -s "$T/before" "$DB" || fail "$1: the store changed"
	else
		[ ! -e "$DB" ] || fail "$1: the store was created"
	fi
	[ ! -e "$DB-wal" ] || fail "$1: the store has a -wal"
}

# refused <stderr line> <collect args...>: run once as given and once with
# --dry-run; each exits 2 with exactly that line on stderr, nothing on stdout, no
# out dir, no server left and the store unchanged.
refused() {
	local want=$1 dry
	shift
	for dry in "" --dry-run; do
		# shellcheck disable=SC2086
		run_tpsdb collect "$@" "${common[@]}" $dry
		expect_eq "$rc" 2 "exit status of: collect $* $dry"
		expect_eq "$(cat "$T/stderr")" "$want" "stderr of: collect $* $dry"
		[ ! -s "$T/stdout" ] || fail "collect $* $dry: stdout: $(cat "$T/stdout")"
		[ ! -e "$OUT" ] || fail "collect $* $dry: made the out dir"
		store_unchanged "collect $* $dry"
		expect_no_orphans
	done
}

cases() {
	# Engines.
	refused "$E --engine 'ours': cannot run '$T/no-such-server': $ENOENT" \
		--engine ours="$T/no-such-server" --model tiny="$MODEL"
	refused "$E --engine 'ours': cannot run '$T/noexec': not executable" \
		--engine ours="$T/noexec" --model tiny="$MODEL"
	refused "$E --engine 'ours': cannot run '$T/adir': not a regular file" \
		--engine ours="$T/adir" --model tiny="$MODEL"
	# A bare name is looked up in PATH, as the server will be started.
	refused "$E --engine 'ours': cannot run 'tpsdb-no-such-server': not found in PATH" \
		--engine ours=tpsdb-no-such-server --model tiny="$MODEL"
	# The second engine is checked too, and the first failure is the one line.
	refused "$E --engine 'b': cannot run '$T/no-such-server': $ENOENT" \
		--engine a="$FS" --engine b="$T/no-such-server" --model tiny="$T/missing.gguf"
	# The seed harness's drop-in names its variable.
	OURS_BIN=$T/no-such-server MODELS_MANIFEST=$T/good-models \
		refused "$E OURS_BIN: cannot run '$T/no-such-server': $ENOENT"

	# Models.
	refused "$E --model 'tiny': cannot read '$T/missing.gguf': $ENOENT" \
		--engine ours="$FS" --model tiny="$T/missing.gguf"
	refused "$E --model 'tiny': cannot read '$T/adir': not a regular file" \
		--engine ours="$FS" --model tiny="$T/adir"
	# chmod 000 does not stop root from reading: as root the directory above stands
	# in for an unreadable model, and this case is left out.
	if [ "$(id -u)" != 0 ]; then
		refused "$E --model 'tiny': cannot read '$T/locked.gguf': Permission denied" \
			--engine ours="$FS" --model tiny="$T/locked.gguf"
	fi
	refused "$E $T/models:4: cannot read '$T/missing.gguf': $ENOENT" \
		--engine ours="$FS" --models "$T/models"
	refused "$E $T/spec:1: cannot read '$T/no-draft.gguf': $ENOENT" \
		--engine ours="$FS" --models "$T/good-models" --spec-manifest "$T/spec"
}

# No store yet: none is made.
cases
[ "$(id -u)" != 0 ] || echo "t0302: running as root: the chmod 000 model case is left out" >&2

# A good setup still plans: exit 0, one line per run, with a binary found in PATH.
printf 'tiny | %s | --spec-type draft-simple -md %s | 1,2\n' "$MODEL" "$MODEL" >"$T/spec.ok"
PATH=$T/bin:$PATH run_tpsdb collect --engine ours="$FS" --engine path=fs-in-path \
	--models "$T/good-models" --spec-manifest "$T/spec.ok" "${common[@]}" --dry-run
expect_eq "$rc" 0 "dry run of a good setup"
expect_eq "$(cat "$T/stderr")" "" "stderr of a good dry run"
expect_eq "$(wc -l <"$T/stdout" | tr -d ' ')" 6 "runs of a good dry run"
grep -q "^2/6 tiny ours (other) n_max=1 .*: $FS --host" "$T/stdout" ||
	fail "good dry run: $(cat "$T/stdout")"
grep -q "^4/6 tiny path (other) base: fs-in-path --host" "$T/stdout" ||
	fail "good dry run: $(cat "$T/stdout")"
store_unchanged "good dry run"

# A store with runs in it: every refusal leaves it byte for byte.
"$TPSDB_BIN" --db "$DB" import --engine seed "$TPSDB_TEST_DATA/analyze-cli/gate-dense-v1.jsonl" \
	>/dev/null
[ "$(q "SELECT count(*) FROM run")" -gt 0 ] || fail "the seed import stored no run"
cp "$DB" "$T/before"
cases
echo ok
