# collect-lib.sh: what the tests/cli/t03NN-collect-*.sh scripts share, sourced by
# each: a temporary directory removed on exit (with any fault server still in it
# killed first), a wrapper that runs tests/fault_server.py as a server binary, a
# stand-in model file, a two-prompt file and small assertion helpers.
set -eu
: "${TPSDB_BIN:?TPSDB_BIN must name the tpsdb binary}"
: "${TPSDB_SRC:?TPSDB_SRC must name the source tree}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3 sqlite3

# Other tests running beside these keep the CPUs busy at times: a collect would
# then find its instances host-busy, wait for quiet and measure them again
# (--wait-quiet), which no test but the host's own asks for. t0902 and t0907 set
# the share they test.
export TPSDB_HOST_BUSY_PCT=100

T=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-collect.XXXXXX")
collect_cleanup() {
	# A test that failed half-way may leave a server behind (a fault server, or a
	# llama-server started through a link in $T); never the suite.
	for pid in $(pgrep -f "fault_server.py .*$T|^$T/" 2>/dev/null); do
		kill -KILL "$pid" 2>/dev/null || true
	done
	rm -rf "$T"
}
trap collect_cleanup EXIT

FS=$T/fault-server
printf '#!/bin/sh\nexec python3 "%s/tests/fault_server.py" "$@"\n' "$TPSDB_SRC" >"$FS"
chmod +x "$FS"
MODEL=$T/tiny-Q4_K_M.gguf
printf 'not really a gguf\n' >"$MODEL"
PROMPTS=$T/prompts.txt
printf '## alpha\nSay something.\n\n## beta\nSay something else.\n' >"$PROMPTS"
DB=$T/t.sqlite
OUT=$T/out

q() { sqlite3 "$DB" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_eq <actual> <expected> <what>
expect_eq() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }
# expect_match <text> <extended regex> <what>
expect_match() { printf '%s' "$1" | grep -Eq -- "$2" || fail "$3: '$1' does not match /$2/"; }
# Runs tpsdb, keeping stdout, stderr and the exit status in $T/{stdout,stderr} and $rc.
run_tpsdb() {
	rc=0
	"$TPSDB_BIN" --db "$DB" "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
}
# No fault server of this test may survive tpsdb.
expect_no_orphans() {
	if pgrep -f "fault_server.py .*$T" >/dev/null; then
		ps -o pid,pgid,args -p "$(pgrep -d, -f "fault_server.py .*$T")" >&2 || true
		fail "a fault server outlived tpsdb"
	fi
}

# fake_gpu: the stand-in nvidia-smi (tests/data/env/fake-nvidia-smi) first on PATH,
# one H200-like GPU ($U) idle before each start and busy while it computes; then
# gpu_quiet: the run's server the GPU's only compute process, gpu_shared: another
# one (4242) beside it, so every run after it is gpu-contended.
fake_gpu() {
	mkdir -p "$T/smi" "$T/bin"
	cp "$TPSDB_SRC/tests/data/env/fake-nvidia-smi" "$T/bin/nvidia-smi"
	export FAKE_SMI_DIR=$T/smi FAKE_SMI_MATCH=$T/
	export PATH=$T/bin:$PATH
	U=GPU-126aafaa-0ab6-8564-0efb-4bc7fb502cc3
	echo "0, $U, 0, 1980, 3201, 36, 78.9, 0x0000000000000000" >"$T/smi/before.csv"
	echo "0, $U, 97, 1980, 3201, 50, 600, 0x0000000000000000" >"$T/smi/during.csv"
}
gpu_quiet() { printf 'SERVER, %s\n' "$U" >"$T/smi/apps.csv"; }
gpu_shared() { printf 'SERVER, %s\n4242, %s\n' "$U" "$U" >"$T/smi/apps.csv"; }

# real_llama: a real llama-server, built or cached by scripts/llama-server.sh ($dir,
# its folder; $cache, the cache), and the tests' tiny model ($tiny); skips the test
# when no server can be built here. The servers run one CPU thread
# (LLAMA_ARG_THREADS, llama-server's own variable for -t): two threads meet at a
# spinning barrier per operation, and beside other CPU-bound jobs a preempted one
# holds the other spinning for its time slice, so decode ran 18x slower (35 tok/s
# against 640) and t0390 took 25 minutes instead of 2.
real_llama() {
	export LLAMA_ARG_THREADS=1
	cache=${TPSDB_CACHE:-$HOME/.cache/tpsdb}
	mkdir -p "$cache"
	if ! dir=$("$TPSDB_SRC/scripts/llama-server.sh" 2>"$T/build.log" | tail -n 1) ||
		[ ! -x "$dir/bin/llama-server" ]; then
		tail -n 20 "$T/build.log" >&2
		skip "no llama-server could be built here"
	fi
	tiny=$cache/tpsdb-collect-tiny-F16.gguf
	"$TPSDB_SRC/scripts/tiny-model.sh" "$tiny" >/dev/null 2>"$T/tiny.log" ||
		{ cat "$T/tiny.log" >&2; fail "scripts/tiny-model.sh failed"; }
}
