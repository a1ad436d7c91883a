#!/bin/sh
# Scenario: thousands of random and boundary ioctls/reads/opens on
# /dev/pmuprof (one checked thread, then three racing threads) leave dmesg
# clean (harness policy), every predicted error is the documented errno,
# failed calls change nothing, and the device still samples correctly.
# needs: module bin:ppfuzz bin:ppclient bin:spin7030
# timeout: 300

load_module
bg spin7030 60
wl=$!
out=$RESULTS/ppfuzz.txt
check_out fuzz "$out" 'FAIL' \
	ppfuzz -n 4000 -j 3
calls=$(sed -n 's/^ppfuzz: calls=\([0-9]*\) .*/\1/p' "$out")
[ "${calls:-0}" -ge 3000 ] && pass_check fuzz-volume || fail_check fuzz-volume "only ${calls:-0} calls"
check usable-after ppclient record -s clock -P 1000000 -g -U -t 1
kill $wl 2>/dev/null
wait $wl 2>/dev/null
unload_module
exit 0
