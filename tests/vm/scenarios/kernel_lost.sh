#!/bin/sh
# Scenario: with tiny rings (16 KiB per CPU) at 20 kHz the rings overflow,
# and the accounting still adds up exactly: samples read + sum of LOST
# records == captured (GET_STATS), both when nobody reads until STOP and
# when a reader drains concurrently.
# needs: module bin:ppclient bin:split7030
# timeout: 240

load_module
bg taskset -c 1 split7030 -s 12
wl=$!
for mode in noread read; do
	out=$RESULTS/record-$mode.txt
	flag=
	[ $mode = noread ] && flag=-N
	ppclient record -s clock -P 50000 -g -U -r 16384 -t 3 $flag >"$out" 2>&1
	rc=$?
	cat "$out" >>"$RESULTS/scenario.log"
	[ $rc = 0 ] && pass_check "accounting-$mode" ||
		fail_check "accounting-$mode" "$(grep -m1 'CHECK FAILED' "$out")"
	lost=$(sed -n 's/^record: samples=[0-9]* lost=\([0-9]*\) lost_records=\([0-9]*\) .*/\1 \2/p' "$out")
	set -- $lost
	if [ $mode = noread ]; then
		[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && pass_check "lost-reported-$mode" ||
			fail_check "lost-reported-$mode" "lost=${1:-?} lost_records=${2:-?}: the ring did not overflow"
	fi
done
kill $wl 2>/dev/null
wait $wl 2>/dev/null
unload_module
exit 0
