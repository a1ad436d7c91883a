#!/bin/sh
# Host half: the SIGHUP and SIGPIPE files are complete with exact accounting;
# the SIGKILLed and disk-full files are refused by pmuconv as truncated (never
# read as silently short) and --salvage still reports what they hold.
. "$ROOT/tests/vm/lib/host.sh"
RELCHECK=$BUILD/tests/relcheck
[ -x "$RELCHECK" ] || fail "$RELCHECK not built (make guest-bins)"
for f in hup pipe; do
	check_log "$f-file-complete-exact" "$RESULTS/relcheck-$f.txt" "$RELCHECK" "$RESULTS/$f.pmu"
done
for f in killed full; do
	if [ ! -s "$RESULTS/$f.pmu" ]; then
		fail_check "$f-truncation-detected" "no $f.pmu came back"
		continue
	fi
	"$BIN/pmuconv" report "$RESULTS/$f.pmu" >"$RESULTS/pmuconv-$f.txt" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -qiE 'truncat|trailer|incomplete' "$RESULTS/pmuconv-$f.txt"; then
		pass_check "$f-truncation-detected"
	else
		fail_check "$f-truncation-detected" "pmuconv report exit $rc: $(head -n 2 "$RESULTS/pmuconv-$f.txt" | tr '\n' ' ')"
	fi
	"$BIN/pmuconv" report --salvage "$RESULTS/$f.pmu" >"$RESULTS/salvage-$f.txt" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -qiE 'samples' "$RESULTS/salvage-$f.txt"; then
		pass_check "$f-salvage"
	else
		fail_check "$f-salvage" "pmuconv report --salvage exit $rc: $(head -n 2 "$RESULTS/salvage-$f.txt" | tr '\n' ' ')"
	fi
done
host_done
