#!/bin/sh
# Scenario: the default -cpu max (AMD family 15 under TCG; pmu=on is its
# default) on the emulated-PMU QEMU is as before the series: CPUID.0AH zero,
# no PDCM, and Linux finds no usable PMU.
# needs: bin:pmuregs
# cpu: max
# kmods: cpuid
# timeout: 120

kmod_load cpuid
[ "$(pmuregs cpuid 0 0xa)" = "00000000 00000000 00000000 00000000" ] && pass_check cpuid-0a-zero ||
	fail_check cpuid-0a-zero "$(pmuregs cpuid 0 0xa)"
set -- $(pmuregs cpuid 0 1)
[ $(((0x$3 >> 15) & 1)) = 0 ] && pass_check no-pdcm || fail_check no-pdcm "CPUID.1:ECX=$3"
dmesg | grep -q 'PMU not available due to virtualization' && pass_check no-pmu-driver || fail_check no-pmu-driver "$(dmesg | grep 'Performance Events\|PMU')"
exit 0
