#!/bin/sh
# No include or symbol-reference circles among the files of host/ and
# userspace/ (issue 13): scripts/check-cycles.py on the sources and on the
# objects `make check` built.
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
if out=$(python3 scripts/check-cycles.py --objs "$BUILD/obj" host userspace 2>&1); then
	echo "PASS: lint/no-circles"
else
	echo "$out" | sed 's/^/  /'
	echo "FAIL: lint/no-circles ($(echo "$out" | head -n 1))"
fi
# No name of x86_pmu_regs.h that the kernel headers define too (issue 15).
if out=$(sh scripts/check-linux-names.sh 2>&1); then
	echo "PASS: lint/linux-names"
else
	echo "$out" | sed 's/^/  /'
	echo "FAIL: lint/linux-names"
fi
