#!/bin/sh
# Scenario: pmuctl record --call-graph dwarf and perf record --call-graph
# dwarf in the same boot on nofpwork_dyn (-O2 -fomit-frame-pointer, qsort
# from the shared libc), both cpu-clock on CPU 1 for 8 s (~4500 samples each under TCG: the
# difference of two shares then has a standard deviation of ~1 pp), and on
# cxxwork_dyn (C++, templates, an inlined hot helper, 500 vDSO calls a
# round; g++ -O2 -fomit-frame-pointer -g) for 8 s each, sampled on the
# emulated PMU's instructions:u every P instructions (P from a 1 s perf
# stat, for ~6000 samples), so its shares are instruction shares, which
# host load cannot move (cpu-clock time shares of the same runs were seen
# 16 pp apart under load; 500 calls put a few % of the instructions in the
# vDSO, whose unwinding is judged); the host half compares the call-path shares (issue 18: within 3
# percentage points) and judges pmuprof's full stacks. perf.data of
# nofpwork is kept for bench/dwarf_vs_perf.sh.
# needs: module pmu perf bin:pmuctl bin:nofpwork_dyn bin:cxxwork_dyn host:pmuconv
# cmdline: nmi_watchdog=0
# timeout: 360
# results-mb: 400

load_module
command -v nofpwork_dyn >"$RESULTS/nofpwork.path"
command -v cxxwork_dyn >"$RESULTS/cxxwork.path"
pmuctl record -q -e cpu-clock --call-graph dwarf -o "$RESULTS/pmuprof.pmu" -- \
	taskset -c 1 nofpwork_dyn 8 >"$RESULTS/record.txt" 2>&1 && pass_check pmuctl-record ||
	fail_check pmuctl-record "$(grep -m1 pmuctl: "$RESULTS/record.txt")"
# perf must not throttle itself (its handler always looks slow under
# emulation, and a dwarf copy makes it slower): as emu_pmu_perf
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
n=$(perf stat -x, -e instructions:u -- taskset -c 1 cxxwork_dyn -c 500 1 2>&1 >/dev/null | awk -F, '/instructions/ { print $1 }')
case $n in
'' | *[!0-9]*) fail "perf stat -e instructions:u of cxxwork_dyn gave '$n'" ;;
esac
P=$((n * 8 / 6000 / 2 * 2 + 1))
log "cxxwork_dyn: $n user instructions in 1 s; sampling every $P"
pmuctl record -q -e instructions:u -c $P --call-graph dwarf -o "$RESULTS/cxx.pmu" -- \
	taskset -c 1 cxxwork_dyn -c 500 8 >"$RESULTS/cxx-record.txt" 2>&1 && pass_check pmuctl-record-cxx ||
	fail_check pmuctl-record-cxx "$(grep -m1 pmuctl: "$RESULTS/cxx-record.txt")"
unload_module
perf record -q -e cpu-clock -F 1000 --call-graph dwarf -o "$RESULTS/perf.data" -- \
	taskset -c 1 nofpwork_dyn 8 >"$RESULTS/perf-record.txt" 2>&1 && pass_check perf-record ||
	fail_check perf-record "$(tail -n 1 "$RESULTS/perf-record.txt")"
perf script --no-inline -i "$RESULTS/perf.data" >"$RESULTS/perf.txt" 2>"$RESULTS/perf-script.err" ||
	fail_check perf-script "$(tail -n 1 "$RESULTS/perf-script.err")"
perf record -q -e instructions:u -c $P --call-graph dwarf -o /tmp/cxx.data -- \
	taskset -c 1 cxxwork_dyn -c 500 8 >"$RESULTS/cxx-perf-record.txt" 2>&1 && pass_check perf-record-cxx ||
	fail_check perf-record-cxx "$(tail -n 1 "$RESULTS/cxx-perf-record.txt")"
perf script --no-inline -i /tmp/cxx.data >"$RESULTS/cxx-perf.txt" 2>"$RESULTS/cxx-perf-script.err" ||
	fail_check perf-script-cxx "$(tail -n 1 "$RESULTS/cxx-perf-script.err")"
exit 0
