# signal-lib.sh: what t1110-t1113 share, sourced after collect-lib.sh (or with $T
# and fail() defined): a command started in the background, stopped with SIGTERM
# once the child it waits on hangs, and the delay to its exit.
#
# term_when_hung <what> <pid file> <command...>: runs the command in the background
# (a shell function must exec tpsdb, so that the signal reaches tpsdb and not a
# subshell; stdout and stderr into $T/stdout and $T/stderr), waits (up to two
# minutes, a loaded host) until the hung child wrote its pid into <pid file>, waits
# 1 s more (well into the wait on it), sends SIGTERM and sets $rc and $delay_ms
# (SIGTERM to exit).
# Then every pid in the file must be gone (gone()): the hung child and what it forked.
# The delay is printed; a bound of 3 s guards against a hang (the issue asks for a
# second; before, each nvidia-smi call waited out its 10 s deadline first).
# gone <pid>: the process has ended (or is a zombie: a grandchild that SIGKILL
# reached is reaped by init, not by tpsdb), within 2 s of tpsdb's exit.
gone() {
	local st
	for _ in $(seq 1 100); do
		st=$(ps -o stat= -p "$1" 2>/dev/null) || return 0
		case $st in Z*) return 0 ;; esac
		sleep 0.02
	done
	return 1
}

term_when_hung() {
	local what=$1 pids=$2 pid t0 p
	shift 2
	rm -f "$pids"
	"$@" >"$T/stdout" 2>"$T/stderr" &
	pid=$!
	for _ in $(seq 1 1200); do
		[ -s "$pids" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[ -s "$pids" ] || fail "$what: the child never hung ($(cat "$T/stderr"))"
	sleep 1
	t0=$(date +%s%N)
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	delay_ms=$((($(date +%s%N) - t0) / 1000000))
	echo "$what: exit $rc, $delay_ms ms after SIGTERM" >&2
	[ "$delay_ms" -lt 3000 ] || fail "$what: SIGTERM answered after $delay_ms ms"
	for p in $(cat "$pids"); do
		if ! gone "$p"; then
			ps -o pid,pgid,stat,args -p "$p" >&2 || true
			fail "$what: the hung child $p outlived tpsdb"
		fi
	done
}
