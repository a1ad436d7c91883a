#!/bin/sh
# Scenario: SIGINT and SIGTERM during `pmuctl record` stop it cleanly with
# exit 0 and a complete file (host checks the trailer); SIGINT with a
# COMMAND running ends the command too; a full disk gives one clear error
# and a non-zero exit, never a silently short file.
# needs: module bin:pmuctl bin:split7030
# timeout: 180
# results-mb: 128

load_module
for sig in INT TERM; do
	out=$RESULTS/sig$sig.txt
	pmuctl record -a -e cpu-clock -g -o "$RESULTS/sig$sig.pmu" </dev/null >"$out" 2>&1 &
	p=$!
	wait_started "$out" || fail "pmuctl record -a never said it started: $(cat "$out")"
	kill -$sig $p
	wait $p
	rc=$?
	cat "$out"
	if [ $rc -eq 0 ] && grep -q 'stopped by .*complete' "$out" && grep -q '^pmuctl: recorded' "$out"; then
		pass_check "sig$sig-clean-exit"
	else
		fail_check "sig$sig-clean-exit" "exit $rc: $(tail -n 2 "$out" | tr '\n' ' ')"
	fi
done

out=$RESULTS/cmdint.txt
pmuctl record -e cpu-clock -o "$RESULTS/cmdint.pmu" -- split7030 -s 120 </dev/null >"$out" 2>&1 &
p=$!
wait_started "$out" || fail "pmuctl record -- split7030 never started: $(cat "$out")"
kill -INT $p
wait $p
rc=$?
cat "$out"
[ $rc -eq 0 ] && grep -q 'stopped by' "$out" && pass_check cmd-sigint ||
	fail_check cmd-sigint "exit $rc: $(tail -n 2 "$out" | tr '\n' ' ')"
if pidof split7030 >/dev/null; then
	fail_check cmd-ended "split7030 still runs after pmuctl stopped"
	killall split7030 2>/dev/null
else
	pass_check cmd-ended
fi

# SIGKILL: what pmuctl had buffered is lost, but it writes its buffer out
# at least once a second, so the file grows past its header within a
# second or so of the start (waited for, bounded at 10 s) and a kill then
# leaves samples for pmuconv --salvage (host half). It used to keep up to
# 1 MiB in memory: a killed small recording had no samples at all.
out=$RESULTS/kill.txt
pmuctl record -C 0 -e cpu-clock -F 200 -o "$RESULTS/killed.pmu" </dev/null >"$out" 2>&1 &
p=$!
wait_started "$out" || fail "pmuctl record never said it started: $(cat "$out")"
size0=$(wc -c <"$RESULTS/killed.pmu")
n=0
while [ "$(wc -c <"$RESULTS/killed.pmu")" -le "$size0" ] && [ $n -lt 200 ]; do
	usleep 50000
	n=$((n + 1))
done
size1=$(wc -c <"$RESULTS/killed.pmu")
kill -9 $p
wait $p 2>/dev/null
[ "$size1" -gt "$size0" ] && pass_check sigkill-flushed ||
	fail_check sigkill-flushed "the file stayed at $size0 bytes for 10 s of recording"
# Full disk: a 16 KiB tmpfs holds the header but not a second of -a samples
# (the file no longer carries the 4 MB kallsyms snapshot that filled 1 MiB).
mkdir -p /mnt/tiny && mount -t tmpfs -o size=16k tiny /mnt/tiny || fail "cannot mount a tiny tmpfs"
pmuctl record -a --duration 1 -e cpu-clock -o /mnt/tiny/full.pmu >"$RESULTS/full.txt" 2>&1
rc=$?
cat "$RESULTS/full.txt"
if [ $rc -ne 0 ] && grep -q 'No space left on device' "$RESULTS/full.txt" &&
	grep -q 'INCOMPLETE' "$RESULTS/full.txt"; then
	pass_check full-disk-error
else
	fail_check full-disk-error "exit $rc: $(cat "$RESULTS/full.txt" | tr '\n' ' ')"
fi
umount /mnt/tiny
# The device is usable again after every one of these.
check device-reusable pmuctl record -a --duration 0.2 -e cpu-clock -q -o /tmp/after.pmu
unload_module
exit 0
