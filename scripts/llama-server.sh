#!/usr/bin/env bash
# Build a real llama-server and llama-bench from the llama.cpp source that the
# node-llama-cpp npm package ships (llama/gitRelease.bundle), and cache them
# outside the repo, keyed by the bundle's sha256. The npm registry is the only
# source we can reach, which is why the source comes from there.
# Usage: scripts/llama-server.sh [--cuda] [--nlc VERSION] [--cached]
# (last stdout line: the cache dir)
# --nlc picks the node-llama-cpp release whose llama.cpp is built: 3.21.1 (the
# default, llama.cpp v0.4.0) or 3.18.1 (llama.cpp b8390), where two real versions
# are needed. --cached builds and downloads nothing: it prints the dir of a tree
# already built, or fails (exit 1), for tests that use a second version only where
# one was built. The tree also holds that version's own
# scripts/compare-llama-bench.py (tests/cli/t1140 runs it), added to a tree cached
# before it was, from the cached source, without a rebuild.
set -euo pipefail

NLC_VERSION=3.21.1
cuda=0
cached_only=0
usage="usage: scripts/llama-server.sh [--cuda] [--nlc VERSION] [--cached]"
while [ $# -gt 0 ]; do
	case "$1" in
	--cuda) cuda=1 ;;
	--cached) cached_only=1 ;;
	--nlc)
		[ $# -ge 2 ] && [[ $2 =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "$usage" >&2; exit 2; }
		NLC_VERSION=$2
		shift ;;
	-h|--help)
		echo "$usage"
		exit 0 ;;
	*)
		echo "$usage" >&2
		exit 2 ;;
	esac
	shift
done

# Everything but the final path goes to stderr, so callers can take $(... | tail -1).
exec 3>&1 1>&2

cache=${TPSDB_CACHE:-$HOME/.cache/tpsdb}
mkdir -p "$cache"

tgz=$cache/node-llama-cpp-$NLC_VERSION.tgz
sumfile=$tgz.bundle-sha256
suffix=
[ "$cuda" = 1 ] && suffix=-cuda
if [ "$cached_only" = 1 ]; then
	dest=
	[ -s "$sumfile" ] && dest=$cache/llama-$(cut -c1-16 "$sumfile")$suffix
	if [ -z "$dest" ] || [ ! -x "$dest/bin/llama-server" ] || [ ! -x "$dest/bin/llama-bench" ] ||
		{ [ ! -s "$dest/scripts/compare-llama-bench.py" ] && [ ! -s "$tgz" ]; }; then
		echo "llama-server.sh: no cached build of node-llama-cpp $NLC_VERSION$suffix in $cache"
		exit 1
	fi
fi

need_pkgs=()
command -v gcc >/dev/null && command -v g++ >/dev/null && command -v make >/dev/null ||
	need_pkgs+=(build-essential)
command -v cmake >/dev/null || need_pkgs+=(cmake)
command -v git >/dev/null || need_pkgs+=(git)
[ -s /etc/ssl/certs/ca-certificates.crt ] || need_pkgs+=(ca-certificates)
command -v node >/dev/null || need_pkgs+=(nodejs)
command -v npm >/dev/null || need_pkgs+=(npm)
command -v flock >/dev/null || need_pkgs+=(util-linux)
if [ ${#need_pkgs[@]} -gt 0 ] && [ "$cached_only" = 0 ]; then
	echo "llama-server.sh: installing ${need_pkgs[*]}"
	# Another apt may hold the dpkg lock; wait for it instead of failing.
	apt-get -o DPkg::Lock::Timeout=900 update
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 \
		install -y --no-install-recommends "${need_pkgs[@]}"
fi

if [ ! -s "$tgz" ]; then
	echo "llama-server.sh: npm pack node-llama-cpp@$NLC_VERSION"
	t=$(mktemp -d "$cache/.pack.XXXXXX")
	(cd "$t" && npm pack --silent "node-llama-cpp@$NLC_VERSION" >/dev/null)
	mv -f "$t/node-llama-cpp-$NLC_VERSION.tgz" "$tgz"
	rm -rf "$t"
	rm -f "$sumfile"
fi
if [ ! -s "$sumfile" ]; then
	sum=$(tar -xzOf "$tgz" package/llama/gitRelease.bundle | sha256sum | cut -c1-64)
	echo "$sum" >"$sumfile.$$" && mv -f "$sumfile.$$" "$sumfile"
fi
key=$(cut -c1-16 "$sumfile")
dest=$cache/llama-$key$suffix
script=scripts/compare-llama-bench.py

# The directory only ever appears through a rename of a finished tree. A tree
# cached before llama-bench was a target has llama-server only: build the missing
# binary and add it, never fail on it. A tree cached before the script was kept
# gets it from the source, by a rename within the directory.
built() { [ -x "$dest/bin/llama-server" ] && [ -x "$dest/bin/llama-bench" ]; }
if built && [ -s "$dest/$script" ]; then
	echo "$dest" >&3
	exit 0
fi

exec 9>"$dest.lock"
if ! flock -n 9; then
	echo "llama-server.sh: another build holds $dest.lock, waiting"
	flock 9
fi
if built && [ -s "$dest/$script" ]; then
	echo "$dest" >&3
	exit 0
fi

work=$(mktemp -d "$cache/.build-$key$suffix.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$tgz" -C "$work" package/llama/gitRelease.bundle
if built; then
	git init -q --bare "$work/src.git"
	git -C "$work/src.git" fetch -q "$work/package/llama/gitRelease.bundle" HEAD
	mkdir -p "$dest/scripts"
	git -C "$work/src.git" show "FETCH_HEAD:$script" >"$dest/$script.$$"
	mv -f "$dest/$script.$$" "$dest/$script"
	echo "$dest" >&3
	exit 0
fi
echo "llama-server.sh: building in $work"
git -c advice.detachedHead=false clone -q "$work/package/llama/gitRelease.bundle" "$work/src"

# Static, CPU by default, and only the two targets we run. The UI is off and so is
# the prebuilt-UI download: the build must not reach for anything but this tree.
opts=(
	-DCMAKE_BUILD_TYPE=Release
	-DBUILD_SHARED_LIBS=OFF
	-DLLAMA_BUILD_TESTS=OFF
	-DLLAMA_BUILD_EXAMPLES=OFF
	-DLLAMA_BUILD_TOOLS=ON
	-DLLAMA_BUILD_SERVER=ON
	-DLLAMA_BUILD_APP=OFF
	-DLLAMA_BUILD_UI=OFF
	-DLLAMA_USE_PREBUILT_UI=OFF
	-DLLAMA_OPENSSL=OFF
	-DLLAMA_LLGUIDANCE=OFF
	-DLLAMA_ALL_WARNINGS=OFF
)
if [ "$cuda" = 1 ]; then
	[ -d /usr/local/cuda/bin ] && PATH=/usr/local/cuda/bin:$PATH
	opts+=(-DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
fi

start=$(date +%s)
cmake -S "$work/src" -B "$work/build" "${opts[@]}"
cmake --build "$work/build" --config Release -j"$(nproc)" --target llama-server llama-bench
echo "llama-server.sh: build took $(($(date +%s) - start)) s"

if [ -x "$dest/bin/llama-server" ]; then
	# An older tree: add llama-bench beside it, by a rename within the directory.
	cp "$work/build/bin/llama-bench" "$dest/bin/.llama-bench.$$"
	mv -f "$dest/bin/.llama-bench.$$" "$dest/bin/llama-bench"
	mkdir -p "$dest/scripts"
	cp "$work/src/$script" "$dest/$script.$$"
	mv -f "$dest/$script.$$" "$dest/$script"
	echo "$dest" >&3
	exit 0
fi
out=$work/out
mkdir -p "$out/bin" "$out/models" "$out/scripts"
cp "$work/build/bin/llama-server" "$work/build/bin/llama-bench" "$out/bin/"
cp "$work/src/$script" "$out/$script"
cp -r "$work/src/gguf-py" "$out/gguf-py"
cp "$work/src/models/ggml-vocab-llama-spm.gguf" "$out/models/"
{
	echo "node-llama-cpp $NLC_VERSION"
	echo "bundle-sha256 $(cat "$sumfile")"
	echo "commit $(git -C "$work/src" rev-parse HEAD)"
	echo "cmake ${opts[*]}"
	echo "build-seconds $(($(date +%s) - start))"
} >"$out/BUILD-INFO"
mv -T "$out" "$dest"
echo "$dest" >&3
