#!/bin/sh
# Scenario: `pmuctl info` (text and --json) describes the guest; under TCG it
# explains that there is no PMU (VM without a virtual PMU) and that
# -e cpu-clock works; it shows the module's throttling limits (its
# parameters); `pmuctl list` and `encode` work in the guest.
# needs: module bin:pmuctl
# timeout: 120

load_module
pmuctl info >"$RESULTS/info.txt" 2>&1 || fail "pmuctl info exited $? ($(head -c 200 "$RESULTS/info.txt"))"
pmuctl info --json >"$RESULTS/info.json" 2>&1 || fail "pmuctl info --json exited $?"
cat "$RESULTS/info.txt"

grep -q '^sources: .*nmi-ipi' "$RESULTS/info.txt" && pass_check sources-nmi-ipi ||
	fail_check sources-nmi-ipi "no nmi-ipi source in: $(grep '^sources' "$RESULTS/info.txt")"
grep -q '"sources": \[.*"nmi-ipi"' "$RESULTS/info.json" && pass_check json-sources ||
	fail_check json-sources "json lacks nmi-ipi"

if [ "$VM_ACCEL" = tcg ]; then
	grep -q '^pmu: *not usable: .*virtual machine without a virtual PMU' "$RESULTS/info.txt" &&
		pass_check tcg-explains-no-pmu ||
		fail_check tcg-explains-no-pmu "$(grep -A1 '^pmu:' "$RESULTS/info.txt" | head -c 300)"
	grep -q "pmuctl record -e cpu-clock' works" "$RESULTS/info.txt" && pass_check tcg-suggests-cpu-clock ||
		fail_check tcg-suggests-cpu-clock "no cpu-clock hint"
	grep -q '"pmu_available": false' "$RESULTS/info.json" && pass_check json-no-pmu ||
		fail_check json-no-pmu "json does not say pmu_available false"
else
	grep -q '^pmu: *architectural perfmon version [1-9]' "$RESULTS/info.txt" && pass_check kvm-pmu ||
		fail_check kvm-pmu "$(grep '^pmu:' "$RESULTS/info.txt")"
fi

# list and encode need no PMU for generic names / forced models.
pmuctl list cpu-clock >"$RESULTS/list.txt" 2>&1 && grep -q 'cpu-clock' "$RESULTS/list.txt" &&
	pass_check list-cpu-clock || fail_check list-cpu-clock "$(head -c 200 "$RESULTS/list.txt")"
LIBPFM_FORCE_PMU=skl pmuctl encode dtlb-load-misses >"$RESULTS/encode.txt" 2>&1 &&
	grep -q 'config     0x00030e08' "$RESULTS/encode.txt" && pass_check encode-forced-skl ||
	fail_check encode-forced-skl "$(head -c 300 "$RESULTS/encode.txt")"
# the throttling limits, as the module's parameters say (defaults, then
# changed at load)
grep -q '^throttle: handlers may use 25 % of a CPU, at most 100000 NMIs a second per CPU' \
	"$RESULTS/info.txt" && pass_check throttle-defaults ||
	fail_check throttle-defaults "$(grep '^throttle:' "$RESULTS/info.txt")"
unload_module
load_module max_handler_pct=0 max_sample_rate=50000
pmuctl info >"$RESULTS/info2.txt" 2>&1
pmuctl info --json >"$RESULTS/info2.json" 2>&1
grep -q '^throttle: handler CPU budget off, at most 50000 NMIs a second per CPU' "$RESULTS/info2.txt" &&
	grep -q '"max_handler_pct": 0,' "$RESULTS/info2.json" &&
	grep -q '"max_sample_rate": 50000' "$RESULTS/info2.json" && pass_check throttle-params ||
	fail_check throttle-params "$(grep '^throttle:' "$RESULTS/info2.txt"); json: $(grep -o '"max_[a-z_]*": [0-9a-z]*' "$RESULTS/info2.json" | tr '\n' ' ')"
pmuctl info --bogus >"$RESULTS/bogus.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "unknown option '--bogus'" "$RESULTS/bogus.txt" && pass_check bad-flag ||
	fail_check bad-flag "exit $rc: $(cat "$RESULTS/bogus.txt")"
unload_module
exit 0
