#!/bin/sh
# Scenario: the emulated-PMU QEMU changes nothing without it: an Intel
# identity with pmu=off has CPUID.0AH zero and no PDCM (Linux: no PMU
# driver), as in the unpatched QEMU. (AMD -cpu max, the default of the
# other scenarios, is checked by emu_pmu_absent_amd.)
# needs: bin:pmuregs
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=off
# kmods: cpuid
# timeout: 120

check_no_pmu 'no PMU driver'
exit 0
