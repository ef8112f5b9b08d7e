#!/usr/bin/env python3
"""port_alloc.py: hands CLI tests blocks of free TCP ports that no test beside
them holds, so parallel tests (ctest -j, several build trees, several checkouts
on one host) never meet on a port.

  port_alloc.py [--count N] [--owner PID]   prints the first port of a block of
                                            N consecutive ports, reserved for PID
  port_alloc.py --release PID               drops PID's reservations

A port is handed out only when, at the time of asking, every port of the block
  - is reserved by no live process (the registry, below),
  - has no socket in /proc/net/tcp or /proc/net/tcp6 in any state: LISTEN,
    ESTABLISHED, TIME_WAIT, ... (collect itself refuses a port in TIME_WAIT, and
    not every engine binds with SO_REUSEADDR), and
  - can be bound on 127.0.0.1 and on the wildcard address without SO_REUSEADDR
    (the kernel's own answer, for what /proc does not show).

The registry is a folder ($TPSDB_PORT_DIR, default ${TMPDIR:-/tmp}/tpsdb-ports)
with one file per reserved port holding its owner's pid; the choice and the
writing happen under flock on <registry>/lock, so two callers never get the same
port. An owner that is gone leaves stale files: they are taken back.

The ports come from below the kernel's ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range), from 25000 up, and not from bind(0):
bind(0) answers with a port of the range the kernel also gives every outgoing
connection, so between the answer and the server's bind a neighbour's client
socket could take it. Below 25000 sit the fixed ports of tests that predate
this (t11NN, 23100 and up). TPSDB_PORT_RANGE=lo-hi narrows the range (t1190
tests the allocator with it).
"""
import argparse
import fcntl
import os
import random
import socket
import sys

DEFAULT_LO = 25000


def port_range():
    env = os.environ.get("TPSDB_PORT_RANGE")
    if env:
        lo, hi = (int(x) for x in env.split("-", 1))
        return lo, hi
    hi = 32767
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            eph_lo = int(f.read().split()[0])
        if eph_lo - 1 >= DEFAULT_LO + 1000:
            hi = eph_lo - 1
        else:
            # The ephemeral range reaches down here: take the ports above it.
            hi = 65535
    except (OSError, ValueError, IndexError):
        pass
    return DEFAULT_LO, hi


def ports_on_host():
    """Local ports of every TCP socket of this network namespace, any state."""
    used = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as f:
                next(f, None)
                for line in f:
                    fields = line.split()
                    if len(fields) > 2:
                        used.add(int(fields[1].rsplit(":", 1)[1], 16))
        except OSError:
            pass
    return used


def bindable(port):
    for family, addr in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET, "0.0.0.0"),
                         (socket.AF_INET6, "::1")):
        try:
            s = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 here
        try:
            s.bind((addr, port))
        except OSError as e:
            if family == socket.AF_INET6 and e.errno == 99:  # EADDRNOTAVAIL
                continue
            return False
        finally:
            s.close()
    return True


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_of(reg, port):
    try:
        with open(os.path.join(reg, str(port))) as f:
            return int(f.read().strip() or "0")
    except (OSError, ValueError):
        return None


def reserved(reg, port):
    pid = owner_of(reg, port)
    if pid is None:
        return False
    if pid > 0 and alive(pid):
        return True
    try:
        os.unlink(os.path.join(reg, str(port)))  # its owner is gone
    except OSError:
        pass
    return False


def release(reg, pid):
    for name in os.listdir(reg):
        if name.isdigit() and owner_of(reg, int(name)) == pid:
            try:
                os.unlink(os.path.join(reg, name))
            except OSError:
                pass


def allocate(reg, count, owner):
    lo, hi = port_range()
    last = hi - count + 1
    if last < lo:
        return None
    used = ports_on_host()
    # A random start spreads callers over the range; the walk then tries every
    # start once.
    n = last - lo + 1
    first = random.randrange(n)
    for i in range(n):
        base = lo + (first + i) % n
        block = range(base, base + count)
        if any(p in used or reserved(reg, p) for p in block):
            continue
        if not all(bindable(p) for p in block):
            continue
        for p in block:
            tmp = os.path.join(reg, ".%d.%d" % (p, os.getpid()))
            with open(tmp, "w") as f:
                f.write("%d\n" % owner)
            os.rename(tmp, os.path.join(reg, str(p)))
        return base
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--owner", type=int, default=os.getppid())
    ap.add_argument("--release", type=int, metavar="PID")
    a = ap.parse_args()
    reg = os.environ.get("TPSDB_PORT_DIR") or os.path.join(
        os.environ.get("TMPDIR") or "/tmp", "tpsdb-ports")
    os.makedirs(reg, mode=0o1777, exist_ok=True)
    with open(os.path.join(reg, "lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if a.release is not None:
            release(reg, a.release)
            return 0
        if a.count < 1:
            print("port_alloc.py: --count must be at least 1", file=sys.stderr)
            return 2
        base = allocate(reg, a.count, a.owner)
    if base is None:
        lo, hi = port_range()
        print("port_alloc.py: no %d free consecutive ports from %d to %d"
              % (a.count, lo, hi), file=sys.stderr)
        return 1
    print(base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
