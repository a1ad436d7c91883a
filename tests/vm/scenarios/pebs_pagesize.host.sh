#!/bin/sh
# Host half of pebs_pagesize: every sample's address came from PEBS (source
# PEBS, precision exact), and the data page-size shares of the workload's
# loads are within 5 points of the workload's own access split (a load
# event counts accesses, so unlike cpu-clock no cost assumption is needed).
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
pid=$(sed -n 's/^pagesizes: pid=\([0-9]*\) .*/\1/p' wl.txt)
[ -n "$pid" ] || fail "no 'pagesizes: pid=' line in wl.txt"
mkdir -p symfs/usr/local/bin && cp pagesizes symfs/usr/local/bin/ || fail "no pagesizes binary"
"$BIN/pmuconv" pagesize pebs.pmu --symfs symfs --pid "$pid" --user-only >ps.txt 2>&1 ||
	fail "pmuconv pagesize failed: $(tail -n 2 ps.txt)"
cat ps.txt
"$BIN/pmuconv" pagesize pebs.pmu --symfs symfs --pid "$pid" --user-only --json >ps.json 2>&1 ||
	fail "pmuconv pagesize --json failed"
share() {
	awk -v pg="$1" 'index($0, "Data page size") == 1 { s = 1; next }
		s && $1 == pg { sub("%", "", $3); print $3; exit }' ps.txt
}
# Access split the workload made, from its own per-buffer access counts.
total=0
for k in 4k 2m 1g; do
	n=$(sed -n "s/^buffer phase=end name=$k .* accesses=\([0-9]*\).*/\1/p" wl.txt)
	eval "acc_$k=\${n:-0}"
	total=$((total + ${n:-0}))
done
[ "$total" -gt 0 ] || fail "the workload reported no access counts"
for k in 4k 2m 1g; do
	pg=$(echo "$k" | tr 'kmg' 'KMG')
	eval "n=\$acc_$k"
	want=$(awk -v n="$n" -v t="$total" 'BEGIN { printf "%.2f", 100 * n / t }')
	got=$(share "$pg")
	if within "$got" "$want" 5; then
		pass_check "share-$pg"
	else
		fail_check "share-$pg" "pmuconv $got%, workload accesses $want%"
	fi
done
# The same split by Linux perf in the same boot (perf-split.txt: "4K n"),
# when the guest half recorded one (PEBS_WITH_PERF).
if [ "${PEBS_WITH_PERF:-0}" = 1 ]; then
	[ -s perf-split.txt ] || fail "no perf-split.txt: the guest half did not run perf"
	ptotal=$(awk '{ t += $2 } END { print t + 0 }' perf-split.txt)
	[ "$ptotal" -gt 0 ] || fail "perf-split.txt has no samples"
	for pg in 4K 2M 1G; do
		pn=$(awk -v pg="$pg" '$1 == pg { print $2 }' perf-split.txt)
		pshare=$(awk -v n="${pn:-0}" -v t="$ptotal" 'BEGIN { printf "%.2f", 100 * n / t }')
		got=$(share "$pg")
		if within "$got" "$pshare" 3; then
			pass_check "perf-share-$pg"
		else
			fail_check "perf-share-$pg" "pmuconv $got%, perf record --data-page-size $pshare% ($ptotal samples)"
		fi
	done
fi
exit 0
