#!/bin/sh
# Scenario: pmuctl record --call-graph dwarf on nofpwork (static, -O2
# -fomit-frame-pointer, qsort from the static libc: no frame pointers
# anywhere), and the module's register and stack copies unwound on the host
# by pmuconv (issue 18): >= 95 % of the samples on the workload's known call
# paths, main;sort_phase;qsort..;cmp where the FP walk recorded beside the
# copies (--call-graph fp) has no caller of cmp. The host half runs pmuconv.
# needs: module bin:pmuctl bin:nofpwork host:pmuconv
# timeout: 240

load_module
command -v nofpwork >"$RESULTS/nofpwork.path"
pmuctl record -q -e cpu-clock --call-graph dwarf -o "$RESULTS/dwarf.pmu" -- \
	taskset -c 1 nofpwork 3 >"$RESULTS/record.txt" 2>&1 && pass_check record ||
	fail_check record "$(grep -m1 pmuctl: "$RESULTS/record.txt")"
cat "$RESULTS/record.txt" >>"$RESULTS/scenario.log"
unload_module
exit 0
