#!/bin/sh
# Scenario: other users of the PMU's interrupt do not end pmuprof's sampling
# (issue 15, defects 3 and 7), on the emulated PMU.
# - A foreign counter with INT (tests/vm/kmods/nmitool arms GP counter 3 on
#   CPU 1, which overflows within 1000 instructions; its PMI masks LVTPC and
#   nmitool does not reopen it): pmuprof must still sample CPU 1 afterwards
#   (it reopens LVTPC on every NMI while it runs, as perf does).
# - Freeze-on-PMI (IA32_DEBUGCTL bit 12) set by someone before the session:
#   on PMU version 4 the first PMI would freeze every counter until
#   CTR_FRZ is cleared; pmuprof must keep sampling and put the bit back at
#   the end.
# Each run: instructions:u every 100003 on CPU 1 around `insnloop loop
# 3000000` (9 M user instructions): about 90 samples when sampling works,
# 0 or 1 when it stopped.
# needs: module pmu bin:ppclient bin:insnloop bin:pmuregs
# kmods: msr
# cmdline: nmi_watchdog=0 msr.allow_writes=on
# timeout: 240

NT=/lib/pmuprof/nmitool.ko
[ -f "$NT" ] || fail "nmitool.ko is not in the initramfs (run.sh builds tests/vm/kmods/nmitool)"
kmod_load msr
load_module
insmod "$NT" >>"$RESULTS/scenario.log" 2>&1 || fail "insmod nmitool.ko failed"
CMD=/sys/kernel/debug/nmitool/cmd
DEBUGCTL=0x1d9
FREEZE=4096 # bit 12

# run NAME PRE: PRE (shell) on CPU 1 just before the loop, inside the session
run() {
	ppclient record -e pmu:300c0:100003 -x kernel -C 1 -o "/tmp/$1.bin" -- \
		sh -c "$2 taskset -c 1 insnloop loop 3000000 >/dev/null" >"$RESULTS/$1.txt" 2>&1 ||
		fail_check "$1-accounting" "$(grep -m1 'CHECK FAILED' "$RESULTS/$1.txt")"
	cat "$RESULTS/$1.txt" >>"$RESULTS/scenario.log"
	sed -n 's/^record: cpu=1 captured=[0-9]* samples=\([0-9]*\) .*/\1/p' "$RESULTS/$1.txt"
}
enough() { # NAME SAMPLES
	if [ "${2:-0}" -ge 80 ]; then pass_check "$1"; else fail_check "$1" "${2:-0} samples on CPU 1 (want about 90)"; fi
}

n=$(run control "")
enough control "$n"

n=$(run foreign-pmi "echo 'pmi 1 3 1000' >$CMD &&")
grep -q 'pmis=1' /sys/kernel/debug/nmitool/status && pass_check foreign-pmi-taken ||
	fail_check foreign-pmi-taken "nmitool: $(cat /sys/kernel/debug/nmitool/status)"
enough samples-after-foreign-pmi "$n"

pmuregs wrmsr 1 $DEBUGCTL $FREEZE || fail "cannot set IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI on CPU 1"
n=$(run freeze "")
enough samples-with-freeze-on-pmi "$n"
d=$((0x$(pmuregs rdmsr 1 $DEBUGCTL)))
[ $((d & FREEZE)) = $FREEZE ] && pass_check freeze-bit-restored ||
	fail_check freeze-bit-restored "IA32_DEBUGCTL=$d after the session"
pmuregs wrmsr 1 $DEBUGCTL 0
rmmod nmitool
unload_module
exit 0
