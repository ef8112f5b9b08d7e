#!/usr/bin/env bash
# t0906-collect-smi-bounded.sh (issue 29): nvidia-smi's output is bounded while it
# is written, not only while tpsdb reads it. A fake nvidia-smi that answers the
# provenance query with its line and then 50 MB more is stopped by the 1 MiB
# limit (PROVENANCE_SMI_MAX, a file-size limit on the child): it never gets to
# write the rest (before, all 50 MB went into TMPDIR and the first MiB was taken
# as the answer), the query counts as failed (no GPU facts, as for a hang), and
# the run is stored.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
export TPSDB_HOST_BUSY_PCT=100 # this test is about nvidia-smi, not the host
mkdir -p "$T/bin"
cat >"$T/bin/nvidia-smi" <<SH
#!/bin/sh
case "\$*" in
*--query-gpu=name,driver_version*)
	printf 'NVIDIA Fake GPU, 570.86\n'
	head -c 50000000 /dev/zero || exit 1
	: >"$T/smi-wrote-all"
	exit 0 ;;
esac
exit 9
SH
chmod +x "$T/bin/nvidia-smi"
PATH=$T/bin:$PATH run_tpsdb collect --engine ours="$FS" \
	--model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 8 \
	--port "$port" --out-dir "$OUT" --quiet
expect_eq "$rc" 0 "collect exit ($(cat "$T/stderr"))"
expect_no_orphans
expect_eq "$(q "SELECT count(*) FROM run")" 1 "runs stored"
[ ! -e "$T/smi-wrote-all" ] || fail "nvidia-smi wrote all 50 MB"
expect_eq "$(q "SELECT coalesce(gpu, '') || '|' || coalesce(driver, '') FROM host")" "|" \
	"no GPU facts from an answer over the limit"
exit 0
