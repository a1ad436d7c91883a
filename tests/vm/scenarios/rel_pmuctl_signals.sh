#!/bin/sh
# Scenario: pmuctl under the signals and failures pmuctl_signals does not
# cover (issue 8): SIGHUP (terminal closed) stops it like SIGTERM with a
# complete file; SIGPIPE (its stdout/stderr reader went away) does not kill
# it and the file is complete; SIGKILL leaves a file whose truncation is
# detected (host: pmuconv refuses it, --salvage recovers it), never a
# silently short one; a disk that fills up in the middle of the sample
# stream gives one clear error, a non-zero exit and a file detectably
# incomplete. Host: relcheck on the complete files.
# needs: module bin:pmuctl bin:split7030 host:pmuconv
# timeout: 180
# soak-timeout: 300
# results-mb: 96
REL_LEVEL=check

if [ "$REL_LEVEL" = soak ]; then run_for=60; else run_for=3; fi

load_module
bg taskset -c 1 split7030 -s 600
w=$!

# SIGHUP
out=$RESULTS/hup.txt
pmuctl record -a -e cpu-clock -g -o "$RESULTS/hup.pmu" </dev/null >"$out" 2>&1 &
p=$!
wait_started "$out" || fail "pmuctl never started: $(cat "$out")"
usleep $((run_for * 1000000))
kill -HUP $p
wait $p
rc=$?
cat "$out"
[ $rc = 0 ] && grep -q 'stopped by' "$out" && pass_check sighup-clean-exit ||
	fail_check sighup-clean-exit "exit $rc: $(tail -n 2 "$out" | tr '\n' ' ')"

# SIGPIPE: stdout and stderr go to a pipe whose reader exits after 1 byte.
mkfifo /tmp/pipe
head -c 1 /tmp/pipe >/dev/null &
reader=$!
pmuctl record -a -e cpu-clock --duration $run_for -o "$RESULTS/pipe.pmu" </dev/null >/tmp/pipe 2>&1
rc=$?
wait $reader
[ $rc = 0 ] && pass_check sigpipe-survived || fail_check sigpipe-survived "exit $rc (141 = killed by SIGPIPE)"

# SIGKILL: no trailer; the host must see the truncation.
out=$RESULTS/kill.txt
pmuctl record -a -e cpu-clock -g -o "$RESULTS/killed.pmu" </dev/null >"$out" 2>&1 &
p=$!
wait_started "$out" || fail "pmuctl never started: $(cat "$out")"
usleep $((run_for * 1000000))
kill -9 $p
wait $p 2>/dev/null
[ -s "$RESULTS/killed.pmu" ] && pass_check sigkill-left-a-file || fail_check sigkill-left-a-file "no file at all"

# Disk full in the middle of the sample stream: the header and metadata fit
# in 4 MiB, 10 kHz samples with stacks do not.
mkdir -p /mnt/small && mount -t tmpfs -o size=4m small /mnt/small || fail "cannot mount a 4 MiB tmpfs"
out=$RESULTS/full.txt
pmuctl record -a -e cpu-clock -F 10000 -g --duration 60 -o /mnt/small/full.pmu </dev/null >"$out" 2>&1
rc=$?
cat "$out"
size=$(wc -c </mnt/small/full.pmu 2>/dev/null)
if [ $rc -ne 0 ] && grep -q 'No space left on device' "$out" && grep -q 'INCOMPLETE' "$out" &&
	[ "$(grep -c 'No space left' "$out")" -le 2 ]; then
	pass_check disk-full-mid-stream
else
	fail_check disk-full-mid-stream "exit $rc, file ${size:-0} bytes: $(tail -n 3 "$out" | tr '\n' ' ')"
fi
[ "${size:-0}" -gt 1048576 ] && pass_check disk-full-after-header || fail_check disk-full-after-header "only ${size:-0} bytes were written: the header did not fit, so the mid-stream case was not exercised"
cp /mnt/small/full.pmu "$RESULTS/full.pmu" 2>/dev/null
umount /mnt/small
check device-reusable pmuctl record -a --duration 0.2 -e cpu-clock -q -o /tmp/after.pmu
kill $w 2>/dev/null
wait $w 2>/dev/null
unload_module
exit 0
