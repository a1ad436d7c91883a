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
check_out record-accounting "$out" 'CHECK FAILED' \
	ppclient record -s clock -P 1000000 -g -U -o "$RESULTS/split.bin" -- \
	taskset -c 1 spin7030 5

an=$RESULTS/analyze.txt
check_out split-70-30 "$an" 'CHECK FAILED|share' \
	ppclient analyze "$RESULTS/split.bin" --comm spin7030 --elf "$(command -v spin7030)" \
	--funcs hot_a,hot_b --expect hot_a=70:7,hot_b=30:7 --min 1000 --main-min 90

# The harness's split7030, same check without the caller requirement.
check_out record-accounting-split7030 "$out" 'CHECK FAILED' \
	ppclient record -s clock -P 1000000 -U -o "$RESULTS/split7030.bin" -- \
	taskset -c 1 split7030 -s 4
check_out split7030-70-30 "$an" 'CHECK FAILED|share' \
	ppclient analyze "$RESULTS/split7030.bin" --comm split7030 --elf "$(command -v split7030)" \
	--funcs hot_a,hot_b --expect hot_a=70:7,hot_b=30:7 --min 1000
unload_module
exit 0
