#!/bin/sh
# check-nmi-direct.sh [MODULE.ko]: the PMU layer's overflow handler hands
# each sample to the glue by a direct call (pmu__glue_emit, kernel/pmu/pmu.h),
# not through a function pointer, which under retpolines is a call through
# __x86_indirect_thunk_* on every sample (issue 15). Reads the built module:
# any indirect call or jump (`call *`, `jmp *` or a relocation to an
# indirect thunk) inside pmu__handle_nmi_at or the helpers of pmu_irq.c it
# keeps out of line (drain_pebs, handle_v1, and their compiler clones) fails.
set -eu
KO=${1:-kernel/pmuprof.ko}
[ -f "$KO" ] || { echo "check-nmi-direct: $KO not built (make module)" >&2; exit 2; }
objdump -dr --no-show-raw-insn "$KO" | awk '
/^[0-9a-f]+ <[^>]+>:$/ { f = $2; gsub(/[<>:]/, "", f); sub(/\.(constprop|isra|part|cold)(\.[0-9]+)?.*$/, "", f)
	in_f = (f == "pmu__handle_nmi_at" || f == "drain_pebs" || f == "handle_v1"); if (f == "pmu__handle_nmi_at") found = 1; next }
in_f && (/\t(call|jmp) +\*/ || /R_X86_64_[A-Z0-9]+\t__x86_indirect_thunk/ || /R_X86_64_[A-Z0-9]+\t__x86_indirect_call/) {
	print "check-nmi-direct: indirect call in " f ": " $0; bad++ }
END { if (!found) { print "check-nmi-direct: no pmu__handle_nmi_at in the module" > "/dev/stderr"; exit 2 }
	if (bad) exit 1
	print "check-nmi-direct: pmu__handle_nmi_at and its pmu_irq.c helpers make no indirect call" }'
