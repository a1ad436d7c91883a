#!/bin/sh
# Host half: the CAP_PERFMON-only recording exposes no kernel or physical
# address, and is complete with exact accounting.
. "$ROOT/tests/vm/lib/host.sh"
RELCHECK=$BUILD/tests/relcheck
[ -x "$RELCHECK" ] || fail "$RELCHECK not built (make guest-bins)"
if [ -f "$RESULTS/unpriv.pmu" ]; then
	if "$RELCHECK" "$RESULTS/unpriv.pmu" --hidden --min-kernel 10 >"$RESULTS/relcheck.txt" 2>&1; then
		pass_check unpriv-file-hides-kernel-and-phys
		grep -E '^(hidden|captured)' "$RESULTS/relcheck.txt" >>"$RESULTS/summary.txt"
	else
		fail_check unpriv-file-hides-kernel-and-phys "$(grep FAIL "$RESULTS/relcheck.txt" | head -n 3 | tr '\n' ' ')"
	fi
	# pmuconv renders it (kernel frames simply absent)
	if "$BIN/pmuconv" report "$RESULTS/unpriv.pmu" >"$RESULTS/report.txt" 2>&1; then
		pass_check unpriv-file-renders
	else
		fail_check unpriv-file-renders "$(head -n 2 "$RESULTS/report.txt" | tr '\n' ' ')"
	fi
else
	fail_check unpriv-file-hides-kernel-and-phys "no unpriv.pmu came back"
fi
host_done
