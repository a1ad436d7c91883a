#!/bin/sh
# make install / uninstall into a staging DESTDIR: binaries, man pages, DKMS
# source tree with its dkms.conf, the udev rule; uninstall removes them all.
# DESTDIR staging never calls dkms (that only happens on a live install).
set -u
cd "$(dirname "$0")/../.."
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
VER=$(cat VERSION)
ok() { echo "PASS: install/$1"; }
ko() { echo "FAIL: install/$1 ($2)"; }

if ! make --no-print-directory -s install DESTDIR="$D" PREFIX=/usr >"$D.log" 2>&1; then
	ko make-install "$(tail -n 3 "$D.log" | tr '\n' ' ')"
	rm -f "$D.log"
	exit 0
fi
rm -f "$D.log"
ok make-install
for f in usr/bin/pmuctl usr/bin/pmuconv usr/share/man/man1/pmuctl.1 usr/share/man/man1/pmuconv.1 \
	usr/share/bash-completion/completions/pmuctl usr/share/bash-completion/completions/pmuconv \
	etc/udev/rules.d/60-pmuprof.rules "usr/src/pmuprof-$VER/dkms.conf" \
	"usr/src/pmuprof-$VER/kernel/Kbuild" "usr/src/pmuprof-$VER/include/uapi/pmuprof.h"; do
	[ -e "$D/$f" ] && ok "file:$f" || ko "file:$f" "missing after install"
done
[ -x "$D/usr/bin/pmuctl" ] && "$D/usr/bin/pmuctl" --help >/dev/null 2>&1 && ok pmuctl-runs ||
	ko pmuctl-runs "installed pmuctl --help failed"
grep -q "PACKAGE_VERSION=\"$VER\"" "$D/usr/src/pmuprof-$VER/dkms.conf" 2>/dev/null && ok dkms-version ||
	ko dkms-version "dkms.conf does not carry version $VER"
grep -q 'MODE="0600"' "$D/etc/udev/rules.d/60-pmuprof.rules" 2>/dev/null && ok udev-0600 ||
	ko udev-0600 "udev rule does not force mode 0600"
if find "$D/usr/src" -name '*.o' -o -name '*.ko' | grep -q .; then
	ko dkms-clean-tree "build products copied into the DKMS source tree"
else
	ok dkms-clean-tree
fi
# The DKMS tree must build on its own, as dkms will build it (out of this repo).
KVER=$(sh scripts/kver.sh 2>/dev/null)
KDIR=/usr/src/linux-headers-$KVER
if [ -d "$KDIR" ]; then
	B=$(mktemp -d)
	cp -r "$D/usr/src/pmuprof-$VER/." "$B/"
	if make -s -C "$KDIR" M="$B/kernel" modules >"$B/log" 2>&1 && [ -f "$B/kernel/pmuprof.ko" ]; then
		ok dkms-tree-builds
	else
		ko dkms-tree-builds "$(grep -m2 -E 'error|Error' "$B/log" | tr '\n' ' ')"
	fi
	rm -rf "$B"
else
	echo "FAIL: install/dkms-tree-builds (no kernel headers at $KDIR; make deps)"
fi
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man -l "$D/usr/share/man/man1/pmuctl.1" >/dev/null 2>&1 && ok man-renders ||
		ko man-renders "man -l pmuctl.1 failed"
fi
make --no-print-directory -s uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
left=$(find "$D" -type f | sed "s|^$D/||")
[ -z "$left" ] && ok uninstall-removes-all || ko uninstall-removes-all "left: $(echo $left)"
exit 0
