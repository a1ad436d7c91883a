#!/bin/sh
# Host half: files stopped by SIGINT/SIGTERM are complete (trailer, totals agree).
. "$ROOT/tests/vm/lib/host.sh"
VERIFY=$BUILD/tests/pmuctl-verify
[ -x "$VERIFY" ] || fail "$VERIFY not built (make guest-bins)"
for f in sigINT sigTERM; do
	if "$VERIFY" "$RESULTS/$f.pmu" >"$RESULTS/verify-$f.txt" 2>&1; then
		pass_check "$f-file-complete"
	else
		fail_check "$f-file-complete" "$(grep FAIL "$RESULTS/verify-$f.txt" | head -n 2 | tr '\n' ' ')"
	fi
done
if "$VERIFY" "$RESULTS/cmdint.pmu" >"$RESULTS/verify-cmdint.txt" 2>&1; then
	pass_check cmdint-file-complete
else
	fail_check cmdint-file-complete "$(grep FAIL "$RESULTS/verify-cmdint.txt" | head -n 2 | tr '\n' ' ')"
fi
host_done
