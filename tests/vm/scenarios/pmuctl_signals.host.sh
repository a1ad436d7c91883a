#!/bin/sh
# Host half: files stopped by SIGINT/SIGTERM are complete (trailer, totals
# agree); the SIGKILLed one is detected as cut and --salvage reads samples.
. "$ROOT/tests/vm/lib/host.sh"
VERIFY=$BUILD/tests/pmuctl-verify
[ -x "$VERIFY" ] || fail "$VERIFY not built (make guest-bins)"
for f in sigINT sigTERM cmdint; do
	check_log "$f-file-complete" "$RESULTS/verify-$f.txt" "$VERIFY" "$RESULTS/$f.pmu"
done
# The SIGKILLed file: refused as truncated, and --salvage reads its samples.
"$BUILD/bin/pmuconv" report "$RESULTS/killed.pmu" >"$RESULTS/killed-strict.txt" 2>&1
rc=$?
"$BUILD/bin/pmuconv" report --salvage "$RESULTS/killed.pmu" >"$RESULTS/killed-salvage.txt" 2>&1
n=$(sed -n 's/^samples: *\([0-9]*\) read.*/\1/p' "$RESULTS/killed-salvage.txt")
if [ $rc -ne 0 ] && grep -q 'truncated\|cut short' "$RESULTS/killed-strict.txt" && [ "${n:-0}" -ge 1 ]; then
	pass_check sigkill-salvage-has-samples
else
	fail_check sigkill-salvage-has-samples "strict exit $rc; salvage read '${n:-none}' samples: $(head -c 300 "$RESULTS/killed-salvage.txt")"
fi
host_done
