#!/bin/sh
# Scenario (issue 16, PEBS under KPTI): booted without rdcl-no=on, Debian's
# 6.1 turns kernel page-table isolation on for the emulated Skylake; the
# PMU still offers PEBS (pebs=on) and Linux perf uses it (its DS buffers
# live in the cpu_entry_area, mapped in the user page tables too), but
# pmuprof refuses precise events with a message that says why and what to
# do (docs/PMU.md "When PEBS is usable"); non-precise events still record.
# needs: pmu perf module bin:tlbrand bin:pmuctl
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,pebs=on
# timeout: 300

dmesg >"$RESULTS/boot-dmesg.txt"
melt=$(cat /sys/devices/system/cpu/vulnerabilities/meltdown 2>&1)
log "meltdown: $melt"
[ "$melt" = "Mitigation: PTI" ] && pass_check kpti-on || fail_check kpti-on "meltdown: '$melt'"
grep -q 'PEBS fmt3+' "$RESULTS/boot-dmesg.txt" && pass_check linux-pebs-fmt3 ||
	fail_check linux-pebs-fmt3 "$(grep -m1 'Performance Events' "$RESULTS/boot-dmesg.txt")"

# Linux perf's PEBS works under KPTI (records written through the user page
# tables while tlbrand runs).
perf record -q -e r81d0:upp -c 1009 -d -o "$RESULTS/perf.data" -- tlbrand -n 50000 4k \
	>"$RESULTS/wl-perf.txt" 2>"$RESULTS/perf-record.txt" ||
	fail_check perf-pebs "perf record: $(tail -n 3 "$RESULTS/perf-record.txt")"
n=$(perf script -i "$RESULTS/perf.data" -F ip,sym 2>/dev/null | grep -c rand_loads)
log "perf under KPTI: $n samples at rand_loads"
[ "$n" -ge 45 ] && pass_check perf-pebs || fail_check perf-pebs "$n PEBS samples at rand_loads for 50000 loads, period 1009"

load_module
dmesg | grep 'pmuprof: pebs:' >"$RESULTS/pebs-dmesg.txt"
cat "$RESULTS/pebs-dmesg.txt" >>"$RESULTS/scenario.log"
grep -q 'pmuprof: pebs: disabled: kernel page-table isolation is on' "$RESULTS/pebs-dmesg.txt" &&
	pass_check load-says-disabled || fail_check load-says-disabled "kernel log: $(cat "$RESULTS/pebs-dmesg.txt")"
pmuctl record -e MEM_INST_RETIRED:ALL_LOADS:u:p -c 1009 --data-addr -q -o "$RESULTS/p.pmu" -- true \
	>"$RESULTS/refused.txt" 2>&1
rc=$?
cat "$RESULTS/refused.txt" >>"$RESULTS/scenario.log"
if [ $rc != 0 ] && grep -q 'KPTI' "$RESULTS/refused.txt" && grep -q 'pti=off' "$RESULTS/refused.txt"; then
	pass_check precise-refused
else
	fail_check precise-refused "pmuctl exited $rc: $(cat "$RESULTS/refused.txt")"
fi
pmuctl record -e MEM_INST_RETIRED:ALL_LOADS:u -c 1009 -q -o "$RESULTS/np.pmu" -- tlbrand -n 50000 4k \
	>"$RESULTS/wl-np.txt" 2>"$RESULTS/np.txt" && pass_check non-precise-records ||
	fail_check non-precise-records "pmuctl record: $(tail -n 3 "$RESULTS/np.txt")"
unload_module
exit 0
