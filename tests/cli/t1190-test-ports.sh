#!/usr/bin/env bash
# t1190-test-ports.sh: the CLI tests' port allocator (tests/port_alloc.py, free_port
# in collect-lib.sh) never hands out one port twice, even to callers asking at the
# same moment, and never a port with a socket on it: LISTEN, or TIME_WAIT (which
# collect refuses too). A reservation lasts while its owner lives, --release drops
# it, and a test whose fault server listened outside its ports fails.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"

# Forty ports of our own from the shared allocator; the checks below run a private
# registry over them (TPSDB_PORT_DIR, TPSDB_PORT_RANGE), so no test beside this one
# can be handed them meanwhile.
base=$(free_port 40)
alloc() { # <lo> <hi> <port_alloc.py args...>
	local lo=$1 hi=$2
	shift 2
	TPSDB_PORT_DIR=$T/reg TPSDB_PORT_RANGE=$lo-$hi python3 "$TPSDB_SRC/tests/port_alloc.py" "$@"
}

# 1. Thirty callers at once over thirty ports: thirty different ports, all in range.
mkdir "$T/got"
for i in $(seq 1 30); do
	alloc "$base" $((base + 29)) --owner $$ >"$T/got/$i" 2>&1 &
done
wait
got=$(cat "$T/got"/* | sort -n)
expect_eq "$(printf '%s\n' "$got" | grep -c '^[0-9][0-9]*$')" 30 "answers: $got"
expect_eq "$(printf '%s\n' "$got" | uniq | wc -l)" 30 "distinct ports: $got"
expect_eq "$(printf '%s\n' "$got" | head -n 1) $(printf '%s\n' "$got" | tail -n 1)" \
	"$base $((base + 29))" "the range"
# The range is spent while its owner lives: one line, exit 1.
rc=0
alloc "$base" $((base + 29)) --owner $$ >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 1 "a spent range"
expect_eq "$(cat "$T/err")" \
	"port_alloc.py: no 1 free consecutive ports from $base to $((base + 29))" "its message"

# 2. --release gives them back; six callers of blocks of three then share the thirty
# without overlap (six fit wherever each lands: a block and the gap of at most two
# before it take five).
alloc "$base" $((base + 29)) --release $$ || fail "release"
rm -f "$T/got"/*
for i in $(seq 1 6); do
	alloc "$base" $((base + 29)) --count 3 --owner $$ >"$T/got/$i" 2>&1 &
done
wait
ports=$(for f in "$T/got"/*; do
	p=$(cat "$f")
	expect_match "$p" '^[0-9]+$' "a block"
	echo "$p"; echo $((p + 1)); echo $((p + 2))
done | sort -n)
expect_eq "$(printf '%s\n' "$ports" | uniq | wc -l)" 18 "blocks overlap: $ports"
alloc "$base" $((base + 29)) --release $$ || fail "release"

# 3. A port something listens on is skipped, and so is one in TIME_WAIT: base+30
# listens, base+32 keeps a connection its server closed first.
python3 - "$((base + 30))" "$((base + 32))" "$T/ready" <<'PY' &
import socket, sys, time
listen, tw, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
s = socket.socket()
s.bind(("127.0.0.1", listen))
s.listen()
t = socket.socket()
t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind(("127.0.0.1", tw))
t.listen()
c = socket.create_connection(("127.0.0.1", tw))
a, _ = t.accept()
a.close()                 # the server's side closes first: TIME_WAIT on port tw
c.recv(1)
c.close()
t.close()
open(ready, "w").close()
time.sleep(120)
PY
holder=$!
deadline=$((SECONDS + 30))
until [ -e "$T/ready" ]; do
	kill -0 "$holder" 2>/dev/null || fail "the listener did not start"
	[ "$SECONDS" -lt "$deadline" ] || fail "the listener did not start in 30 s"
	sleep 0.05
done
tw=$(printf '%04X' $((base + 32)))
grep -Eq "^ *[0-9]+: [0-9A-F]+:$tw [0-9A-F]+:[0-9A-F]+ 06 " /proc/net/tcp ||
	fail "no TIME_WAIT on $((base + 32)): $(grep ":$tw " /proc/net/tcp)"
expect_eq "$(alloc $((base + 30)) $((base + 31)) --owner $$)" $((base + 31)) "LISTEN skipped"
expect_eq "$(alloc $((base + 32)) $((base + 33)) --owner $$)" $((base + 33)) "TIME_WAIT skipped"
rc=0
alloc $((base + 30)) $((base + 30)) --owner $$ >/dev/null 2>&1 || rc=$?
expect_eq "$rc" 1 "a range of one listening port"
# A block is free only as a whole: base+30 listens, so two from base+29 is not.
rc=0
alloc $((base + 29)) $((base + 31)) --count 2 --owner $$ >"$T/out" 2>&1 || rc=$?
expect_eq "$rc $(cat "$T/out")" \
	"1 port_alloc.py: no 2 free consecutive ports from $((base + 29)) to $((base + 31))" \
	"a block across a listening port"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true

# 4. A reservation whose owner is gone is taken back; a live one is not.
true &
dead=$!
wait "$dead"
expect_eq "$(alloc $((base + 34)) $((base + 34)) --owner "$dead")" $((base + 34)) "first owner"
expect_eq "$(alloc $((base + 34)) $((base + 34)) --owner $$)" $((base + 34)) "taken back"
rc=0
alloc $((base + 34)) $((base + 34)) --owner $$ >/dev/null 2>&1 || rc=$?
expect_eq "$rc" 1 "a live owner's port"

# 5. free_port's own check: a fault server started outside the test's ports fails
# the test that would have passed; inside them it passes.
cat >"$T/inner.sh" <<'SH'
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
p=$(free_port 2)
"$FS" --port $((p + $1)) --help >/dev/null
SH
rc=0
bash "$T/inner.sh" 1 >"$T/out" 2>&1 || rc=$?
expect_eq "$rc" 0 "inside: $(cat "$T/out")"
rc=0
bash "$T/inner.sh" 2 >"$T/out" 2>&1 || rc=$?
expect_eq "$rc" 1 "outside"
expect_match "$(cat "$T/out")" "^FAIL: a fault server listened on [0-9]+, outside this test's ports \([0-9]+ 2 \): ask free_port for more" "outside: its message"
echo ok
