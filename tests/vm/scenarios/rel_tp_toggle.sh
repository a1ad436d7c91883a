#!/bin/sh
# Scenario: the sched_switch trace event enabled and disabled from tracefs
# round after round under fork/exec load, with pmuprof NOT loaded: the
# baseline of rel_perproc_stress. Each enable and disable patches the
# tracepoint's static branch in __schedule with text_poke_bp(), the same
# patching pmuprof's per-process probe does once per module load.
# On 2026-11-26 it froze the guest on Debian's unmodified QEMU 7.2 (MTTCG,
# 2 vCPUs) after 300-400 toggles and on our emulated-PMU build after 250-300,
# with the signature of the per-session probe freeze (CPU 1 looping in
# exc_int3 at __schedule+0x1bc, where memory already holds the 5-byte NOP
# again: a stale TCG translation; CPU 0 in text_poke_bp's sync IPI): the
# hazard is QEMU TCG's, not pmuprof's. Other runs went 400-700 toggles
# clean, so make check runs a few toggles (that tracing works in the guest)
# and `make soak` (SOAK_VM=rel_tp_toggle) runs 2000.
# needs: bin:relchurn
# cmdline: softlockup_all_cpu_backtrace=1 hung_task_timeout_secs=20 rcupdate.rcu_cpu_stall_timeout=10
# timeout: 150
# soak-timeout: 3600
REL_LEVEL=check

if [ "$REL_LEVEL" = soak ]; then toggles=2000; else toggles=10; fi
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
E=$T/events/sched/sched_switch/enable
[ -w $E ] || fail "no writable $E (tracefs not mounted, or no sched_switch event)"
module_loaded pmuprof && fail "pmuprof is loaded: this scenario is the baseline without it"
sh -c 'while :; do relchurn -s 1 -x 4 >/dev/null 2>&1; done' &
l1=$!
i=0
bad=0
while [ $i -lt $toggles ]; do
	echo 1 >$E
	[ "$(cat $E)" = 1 ] || bad=$((bad + 1))
	echo 0 >$E
	[ "$(cat $E)" = 0 ] || bad=$((bad + 1))
	i=$((i + 1))
	[ $((i % 100)) = 0 ] && log "toggles: $i"
done
kill $l1
wait $l1 2>/dev/null
[ $bad = 0 ] && pass_check toggles || fail_check toggles "$bad of $((toggles * 2)) writes to $E did not take"
exit 0
