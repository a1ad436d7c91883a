#!/bin/sh
# Scenario: the default -cpu max (AMD family 15 under TCG; pmu=on is its
# default) on the emulated-PMU QEMU is as before the series: CPUID.0AH zero,
# no PDCM, and Linux finds no usable PMU.
# needs: bin:pmuregs
# cpu: max
# kmods: cpuid
# timeout: 120

check_no_pmu 'PMU not available due to virtualization'
exit 0
