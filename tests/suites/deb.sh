#!/bin/sh
# make deb: dpkg-buildpackage builds pmuprof-dkms (module source for DKMS,
# with its dkms.conf, the postinst that runs DKMS, the udev rule) and
# pmuprof-tools (pmuctl, pmuconv, man pages, bash completion) from a copy
# of the tree, leaving the tree itself untouched; the packaged pmuconv runs.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
BUILD=${BUILD:-$ROOT/build}
VER=$(cat VERSION)
OUT=$BUILD/deb
ok() { echo "PASS: deb/$1"; }
ko() { echo "FAIL: deb/$1 ($2)"; }
before=$(git status --porcelain 2>/dev/null)
# the caller's binaries, which the package build must leave alone
bins_before=$(ls -l --time-style=+%s.%N "$BUILD"/bin/ 2>/dev/null | md5sum)
if ! make --no-print-directory -s deb BUILD="$BUILD" >"$BUILD/deb.log" 2>&1; then
	ko make-deb "$(tail -n 3 "$BUILD/deb.log" | tr '\n' ' ')"
	exit 0
fi
ok make-deb
tools=$OUT/pmuprof-tools_${VER}_amd64.deb
dkms=$OUT/pmuprof-dkms_${VER}_all.deb
for f in "$tools" "$dkms"; do
	[ -s "$f" ] && ok "built:$(basename "$f")" || ko "built:$(basename "$f")" "missing"
done
list=$(dpkg-deb -c "$tools" 2>/dev/null | awk '{print $6}')
for f in usr/bin/pmuctl usr/bin/pmuconv usr/share/man/man1/pmuctl.1.gz usr/share/man/man1/pmuconv.1.gz \
	usr/share/bash-completion/completions/pmuctl usr/share/bash-completion/completions/pmuconv; do
	printf '%s\n' "$list" | grep -qx "\./$f" && ok "tools:$f" || ko "tools:$f" "not in the package"
done
list=$(dpkg-deb -c "$dkms" 2>/dev/null | awk '{print $6}')
for f in "usr/src/pmuprof-$VER/dkms.conf" "usr/src/pmuprof-$VER/kernel/Kbuild" \
	"usr/src/pmuprof-$VER/include/uapi/pmuprof.h" etc/udev/rules.d/60-pmuprof.rules; do
	printf '%s\n' "$list" | grep -qx "\./$f" && ok "dkms:$f" || ko "dkms:$f" "not in the package"
done
printf '%s\n' "$list" | grep -q '\.ko$\|\.o$' && ko dkms-source-only "built objects in the package" ||
	ok dkms-source-only
dpkg-deb -f "$dkms" Depends | grep -q 'dkms' && ok dkms-depends || ko dkms-depends "no dkms dependency"
x=$(mktemp -d "${TMPDIR:-/tmp}/deb.XXXXXX")
trap 'rm -rf "$x"' EXIT
dpkg-deb -e "$dkms" "$x/ctl" && grep -q 'DKMS_NAME=pmuprof' "$x/ctl/postinst" &&
	grep -q "DKMS_VERSION=$VER" "$x/ctl/postinst" && ok dkms-postinst || ko dkms-postinst "postinst does not run DKMS for pmuprof $VER"
dpkg-deb -x "$dkms" "$x/d" && grep -q "PACKAGE_VERSION=\"$VER\"" "$x/d/usr/src/pmuprof-$VER/dkms.conf" &&
	ok dkms-conf-version || ko dkms-conf-version "dkms.conf lacks PACKAGE_VERSION=$VER"
# the package links pmuconv's libraries shared (debian/rules: PMUCONV_STATIC=no)
dpkg-deb -f "$tools" Depends | grep -q 'libdw1' && ok tools-depends-libdw ||
	ko tools-depends-libdw "Depends: $(dpkg-deb -f "$tools" Depends) (pmuconv linked libdw statically?)"
dpkg-deb -x "$tools" "$x/t" && [ "$("$x/t/usr/bin/pmuconv" --version 2>&1)" = "pmuconv $VER" ] &&
	ok tools-run || ko tools-run "packaged pmuconv --version: $("$x/t/usr/bin/pmuconv" --version 2>&1 | head -c 200)"
[ "$(ls -l --time-style=+%s.%N "$BUILD"/bin/ 2>/dev/null | md5sum)" = "$bins_before" ] &&
	ok build-untouched || ko build-untouched "make deb relinked $BUILD/bin (the package is built in its own tree)"
[ "$(git status --porcelain 2>/dev/null)" = "$before" ] && ok tree-untouched ||
	ko tree-untouched "git status changed: $(git status --porcelain | head -n 3 | tr '\n' ' ')"
exit 0
