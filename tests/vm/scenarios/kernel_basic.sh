#!/bin/sh
# Scenario: pmuprof.ko loads with a one-line PMU summary; GET_INFO under TCG
# reports no PMU and both cpu-clock sources; CONFIGURE with a PMU event fails
# with ENODEV; cpu-clock (NMI-IPI) sampling of a pinned workload delivers
# well-formed records with exact accounting; a second opener gets EBUSY.
# needs: module bin:ppclient bin:split7030
# timeout: 240

load_module
line=$(dmesg | grep -m1 'pmuprof: pmu: ')
log "load line: $line"
[ -n "$line" ] && pass_check load-line || fail_check load-line "no 'pmuprof: pmu...' line in dmesg"

ppclient info >"$RESULTS/info.txt" 2>&1 || fail "ppclient info failed: $(cat "$RESULTS/info.txt")"
cat "$RESULTS/info.txt" >>"$RESULTS/scenario.log"
val() { sed -n "s/^$1=//p" "$RESULTS/info.txt"; }
if [ "$VM_ACCEL" = tcg ]; then
	# pmu_status NOT_INTEL (1, -cpu max is AMD under TCG) or NO_ARCH_PERFMON (2);
	# sources: NMI_IPI (1<<2) | TIMER (1<<3), no PMU (1<<1)
	case "$(val pmu_status)/$(val pmu_version)" in
	1/0 | 2/0) pass_check info-no-pmu ;;
	*) false ;;
	esac ||
		fail_check info-no-pmu "pmu_status=$(val pmu_status) pmu_version=$(val pmu_version)"
	[ "$(val sources)" = 0xc ] && pass_check info-sources ||
		fail_check info-sources "sources=$(val sources), want 0xc"
	check configure-pmu-enodev ppclient record -s pmu -c 3003c -P 100000 -E ENODEV
else
	log "info-no-pmu: not checked (a PMU exists under $VM_ACCEL)"
fi
[ "$(val nr_online)" = "$NCPUS" ] && [ "$(val max_depth)" = 256 ] && pass_check info-limits ||
	fail_check info-limits "nr_online=$(val nr_online) max_depth=$(val max_depth)"
# privileged: root has CAP_SYS_ADMIN (PMUPROF_INFO_PRIVILEGED = 4)
case $(( $(val flags) & 4 )) in 4) pass_check info-privileged ;; *) fail_check info-privileged "flags=$(val flags)" ;; esac

# cpu-clock via NMI IPIs, 1 kHz, stacks, while split7030 runs pinned on CPU 1
out=$RESULTS/record.txt
check_out record-accounting "$out" 'CHECK FAILED' \
	ppclient record -s clock -P 1000000 -g -U -o "$RESULTS/basic.bin" -- \
	taskset -c 1 split7030 -s 3
samples=$(sed -n 's/^record: samples=\([0-9]*\) .*/\1/p' "$out")
log "samples=$samples"
[ "${samples:-0}" -ge 1000 ] && pass_check record-samples || fail_check record-samples "only ${samples:-0} samples in 3 s at 1 kHz on $NCPUS CPUs"

# two openers: the second gets EBUSY while the first holds the device
ppclient record -s clock -t 3 -o /dev/null >"$RESULTS/first.txt" 2>&1 &
first=$!
usleep 500000
if ppclient info >"$RESULTS/second.txt" 2>&1; then
	fail_check second-opener-ebusy "second open succeeded"
else
	grep -q 'Device or resource busy' "$RESULTS/second.txt" && pass_check second-opener-ebusy ||
		fail_check second-opener-ebusy "$(cat "$RESULTS/second.txt")"
fi
wait $first && pass_check first-opener-ok || fail_check first-opener-ok "$(tail -3 "$RESULTS/first.txt")"

unload_module
exit 0
