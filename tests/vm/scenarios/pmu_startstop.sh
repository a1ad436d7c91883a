#!/bin/sh
# Scenario: START/STOP against NMIs on the emulated PMU (issue 15, defect 9).
# Both CPUs busy, instructions (USR|OS) every 1000 on both, 1000 START/STOP
# cycles in a row (PMIs land inside START and STOP), then a recorded session
# whose accounting must be exact; afterwards IA32_PERF_GLOBAL_CTRL is on each
# CPU what it was before (pmuprof's enables neither left on by an NMI inside
# STOP nor taken from Linux's perf, which leaves every enable set while it
# has no events), and dmesg is clean (the harness's policy).
# The CPU says RDCL_NO (no KPTI): with KPTI, TCG flushes its soft TLB on
# both CR3 switches of every NMI from user mode, an NMI costs ~20 us outside
# the handler that no throttle sees, and the churn below took 20 times as
# long (see pmu_throttle).
# needs: module pmu bin:ppclient bin:spin7030 bin:pmuregs
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,rdcl-no=on
# kmods: msr
# cmdline: nmi_watchdog=0
# timeout: 420

kmod_load msr
load_module
bg taskset -c 0 spin7030 300
w0=$!
bg taskset -c 1 spin7030 300
w1=$!
before0=$(pmuregs rdmsr 0 0x38f)
before1=$(pmuregs rdmsr 1 0x38f)
out=$RESULTS/record.txt
ppclient record -n 1000 -e pmu:300c0:1000 -t 1 -o /tmp/s.bin >"$out" 2>&1
rc=$?
cat "$out" >>"$RESULTS/scenario.log"
grep -q '^record: churn=1000' "$out" && pass_check churn ||
	fail_check churn "$(grep -m1 'ppclient:' "$out")"
[ $rc = 0 ] && pass_check accounting || fail_check accounting "$(grep -m1 'CHECK FAILED\|ppclient:' "$out")"
for c in 0 1; do
	g=$(pmuregs rdmsr $c 0x38f)
	eval b=\$before$c
	[ "$g" = "$b" ] && pass_check "global-ctrl-cpu$c" ||
		fail_check "global-ctrl-cpu$c" "IA32_PERF_GLOBAL_CTRL=0x$g after, 0x$b before"
done
kill $w0 $w1 2>/dev/null
unload_module
exit 0
