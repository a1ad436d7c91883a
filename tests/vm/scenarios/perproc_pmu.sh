#!/bin/sh
# Scenario: a per-process session with a PMU event counts only while the
# target runs (issue 15). insnloop (a known 300 M user instructions) and a
# busy spin7030 share CPU 1; `pmuctl record -e instructions:u -c P --
# taskset -c 1 insnloop loop N`. Checks: CPU 1 takes one NMI per sample of
# the target (a counter that kept counting spin7030 would overflow about
# as often again in spin7030, every such NMI a filtered sample), CPU 0
# (pmuctl, the shell) takes none, and (host half) every sample is
# insnloop's and the sum of its periods is its perf stat count within 2 %
# (the period in progress at a switch-out is resumed at the next switch-in,
# not lost).
# needs: module pmu perf bin:pmuctl bin:insnloop bin:spin7030 host:pmuconv
# cmdline: nmi_watchdog=0
# timeout: 300

load_module follow_target=1
N=100000000 # 300 M user instructions
P=100003
# nmi CPU: the NMI row of /proc/interrupts for CPU
nmi() { awk -v c=$(($1 + 2)) '$1 == "NMI:" { print $c }' /proc/interrupts; }

perf stat -x, -e instructions:u -o /tmp/stat.csv -- taskset -c 1 insnloop loop $N >/dev/null 2>&1 ||
	fail "perf stat -e instructions:u -- insnloop loop $N failed"
cp /tmp/stat.csv "$RESULTS/stat.csv"
cat /tmp/stat.csv >>"$RESULTS/scenario.log"
C=$(awk -F, '$3 == "instructions:u" { print $1 }' /tmp/stat.csv)
[ -n "$C" ] || fail "no perf stat count"

bg taskset -c 1 spin7030 120
B=$!
sleep 1
a0=$(nmi 0)
a1=$(nmi 1)
out=$RESULTS/record.txt
pmuctl record -e instructions:u -c $P -o "$RESULTS/a.pmu" -- taskset -c 1 insnloop loop $N >"$out" 2>&1
rc=$?
b0=$(nmi 0)
b1=$(nmi 1)
kill $B
wait $B 2>/dev/null
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check record || fail "pmuctl record exited $rc: $(grep -m1 pmuctl: "$out")"
S=$(awk '$1 == "instructions:u" && $3 == "samples" { print $2 }' "$out")
T=$(sed -n 's/.*throttled \([0-9]*\) times.*/\1/p' "$out")
log "target: $S samples of $P (throttled ${T:-?}); perf stat $C; NMIs cpu0 $((b0 - a0)) cpu1 $((b1 - a1))"
[ -n "$S" ] && [ "$S" -gt 0 ] || fail "no samples: $(tail -n 3 "$out")"

# one NMI per sample (a few spare: a foreign NMI, a sample dropped by a full ring)
d1=$((b1 - a1))
[ "$d1" -ge "$S" ] && [ "$d1" -le $((S + S / 50 + 5)) ] && pass_check cpu1-nmis-per-sample ||
	fail_check cpu1-nmis-per-sample "CPU 1 took $d1 NMIs for $S samples of the target"
d0=$((b0 - a0))
[ "$d0" -le 5 ] && pass_check cpu0-no-nmis ||
	fail_check cpu0-no-nmis "CPU 0 (no target task on it) took $d0 NMIs"
# the sum of the periods (throttling may change them) against perf stat's
# count: on the host, pmu_counts' way (perproc_pmu.host.sh)
unload_module
exit 0
