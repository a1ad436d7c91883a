#!/bin/sh
# Scenario: `pmuctl record -a --duration 2` records every CPU for about two
# seconds and finishes its file; -C 1 keeps to CPU 1; -p PID follows one
# running process; -C with -p or COMMAND keeps to the process on those CPUs
# (checked on the host by pmuctl_record_all.host.sh).
# needs: module bin:pmuctl bin:split7030
# timeout: 180
# results-mb: 128

load_module
bg taskset -c 1 split7030 -s 300
wl=$!
echo "$wl" >"$RESULTS/wl.pid"

# Short-lived processes that exit during the recording: each one's maps
# must be captured while it is alive (checked on the host).
bg sh -c 'for i in 1 2 3 4 5 6 7 8; do split7030 -r 40; done'
short=$!

out=$RESULTS/all.txt
pmuctl record -a --duration 2 -e cpu-clock -g -o "$RESULTS/all.pmu" >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || fail "pmuctl record -a --duration 2 exited $rc: $(tail -n 2 "$out")"
pass_check all-exit-0
secs=$(sed -n 's/^pmuctl: recorded \([0-9]*\)\.[0-9]* s:.*/\1/p' "$out")
[ -n "$secs" ] && [ "$secs" -ge 1 ] && [ "$secs" -le 4 ] && pass_check all-duration ||
	fail_check all-duration "recorded '$secs' s for --duration 2"
grep -q 'recording to .*or wait for --duration' "$out" && pass_check all-started-note ||
	fail_check all-started-note "no start note"

wait "$short"
check cpu1 pmuctl record -C 1 --duration 1 -e cpu-clock -q -o "$RESULTS/cpu1.pmu"
check pid pmuctl record -p "$wl" --duration 1 -e cpu-clock -g -q -o "$RESULTS/pid.pmu"
# -C with -p or COMMAND (as perf): the process only while on those CPUs. wl
# and the COMMAND are pinned to CPU 1: -C 1 sees them (host half: every
# sample on CPU 1 and theirs), -C 0 sees nothing of them (wl: exactly 0;
# COMMAND: at most what taskset runs on CPU 0 before it pins itself).
samples_of() { sed -n 's/^pmuctl: recorded [0-9.]* s: \([0-9]*\) samples.*/\1/p' "$1"; }
check pid-cpu1 pmuctl record -C 1 -p "$wl" --duration 1 -e cpu-clock -q -o "$RESULTS/pidcpu1.pmu"
pmuctl record -C 0 -p "$wl" --duration 1 -e cpu-clock -q -o "$RESULTS/pidcpu0.pmu" >"$RESULTS/pidcpu0.txt" 2>&1
n=$(samples_of "$RESULTS/pidcpu0.txt")
[ "$n" = 0 ] && pass_check pid-cpu0-none || fail_check pid-cpu0-none "'$n' samples: $(head -c 300 "$RESULTS/pidcpu0.txt")"
check cmd-cpu1 pmuctl record -C 1 -e cpu-clock -q -o "$RESULTS/cmdcpu1.pmu" -- taskset -c 1 split7030 -s 1
pmuctl record -C 0 -e cpu-clock -q -o "$RESULTS/cmdcpu0.pmu" -- taskset -c 1 split7030 -s 1 >"$RESULTS/cmdcpu0.txt" 2>&1
n=$(samples_of "$RESULTS/cmdcpu0.txt")
[ -n "$n" ] && [ "$n" -le 5 ] && pass_check cmd-cpu0-none ||
	fail_check cmd-cpu0-none "'$n' samples (want at most 5): $(head -c 300 "$RESULTS/cmdcpu0.txt")"
# Default event without a PMU: a one-line notice, then cpu-clock.
pmuctl record -a --duration 0.5 -q -o "$RESULTS/default.pmu" >"$RESULTS/default.txt" 2>&1
rc=$?
if [ "$VM_ACCEL" = tcg ]; then
	[ $rc -eq 0 ] && grep -q 'no hardware PMU here .*; sampling cpu-clock instead' "$RESULTS/default.txt" &&
		pass_check default-cpu-clock-notice ||
		fail_check default-cpu-clock-notice "exit $rc: $(cat "$RESULTS/default.txt")"
fi
cp /usr/local/bin/split7030 "$RESULTS/"
kill "$wl" 2>/dev/null
wait "$wl" 2>/dev/null
unload_module
exit 0
