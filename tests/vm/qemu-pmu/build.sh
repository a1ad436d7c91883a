#!/bin/sh
# Build QEMU 7.2 (Debian 12's source package, Debian's patches applied) with
# pmuprof's emulated-PMU patch series (tests/vm/qemu-pmu/series) applied,
# x86_64-softmmu only, and cache the binary keyed by a hash of the series and
# of this script.
#
#   build.sh            build if needed; print the binary's path on stdout
#   build.sh --path     print the cached binary's path if it exists (exit 1 if not)
#   build.sh --baseline the same source and configuration without the series
#                       (the reference of bench/qemu_pmu_overhead.sh)
#
# The source is fetched with a private apt configuration that holds the
# deb-src lines (the system's apt sources are never touched). Cache root:
# $PMUPROF_QEMU_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/pmuprof/qemu-pmu.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${PMUPROF_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pmuprof/qemu-pmu}
log() { echo "qemu-pmu: $*" >&2; }

PATH_ONLY=0
PATCHES=$(grep -v '^#' "$HERE/series")
for a in "$@"; do
	case "$a" in
	--path) PATH_ONLY=1 ;;
	--baseline) PATCHES="" ;;
	*) log "unknown option $a (--path, --baseline)"; exit 2 ;;
	esac
done
# What the binary depends on, and so the cache key: the source package
# (newest 7.2 in bookworm), the configuration and the patches.
CONFIG="--target-list=x86_64-softmmu --without-default-features --disable-docs \
--disable-werror --disable-tools --disable-debug-info --disable-install-blobs"
key=$( (echo "qemu 7.2 bookworm; configure $CONFIG; patches $PATCHES"
	cd "$HERE" && for p in $PATCHES; do cat "$p"; done) | sha256sum | cut -c1-16)
OUT="$CACHE/bin-$key"
if [ -x "$OUT/qemu-system-x86_64" ]; then
	echo "$OUT/qemu-system-x86_64"
	exit 0
fi
[ $PATH_ONLY = 1 ] && exit 1

mkdir -p "$CACHE"
SRC="$CACHE/src"
# 1. Debian's source package, downloaded once.
if ! ls "$SRC"/qemu_7.2*.dsc >/dev/null 2>&1; then
	log "fetching Debian's qemu 7.2 source package (private apt configuration)"
	APT="$CACHE/apt"
	mkdir -p "$APT/lists/partial" "$SRC"
	cat >"$APT/sources.list" <<SRCS
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
SRCS
	set -- -o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT/lists" -o Debug::NoLocking=1
	apt-get "$@" update -q >"$APT/update.log" 2>&1 || { cat "$APT/update.log" >&2; exit 1; }
	(cd "$SRC" && apt-get "$@" source --download-only -q qemu >"$APT/source.log" 2>&1) ||
		{ cat "$APT/source.log" >&2; log "could not fetch the qemu source package"; exit 1; }
	set --
fi
dsc=$(ls "$SRC"/qemu_7.2*.dsc | sort -V | tail -1)

# 2. A fresh tree with Debian's patches, then ours.
WORK="$CACHE/work-$key"
rm -rf "$WORK"
mkdir -p "$WORK"
log "unpacking $(basename "$dsc")"
dpkg-source -x "$dsc" "$WORK/qemu" >"$WORK/unpack.log" 2>&1 || { cat "$WORK/unpack.log" >&2; exit 1; }
cd "$WORK/qemu"
for p in $PATCHES; do
	log "applying $p"
	patch -p1 --no-backup-if-mismatch -s <"$HERE/$p" || { log "patch $p does not apply"; exit 1; }
done

# 3. Configure and build only qemu-system-x86_64.
mkdir -p build && cd build
log "configuring (log: $WORK/configure.log)"
# shellcheck disable=SC2086
../configure $CONFIG >"$WORK/configure.log" 2>&1 || { tail -30 "$WORK/configure.log" >&2; exit 1; }
log "building qemu-system-x86_64 (a few minutes; log: $WORK/build.log)"
ninja qemu-system-x86_64 >"$WORK/build.log" 2>&1 || { grep -B2 -A8 'error' "$WORK/build.log" | head -60 >&2; exit 1; }
mkdir -p "$OUT.part"
cp qemu-system-x86_64 "$OUT.part/"
rm -rf "$OUT" && mv "$OUT.part" "$OUT"
# Keep the tree of the newest build for incremental work on the series (and
# any tree someone turned into a git repository to develop the series in).
cd "$CACHE" && for d in work-*; do
	[ "$d" = "work-$key" ] || [ -d "$d/qemu/.git" ] || rm -rf "$d"
done
log "built $OUT/qemu-system-x86_64"
echo "$OUT/qemu-system-x86_64"
