#!/usr/bin/env bash
# t1110-collect-signal-smi.sh (issue 39): a signal is answered at once while
# nvidia-smi hangs (a wedged driver; the fake one here `exec sleep`s). Before, each
# call waited out its 10 s deadline before the signal was looked at: SIGTERM 3 s in
# ended collect 17 s later, past the 10 s `docker stop` gives before SIGKILL.
# 1. nvidia-smi hangs from its first call (the host's GPU, before any run): exit 3,
#    "interrupted by signal 15 before the first run", no run stored.
# 2. it answers the host's two queries and hangs at the run's first (the GPU as
#    the server finds it): the run is stored 'interrupted', no server started, the
#    summary says so, exit 3.
# Each time the hung nvidia-smi is gone and no fault server outlives tpsdb.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
. "$TPSDB_SRC/tests/cli/signal-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here
mkdir -p "$T/bin"
cat >"$T/bin/nvidia-smi" <<SH
#!/bin/sh
if [ -e "$T/answer-host" ]; then
	case "\$*" in
	*--query-gpu=name,driver_version*) echo 'NVIDIA Fake GPU, 570.86'; exit 0 ;;
	'') echo '| NVIDIA-SMI 570.86   Driver Version: 570.86   CUDA Version: 12.8 |'; exit 0 ;;
	esac
fi
echo \$\$ >>"$T/smi.pids"
exec sleep 3600
SH
chmod +x "$T/bin/nvidia-smi"
collect() {
	PATH=$T/bin:$PATH exec "$TPSDB_BIN" --db "$DB" collect --engine e="$FS" \
		--model m="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 8 \
		--port "$PORT" --out-dir "$OUT"
}

term_when_hung "nvidia-smi hangs at the host's query" "$T/smi.pids" collect
expect_eq "$rc" 3 "exit status, host query"
expect_eq "$(cat "$T/stderr")" "tpsdb: error: interrupted by signal 15 before the first run" \
	"the error, host query"
expect_eq "$(q "SELECT count(*) FROM run")" 0 "runs, host query"
expect_no_orphans

rm -f "$DB"*
touch "$T/answer-host"
term_when_hung "nvidia-smi hangs at the run's query" "$T/smi.pids" collect
expect_eq "$rc" 3 "exit status, run query"
expect_match "$(cat "$T/stderr")" "^tpsdb: error: interrupted by signal 15: the servers are stopped" \
	"the error, run query"
expect_eq "$(q "SELECT status FROM run")" interrupted "the run is stored interrupted"
expect_eq "$(q "SELECT gpu FROM host")" "NVIDIA Fake GPU" "the host's answers kept"
grep -q '^m  *e  *-  *interrupted ' "$OUT/summary.txt" || fail "summary: $(cat "$OUT/summary.txt")"
# A server's log is opened as it starts: none.
[ -z "$(find "$OUT" -name '*.log')" ] || fail "a server was started after the signal"
expect_no_orphans
echo ok
