#!/bin/sh
# Host half of kernel_nmi_claim: the recording made while the sending CPU
# stalled 200 ms carries its missed samples (STATS frame), and pmuconv
# report's header shows them with their share of the due samples.
. "$ROOT/tests/vm/lib/host.sh"
PMUCONV=$BUILD/bin/pmuconv
[ -f "$RESULTS/missed.pmu" ] || fail "the guest wrote no missed.pmu (see scenario.log)"
"$PMUCONV" report "$RESULTS/missed.pmu" >"$RESULTS/missed-report.txt" 2>&1 ||
	fail_check report-runs "$(tail -n 2 "$RESULTS/missed-report.txt" | tr '\n' ' ')"
line=$(grep '^missed: ' "$RESULTS/missed-report.txt")
n=$(echo "$line" | sed -n 's/^missed: *\([0-9]*\) (.*/\1/p')
if [ -n "$n" ] && [ "$n" -ge 10 ]; then
	pass_check report-shows-missed
else
	fail_check report-shows-missed "want 'missed: N' with N >= 10 in the header, got: ${line:-none}"
fi
host_done
