#!/bin/sh
# Scenario: on the emulated PMU (or KVM with -cpu host,pmu=on), GET_INFO reports it,
# and the 70/30 workload profiled with the cycles (0x3c) and instructions
# (0xc0) events, USR|OS, shows the same 70/30 split per event, with exact
# accounting per event.
# needs: module pmu bin:ppclient bin:spin7030
# timeout: 240

load_module
ppclient info >"$RESULTS/info.txt" 2>&1 || fail "ppclient info failed"
cat "$RESULTS/info.txt" >>"$RESULTS/scenario.log"
[ "$(sed -n 's/^pmu_status=//p' "$RESULTS/info.txt")" = 0 ] || skip "guest PMU not usable: $(grep -E '^(pmu_status|vendor_string)' "$RESULTS/info.txt" | tr '\n' ' ')"
pass_check info-pmu
out=$RESULTS/record.txt
check_out record-accounting "$out" 'CHECK FAILED' \
	ppclient record -e pmu:3003c:2000000 -e pmu:300c0:2000000 -U -o "$RESULTS/pmu.bin" -- \
	taskset -c 1 spin7030 5
for ev in 0 1; do
	an=$RESULTS/analyze-$ev.txt
	check_out "split-event-$ev" "$an" 'CHECK FAILED|share' \
		ppclient analyze "$RESULTS/pmu.bin" --event $ev --comm spin7030 \
		--elf "$(command -v spin7030)" --funcs hot_a,hot_b --expect hot_a=70:7,hot_b=30:7 --min 300
done
unload_module
exit 0
