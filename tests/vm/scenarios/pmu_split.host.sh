#!/bin/sh
# Host half of pmu_split: pmuconv's shares of hot_a/hot_b in pmuctl's files
# against 70/30 and against perf's shares from the same boot.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
path=$(cat split7030.path)
mkdir -p "symfs$(dirname "$path")" && cp "$GUEST_BIN/split7030" "symfs$path" || fail "no split7030 binary"
# share FILE FUNC: the self % of FUNC in a pmuconv report or a perf report
share() { awk -v f="$2" '$NF == f || ($NF ~ /^\[/ && $(NF) == f) { sub("%", "", $1); print $1; exit }
	$0 ~ (" " f "$") { sub("%", "", $1); print $1; exit }' "$1"; }
for f in instructions_u cycles; do
	"$BIN/pmuconv" report "$f.pmu" --symfs symfs >"report-$f.txt" 2>&1 ||
		{ fail_check "report-$f" "pmuconv report failed: $(tail -n 1 "report-$f.txt")"; continue; }
	a=$(share "report-$f.txt" hot_a)
	b=$(share "report-$f.txt" hot_b)
	pa=$(share "perf-$f.txt" hot_a)
	pb=$(share "perf-$f.txt" hot_b)
	log "$f: pmuctl hot_a $a% hot_b $b%; perf hot_a $pa% hot_b $pb%"
	sa=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + b > 0) printf "%.2f", 100 * a / (a + b) }')
	psa=$(awk -v a="$pa" -v b="$pb" 'BEGIN { if (a + b > 0) printf "%.2f", 100 * a / (a + b) }')
	within "$sa" 70 2 && pass_check "$f-70-30" || fail_check "$f-70-30" "pmuctl hot_a $a% hot_b $b% (want 70/30 within 2 points)"
	within "$sa" "$psa" 2 && pass_check "$f-vs-perf" ||
		fail_check "$f-vs-perf" "pmuctl hot_a share $sa%, perf $psa% of hot_a+hot_b"
done
host_done
