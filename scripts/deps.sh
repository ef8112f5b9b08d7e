#!/usr/bin/env bash
# scripts/deps.sh: installs, with apt-get, whatever tpsdb needs to build, test and
# run its end-to-end job that this Debian 12 machine lacks: every tool a test calls
# (jq, python3, python3-mpmath for tests/data/analyze/reference.py, sqlite3, gnuplot,
# chromium for the HTML report's browser test t0531; python3-requests and
# python3-tqdm for llama.cpp's speed_bench.py, which tests/data/speed-bench/make.sh runs;
# python3-git and python3-tabulate for llama.cpp's own scripts/compare-llama-bench.py,
# which t1140 runs against tpsdb compare; python3-yaml for t1180, which reads
# the shape of the shipped workflow docs/ci/tpsdb-nightly.yml;
# strace for the aimed kills of t0852 and t1210-t1214, time for t0744's peak memory; man-db and
# groff-base for t1130, which formats the installed manual pages),
# since under CI=true a test that would skip fails. Installs nothing that is
# already there, so a warm machine pays a dpkg query and no more.
set -euo pipefail

pkgs=(build-essential cmake pkg-config git ca-certificates
      libsqlite3-dev libcurl4-openssl-dev libcjson-dev libcmocka-dev libssl-dev
      sqlite3 gnuplot-nox chromium python3 python3-numpy python3-mpmath
      python3-requests python3-tqdm python3-git python3-tabulate python3-yaml jq valgrind clang procps curl strace time
      man-db groff-base)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
# node and npm fetch llama.cpp's source (node-llama-cpp); any install will do.
if ! command -v npm >/dev/null 2>&1; then
	missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >&2
fi
