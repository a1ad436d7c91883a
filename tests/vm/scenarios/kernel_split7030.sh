#!/bin/sh
# Scenario: cpu-clock sampling through NMI IPIs (TCG) of a 70/30 workload
# pinned to CPU 1 attributes 70 +- 7 % of its samples to hot_a and 30 +- 7 %
# to hot_b by their user stacks, with main as the caller; accounting is
# exact. Workload: tests/tools/kproto/spin7030 (hot functions with frame
# pointers; tests/workloads/split7030's leaf functions have none with gcc 12,
# so its shares are checked but not the caller).
# needs: module bin:ppclient bin:spin7030 bin:split7030
# timeout: 240

load_module
out=$RESULTS/record.txt
ppclient record -s clock -P 1000000 -g -U -o "$RESULTS/split.bin" -- \
	taskset -c 1 spin7030 5 >"$out" 2>&1
rc=$?
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check record-accounting || fail_check record-accounting "$(grep -m1 'CHECK FAILED' "$out")"

an=$RESULTS/analyze.txt
ppclient analyze "$RESULTS/split.bin" --comm spin7030 --elf "$(command -v spin7030)" \
	--funcs hot_a,hot_b --expect hot_a=70:7,hot_b=30:7 --min 1000 --main-min 90 >"$an" 2>&1
rc=$?
cat "$an" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check split-70-30 || fail_check split-70-30 "$(grep -E 'CHECK FAILED|share' "$an" | tr '\n' ' ')"

# The harness's split7030, same check without the caller requirement.
ppclient record -s clock -P 1000000 -U -o "$RESULTS/split7030.bin" -- \
	taskset -c 1 split7030 -s 4 >"$out" 2>&1
rc=$?
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check record-accounting-split7030 ||
	fail_check record-accounting-split7030 "$(grep -m1 'CHECK FAILED' "$out")"
ppclient analyze "$RESULTS/split7030.bin" --comm split7030 --elf "$(command -v split7030)" \
	--funcs hot_a,hot_b --expect hot_a=70:7,hot_b=30:7 --min 1000 >"$an" 2>&1
rc=$?
cat "$an" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check split7030-70-30 ||
	fail_check split7030-70-30 "$(grep -E 'CHECK FAILED|share' "$an" | tr '\n' ' ')"
unload_module
exit 0
