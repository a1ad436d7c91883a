#!/bin/sh
# Host half of emu_pmu_tlbcount: pmuconv on the guest's recordings.
#   - sum of sample periods per event within 1 % of perf stat's count of the
#     same run (the same tlbrand command line, no ASLR, in the same boot);
#   - the mixed run's dtlb-load-misses walks by data page size within 3
#     points of the model's per-size walks; its raw r0208 (4K walks) samples
#     on 4K pages; pmuconv pagesize -e works for every recorded event name;
#   - the verdict on the 4K heap predicts a walk reduction, the THP re-run
#     measures it with the same event: the two within 20 % of each other.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
mkdir -p symfs/usr/local/bin && cp tlbrand pagesizes symfs/usr/local/bin/ || fail "no workload binaries"
pct() { awk -v a="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.2f", 100 * a / t }'; }

# ---- sums of periods against perf stat
# sum SET NAME PERF-NAME
sum() { sum_check "sum-$1-$2" "report-$1.txt" "$2" "stat-$1.csv" "$3" 1; }
for set in counts mixed; do
	"$BIN/pmuconv" report "$set.pmu" --symfs symfs >"report-$set.txt" 2>&1 ||
		fail_check "report-$set" "pmuconv report exited $?: $(tail -n 2 "report-$set.txt")"
done
sum counts dtlb-load-misses:u r0e08:u
sum counts DTLB_LOAD_MISSES.WALK_COMPLETED_4K:u r0208:u
sum counts DTLB_LOAD_MISSES.WALK_COMPLETED_2M_4M:u r0408:u
sum counts DTLB_LOAD_MISSES.WALK_COMPLETED_1G:u r0808:u
sum mixed dtlb-load-misses:u r0e08:u
sum mixed MEM_INST_RETIRED.ALL_LOADS:u r81d0:u
sum mixed MEM_INST_RETIRED.STLB_MISS_LOADS:u r11d0:u
sum mixed r0208:u r0208:u

# ---- pagesize -e for every recorded event; walks by page size
# page FILE PAGE: the estimated events on PAGE (the data page-size table)
page() {
	awk -v pg="$2" 'index($0, "Data page size") == 1 { s = 1; next }
		s && $1 == pg { print $4; exit }' "$1"
}
n=0
for set in counts mixed; do
	for ev in $(sed -n 's/^ *\([^ ]*:u\) .*estimated.*/\1/p' "report-$set.txt"); do
		n=$((n + 1))
		out=ps-$set-$ev.txt
		if "$BIN/pmuconv" pagesize "$set.pmu" -e "$ev" --user-only --symfs symfs >"$out" 2>&1 &&
			grep -q "^== event $ev, user-mode samples" "$out" && [ -n "$(page "$out" 4K)" ]; then
			pass_check "pagesize-e-$ev-$set"
		else
			fail_check "pagesize-e-$ev-$set" "$(head -n 3 "$out")"
		fi
	done
done
[ "$n" = 8 ] && pass_check pagesize-e-all-events || fail_check pagesize-e-all-events "$n events in the reports, not 8"

# The mixed run: the model's walks of the recorded run by page size (loads
# walks 4K 2M 1G stlb-hits) against pmuconv's, as shares of all the event's
# walks (sum of periods). Every 2M and 1G walk is a load of rand_loads's
# loop, whose samples decode (the PMI comes at the end of the block, and the
# next block is the loop's load again, on the same buffer, but after a
# phase's last load: rare in 60- and 15-load phases); the 4K walks also
# come from the code around the loops after each round's TLB flush (stack,
# libc data: about 8 a round), whose samples may land on an instruction
# without a memory operand, or on the next loop's first load. So 4K is
# compared as what is left, as emu_pmu_dtlb does.
set -- $(cat model-mixed)
f=ps-mixed-dtlb-load-misses:u.txt
cat "$f"
e2=$(page "$f" 2M) e1=$(page "$f" 1G)
t=$(est_events report-mixed.txt dtlb-load-misses:u)
s2=$(pct "${e2:-0}" "$t") s1=$(pct "${e1:-0}" "$t")
s4=$(awk -v a="$s2" -v b="$s1" 'BEGIN { printf "%.2f", 100 - a - b }')
m4=$(pct "$3" "$2") m2=$(pct "$4" "$2") m1=$(pct "$5" "$2")
log "mixed: walks by page size 4K/2M/1G pmuconv $s4/$s2/$s1 % of $t, model $m4/$m2/$m1 % of $2 walks"
within "$s4" "$m4" 3 && within "$s2" "$m2" 3 && within "$s1" "$m1" 3 && [ "${4:-0}" -gt 0 ] && [ "${5:-0}" -gt 0 ] &&
	pass_check walks-by-page-size ||
	fail_check walks-by-page-size "4K $s4 vs $m4, 2M $s2 vs $m2, 1G $s1 vs $m1 (pmuconv vs model)"
# The raw 4K-walk event's samples with a data address are on 4K pages.
f=ps-mixed-r0208:u.txt
r4=$(pct "$(page "$f" 4K)" $(($(page "$f" 4K) + $(page "$f" 2M) + $(page "$f" 1G) + $(page "$f" unknown))))
awk -v s="$r4" 'BEGIN { exit !(s != "" && s >= 95) }' && pass_check raw-4k-walks-on-4k ||
	fail_check raw-4k-walks-on-4k "r0208:u (4K walks): $r4 % of the walks with a data address on 4K pages"

# ---- the verdict's prediction and the measurement
if [ -f heap-4k.pmu ] && [ -f heap-thp.pmu ]; then
	grep '^buffer phase=end name=heap' heap-4k.txt heap-thp.txt
	"$BIN/pmuconv" pagesize heap-4k.pmu -e dtlb-load-misses:u --user-only --symfs symfs >verdict-4k.txt 2>&1
	"$BIN/pmuconv" pagesize heap-thp.pmu -e dtlb-load-misses:u --user-only --symfs symfs >verdict-thp.txt 2>&1
	sed -n '/^Would huge pages/,/^Note/p' verdict-4k.txt verdict-thp.txt
	range=$(sed -n 's/^buffer phase=end name=heap .* start=\(0x[0-9a-f]*\) .*/\1/p' heap-4k.txt)
	cand=$(sed -n 's/^CANDIDATE: \[anon\] \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\) .*/\1 \2/p' verdict-4k.txt)
	if grep -q '^Predicted: with the candidate on 2M pages, dtlb-load-misses:u would count' verdict-4k.txt &&
		[ -n "$cand" ] && [ -n "$range" ] &&
		[ $((range)) -ge $((${cand% *})) ] && [ $((range)) -lt $((${cand#* })) ] &&
		! grep -q '^CANDIDATE: /' verdict-4k.txt; then
		pass_check verdict-predicts-walks
	else
		fail_check verdict-predicts-walks "heap at $range, candidate '$cand': $(grep -m2 '^CANDIDATE\|^Predicted' verdict-4k.txt)"
	fi
	grep -q '^buffer phase=end name=heap .* actual=thp ' heap-thp.txt && pass_check heap-on-thp ||
		fail_check heap-on-thp "$(grep '^buffer phase=end name=heap' heap-thp.txt)"
	"$BIN/pmuconv" pagesize --compare heap-4k.pmu heap-thp.pmu -e dtlb-load-misses:u --user-only \
		--symfs symfs >compare.txt 2>&1
	cat compare.txt
	m=$(sed -n 's/.*measured \([0-9.-]*\)% fewer.*/\1/p' compare.txt)
	p=$(sed -n 's/.*predicted \([0-9.]*\)% fewer.*/\1/p' compare.txt)
	log "heap walks: predicted $p % fewer, measured $m % fewer; model walks 4K run: $(cut -d' ' -f2 model-heap-4k), THP run: $(cut -d' ' -f2 model-heap-thp)"
	awk -v p="$p" -v m="$m" 'BEGIN { d = p - m; if (d < 0) d = -d; exit !(p != "" && m != "" && m > 0 && d <= 0.2 * m) }' &&
		pass_check predicted-vs-measured || fail_check predicted-vs-measured "predicted $p %, measured $m % fewer walks"
fi
host_done
