#!/bin/sh
# Scenario: pmuctl's PMU events on the emulated PMU against Linux perf in the
# same boot (issue 15). Fixed and general counters together (instructions:u
# and cycles:u on fixed counters 0 and 1, which count alike here and so
# overflow in the same PMI; branches:u on a general one), -c
# at three periods on a loop whose counts
# are known (tests/workloads/insnloop.c): per event, the sum of the
# samples' periods (pmuconv's estimate; the module may throttle) within 1 %
# of perf stat's count for the same command, samples in user mode (but for an
# overflow on the SYSCALL instruction itself, at most 1 in 1000), and
# the data file's header holds the command line as typed.
# needs: module pmu perf bin:pmuctl bin:insnloop host:pmuconv
# cmdline: nmi_watchdog=0
# timeout: 420

load_module
N=10000000 # 30 M user instructions, 10 M branches in the loop
EV=instructions:u,cycles:u,branches:u
perf stat -x, -e $EV -o /tmp/stat.csv -- taskset -c 1 insnloop loop $N >/dev/null 2>&1 ||
	fail "perf stat -e $EV -- insnloop loop $N failed"
cat /tmp/stat.csv >>"$RESULTS/scenario.log"
# perf stat's count of EVENT
pcount() { awk -F, -v e="$1" '$3 == e { print $1 }' /tmp/stat.csv; }

# samples NAME FILE: pmuctl's "  NAME   S samples  (period P ...)" line -> S
samples() { awk -v e="$1" '$1 == e && $3 == "samples" { print $2 }' "$2"; }

for P in ${PERIODS:-1000 10000 1000000}; do
	out=$RESULTS/record-$P.txt
	# An 8 MiB ring holds the whole recording (4.8 MiB at -c 1000): with
	# the default 2 MiB, a reader slowed by a loaded host lost 5 % of the
	# samples at -c 1000 (CI, 2026-11-27), which the sum cannot contain.
	pmuctl record -q --ring-size 8M -e "instructions:u/$P,cycles:u/$P,branches:u/$P" \
		-o "$RESULTS/c$P.pmu" -- taskset -c 1 insnloop loop $N >"$out" 2>&1
	rc=$?
	cat "$out" >>"$RESULTS/scenario.log"
	[ $rc = 0 ] && pass_check "record-c$P" ||
		fail_check "record-c$P" "pmuctl record exited $rc: $(grep -m1 pmuctl: "$out")"
done
cp /tmp/stat.csv "$RESULTS/stat.csv"
# The sums of the samples' periods (throttling changes the period) are
# compared with perf's counts on the host (pmu_counts.host.sh, pmuconv).
unload_module
exit 0
