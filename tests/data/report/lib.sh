# lib.sh: shared setup for the report, plot and trend CLI tests (tests/cli/t05NN-*.sh
# source it). Each test gets a fresh store in a temporary folder, filled from the
# export-format fixtures gen_fixtures.py wrote (fixed run uuids and start times).
set -eu
: "${TPSDB_BIN:?TPSDB_BIN must name the tpsdb binary}"
: "${TPSDB_TEST_DATA:?TPSDB_TEST_DATA must name tests/data}"

. "${TPSDB_SRC:?TPSDB_SRC must name the source tree}/tests/cli/skip-lib.sh" || exit 1
no_golden_update_in_ci
FIX=$TPSDB_TEST_DATA/report
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TPSDB_DB=$TMP/store.sqlite

. "$TPSDB_SRC/tests/cli/tps-lib.sh" || exit 1

# load <fixture>: imports one of the fixtures.
load() {
	"$TPSDB_BIN" import "$FIX/$1" >/dev/null || fail "import of $1"
}

# golden <name> <file>: <file> must equal $FIX/<name> byte for byte. With
# TPSDB_UPDATE_GOLDEN=1 the golden file is rewritten first (review the diff).
golden() {
	if [ "${TPSDB_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$2" "$FIX/$1"
	fi
	cmp "$FIX/$1" "$2" >&2 || { diff -u "$FIX/$1" "$2" | head -40 >&2; fail "$2 differs from $1"; }
}

# need_gnuplot [<tool>...]: skips the test (exit 77; a failure under CI=true) where
# gnuplot, or one of the other tools named, is not installed.
need_gnuplot() {
	need gnuplot "$@"
}

browse() { # <out> <args>...: chromium, offline and quiet, with a private profile
	local out=$1
	shift
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TMP/profile" --enable-logging=stderr --v=0 "$@" \
		>"$out" 2>"$out.log" || { tail -5 "$out.log" >&2; fail "chromium $*"; }
}

# png_real <file> <width> <height>: <file> is a PNG of that size whose pixels are
# many colours (a blank page is one colour, a page with tables is many).
png_real() {
	python3 - "$@" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", b[16:24])
assert (w, h) == (int(sys.argv[2]), int(sys.argv[3])), (w, h)
data, i = b"", 8
while i < len(b):
    n, kind = struct.unpack(">I4s", b[i:i + 8])
    if kind == b"IDAT":
        data += b[i + 8:i + 8 + n]
    i += 12 + n
raw = zlib.decompress(data)
assert len(b) > 20000 and len(set(raw)) > 50, "a near-empty picture"
PY
}

# load_history_versioned: imports history.jsonl as $TMP/h.jsonl, where every run's
# engine version is its tag (b100 ...) and the steady runs share the batch B1.
load_history_versioned() {
	jq -c '.run.engine.version = .run.tag |
		if .run.engine.label == "steady" then .run.batch = "B1" else . end' \
		"$FIX/history.jsonl" >"$TMP/h.jsonl"
	"$TPSDB_BIN" import "$TMP/h.jsonl" >/dev/null || fail "import"
}
