#!/bin/sh
# make deb: build the Debian packages with dpkg-buildpackage from a copy of
# the tracked files (uncommitted edits to them included), so the source tree
# stays clean. Prints the .deb paths.
#   scripts/mkdeb.sh OUTDIR
set -e
cd "$(dirname "$0")/.."
out=$1
ver=$(cat VERSION)
for t in dpkg-buildpackage dh dh_dkms; do
	command -v $t >/dev/null 2>&1 || {
		echo "deb: $t not found; run 'make deps' (dpkg-dev, debhelper, dh-dkms)" >&2
		exit 1
	}
done
src=$out/pmuprof-$ver
rm -rf "$out"
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z | xargs -0 cp --parents -t "$src"
else # an unpacked tarball: everything but the build tree
	tar -cf - --exclude=./build --exclude=./out . | tar -xf - -C "$src"
fi
# without the calling make's variables: a BUILD=... given to `make deb`
# reaches every sub-make through MAKEFLAGS, and the package would be built
# into (and relinked over) the caller's build tree instead of its own
(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u BUILD \
	dpkg-buildpackage -b -us -uc >../build.log 2>&1) || {
	tail -n 20 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed; full log in $out/build.log" >&2
	exit 1
}
ls "$out"/*.deb
