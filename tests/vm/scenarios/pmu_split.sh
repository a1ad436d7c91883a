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
# within the first few hundred milliseconds)
pmuctl record -q -e instructions:u -F 1000 -o /tmp/freq.pmu -- taskset -c 1 split7030 -s 4 \
	>"$RESULTS/pmuctl-freq.txt" 2>&1 || fail_check freq-record "$(grep -m1 pmuctl: "$RESULTS/pmuctl-freq.txt")"
cat "$RESULTS/pmuctl-freq.txt" >>"$RESULTS/scenario.log"
rate=$(awk '/^pmuctl: recorded/ { s = $3; n = $5 } END { if (s > 0) printf "%d", n / s; else print 0 }' \
	"$RESULTS/pmuctl-freq.txt")
log "pmuctl record -F 1000: $rate samples/s"
[ "$rate" -ge 800 ] && [ "$rate" -le 1250 ] && pass_check freq-converges ||
	fail_check freq-converges "$rate samples/s for -F 1000"
unload_module
exit 0
