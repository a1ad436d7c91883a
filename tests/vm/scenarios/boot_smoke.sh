#!/bin/sh
# Scenario: the guest boots with the expected CPUs and hugepages, and
# pmuprof.ko (when built) loads and unloads cleanly.
# timeout: 90

grep -q '^flags' /proc/cpuinfo || fail "no flags line in /proc/cpuinfo"
log "cpu: $(grep -m1 '^model name' /proc/cpuinfo)"
cp /proc/cpuinfo "$RESULTS/cpuinfo.txt"
cp /proc/meminfo "$RESULTS/meminfo.txt"

if [ "$NCPUS" = 2 ]; then
	pass_check cpus
else
	fail_check cpus "guest sees $NCPUS CPUs, expected 2"
fi

h1g=$(cat /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages 2>/dev/null)
h2m=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages 2>/dev/null)
if [ "$h1g" = 1 ] && [ "$h2m" = 64 ]; then
	pass_check hugepages
else
	fail_check hugepages "1G pages: '${h1g}' (want 1), 2M pages: '${h2m}' (want 64)"
fi
# /proc/meminfo reports the default size (2M) pool.
grep -q '^HugePages_Total: *64$' /proc/meminfo && pass_check meminfo-hugepages ||
	fail_check meminfo-hugepages "$(grep HugePages_Total /proc/meminfo)"

# The results channel works both ways: the host checks this file.
echo "pmtest results channel ok" >"$RESULTS/channel.txt"

if [ -n "$PMUPROF_KO" ]; then
	load_module
	module_loaded pmuprof || fail "pmuprof not in /proc/modules after insmod"
	unload_module
	module_loaded pmuprof && fail "pmuprof still loaded after rmmod"
	pass_check module-load-unload
else
	fail_check module-load-unload "pmuprof.ko not built (make module); a build gap is a failure, not a skip"
fi
exit 0
