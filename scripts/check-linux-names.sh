#!/bin/sh
# No macro of kernel/include/pmuprof/x86_pmu_regs.h is also defined by the
# kernel headers the module builds against (arch/x86/include and include/
# of KDIR, or of every /usr/src/linux-headers-*-common): the module includes
# both, and a shared name can mean another number (Linux's MSR_IA32_PMC0 is
# 0x4c1, the SDM's IA32_PMC0 0xc1). Run by `make lint`.
#
#   scripts/check-linux-names.sh [KERNEL_HEADER_DIR...]
cd "$(dirname "$0")/.." || exit 2
HDR=kernel/include/pmuprof/x86_pmu_regs.h
dirs=
for d in "$@" ${KDIR:+"$KDIR"} /usr/src/linux-headers-*-common; do
	for sub in arch/x86/include include; do
		[ -d "$d/$sub" ] && dirs="$dirs $d/$sub"
	done
done
if [ -z "$dirs" ]; then
	echo "check-linux-names: no kernel headers found; install linux-headers-amd64" \
		"(make deps) or pass KDIR=the kernel build tree" >&2
	exit 1
fi
names=$(sed -n 's/^#[[:space:]]*define[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$HDR")
pat=$(echo "$names" | paste -sd'|')
# One grep over the headers for all names at once.
hits=$(grep -rhoE "^[[:space:]]*#[[:space:]]*define[[:space:]]+($pat)([[:space:](]|\$)" $dirs |
	sed -E 's/^[[:space:]]*#[[:space:]]*define[[:space:]]+//; s/[[:space:](].*//' | sort -u)
if [ -n "$hits" ]; then
	for n in $hits; do
		echo "check-linux-names: $HDR: $n is also defined by the kernel headers" \
			"($(grep -rlE "define[[:space:]]+$n([[:space:](]|\$)" $dirs | head -n 1));" \
			"rename ours (X86_ prefix, see the header comment)" >&2
	done
	exit 1
fi
exit 0
