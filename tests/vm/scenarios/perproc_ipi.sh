#!/bin/sh
# Scenario: a per-process NMI-IPI (cpu-clock) session interrupts only CPUs
# where the target runs (issue 15). Two CPUs: CPU 0 leads the plan
# (captures itself from its timer) and sends CPU 1's NMIs. The target
# spin7030 pinned to CPU 0 while CPU 1 idles: CPU 1 must take no NMIs at
# 10 kHz (it runs no task of the target). Then pinned to CPU 1: CPU 1 takes
# NMIs at the sampling rate and every one is a sample of the target.
# needs: module bin:ppclient bin:spin7030
# timeout: 240

[ "$NCPUS" -ge 2 ] || fail "needs 2 CPUs (# smp: header)"
# the module's own default (load_module turns following off for the other
# scenarios: tests/vm/lib/guest.sh); no session here, so nothing is patched
insmod "$PMUPROF_KO" >>"$RESULTS/scenario.log" 2>&1 || fail "insmod pmuprof.ko failed"
d=$(cat /sys/module/pmuprof/parameters/follow_target 2>&1)
[ "$d" = Y ] && pass_check follow-default-on || fail_check follow-default-on "follow_target=$d by default"
rmmod pmuprof || fail "rmmod pmuprof failed"
load_module follow_target=1
nmi() { awk -v c=$(($1 + 2)) '$1 == "NMI:" { print $c }' /proc/interrupts; }
# cpufield FILE CPU KEY: KEY=value of the "record: cpu=CPU ..." line (0 if none)
cpufield() {
	v=$(sed -n "s/^record: cpu=$2 .*[ ]$3=\([0-9]*\).*/\1/p" "$1")
	echo "${v:-0}"
}
# total FILE KEY: KEY=value of the "record: samples=..." line
total() { sed -n "s/^record: samples=.*[ ]$2=\([0-9]*\).*/\1/p" "$1"; }

# session CPU: a 10 kHz NMI-IPI session on a spin7030 pinned to CPU; sets
# out (ppclient's output) and d1 (the NMIs CPU 1 took during it)
session() {
	bg taskset -c "$1" spin7030 30
	T=$!
	sleep 1
	out=$RESULTS/on$1.txt
	a1=$(nmi 1)
	ppclient record -P 100000 -p $T -t 3 >"$out" 2>&1 ||
		fail_check "on$1-accounting" "$(grep -m1 'CHECK FAILED' "$out")"
	b1=$(nmi 1)
	kill $T
	wait $T 2>/dev/null
	cat "$out" >>"$RESULTS/scenario.log"
	d1=$((b1 - a1))
}

# --- target on CPU 0, CPU 1 idle ---------------------------------------
session 0
n1=$(cpufield "$out" 1 nmis)
s0=$(cpufield "$out" 0 samples)
log "target on CPU 0: CPU 1 took $d1 NMIs (pmuprof claimed $n1); CPU 0 $s0 samples"
[ "$d1" -le 5 ] && pass_check idle-cpu-no-nmis ||
	fail_check idle-cpu-no-nmis "CPU 1 (no target task on it) took $d1 NMIs, $n1 of them pmuprof's"
[ "$s0" -ge 1000 ] && pass_check on0-samples ||
	fail_check on0-samples "CPU 0 (the target's) has $s0 samples in 3 s at 10 kHz"

# --- target on CPU 1 -----------------------------------------------------
session 1
n1=$(cpufield "$out" 1 nmis)
s1=$(cpufield "$out" 1 samples)
f=$(total "$out" filtered)
log "target on CPU 1: CPU 1 took $d1 NMIs (pmuprof claimed $n1), $s1 samples; filtered ${f:-?}"
[ "$s1" -ge 1000 ] && [ "$n1" -ge "$s1" ] && [ "$d1" -ge "$n1" ] && pass_check target-cpu-sampled ||
	fail_check target-cpu-sampled "CPU 1 (the target's): $d1 NMIs, $n1 claimed, $s1 samples"
[ "$n1" -le $((s1 + s1 / 50 + 5)) ] && pass_check target-cpu-nmis-are-samples ||
	fail_check target-cpu-nmis-are-samples "CPU 1: $n1 NMIs claimed for $s1 samples"
unload_module
exit 0
