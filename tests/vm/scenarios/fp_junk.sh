#!/bin/sh
# Scenario: a frame-pointer walk (-g) through code that keeps data in %rbp
# (tests/workloads/nofp: what -fomit-frame-pointer code may do) gives junk
# [stack]/data "callers", and pmuconv says so, naming the binary; the same
# loop with %rbp left as the frame pointer (the control) gives main -> spin
# and no warning (issue 21). The host half runs pmuconv.
# needs: module bin:pmuctl bin:nofp host:pmuconv
# timeout: 180

load_module
command -v nofp >"$RESULTS/nofp.path"
for m in rbp fp; do
	pmuctl record -q -e cpu-clock -g -o "$RESULTS/$m.pmu" -- taskset -c 1 nofp -m $m -s 2 \
		>"$RESULTS/record-$m.txt" 2>&1 && pass_check "record-$m" ||
		fail_check "record-$m" "$(grep -m1 pmuctl: "$RESULTS/record-$m.txt")"
	cat "$RESULTS/record-$m.txt" >>"$RESULTS/scenario.log"
done
unload_module
exit 0
