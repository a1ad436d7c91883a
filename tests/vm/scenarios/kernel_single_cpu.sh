#!/bin/sh
# Scenario: with one CPU, GET_INFO offers only the TIMER source, NMI_IPI is
# refused with ENODEV, and the TIMER source samples from the hrtimer's own
# interrupt registers with exact accounting and 70/30 attribution.
# needs: module bin:ppclient bin:spin7030
# smp: 1
# timeout: 240

load_module
ppclient info >"$RESULTS/info.txt" 2>&1 || fail "ppclient info failed"
[ "$(sed -n 's/^sources=//p' "$RESULTS/info.txt")" = 0x8 ] && pass_check info-timer-only ||
	fail_check info-timer-only "sources=$(sed -n 's/^sources=//p' "$RESULTS/info.txt"), want 0x8"
check nmi-ipi-enodev ppclient record -s clock -P 1000000 -E ENODEV
out=$RESULTS/record.txt
check_out record-accounting "$out" 'CHECK FAILED' \
	ppclient record -s timer -P 1000000 -g -U -o "$RESULTS/timer.bin" -- spin7030 4
an=$RESULTS/analyze.txt
check_out timer-70-30 "$an" 'CHECK FAILED|share' \
	ppclient analyze "$RESULTS/timer.bin" --comm spin7030 --elf "$(command -v spin7030)" \
	--funcs hot_a,hot_b --expect hot_a=70:7,hot_b=30:7 --min 500 --main-min 90
unload_module
exit 0
