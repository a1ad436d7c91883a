#!/bin/sh
# Scenario: the emulated PMU with full-width-write=off: IA32_PERF_CAPABILITIES
# bit 13 clear, Linux drops "full-width counters" and writes the 32-bit
# sign-extended IA32_PMCx, IA32_A_PMCx raises #GP, and perf's counts stay
# exact on the 32-bit write path.
# needs: pmu perf bin:pmuregs bin:insnloop
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,full-width-write=off
# kmods: msr
# cmdline: nmi_watchdog=0 msr.allow_writes=on
# timeout: 180

kmod_load msr
dmesg | grep -q 'Performance Events: Skylake events, Intel PMU driver' && pass_check driver-no-full-width ||
	fail_check driver-no-full-width "$(dmesg | grep 'Performance Events')"
[ $(((0x$(pmuregs rdmsr 0 0x345) >> 13) & 1)) = 0 ] && pass_check perf-capabilities-no-fw ||
	fail_check perf-capabilities-no-fw "IA32_PERF_CAPABILITIES=$(pmuregs rdmsr 0 0x345)"
pmuregs wrmsr 0 0x4c1 1 2>/dev/null && fail_check a-pmc-gp "IA32_A_PMC0 write did not #GP" || pass_check a-pmc-gp
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
u() { perf stat -x, -e instructions:u -- insnloop loop "$1" 2>&1 >/dev/null | awk -F, '/instructions/ { print $1 }'; }
i1=$(u 1000000)
i2=$(u 3000000)
[ $((i2 - i1)) = 6000000 ] && pass_check insns-u-exact || fail_check insns-u-exact "$i1 -> $i2"
# sampling with periods that need the 32-bit sign-extended writes
perf record -q -e instructions:u -c 100003 -o /tmp/r.data -- insnloop loop 3000000 >/dev/null 2>&1
n=$(perf script -i /tmp/r.data -F ip 2>/dev/null | wc -l)
[ "$n" = $((i2 / 100003)) ] && pass_check record-exact-pmis || fail_check record-exact-pmis "$n samples, want $((i2 / 100003))"
exit 0
