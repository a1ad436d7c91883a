#!/bin/sh
# The emulated PMU's data TLB model (tcg/sysemu/pmu_dtlb.c of the QEMU series
# in tests/vm/qemu-pmu) gives exactly the answers of the plain reference model
# (tests/vm/qemu-pmu/dtlb-check/ref.c) on 10 million pseudo-random accesses
# with flushes in between: the model's speed-ups (patch 0010) must change no
# count. The model's files are taken from the series itself (their hunks,
# applied in series order to an empty tree) and compiled on the host with
# small stand-ins for QEMU's headers; no QEMU build is needed.
set -u
cd "$(dirname "$0")/../.." || exit 1
Q=tests/vm/qemu-pmu
C=$Q/dtlb-check
ok() { echo "PASS: qemu_dtlb_model/$1"; }
ko() { echo "FAIL: qemu_dtlb_model/$1 ($2)"; }
if ! pkg-config --exists glib-2.0 2>/dev/null; then
	ko build "glib-2.0 development files missing: run scripts/deps.sh (libglib2.0-dev, pkg-config)"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/qemu_dtlb_model.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src"
grep -v '^#' $Q/series >"$T/series"
while read -r p; do
	# the diff sections of this patch that touch pmu_dtlb.c or pmu_dtlb.h
	awk '/^diff --git / { keep = ($3 ~ /\/pmu_dtlb\.[ch]$/) } /^-- $/ { keep = 0 } keep' "$Q/$p" >"$T/part.diff"
	[ -s "$T/part.diff" ] || continue
	(cd "$T/src" && patch -p1 -s --no-backup-if-mismatch) <"$T/part.diff" || {
		ko extract "the pmu_dtlb hunks of $p do not apply in series order"
		exit 0
	}
done <"$T/series"
M=$T/src/target/i386/tcg/sysemu
if [ ! -f "$M/pmu_dtlb.c" ] || [ ! -f "$M/pmu_dtlb.h" ]; then
	ko extract "no patch of $Q/series creates target/i386/tcg/sysemu/pmu_dtlb.c and .h"
	exit 0
fi
# shellcheck disable=SC2046
if ! cc -O2 -Wall -I"$C" -I"$M" $(pkg-config --cflags glib-2.0) -o "$T/check" \
	"$C/check.c" "$C/ref.c" "$M/pmu_dtlb.c" $(pkg-config --libs glib-2.0) >"$T/cc.log" 2>&1; then
	ko build "$(head -n 3 "$T/cc.log" | tr '\n' ' ')"
	exit 0
fi
if out=$("$T/check" 10000000 2>&1); then
	ok same-answers-as-reference
else
	ko same-answers-as-reference "$out"
fi
exit 0
