#!/bin/sh
# Scenario: the emulated-PMU QEMU changes nothing without it: an Intel
# identity with pmu=off has CPUID.0AH zero and no PDCM (Linux: no PMU
# driver), as in the unpatched QEMU. (AMD -cpu max, the default of the
# other scenarios, is checked by emu_pmu_absent_amd.)
# needs: bin:pmuregs
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=off
# kmods: cpuid
# timeout: 120

kmod_load cpuid
[ "$(pmuregs cpuid 0 0xa)" = "00000000 00000000 00000000 00000000" ] && pass_check cpuid-0a-zero ||
	fail_check cpuid-0a-zero "$(pmuregs cpuid 0 0xa)"
set -- $(pmuregs cpuid 0 1)
[ $(((0x$3 >> 15) & 1)) = 0 ] && pass_check no-pdcm || fail_check no-pdcm "CPUID.1:ECX=$3"
dmesg | grep -q 'no PMU driver' && pass_check no-pmu-driver || fail_check no-pmu-driver "$(dmesg | grep 'Performance Events\|PMU')"
exit 0
