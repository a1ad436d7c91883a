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
check_out record-accounting "$out" 'CHECK FAILED' \
	ppclient record -s clock -P 1000000 -g -U -o "$RESULTS/sys.bin" -- \
	taskset -c 1 syscall_heavy -s 4

an=$RESULTS/analyze-kernel.txt
check_out kstack-ends-in-syscall-entry "$an" 'CHECK FAILED|share|ends in' \
	ppclient analyze "$RESULTS/sys.bin" --comm syscall_heavy --kallsyms "$RESULTS/kallsyms.txt" \
	--kentry entry_SYSCALL_64 --kentry-min 90 --min 200

an=$RESULTS/analyze-user.txt
check_out ustack-reaches-main "$an" 'CHECK FAILED|share|main' \
	ppclient analyze "$RESULTS/sys.bin" --comm syscall_heavy --elf "$(command -v syscall_heavy)" \
	--funcs loop_getppid,loop_read --min 200 --main-min 90
unload_module
exit 0
