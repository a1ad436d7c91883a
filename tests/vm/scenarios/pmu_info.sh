#!/bin/sh
# Scenario: `pmuctl info` (text and --json) reports exactly what the emulated
# PMU announces (issue 15): PMU version, counters and widths from CPUID.0AH,
# the architectural events EBX marks available, full-width writes from
# IA32_PERF_CAPABILITIES bit 13, and the pmu source usable.
# needs: module pmu bin:pmuctl bin:pmuregs
# kmods: msr cpuid
# cmdline: nmi_watchdog=0
# timeout: 120

kmod_load cpuid
kmod_load msr
load_module
pmuctl info >"$RESULTS/info.txt" 2>&1 || fail "pmuctl info exited $?"
pmuctl info --json >"$RESULTS/info.json" 2>&1 || fail "pmuctl info --json exited $?"
cat "$RESULTS/info.txt" >>"$RESULTS/scenario.log"
# the emulation's announcement
set -- $(pmuregs cpuid 0 0xa)
eax=$((0x$1)) ebx=$((0x$2)) edx=$((0x$4))
caps=$((0x$(pmuregs rdmsr 0 0x345)))
# j KEY: a number or boolean from the one-line JSON
j() { sed -n "s/.*\"$1\": *\([0-9a-z]*\).*/\1/p" "$RESULTS/info.json"; }
same() { # NAME GOT WANT
	[ "$2" = "$3" ] && pass_check "$1" || fail_check "$1" "pmuctl says '$2', the CPU '$3'"
}
same pmu-available "$(j pmu_available)" true
same version "$(j pmu_version)" $((eax & 255))
same nr-gp "$(j nr_gp)" $(((eax >> 8) & 255))
same gp-width "$(j gp_width)" $(((eax >> 16) & 255))
same nr-fixed "$(j nr_fixed)" $((edx & 31))
same fixed-width "$(j fixed_width)" $(((edx >> 5) & 255))
fw=false
[ $(((caps >> 13) & 1)) = 1 ] && fw=true
same full-width "$(j full_width_writes)" $fw
same perf-capabilities "$(j perf_capabilities)" $caps
# architectural events: EBX bit i set = event i unavailable (EAX[31:24] bits)
len=$(((eax >> 24) & 255))
names="core-cycles instructions ref-cycles llc-references llc-misses branches branch-misses"
i=0
for n in $names; do
	if [ $i -lt "$len" ] && [ $(((ebx >> i) & 1)) = 0 ]; then want=yes; else want=no; fi
	grep -q "\"$n\"" "$RESULTS/info.json" && got=yes || got=no
	same "event-$n" $got $want
	i=$((i + 1))
done
grep -q '^sources: .*pmu' "$RESULTS/info.txt" && pass_check sources-pmu ||
	fail_check sources-pmu "$(grep '^sources' "$RESULTS/info.txt")"
unload_module
exit 0
