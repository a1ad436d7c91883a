#!/bin/sh
# Scenario: rmmod while a session samples is refused (the open file holds a
# module reference) and leaves the session intact; after the file is closed
# rmmod succeeds, dmesg stays clean, and the module loads and samples again.
# Closing without STOP also stops the session (release).
# needs: module bin:ppclient bin:spin7030
# timeout: 240

load_module
bg spin7030 8
wl=$!
out=$RESULTS/record.txt
ppclient record -s clock -P 1000000 -g -U -t 4 >"$out" 2>&1 &
rec=$!
usleep 1500000
if rmmod pmuprof >>"$RESULTS/scenario.log" 2>&1; then
	fail_check rmmod-refused-while-open "rmmod succeeded with the device open"
else
	module_loaded pmuprof && pass_check rmmod-refused-while-open ||
		fail_check rmmod-refused-while-open "module gone"
fi
wait $rec
rc=$?
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check session-unharmed || fail_check session-unharmed "$(grep -m1 'CHECK FAILED' "$out")"

# Kill a recorder mid-session: release() must stop the session.
ppclient record -s clock -P 1000000 -g -U -t 30 -o /dev/null >/dev/null 2>&1 &
rec=$!
usleep 1500000
kill -9 $rec
wait $rec 2>/dev/null
usleep 200000
if rmmod pmuprof >>"$RESULTS/scenario.log" 2>&1; then
	pass_check rmmod-after-sigkill-close
else
	fail_check rmmod-after-sigkill-close "rmmod refused after the reader died"
fi
load_module
check sample-after-reload ppclient record -s clock -P 1000000 -t 1
unload_module
kill $wl 2>/dev/null
wait $wl 2>/dev/null
exit 0
