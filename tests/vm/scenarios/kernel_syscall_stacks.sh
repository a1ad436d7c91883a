#!/bin/sh
# Scenario: a syscall-heavy workload sampled with NMI IPIs gets non-empty
# kernel stacks that end in the syscall entry (entry_SYSCALL_64*), and user
# stacks (from the task's saved user registers) reaching main. (The libc
# syscall wrappers are leaves without a frame, so a frame-pointer walk goes
# from the wrapper's IP straight to the loop's caller, main.)
# needs: module bin:ppclient bin:syscall_heavy
# timeout: 240

load_module
cat /proc/kallsyms >"$RESULTS/kallsyms.txt"
out=$RESULTS/record.txt
ppclient record -s clock -P 1000000 -g -U -o "$RESULTS/sys.bin" -- \
	taskset -c 1 syscall_heavy -s 4 >"$out" 2>&1
rc=$?
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check record-accounting || fail_check record-accounting "$(grep -m1 'CHECK FAILED' "$out")"

an=$RESULTS/analyze-kernel.txt
ppclient analyze "$RESULTS/sys.bin" --comm syscall_heavy --kallsyms "$RESULTS/kallsyms.txt" \
	--kentry entry_SYSCALL_64 --kentry-min 90 --min 200 >"$an" 2>&1
rc=$?
cat "$an" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check kstack-ends-in-syscall-entry ||
	fail_check kstack-ends-in-syscall-entry "$(grep -E 'CHECK FAILED|share|ends in' "$an" | head -4 | tr '\n' ' ')"

an=$RESULTS/analyze-user.txt
ppclient analyze "$RESULTS/sys.bin" --comm syscall_heavy --elf "$(command -v syscall_heavy)" \
	--funcs loop_getppid,loop_read --min 200 --main-min 90 >"$an" 2>&1
rc=$?
cat "$an" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && pass_check ustack-reaches-main ||
	fail_check ustack-reaches-main "$(grep -E 'CHECK FAILED|share|main' "$an" | tr '\n' ' ')"
unload_module
exit 0
