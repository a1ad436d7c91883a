#!/bin/sh
# Scenario: the emulated PMU's host-side totals (pmu-insn-totals=on): at exit
# QEMU prints each vCPU's user and kernel instructions, counted whatever the
# guest programs. The host part checks them against perf's count of a known
# loop in the same boot: the host's user total of the CPU that ran it is at
# least perf's instructions:u, which is at least the loop's 3N.
# needs: pmu perf bin:insnloop
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,pmu-insn-totals=on
# timeout: 120

N=20000000
perf stat -x, -e instructions:u -- taskset -c 1 insnloop loop $N 2>"$RESULTS/stat.txt" >/dev/null ||
	fail "perf stat failed: $(cat "$RESULTS/stat.txt")"
awk -F, '/instructions/ { print $1 }' "$RESULTS/stat.txt" >"$RESULTS/perf-insns-u"
echo $N >"$RESULTS/loop-n"
exit 0
