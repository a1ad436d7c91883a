#!/bin/sh
# Scenario: pmuprof's 32-bit counter-write path (issue 15). The emulated PMU
# with full-width writes off (IA32_PERF_CAPABILITIES bit 13 clear, no
# IA32_A_PMCx): pmuctl info says so, and the same recordings as pmu_counts
# (instructions:u, cycles:u, branches:u, here at -c 1000 and 1000000, where
# legacy writes sign-extend bit 31) give the same sums of periods, within
# 1 % of perf stat (host half: pmu_counts.host.sh).
# needs: module pmu perf bin:pmuctl bin:insnloop host:pmuconv
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,full-width-write=off
# cmdline: nmi_watchdog=0
# timeout: 420

load_module
pmuctl info --json >"$RESULTS/info.json" 2>&1 || fail "pmuctl info --json exited $?"
grep -q '"full_width_writes": false' "$RESULTS/info.json" && pass_check no-full-width ||
	fail_check no-full-width "$(cat "$RESULTS/info.json")"
unload_module
PERIODS="1000 1000000"
echo "$PERIODS" >"$RESULTS/periods"
. /scenarios/pmu_counts.sh
