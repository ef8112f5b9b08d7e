#!/usr/bin/env bash
# scripts/gpu-bundle.sh: fills .gpu/ (ignored by git) with what scripts/gpu-proof.sh
# needs on a CUDA machine that has no package registry: the llama.cpp source of
# node-llama-cpp 3.21.1 (src.tgz, llama.cpp v0.4.0) and of 3.18.1 (src-b8390.tgz,
# llama.cpp b8390, for scripts/gpu-versions.sh), gguf-py with the llama-spm vocab,
# and a release tpsdb with the shared libraries it links, found through an rpath
# of $ORIGIN/lib.
set -euo pipefail
cd "$(dirname "$0")/.."
g=.gpu
mkdir -p "$g/lib"
llama=$(scripts/llama-server.sh | tail -n 1)
cache=${TPSDB_CACHE:-$HOME/.cache/tpsdb}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/llama-server.sh --nlc 3.18.1 >/dev/null # fetches the older release's package
pack() { # <node-llama-cpp version> <tgz>
	rm -rf "$tmp/package" "$tmp/src"
	tar xzf "$cache/node-llama-cpp-$1.tgz" -C "$tmp" package/llama/gitRelease.bundle
	git clone -q "$tmp/package/llama/gitRelease.bundle" "$tmp/src"
	tar czf "$2" -C "$tmp/src" --exclude=.git --exclude=./docs --exclude=./models \
		--exclude=./benches .
}
pack 3.21.1 "$g/src.tgz"
pack 3.18.1 "$g/src-b8390.tgz"
rm -rf "$g/gguf-py"
cp -r "$llama/gguf-py" "$g/"
cp "$llama/models/ggml-vocab-llama-spm.gguf" "$g/"
cmake -S . -B build/gpu -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/gpu -j"$(nproc)" --target tpsdb >/dev/null
cp build/gpu/tpsdb "$g/tpsdb"
ldd "$g/tpsdb" | awk '$3 ~ /^\// {print $3}' | grep -Ev '/(libc|libm|libpthread|libdl|libresolv|librt|ld-linux[^/]*)\.so' |
	xargs -I{} cp -L {} "$g/lib/"
command -v patchelf >/dev/null || apt-get install -y -qq patchelf >/dev/null
patchelf --force-rpath --set-rpath '$ORIGIN/lib' "$g/tpsdb"
du -sh "$g"
