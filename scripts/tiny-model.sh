#!/usr/bin/env bash
# Make a random-weight llama GGUF with scripts/tiny-model.py, using the gguf-py
# and vocab that scripts/llama-server.sh caches. Does nothing when <out.gguf>
# was already made from the same options by the same tiny-model.py.
# Usage: scripts/tiny-model.sh [--cuda] <out.gguf> [tiny-model.py options]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
server_args=()
if [ "${1:-}" = --cuda ]; then
	server_args+=(--cuda)
	shift
fi
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
	echo "usage: scripts/tiny-model.sh [--cuda] <out.gguf> [--shape tiny|llama-1b|llama-3b|llama2-7b] [--seed <n>] [--n-embd <n>] ..."
	[ $# -lt 1 ] && exit 2
	exit 0
fi
out=$1
shift

# Debian's numpy lives in /usr/bin/python3; a python3 earlier on PATH may lack it.
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
	echo "tiny-model.sh: installing python3-numpy" >&2
	apt-get -o DPkg::Lock::Timeout=900 update >&2
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 \
		install -y --no-install-recommends python3-numpy >&2
fi

llama=$("$here/llama-server.sh" "${server_args[@]}" | tail -n 1)

stamp="$(sha256sum "$here/tiny-model.py" | cut -c1-16) $*"
if [ -s "$out" ] && [ "$(cat "$out.args" 2>/dev/null)" = "$stamp" ]; then
	echo "$out"
	exit 0
fi
rm -f "$out.args"
PYTHONPATH="$llama/gguf-py${PYTHONPATH:+:$PYTHONPATH}" "$py" "$here/tiny-model.py" "$out" \
	--vocab "$llama/models/ggml-vocab-llama-spm.gguf" "$@"
echo "$stamp" >"$out.args"
echo "$out"
