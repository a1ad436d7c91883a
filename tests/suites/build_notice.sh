#!/bin/sh
# `make module` says which kernel the module is built for, and adds a
# one-line notice when that is not the running kernel (the running kernel
# is faked through PMUPROF_RUNNING_KERNEL, read by scripts/kmod-notice.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
ok() { echo "PASS: build_notice/$1"; }
ko() { echo "FAIL: build_notice/$1 ($2)"; }
out=$(mktemp "${TMPDIR:-/tmp}/build_notice.XXXXXX")
trap 'rm -f "$out"' EXIT
if ! make --no-print-directory -s module >"$out" 2>&1; then
	if grep -q 'kernel headers not found' "$out"; then
		echo "FAIL: build_notice (no kernel headers: $(head -n 1 "$out"))"
		exit 0
	fi
	ko make-module "$(tail -n 2 "$out" | tr '\n' ' ')"
	exit 0
fi
built=$(modinfo -F vermagic kernel/pmuprof.ko | cut -d' ' -f1)
[ -n "$built" ] || {
	ko vermagic "no vermagic in kernel/pmuprof.ko"
	exit 0
}
PMUPROF_RUNNING_KERNEL=$built make --no-print-directory -s module >"$out" 2>&1
if grep -q "^module: built kernel/pmuprof.ko for Linux $built (KDIR=" "$out" && ! grep -q 'notice' "$out"; then
	ok same-kernel
else
	ko same-kernel "$(grep '^module:' "$out" | tr '\n' ' ')"
fi
PMUPROF_RUNNING_KERNEL=9.9.9-other make --no-print-directory -s module >"$out" 2>&1
if grep -q "^module: built kernel/pmuprof.ko for Linux $built" "$out" &&
	[ "$(grep -c '^module: notice: this module is for Linux '"$built"', not the running kernel 9.9.9-other, so it will not load here' "$out")" = 1 ]; then
	ok other-kernel-notice
else
	ko other-kernel-notice "$(grep '^module:' "$out" | tr '\n' ' ')"
fi
exit 0
