#!/bin/sh
# Scenario: issue 20 end to end under TCG: a guest with two NUMA nodes (one
# vCPU and 2 GiB each), `pmuctl info` printing the layout it records, and
# `pmuctl record -e cpu-clock --data-addr -- numaplace -c 0 ... 4k@0:40
# thp@1:30 4k@1:20 thp@0:10` (buffers bound to their nodes before first
# touch, THP by madvise, touched from a thread pinned to CPU 0 = node 0 in
# the proportions 40/30/20/10). The placement is checked inside the guest by
# the workload itself (move_pages(2) and /proc/self/numa_maps, page size from
# smaps): a mis-placed buffer fails the setup here, not the profiler. The
# host half (numa_place.host.sh) recovers the page size x node matrix and the
# local/remote split with `pmuconv pagesize` and checks every cell within 5
# points of the design.
# Why -m 1 -u 50000: see pagesize_split.sh (time shares equal access shares
# under TCG over a 1 MiB touched span; long calls avoid aliasing).
# needs: module bin:pmuctl bin:numaplace host:pmuconv
# timeout: 180
# mem: 4096
# qemu: -smp 2,sockets=2,cores=1,threads=1 -object memory-backend-ram,id=m0,size=2048M -object memory-backend-ram,id=m1,size=2048M -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1

load_module
cp /usr/local/bin/numaplace "$RESULTS/"
[ -d /sys/devices/system/node/node1 ] || fail "the guest has no node1 (QEMU -numa options not applied)"
cat /sys/devices/system/node/node*/cpulist >"$RESULTS/cpulists.txt"

# 1. the layout pmuctl records, as pmuctl info prints it
pmuctl info >"$RESULTS/info.txt" 2>&1 || fail "pmuctl info exited $?: $(tail -n 2 "$RESULTS/info.txt")"
pmuctl info --json >"$RESULTS/info.json" 2>&1 || fail "pmuctl info --json exited $?"
grep -A2 '^numa:' "$RESULTS/info.txt"
if grep -q '^numa: *2 nodes' "$RESULTS/info.txt" &&
	grep -q '^ *node 0: CPUs 0, [12]\.[0-9]* GiB' "$RESULTS/info.txt" &&
	grep -q '^ *node 1: CPUs 1, [12]\.[0-9]* GiB' "$RESULTS/info.txt"; then
	pass_check info-layout
else
	fail_check info-layout "$(grep -A2 '^numa:' "$RESULTS/info.txt" | tr '\n' '|')"
fi
grep -q '"numa": {"nodes": \[{"node": 0, "cpus": "0"' "$RESULTS/info.json" && pass_check info-json ||
	fail_check info-json "$(grep -o '"numa".*' "$RESULTS/info.json" | head -c 300)"

# 2. the recording; pmuctl runs on CPU 1, away from the workload's CPU 0
thp=/sys/kernel/mm/transparent_hugepage
[ -w "$thp/enabled" ] || skip "no writable $thp/enabled (kernel without THP)"
echo madvise >"$thp/enabled"
wl=$RESULTS/wl.txt
taskset -c 1 pmuctl record -e cpu-clock --data-addr -q -o "$RESULTS/numa.pmu" -- \
	numaplace -c 0 -s 6 -m 1 -u 50000 4k@0:40 thp@1:30 4k@1:20 thp@0:10 </dev/null \
	>"$wl" 2>"$RESULTS/record.txt"
rc=$?
cat "$RESULTS/record.txt" "$wl"
if [ $rc -ne 0 ] && grep -q 'setup failed' "$RESULTS/record.txt"; then
	fail "the workload's buffers are not where they were asked (in-guest check): $(grep '^buffer phase=setup' "$wl" | tr '\n' '|')"
fi
[ $rc -eq 0 ] || fail "pmuctl record exited $rc: $(tail -n 3 "$RESULTS/record.txt")"
grep -q '^numaplace: pid=' "$wl" || fail "the workload did not finish: $(tail -n 3 "$wl")"
pass_check record
n=$(grep -c '^buffer phase=setup .* move_pages=\([01]\) numa_maps=\1 ' "$wl")
[ "$n" = 4 ] && pass_check placement-truth || fail_check placement-truth "$n of 4 buffers placed"
unload_module
exit 0
