#!/usr/bin/env bash
# t1201-store-damaged.sh: every command of `tpsdb --help`, against a damaged store of
# every schema version (tests/data/schema/v<N>.sql, and the latest by migrating the
# newest), one table of cases: the file cut in half, random bytes over a page in its
# middle, a user_version that is not what its tables are (newer than tpsdb, one
# behind, one ahead), a missing table (sample), a file nothing may write (immutable
# via chattr +i as root, where permission bits do not bind; 0444 in a 0555 folder
# otherwise; that kind is left out as root without chattr), a directory in its place.
# Each case: no signal (rc > 128) and no hang; exit 0 or 1 only for a reader of a
# read-only store at the latest version (sound, only unwritable); every other case
# exit 3 with exactly one `tpsdb: error:` line and nothing on stdout (check may
# print its report); and in every case the store's bytes unchanged, no non-empty
# -wal and no -journal left beside it (a reader of a WAL store may leave an empty
# -wal and -shm, as t0722 allows). t0721 (which pages check names) and t0723 (an
# empty file) keep their own cases.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
# shellcheck source=tests/cli/skip-lib.sh
. "$(dirname "$0")/skip-lib.sh"
need sqlite3 python3
tmp_locked
S=$TPSDB_TEST_DATA/schema
D=$TPSDB_TEST_DATA/import
export TPSDB_BUSY_TIMEOUT=0 TPSDB_HELP_TIMEOUT=5

# The commands, from `tpsdb --help`: each listed command has a row here (a new
# command fails this test until it gets one).
declare -A args=(
	[collect]="--engine e=/bin/true --model m=/etc/hostname --prompts $TPSDB_TEST_DATA/versions/prompts.txt --reps 1 --port 23201"
	[calibrate]="--engine ours"
	[import]="--host h --engine e $D/completion.json"
	[runs]=""
	[models]=""
	[check]=""
	[export]=""
	[merge]="$tmp/src.db"
	[compare]="--ours ours --vs llama.cpp"
	[sweep]=""
	[baseline]="set b2 --engine ours"
	[gate]="--baseline upstream-b9859 --engine ours"
	[trend]=""
	[report]="--format md --no-plots"
	[plot]="trend --out $tmp/plot.svg"
	[plan]="--engine ours"
	[migrate]=""
)
# Commands that write the store (and so migrate an older one first).
writers=" collect calibrate import merge baseline migrate "
cmds=$("$TPSDB_BIN" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF >= 2 && $1 != "Commands:" {print $1}')
test "$(echo "$cmds" | wc -l)" -ge 17
for c in $cmds; do [ -n "${args[$c]+x}" ] || { echo "t1201: no row for command '$c'" >&2; exit 1; }; done

# A merge source that is sound, at the latest version.
"$TPSDB_BIN" --db "$tmp/src.db" import --host h --engine e "$D/completion.json" >/dev/null
latest=$(sqlite3 "$tmp/src.db" 'PRAGMA user_version')

versions=()
for f in "$S"/v[0-9]*.sql; do
	b=$(basename "$f" .sql)
	case $b in *-*) continue ;; esac
	versions+=("${b#v}")
done
mkdir "$tmp/clean"
for v in "${versions[@]}"; do sqlite3 "$tmp/clean/v$v.db" <"$S/v$v.sql"; done
cp "$tmp/clean/v${versions[-1]}.db" "$tmp/clean/v$latest.db"
"$TPSDB_BIN" --db "$tmp/clean/v$latest.db" migrate >/dev/null
versions+=("$latest")

# damage <kind> <version> <path>: makes the damaged store; returns 1 where the kind
# does not apply to that version.
damage() {
	local kind=$1 v=$2 p=$3 size
	cp "$tmp/clean/v$v.db" "$p"
	size=$(stat -c %s "$p")
	case $kind in
	truncated) truncate -s $((size / 2)) "$p" ;;
	random) python3 - "$p" "$v" <<'PY'
import random, sys
p, v = sys.argv[1], int(sys.argv[2])
data = bytearray(open(p, "rb").read())
page = 4096
mid = (len(data) // page // 2) * page       # the page in the middle, past page 1
rng = random.Random(1201 + v)
data[mid + 8:mid + page] = bytes(rng.randrange(256) for _ in range(page - 8))
open(p, "wb").write(data)
PY
		;;
	newer) sqlite3 "$p" 'PRAGMA user_version = 999' ;;
	behind) sqlite3 "$p" "PRAGMA user_version = $((v - 1))" ;;
	ahead) [ "$v" -lt "$latest" ] || return 1; sqlite3 "$p" "PRAGMA user_version = $((v + 1))" ;;
	notable) sqlite3 "$p" 'PRAGMA foreign_keys = OFF; DROP TABLE sample' ;;
	readonly) ;; # made so by the caller
	directory) rm -f "$p"; mkdir "$p" ;;
	esac
}

# state <path>: what must not change: the bytes (or a directory's listing), the
# bytes of a -wal beside it (a reader of a WAL store may leave an empty one, as
# t0722 allows), and no rollback journal (a half-done write) beside it.
state() {
	if [ -d "$1" ]; then find "$1" -mindepth 1 -printf '%P %s %m\n' | sort; else sha256sum <"$1"; fi
	[ ! -s "$1-wal" ] || { echo wal; sha256sum <"$1-wal"; }
	[ ! -e "$1-journal" ] || echo "a journal"
}

# The damaged images, made once per kind and version.
mkdir "$tmp/img"
for kind in truncated random newer behind ahead notable; do
	for v in "${versions[@]}"; do
		damage "$kind" "$v" "$tmp/img/$kind-$v.db" || rm -f "$tmp/img/$kind-$v.db"
	done
done

fails=0
fail() { echo "FAIL v$v $kind $c: $*" >&2; fails=$((fails + 1)); }

for kind in truncated random newer behind ahead notable readonly directory; do
	for v in "${versions[@]}"; do
		for c in $cmds; do
			dir=$tmp/case; rm -rf "$dir"; mkdir "$dir"
			db=$dir/store.db
			case $kind in
			readonly) cp "$tmp/clean/v$v.db" "$db" ;;
			directory) mkdir "$db" ;;
			*) [ -e "$tmp/img/$kind-$v.db" ] || continue; cp "$tmp/img/$kind-$v.db" "$db" ;;
			esac
			if [ "$kind" = readonly ]; then
				chmod 0444 "$db"; chmod 0555 "$dir"
				if [ "$(id -u)" = 0 ]; then
					if chattr +i "$db" 2>/dev/null; then immutable=$db; else chmod 0755 "$dir"; continue; fi
				fi
			fi
			before=$(state "$db")
			rc=0
			# shellcheck disable=SC2086
			(cd "$tmp" && exec timeout -s KILL 60 "$TPSDB_BIN" --db "$db" $c ${args[$c]}) \
				>"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
			after=$(state "$db")
			if [ "$kind" = readonly ]; then
				[ -z "$immutable" ] || { chattr -i "$immutable"; immutable=; }
				chmod 0755 "$dir"
			fi
			nerr=$(grep -c '^tpsdb: error: ' "$tmp/err" || true)
			# A sound answer: the store is usable as it is (a read-only store at the
			# latest version, to a reader).
			sound=
			case $kind in readonly) [ "$v" = "$latest" ] && case $writers in *" $c "*) ;; *) sound=1 ;; esac ;; esac
			if [ $rc -gt 128 ]; then
				fail "signal (exit $rc): $(tail -c 300 "$tmp/err")"
			elif [ -n "$sound" ]; then
				[ $rc -le 1 ] || fail "exit $rc on a sound read-only store: $(cat "$tmp/err")"
			elif [ $rc = 0 ] || [ $rc = 1 ]; then
				fail "exit $rc on a damaged store: $(head -c 300 "$tmp/err")"
			elif [ $rc != 3 ]; then
				fail "exit $rc, not 3: $(head -c 300 "$tmp/err")"
			elif [ "$nerr" != 1 ]; then
				fail "$nerr error lines: $(head -c 500 "$tmp/err")"
			elif [ -s "$tmp/out" ] && [ "$c" != check ]; then
				fail "output on stdout: $(head -c 200 "$tmp/out")"
			fi
			if [ "$before" != "$after" ]; then
				fail "the store changed: $(diff <(echo "$before") <(echo "$after") | head -5 | tr '\n' ' ')"
			fi
		done
	done
done
if [ $fails != 0 ]; then
	echo "t1201: $fails cases failed" >&2
	exit 1
fi
