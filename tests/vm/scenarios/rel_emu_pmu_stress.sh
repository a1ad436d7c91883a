#!/bin/sh
# Scenario: the emulated PMU under load, -smp 2 with multi-threaded TCG:
# perf samples cycles (fixed counter), instructions and branches (general
# counters) with call graphs on both CPUs at a high rate for 30 s (soak:
# 10 minutes) while CPU-bound loops and fork/exec churn run, and the NMI
# watchdog holds its own counter. Passes when perf finishes with samples on
# both CPUs, the guest still answers, and dmesg has no "irq loop stuck",
# unknown NMI, hard lockup or warning (the harness checks the last three).
# needs: pmu perf bin:split7030 bin:insnloop
# cmdline: nmi_watchdog=1
# timeout: 240
# soak-timeout: 1200
REL_LEVEL=check

# soak: 20 times longer at a tenth of the rate (the perf data lives in the
# guest's RAM: the check rate for 10 minutes filled it at 270 s)
if [ "$REL_LEVEL" = soak ]; then
	secs=600 scale=10
else
	secs=30 scale=1
fi
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
bg taskset -c 0 split7030 -s $((secs + 5))
bg taskset -c 1 split7030 -s $((secs + 5))
bg sh -c "end=\$((\$(date +%s) + $secs)); while [ \$(date +%s) -lt \$end ]; do insnloop loop 1000 >/dev/null; done"
perf record -a -g -e cycles -c $((200003 * scale)) -e instructions -c $((300007 * scale)) \
	-e branches -c $((100003 * scale)) \
	-o /tmp/stress.data -- sleep $secs >>"$RESULTS/scenario.log" 2>&1 || fail "perf record -a failed"
perf report -i /tmp/stress.data --stdio --sort cpu 2>/dev/null | grep -v '^#' | grep -v '^$' >"$RESULTS/cpus.txt"
cat "$RESULTS/cpus.txt" >>"$RESULTS/scenario.log"
[ "$(grep -c '%' "$RESULTS/cpus.txt")" -ge 2 ] && pass_check samples-on-both-cpus ||
	fail_check samples-on-both-cpus "$(tr '\n' ' ' <"$RESULTS/cpus.txt")"
grep -E 'NMI|PMI' /proc/interrupts >>"$RESULTS/scenario.log"
if dmesg | grep -qE 'irq loop stuck|perfevents: irq loop'; then
	fail_check no-irq-loop-stuck "$(dmesg | grep -m1 -E 'irq loop')"
else
	pass_check no-irq-loop-stuck
fi
# still responsive: a command and a short perf stat complete
perf stat -e instructions:u -- insnloop loop 1000 >/dev/null 2>&1 && pass_check responsive ||
	fail_check responsive "perf stat after the run failed"
exit 0
