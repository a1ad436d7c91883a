#!/bin/sh
# Scenario: CPU 1 goes offline and online repeatedly while a cpu-clock
# (NMI-IPI) session samples: no oops or unknown NMI, the session ends with
# exact accounting, and CPU 1 samples again after coming back online (the
# cpuhp online callback restarts it; while it is away CPU 0 is alone and
# falls back to its own timer interrupt).
# needs: module bin:ppclient bin:spin7030
# timeout: 300

[ "$NCPUS" -ge 2 ] || fail "needs 2 CPUs (# smp: header)"
[ -w /sys/devices/system/cpu/cpu1/online ] || fail "cpu1 cannot be hotplugged here"
load_module
bg spin7030 14
wl=$!
out=$RESULTS/record.txt
ppclient record -s clock -P 500000 -g -U -t 10 -o "$RESULTS/hotplug.bin" >"$out" 2>&1 &
rec=$!
usleep 500000
ok=1
for i in 1 2 3 4; do
	echo 0 >/sys/devices/system/cpu/cpu1/online || ok=0
	usleep 700000
	echo 1 >/sys/devices/system/cpu/cpu1/online || ok=0
	usleep 700000
done
[ $ok = 1 ] && pass_check hotplug-cycles || fail_check hotplug-cycles "writing cpu1/online failed"
[ "$(cat /sys/devices/system/cpu/cpu1/online)" = 1 ] || fail "cpu1 did not come back"
wait $rec
rc=$?
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check record-accounting || fail_check record-accounting "$(grep -m1 'CHECK FAILED' "$out")"
# CPU 1 samples again after its last online, within the same session: the
# cycles end ~6 s into the 10 s recording, so the last quarter of the
# recording (2.5 s at 2 kHz) lies after the last online.
ppclient analyze "$RESULTS/hotplug.bin" --cpu-tail 1 --min 1 >"$RESULTS/tail.txt" 2>&1
cat "$RESULTS/tail.txt" >>"$RESULTS/scenario.log"
tail1=$(sed -n 's/^analyze: cpu_tail cpu=1 samples=\([0-9]*\) .*/\1/p' "$RESULTS/tail.txt")
[ "${tail1:-0}" -gt 500 ] && pass_check cpu1-resumes-in-session ||
	fail_check cpu1-resumes-in-session "cpu1 has ${tail1:-0} samples in the last quarter"

# After the cycles, a fresh session still samples CPU 1.
ppclient record -s clock -P 1000000 -C 1 -t 2 >"$RESULTS/after.txt" 2>&1 &&
	[ "$(sed -n 's/^record: cpu=1 captured=\([0-9]*\) .*/\1/p' "$RESULTS/after.txt")" -gt 100 ] &&
	pass_check cpu1-after-hotplug || fail_check cpu1-after-hotplug "$(head -3 "$RESULTS/after.txt" | tr '\n' ' ')"
kill $wl 2>/dev/null
wait $wl 2>/dev/null
unload_module
exit 0
