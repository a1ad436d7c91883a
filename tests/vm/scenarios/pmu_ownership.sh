#!/bin/sh
# Scenario: who owns the counters (issue 15), on the emulated PMU. With the
# NMI watchdog on, or perf holding counters, `pmuctl record -e cycles` fails
# (EBUSY) with a message that says how to free them; after a pmuprof session
# ended normally, by SIGKILL of pmuctl, by rmmod, or with CPU 1 unplugged in
# the middle, `perf stat -e cycles` works again and the watchdog can be turned
# back on (and then owns the counters again).
# needs: module pmu perf bin:pmuctl bin:insnloop bin:spin7030
# cmdline: nmi_watchdog=1
# timeout: 300

load_module
WD=/proc/sys/kernel/nmi_watchdog
[ "$(cat $WD)" = 1 ] || fail "the NMI watchdog is off at boot (cmdline nmi_watchdog=1)"

# busy NAME PATTERN: pmuctl record -e cycles must fail (exit 1), saying who
# holds the PMU and how to free it (PATTERN)
busy() {
	pmuctl record -q -e cycles -o /tmp/busy.pmu -- insnloop loop 1000 >/tmp/busy.txt 2>&1
	rc=$?
	cat /tmp/busy.txt >>"$RESULTS/scenario.log"
	if [ $rc = 1 ] && grep -q "$2" /tmp/busy.txt && ! grep -q 'another pmuprof session' /tmp/busy.txt; then
		pass_check "busy-$1"
	else
		fail_check "busy-$1" "exit $rc: $(head -n 2 /tmp/busy.txt | tr '\n' ' ')"
	fi
}
# works NAME: a pmuctl session on the same loop succeeds
works() {
	pmuctl record -q -e cycles -c 100003 -o "/tmp/$1.pmu" -- insnloop loop 1000000 >/tmp/w.txt 2>&1 &&
		pass_check "pmuctl-$1" || fail_check "pmuctl-$1" "$(head -n 2 /tmp/w.txt | tr '\n' ' ')"
	cat /tmp/w.txt >>"$RESULTS/scenario.log"
}
# perf_ok NAME: perf can count cycles again
perf_ok() {
	perf stat -x, -e cycles -o /tmp/ps.csv -- insnloop loop 100000 >/dev/null 2>&1 &&
		c=$(awk -F, '$3 == "cycles" { print $1 }' /tmp/ps.csv) && [ "${c:-0}" -gt 300000 ] 2>/dev/null &&
		pass_check "perf-after-$1" || fail_check "perf-after-$1" "$(cat /tmp/ps.csv 2>/dev/null | tr '\n' ' ')"
}

busy watchdog "held by the NMI watchdog; run .sysctl kernel.nmi_watchdog=0."
echo 0 >$WD
works after-watchdog-off

# perf holding counters (any perf hardware event reserves the PMU)
mkfifo /tmp/perf-go
perf stat -e cycles -a -o /tmp/hold.txt -- cat /tmp/perf-go >/dev/null 2>&1 &
hold=$!
# perf holds the counters once its event exists: wait for perf's process to
# be past the open (its fd on perf_event), bounded
n=0
while [ $n -lt 300 ] && ! ls -l /proc/$hold/fd 2>/dev/null | grep -q 'perf_event'; do
	usleep 10000
	n=$((n + 1))
done
busy perf "held by another PMU user (perf"
echo go >/tmp/perf-go
wait $hold
perf_ok perf-exit
works after-perf

# ended normally
perf_ok normal-end
# ended by SIGKILL
pmuctl record -q -e cycles -c 100003 -o /tmp/k.pmu -- spin7030 30 >/tmp/k.txt 2>&1 &
rec=$!
n=0
while [ $n -lt 500 ] && ! pgrep -x spin7030 >/dev/null; do
	usleep 10000
	n=$((n + 1))
done
kill -KILL $rec
wait $rec 2>/dev/null
pkill -x spin7030
perf_ok sigkill
# ended by rmmod (after the session: the device holds the module)
works before-rmmod
unload_module
perf_ok rmmod
load_module
# CPU 1 unplugged in the middle of a session
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	pmuctl record -q -a -e cycles -c 100003 -o /tmp/hp.pmu --duration 3 >/tmp/hp.txt 2>&1 &
	rec=$!
	n=0
	while [ $n -lt 100 ] && [ ! -s /tmp/hp.pmu ]; do
		usleep 10000
		n=$((n + 1))
	done
	echo 0 >/sys/devices/system/cpu/cpu1/online || fail_check hotplug "cpu1 offline failed"
	wait $rec
	rc=$?
	cat /tmp/hp.txt >>"$RESULTS/scenario.log"
	echo 1 >/sys/devices/system/cpu/cpu1/online || fail_check hotplug "cpu1 online failed"
	[ $rc = 0 ] && pass_check hotplug-session || fail_check hotplug-session "pmuctl exited $rc"
	perf_ok hotplug
else
	fail_check hotplug "cpu1 cannot be hotplugged here"
fi
# the watchdog comes back and owns the counters again
echo 1 >$WD
[ "$(cat $WD)" = 1 ] && pass_check watchdog-reenabled || fail_check watchdog-reenabled "$(cat $WD)"
busy watchdog-again "held by the NMI watchdog"
echo 0 >$WD
unload_module
exit 0
