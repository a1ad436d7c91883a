#!/bin/sh
# Scenario: per-process sessions one after another with context-switch
# following on (follow_target=1, the module default), the reproducer of the guest freeze of
# 2026-11-26 (docs/KERNEL.md, "Per-process sessions"). Each round: a PID
# session (relreader -p) on a process that forks and execs (relchurn), a
# `pmuctl record -- COMMAND` of split7030, and one of a shell running 300
# short-lived children. When the probe was registered at every START and
# unregistered at every STOP, a 100-round soak froze the guest at round 21
# (CPU 1 looping in exc_int3 on text_poke_bp's int3 in __schedule); with
# the probe registered once per module load, 79 rounds ran clean. make check
# runs 3 rounds; `make soak` (SOAK_VM=rel_perproc_stress) runs 150, with the
# soft-lockup and RCU-stall detectors reporting quickly (cmdline below).
# needs: module bin:relreader bin:relchurn bin:pmuctl bin:split7030
# cmdline: softlockup_all_cpu_backtrace=1 hung_task_timeout_secs=20 rcupdate.rcu_cpu_stall_timeout=10
# timeout: 240
# soak-timeout: 3600
REL_LEVEL=check

if [ "$REL_LEVEL" = soak ]; then rounds=150; else rounds=3; fi
load_module follow_target=1
i=0
bad=0
while [ $i -lt $rounds ]; do
	relchurn -s 2 -x 4 </dev/null >"$RESULTS/churn.txt" 2>&1 &
	t=$!
	relreader -p $t -P 200000 -g -d 0 -t 2 >"$RESULTS/pid-exec.txt" 2>&1 || {
		bad=$((bad + 1))
		log "round $i: relreader: $(grep -m1 -E 'CHECK FAILED|relreader:' "$RESULTS/pid-exec.txt")"
	}
	wait $t
	pmuctl record -e cpu-clock -F 2000 -g -q -o /tmp/cmd.pmu -- split7030 -c 1 -s 1 \
		>"$RESULTS/cmd.txt" 2>&1 || {
		bad=$((bad + 1))
		log "round $i: pmuctl -- split7030: $(tail -n 1 "$RESULTS/cmd.txt")"
	}
	pmuctl record -e cpu-clock -F 4000 -q -o /tmp/cmd2.pmu -- \
		sh -c 'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done' \
		>"$RESULTS/cmd2.txt" 2>&1 || {
		bad=$((bad + 1))
		log "round $i: pmuctl -- sh: $(tail -n 1 "$RESULTS/cmd2.txt")"
	}
	i=$((i + 1))
done
[ $bad = 0 ] && pass_check rounds-clean || fail_check rounds-clean "$bad of $((rounds * 3)) sessions failed"
unload_module
exit 0
