#!/bin/sh
# Scenario: issue 20 end to end under TCG: a guest with two NUMA nodes (one
# vCPU each; 1.5 and 3 GiB, so that node 1 keeps an aligned free GiB for the
# boot-time 1 GiB huge page: with 2 + 2 GiB the kernel found room on neither),
# `pmuctl info` printing the layout it records, and
# `pmuctl record -e cpu-clock --data-addr -- numaplace -c 0 ... 4k@0:30
# thp@1:30 4k@1:20 thp@0:10 1g@N:10` (buffers bound to their nodes before
# first touch, THP by madvise, the 1 GiB hugetlbfs page the boot command line
# reserves on node N, whichever node the kernel put it on; touched from a
# thread pinned to CPU 0 = node 0 in the proportions 30/30/20/10/10). The
# placement is checked inside the guest by
# the workload itself (move_pages(2) and /proc/self/numa_maps, page size from
# smaps): a mis-placed buffer fails the setup here, not the profiler. The
# host half (numa_place.host.sh) recovers the page size x node matrix and the
# local/remote split with `pmuconv pagesize` and checks every cell within 5
# points of the design; then the four-buffer design 4k@0:40 thp@1:30 4k@1:20
# thp@0:10 recorded by an unprivileged opener (CAP_PERFMON only: no physical
# addresses), whose nodes come from the module.
# Why -m 1 -u 50000: see pagesize_split.sh (time shares equal access shares
# under TCG over a 1 MiB touched span; long calls avoid aliasing).
# needs: module bin:pmuctl bin:numaplace bin:relcaps host:pmuconv
# timeout: 180
# mem: 4608
# qemu: -smp 2,sockets=2,cores=1,threads=1 -object memory-backend-ram,id=m0,size=1536M -object memory-backend-ram,id=m1,size=3072M -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1

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
	grep -q '^ *node 1: CPUs 1, [1-3]\.[0-9]* GiB' "$RESULTS/info.txt"; then
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
# a node whose hugetlbfs pool has a free 1 GiB page: the one the boot command
# line reserves (hugepagesz=1G hugepages=1) if the kernel found room for it
# at boot, else one allocated now (contiguous memory of a mostly free node)
hp() { echo "/sys/devices/system/node/node$1/hugepages/hugepages-1048576kB/$2"; }
free1g() { [ "$(cat "$(hp "$1" free_hugepages)" 2>/dev/null)" -ge 1 ] 2>/dev/null; }
g=
for n in 0 1; do [ -z "$g" ] && free1g $n && g=$n; done
for n in 1 0; do
	[ -z "$g" ] || break
	echo $(($(cat "$(hp $n nr_hugepages)") + 1)) >"$(hp $n nr_hugepages)" 2>/dev/null
	free1g $n && g=$n
done
[ -n "$g" ] || fail "no free 1 GiB huge page on either node, at boot or allocated now (nr_hugepages: $(cat "$(hp 0 nr_hugepages)") $(cat "$(hp 1 nr_hugepages)"))"
log "the 1 GiB hugetlbfs page is on node $g"
wl=$RESULTS/wl.txt
taskset -c 1 pmuctl record -e cpu-clock --data-addr -q -o "$RESULTS/numa.pmu" -- \
	numaplace -c 0 -s 6 -m 1 -u 50000 4k@0:30 thp@1:30 4k@1:20 thp@0:10 "1g@$g:10" </dev/null \
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
[ "$n" = 5 ] && pass_check placement-truth || fail_check placement-truth "$n of 5 buffers placed"

# 3. the hidden-address rule: an opener with CAP_PERFMON only (uid 65534) gets
# no physical addresses, yet the module puts each sample's node in it
# (pmuprof_sample_addr.data_node1); the host checks the same matrix.
mkdir -p /tmp/np && chmod 777 /tmp/np
chgrp 65534 /dev/pmuprof && chmod 0660 /dev/pmuprof || fail "cannot change the node's group/mode"
taskset -c 1 relcaps -u 65534 -g 65534 -c perfmon -- pmuctl record -e cpu-clock --data-addr -q \
	-o /tmp/np/unpriv.pmu -- numaplace -c 0 -s 4 -m 1 -u 50000 4k@0:40 thp@1:30 4k@1:20 thp@0:10 \
	</dev/null >"$RESULTS/wl-unpriv.txt" 2>"$RESULTS/record-unpriv.txt"
rc=$?
chgrp 0 /dev/pmuprof && chmod 0600 /dev/pmuprof
cat "$RESULTS/record-unpriv.txt"
cp /tmp/np/unpriv.pmu "$RESULTS/" 2>/dev/null
if [ $rc -eq 0 ] && grep -q '^numaplace: pid=' "$RESULTS/wl-unpriv.txt"; then
	pass_check record-unprivileged
else
	fail_check record-unprivileged "exit $rc: $(tail -n 3 "$RESULTS/record-unpriv.txt" | tr '\n' ' ')"
fi
unload_module
exit 0
