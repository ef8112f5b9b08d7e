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
	local st=$? bad=
	# A test that failed half-way may leave a server behind (a fault server, or a
	# llama-server started through a link in $T); never the suite.
	for pid in $(pgrep -f "fault_server.py .*$T|^$T/" 2>/dev/null); do
		kill -KILL "$pid" 2>/dev/null || true
	done
	# Every fault server must have listened inside the test's port blocks: one
	# past them could meet a neighbour's server (free_port says how to size).
	if [ "$st" = 0 ] && [ -s "$T/ports" ] && [ -s "$T/fs-ports" ]; then
		local p lo n inside
		for p in $(sort -un "$T/fs-ports"); do
			inside=
			while read -r lo n; do
				if [ "$p" -ge "$lo" ] && [ "$p" -lt $((lo + n)) ]; then inside=1; fi
			done <"$T/ports"
			if [ -z "$inside" ]; then
				echo "FAIL: a fault server listened on $p, outside this test's" \
					"ports ($(tr '\n' ' ' <"$T/ports")): ask free_port for more" >&2
				bad=1
			fi
		done
	fi
	python3 "$TPSDB_SRC/tests/port_alloc.py" --release $$ 2>/dev/null || true
	rm -rf "$T"
	# Only ever turns a pass into a failure (a trap that calls this may not
	# have kept the test's status in $?).
	[ -z "$bad" ] || exit 1
}
trap collect_cleanup EXIT

# free_port [n]: the first of n (default 60) consecutive TCP ports on 127.0.0.1,
# reserved for this test until it exits (collect_cleanup releases them; a test
# that died leaves them to be taken back). tests/port_alloc.py picks them under a
# lock, below the kernel's ephemeral range, skipping every port that another test
# holds or that has a socket in any state (TIME_WAIT and LISTEN included), so
# tests running beside each other (ctest -j, other build trees) never share one.
# collect --port is a base: each server starts on the first free port from there,
# and a port its last server's connections left in TIME_WAIT is not free for a
# minute, so a test's collects walk up one port per server they start: a test
# that starts many servers asks for more (its largest --port offset plus the
# servers its last collect starts). A server started on a port itself asks for 1.
# Every test takes its ports here (the fixed ports of t11NN went at the merge).
free_port() {
	local base
	base=$(python3 "$TPSDB_SRC/tests/port_alloc.py" --count "${1:-60}" --owner $$) ||
		fail "no free port for this test"
	echo "$base ${1:-60}" >>"$T/ports"
	echo "$base"
}

# wait_listening <port> [seconds]: until something accepts connections on
# 127.0.0.1:<port> (a server a test started itself), 30 s at most.
wait_listening() {
	local deadline=$((SECONDS + ${2:-30}))
	until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do
		[ "$SECONDS" -lt "$deadline" ] || fail "nothing listens on 127.0.0.1:$1 after ${2:-30} s"
		sleep 0.05
	done
}

FS=$T/fault-server
# The fault server notes the port it is started on (collect_cleanup checks it).
printf '#!/bin/sh\nfor a; do [ "$p" = --port ] && echo "$a" >>"%s/fs-ports"; p=$a; done\nexec python3 "%s/tests/fault_server.py" "$@"\n' \
	"$T" "$TPSDB_SRC" >"$FS"
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

# big_tiny_servers: $T/ours-server and $T/up-server, fault servers picking by the
# model path (the fault server answers for any model): on $T/big-Q4_K_M.gguf (a copy
# of $MODEL) ours runs 2% slower than up and both scatter 3%, on any other model
# both scatter 0.2%. big_tiny_seeds resets their seeds.
big_tiny_servers() {
	cat >"$T/ours-server" <<SH
#!/bin/sh
case "\$*" in
*big-*) exec "$FS" "\$@" --slow 1.02 --jitter 0.03 --seed-file "$T/seed-ours-big" ;;
*) exec "$FS" "\$@" --jitter 0.002 --seed-file "$T/seed-ours" ;;
esac
SH
	cat >"$T/up-server" <<SH
#!/bin/sh
case "\$*" in
*big-*) exec "$FS" "\$@" --jitter 0.03 --seed-file "$T/seed-up-big" ;;
*) exec "$FS" "\$@" --jitter 0.002 --seed-file "$T/seed-up" ;;
esac
SH
	chmod +x "$T/ours-server" "$T/up-server"
	cp "$MODEL" "$T/big-Q4_K_M.gguf"
}
big_tiny_seeds() {
	rm -f "$T/seed-ours"
	echo 100 >"$T/seed-up"
	echo 200 >"$T/seed-ours-big"
	echo 300 >"$T/seed-up-big"
}

# wait_samples <n>: waits until the store $DB holds at least <n> samples (up to a
# minute and more: a loaded host), or fails.
wait_samples() {
	local _
	for _ in $(seq 1 1200); do
		n=$(q "SELECT count(*) FROM sample" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge "$1" ] && return 0
		sleep 0.05
	done
	fail "no samples arrived"
}
