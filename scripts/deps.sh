#!/bin/sh
# Install everything pmuprof's build, demo and tests need (Debian 12), and
# fetch (never install) the Debian kernel image matching the installed
# headers into build/guest-kernel/. Idempotent; a no-op when all is present.
set -e
PKGS="make gcc g++ libc6-dev pkg-config libpfm4-dev libelf-dev libdw-dev zlib1g-dev check \
qemu-system-x86 busybox-static cpio gzip linux-headers-amd64 binutils kmod \
libxml2-utils valgrind linux-perf libjansson-dev chromium nodejs libiberty-dev libarchive-dev \
meson ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev python3-venv flex bison dpkg-dev patch xz-utils"
# (the second line: building QEMU with the emulated-PMU series, make qemu-pmu)
# (chromium and nodejs: the HTML report's browser test; npm-deps.sh below
#  installs its npm packages into ~/.cache/pmuprof/npm)
# pmuconv pprof (protoc-c, protobuf-c) and the exporters' tests (go tool pprof;
# node, above, for the speedscope schema check, whose npm packages
# npm-deps.sh installs)
PKGS="$PKGS protobuf-c-compiler libprotobuf-c-dev golang-go"
# make deb (Debian's packaging tools; dpkg-dev is above)
PKGS="$PKGS debhelper dh-dkms"
# pmuconv's static link (host/pmuconv/build.mk): libdw.a needs these archives
# too (libdw-dev pulls in liblzma-dev but not libbz2-dev)
PKGS="$PKGS liblzma-dev libbz2-dev"
# `deps.sh soak` also installs what only `make soak` needs (clang for libFuzzer).
[ "${1:-}" = soak ] && PKGS="$PKGS clang"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing packages:$missing" >&2
		echo "deps: run 'sudo make deps' or install them with apt-get" >&2
		exit 1
	fi
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
KVER=$(sh "$(dirname "$0")/kver.sh")
CACHE=build/guest-kernel
if [ ! -f "$CACHE/vmlinuz-$KVER" ]; then
	echo "deps: fetching guest kernel image linux-image-$KVER (download only, not installed)"
	mkdir -p "$CACHE/tmp"
	( cd "$CACHE/tmp" && rm -f ./*.deb && apt-get download -q "linux-image-$KVER" >/dev/null 2>&1 ) || {
		apt-get update -q >/dev/null
		( cd "$CACHE/tmp" && apt-get download -q "linux-image-$KVER" )
	}
	dpkg-deb -x "$CACHE"/tmp/linux-image-"$KVER"*.deb "$CACHE/tmp/x"
	cp "$CACHE/tmp/x/boot/vmlinuz-$KVER" "$CACHE/vmlinuz-$KVER.part"
	rm -rf "$CACHE/modules-$KVER"
	mv "$CACHE/tmp/x/lib/modules/$KVER" "$CACHE/modules-$KVER"
	mv "$CACHE/vmlinuz-$KVER.part" "$CACHE/vmlinuz-$KVER"
	rm -rf "$CACHE/tmp"
fi
sh "$(dirname "$0")/npm-deps.sh"
