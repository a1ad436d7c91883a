#!/bin/sh
# Scenario: the 70/30 workload (split7030: 70 % of its work in hot_a, 30 %
# in hot_b) profiled by pmuctl on the emulated PMU with instructions:u and
# with cycles, and by Linux perf in the same boot with the same events and
# period: each within 2 percentage points of 70/30 and of perf (the host
# half reads pmuctl's files with pmuconv). Then -F 1000: pmuctl's sampling
# rate converges on the requested one (issue 15).
# needs: module pmu perf bin:pmuctl bin:split7030 host:pmuconv
# cmdline: nmi_watchdog=0
# timeout: 300

load_module
# perf's own throttling (kernel.perf_cpu_time_max_percent) stops its events
# for the rest of a tick when handlers look slow, which a loaded host makes
# them under TCG: whole phases of the workload then go unsampled and perf's
# split drifts (64 % seen). The comparison is with perf's exact sampling.
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
P=100003
command -v split7030 >"$RESULTS/split7030.path"
for ev in instructions:u cycles; do
	f=$(echo $ev | tr : _)
	perf record -q -e $ev -c $P -o /tmp/$f.data -- taskset -c 1 split7030 -r 40 >>"$RESULTS/scenario.log" 2>&1 ||
		fail "perf record -e $ev of split7030 failed"
	perf report -i /tmp/$f.data --stdio --sort sym 2>/dev/null >"$RESULTS/perf-$f.txt"
	pmuctl record -q -e $ev -c $P -o "$RESULTS/$f.pmu" -- taskset -c 1 split7030 -r 40 \
		>"$RESULTS/pmuctl-$f.txt" 2>&1 && pass_check "record-$f" ||
		fail_check "record-$f" "$(grep -m1 pmuctl: "$RESULTS/pmuctl-$f.txt")"
	cat "$RESULTS/pmuctl-$f.txt" >>"$RESULTS/scenario.log"
done

# -F 1000 for 4 s: samples per second over the whole run (the period adapts
# within the first few hundred milliseconds), per second that CPU 1 ran:
# its local timer ticks (LOC) over the run / HZ (HZ from jiffies against the
# clock). The period is re-estimated from the wall time between PMIs, so a
# TCG vCPU that the loaded host deschedules runs fewer samples per wall
# second (670/s seen at load 4-5) though it samples at the rate asked for
# while it runs, which is what the ticks measure (emu_pmu_perf has the same
# measure for perf's -F). Either that or the wall-clock rate passes.
jiffies_ns() { awk '/^now at/ { n = $3 } /^jiffies:/ { print $2, n; exit }' /proc/timer_list; }
loc1() { awk '$1 == "LOC:" { print $3 }' /proc/interrupts; }
set -- $(jiffies_ns)
j0=$1 n0=$2 l0=$(loc1)
pmuctl record -q -e instructions:u -F 1000 -o /tmp/freq.pmu -- taskset -c 1 split7030 -s 4 \
	>"$RESULTS/pmuctl-freq.txt" 2>&1 || fail_check freq-record "$(grep -m1 pmuctl: "$RESULTS/pmuctl-freq.txt")"
l1=$(loc1)
set -- $(jiffies_ns)
hz=$(awk -v j="$(($1 - j0))" -v n="$(($2 - n0))" 'BEGIN { h = j * 1e9 / n; split("100 250 300 1000", c, " ")
	for (i in c) if (h > 0.9 * c[i] && h < 1.1 * c[i]) { print c[i]; exit } print 0 }')
cat "$RESULTS/pmuctl-freq.txt" >>"$RESULTS/scenario.log"
set -- $(awk -v hz="$hz" -v t="$((l1 - l0))" '/^pmuctl: recorded/ { s = $3; n = $5 }
	END { tick = (t > 0 && hz > 0) ? n * hz / t : 0; wall = (s > 0) ? n / s : 0
		printf "%d %d %d\n", tick, wall, n }' "$RESULTS/pmuctl-freq.txt")
log "pmuctl record -F 1000: $3 samples, $((l1 - l0)) ticks of CPU 1 at HZ $hz: $1 per tick-second; wall clock $2/s"
# Either measure within 800-1250 passes: quiet, both are (wall 989-992,
# ticks 932-935: the ticks also count pmuctl's start and stop on CPU 1).
in_range() { [ "$1" -ge 800 ] && [ "$1" -le 1250 ]; }
{ in_range "$1" || in_range "$2"; } && pass_check freq-converges ||
	fail_check freq-converges "$1 samples per tick-second for -F 1000 (wall clock $2/s, $((l1 - l0)) ticks of CPU 1, HZ $hz)"
unload_module
exit 0
