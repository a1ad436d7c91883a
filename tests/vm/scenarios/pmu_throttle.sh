#!/bin/sh
# Scenario: tiny periods on the emulated PMU (issue 15). Three counters that
# overflow in the same PMI (instructions, cycles and ref-cycles count alike
# here: one cycle per instruction), USR|OS, at the module's minimum period
# (1000), on both CPUs busy: throttling engages and says so (pmuctl's
# summary, the file's THROTTLE records, GET_STATS), the handlers stay near
# their CPU budget (25 % of a CPU, perf's default) and at most 100000 NMIs a
# second per CPU (perf's kernel.perf_event_max_sample_rate) instead of a PMI
# storm, the guest stays responsive (a fixed job on CPU 0 finishes, the
# session stops when asked), and the accounting is exact (ppclient's
# checks). With the module parameters max_handler_pct=0 and
# max_sample_rate=0 it never throttles.
# The CPU says RDCL_NO, so the guest runs without KPTI: with KPTI each NMI
# from user mode switches CR3 twice and TCG flushes its whole soft TLB each
# time, about 17 us an NMI outside the handler (measured: 40 k NMIs/s per
# CPU at -c 5000 with KPTI, 187 k without, handler 2.6 us against 0.85 us);
# no handler-side limit sees that cost, the storm then slows the guest
# twenty-fold and this scenario ran past its limit (perf has the same blind
# spot; docs/KERNEL.md). emu_pmu_pebs_kpti covers KPTI.
# needs: module pmu bin:pmuctl bin:ppclient bin:spin7030 bin:insnloop
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,rdcl-no=on
# cmdline: nmi_watchdog=0
# timeout: 300

load_module
bg taskset -c 1 spin7030 60
w1=$!
out=$RESULTS/record.txt
ms_now() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
t0=$(ms_now)
ppclient record -e pmu:300c0:1000 -e pmu:3003c:1000 -e pmu:3013c:1000 -t 4 -o /tmp/t.bin \
	>"$out" 2>&1 &
rec=$!
# responsiveness: a fixed job on CPU 0 during the storm-to-be
taskset -c 0 insnloop loop 2000000 >"$RESULTS/probe.txt" 2>&1 && pass_check responsive ||
	fail_check responsive "insnloop on CPU 0 failed: $(head -c 200 "$RESULTS/probe.txt")"
wait $rec
rc=$?
elapsed_ms=$(($(ms_now) - t0))
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check accounting || fail_check accounting "$(grep -m1 'CHECK FAILED' "$out")"
# field KEY: from the totals line
field() { sed -n "s/^record: samples=.* $1=\([0-9]*\).*/\1/p" "$out" | head -n 1; }
thr=$(field throttled)
[ "${thr:-0}" -gt 0 ] && pass_check throttled || fail_check throttled "GET_STATS throttled=${thr:-none}"
trec=$(field throttle_records)
[ "${trec:-0}" -gt 0 ] && pass_check throttle-records || fail_check throttle-records "no THROTTLE records"
# Handler time against the session's real length on 2 CPUs: at most half
# of it (the budget is 25 %; room for the windows before throttling bites),
# where a storm would take nearly all of it. The length is measured, not
# the 4 s asked for: on a loaded host the emulated PMIs' cost outside the
# handlers (QEMU, the kernel's NMI entry and exit) stretched a 4 s session
# to 31 s once, and 2.7 M NMIs at 4.7 us then took 12.9 s while the
# handlers kept to 21 % (clean-clone make check, 2026-11-26).
mean=$(field handler_ns_mean)
nmis=$(field nmis)
busy_ms=$((mean * nmis / 1000000))
log "handler time ${busy_ms} ms over ${elapsed_ms} ms x 2 CPUs ($nmis NMIs, mean $mean ns), throttled $thr times"
[ "$busy_ms" -le "$elapsed_ms" ] && pass_check no-storm ||
	fail_check no-storm "handlers used $busy_ms ms of $((2 * elapsed_ms)) (more than half)"
# NMIs per second over the session on 2 CPUs: within the cap (100000 per
# CPU), with a tenth more for the windows before throttling bites
rate=$((nmis * 1000 / (elapsed_ms > 0 ? elapsed_ms : 1)))
log "NMI rate $rate/s on 2 CPUs"
[ "$rate" -le 220000 ] && pass_check rate-capped ||
	fail_check rate-capped "$rate NMIs/s on 2 CPUs, cap 100000 per CPU"
unload_module

# max_handler_pct=0 and max_sample_rate=0 turn throttling off (as
# perf_cpu_time_max_percent=0 and a perf_event_max_sample_rate too high to
# matter): at a period the guest can afford, never throttled, accounting
# exact
load_module max_handler_pct=0 max_sample_rate=0
out=$RESULTS/record-off.txt
check_out off-accounting "$out" 'CHECK FAILED' \
	ppclient record -e pmu:300c0:20000 -e pmu:3003c:20000 -t 3 -o /tmp/t2.bin
thr=$(field throttled)
[ "${thr:-x}" = 0 ] && pass_check off-never-throttles || fail_check off-never-throttles "throttled=${thr:-none}"
kill $w1 2>/dev/null
unload_module
exit 0
