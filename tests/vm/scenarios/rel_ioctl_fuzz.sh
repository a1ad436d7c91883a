#!/bin/sh
# Scenario: relfuzz (issue 8): a boundary table checked in every session
# state (errno and no state change: GET_INFO/GET_STATS snapshots around each
# failed call), then random ioctls/reads/polls/opens from 4 threads with fork-
# and dup-shared fds, exiting pid targets and O_NONBLOCK flips, interruptible
# blocking reads, release by the last sharer; afterwards a clean session
# accounts exactly, the module's allocation counter is back to its idle value
# and the module unloads cleanly (dmesg policy).
# needs: module bin:relfuzz bin:spin7030
# timeout: 240
# soak-timeout: 900
REL_LEVEL=check

if [ "$REL_LEVEL" = soak ]; then secs=480 calls=2000000; else secs=25 calls=200000; fi
load_module
a0=$(pp_allocations)
bg spin7030 $((secs + 60))
wl=$!
out=$RESULTS/relfuzz.txt
relfuzz -t $secs -n $calls -j 4 >"$out" 2>&1
rc=$?
cat "$out"
[ $rc = 0 ] && pass_check fuzz || fail_check fuzz "$(grep -m3 'FAIL' "$out" | tr '\n' ' ')"
line=$(grep '^relfuzz: calls=' "$out")
calls_done=$(echo "$line" | sed -n 's/.*calls=\([0-9]*\).*/\1/p')
[ "${calls_done:-0}" -ge 3000 ] && pass_check fuzz-volume || fail_check fuzz-volume "only ${calls_done:-0} calls"
echo "$line" >"$RESULTS/summary.txt"
kill $wl 2>/dev/null
wait $wl 2>/dev/null
a1=$(pp_allocations)
if [ -z "$a1" ]; then
	fail_check allocations-back-to-idle "the module exposes no allocation counter (/sys/kernel/debug/pmuprof/allocations)"
elif [ "$a1" = 0 ] && [ "${a0:-0}" = 0 ]; then
	pass_check allocations-back-to-idle
else
	fail_check allocations-back-to-idle "session allocations $a0 before, $a1 after every file was closed"
fi
unload_module
exit 0
