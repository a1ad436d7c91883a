#!/bin/sh
# Scenario: NMI-IPI and PMU sources in one session on the emulated PMU
# (issue 15, defect 1): cpu-clock at 10 kHz and cycles every 20000 on the
# CPU that runs the workload. One NMI can serve a PMI and find our IPI
# outstanding at once; the handler must then neither leave a back-to-back
# NMI "unknown" (Linux swallows one only when the handler said it did two
# things) nor take an IPI that is still in flight. Checks: no "unknown
# reason" in dmesg (the harness's policy), every NMI CPU 1 took during the
# session claimed by pmuprof (claimed == taken, but for at most 1 in 200
# back-to-back NMIs that Linux swallowed because the one before did their
# work), the
# accounting of both events exact, and samples of both sources. Then the
# same with the IPI sender held up before it raises each IPI (phase 2).
# needs: module pmu bin:ppclient bin:spin7030
# cmdline: nmi_watchdog=0
# timeout: 240

load_module
irq1() { awk '$1 == "NMI:" { print $3 }' /proc/interrupts; }
cpu1() { sed -n "s/^record: cpu=1 .* $1=\([0-9]*\).*/\1/p" "$RESULTS/record.txt"; }
i0=$(irq1)
ppclient record -e clock:0:100000 -e pmu:3003c:20000 -C 1 -o "$RESULTS/mix.bin" -- \
	taskset -c 1 spin7030 8 >"$RESULTS/record.txt" 2>&1
rc=$?
i1=$(irq1)
cat "$RESULTS/record.txt" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check record-accounting ||
	fail_check record-accounting "$(grep -m1 'CHECK FAILED' "$RESULTS/record.txt")"
taken=$((i1 - i0))
nmis=$(cpu1 nmis)
passed=$(cpu1 passed)
# Every NMI seen; the ones passed on are back-to-back NMIs whose work an
# earlier NMI did (Linux swallowed them: no "unknown" in dmesg). Under TCG
# that takes the host descheduling a vCPU inside an NMI for over 1 ms (1 in
# 200000 NMIs on a quiet host, 1 in 7000 with a second VM running, 1 in 976
# at load 4-5 on the 2-core host), so they must be rare: at most 1 in 200
# (PASSED_PER). An NMI of ours passed on that Linux did not swallow is an
# "unknown reason" in dmesg, which fails the scenario whatever the count.
PASSED_PER=200
if [ $((nmis + passed)) = "$taken" ] && [ $((passed * PASSED_PER)) -le "$taken" ]; then
	pass_check claimed-equals-taken
else
	fail_check claimed-equals-taken "CPU 1 took $taken NMIs; pmuprof claimed $nmis, passed on $passed"
fi
ppclient analyze "$RESULTS/mix.bin" --sources --min 1 >"$RESULTS/sources.txt" 2>&1
cat "$RESULTS/sources.txt" >>"$RESULTS/scenario.log"
ipi=$(sed -n 's/^analyze: cpu=1 nmi_ipi=\([0-9]*\) .*/\1/p' "$RESULTS/sources.txt")
pmu=$(sed -n 's/^analyze: cpu=1 .* pmu=\([0-9]*\) .*/\1/p' "$RESULTS/sources.txt")
if [ "${ipi:-0}" -ge 1000 ] && [ "${pmu:-0}" -ge 1000 ]; then
	pass_check both-sources
else
	fail_check both-sources "CPU 1: ${ipi:-0} NMI-IPI and ${pmu:-0} PMU samples (want 1000 of each at least)"
fi

# Phase 2: a sender held up between marking its IPI outstanding and raising
# it (a host descheduling the sender's vCPU there; the module's test knob
# fault_ipi_delay_us holds it 1.5 ms, over PP_IPI_LANDED_NS). The target's
# PMIs meanwhile must not take the IPI that has not been raised, or it comes
# later as an NMI that nobody claims: "unknown reason" (before the fix, every
# delayed IPI did). cpu-clock at 200 Hz keeps CPU 0's delays at 30 %.
unknown() { dmesg | grep -c 'NMI received for unknown reason'; }
u0=$(unknown)
echo 1500 >/sys/module/pmuprof/parameters/fault_ipi_delay_us
i0=$(irq1)
ppclient record -e clock:0:5000000 -e pmu:3003c:20000 -C 1 -o "$RESULTS/held.bin" -- \
	taskset -c 1 spin7030 3 >"$RESULTS/record.txt" 2>&1
rc=$?
i1=$(irq1)
echo 0 >/sys/module/pmuprof/parameters/fault_ipi_delay_us
cat "$RESULTS/record.txt" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check held-record-accounting ||
	fail_check held-record-accounting "$(grep -m1 'CHECK FAILED' "$RESULTS/record.txt")"
u1=$(unknown)
taken=$((i1 - i0))
nmis=$(cpu1 nmis)
passed=$(cpu1 passed)
ipis=$(sed -n 's/^record: cpu=0 .* ipis=\([0-9]*\).*/\1/p' "$RESULTS/record.txt")
took=$(cpu1 taken)
if [ "$u1" = "$u0" ] && [ $((nmis + passed)) = "$taken" ] && [ $((passed * PASSED_PER)) -le "$taken" ] &&
	[ "${ipis:-0}" -ge 100 ] && [ "$took" = "$ipis" ]; then
	pass_check held-sender-no-unknown
else
	fail_check held-sender-no-unknown "$((u1 - u0)) unknown NMIs; CPU 1 took $taken NMIs, pmuprof claimed $nmis, passed on $passed; CPU 0 sent ${ipis:-0} IPIs, CPU 1 took ${took:-0}"
fi
unload_module
exit 0
