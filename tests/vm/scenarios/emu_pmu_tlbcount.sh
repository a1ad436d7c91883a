#!/bin/sh
# Scenario (issue 16): pmuprof's dTLB/memory-event answers against Linux perf
# and the emulated PMU's data TLB model, in one boot (the host half,
# emu_pmu_tlbcount.host.sh, judges with pmuconv):
#   - two deterministic runs of tlbrand (random loads over 4K, 2M and 1G
#     buffers, the 2M and 1G translations flushed every round), each counted
#     by perf stat and sampled by pmuctl record: "counts" (100000 short
#     rounds) with dtlb-load-misses and DTLB_LOAD_MISSES.WALK_COMPLETED_4K/
#     _2M_4M/_1G by name, "mixed" (18750 rounds, load shares 110/60/3) with
#     dtlb-load-misses, MEM_INST_RETIRED.ALL_LOADS/STLB_MISS_LOADS by name
#     and r0208 raw: per event the sum of sample periods within 1 % of perf
#     stat's count;
#   - the mixed recording's dtlb-load-misses samples by data page size
#     (pmuconv pagesize -e) within 3 points of the model's per-size walks of
#     that run (debug MSRs); pmuconv pagesize -e with every event name;
#   - the huge-page verdict with a TLB-miss event: a 64 MiB malloc'd buffer
#     read at random beside a small hot array (pagesizes heap:20 small:10),
#     recorded with dtlb-load-misses, then again with the buffer madvise'd to
#     THP (-H): the verdict's predicted walk reduction and the measured one
#     (pmuconv pagesize --compare) within 20 % of each other.
# needs: pmu perf module bin:tlbrand bin:pagesizes bin:pmuregs bin:pmuctl host:pmuconv
# kmods: msr
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,rdcl-no=on
# results-mb: 96
# timeout: 480

kmod_load msr
# The model's user-mode totals on vCPU 1 (PMU_MEM_* order of pmu_helper.c):
# loads, load walks, load walks 4K, 2M, 1G, load STLB hits.
model() {
	for i in 0 2 3 4 5 6; do
		printf '%s ' "$(msr_read 1 $((0x400000f0 + i)))"
	done
}
delta() { # BEFORE... (6 numbers) AFTER (6 numbers) -> differences
	echo "$@" | awk '{ for (i = 1; i <= 6; i++) printf "%d ", $(i + 6) - $i; print "" }'
}

# The same layout in every run (no ASLR): perf stat's run and pmuctl's are
# the same run (two perf stat runs of "counts" differed by 17 walks in 1.4
# million this way; with ASLR, runs of "mixed" differed by 4 %).
echo 0 >/proc/sys/kernel/randomize_va_space
# The huge pages are hugetlbfs files (tlbrand -F), zeroed once, here, with
# no memory event on: zeroing 1 GiB with the model's hook on took ~40 s.
H=/tmp/tlbrand-huge
mkdir -p $H/2m $H/1g
mount -t hugetlbfs -o pagesize=2M none $H/2m && mount -t hugetlbfs -o pagesize=1G none $H/1g ||
	fail "cannot mount hugetlbfs with pagesize=2M and 1G at $H"
tlbrand -F $H -n 1 2m 1g >"$RESULTS/wl-warmup.txt" 2>&1 || fail "tlbrand warm-up: $(cat "$RESULTS/wl-warmup.txt")"
log "hugetlbfs files zeroed"

# Run "counts": short rounds, so that each walk event counts 100 periods or
# more (the module's minimum period is 1000; 1G walks are one a round).
# Run "mixed": phases of several loads (a sample's IP is the block after the
# walk, so a phase ending in a walk would lend its sample to the next
# instruction), and ~2500 samples of dtlb-load-misses, so that the 2M share
# (~12 %) has a standard error of 0.65 points (with 194 samples, 3.3).
COUNTS=${TLB_COUNTS:-"-F $H -n 500000 -f 100000 4k:2 2m:2 1g:1"}
MIXED=${TLB_MIXED:-"-F $H -n 3243750 -f 18750 4k:110 2m:60 1g:3"}
P=1000
EV_counts="dtlb-load-misses:u/$P,DTLB_LOAD_MISSES.WALK_COMPLETED_4K:u/$P,DTLB_LOAD_MISSES.WALK_COMPLETED_2M_4M:u/$P,DTLB_LOAD_MISSES.WALK_COMPLETED_1G:u/$P"
EV_mixed="dtlb-load-misses:u/$P,MEM_INST_RETIRED.ALL_LOADS:u/$P,MEM_INST_RETIRED.STLB_MISS_LOADS:u/$P,r0208:u/$P"
# the same events for perf, by their raw Skylake encodings, one group each
# (a group counts over one window)
PEV_counts="{r0e08:u,r0208:u,r0408:u,r0808:u}"
PEV_mixed="{r0e08:u,r81d0:u,r11d0:u,r0208:u}"
cp /usr/local/bin/tlbrand /usr/local/bin/pagesizes "$RESULTS/"

# ---- perf stat first (pmuprof not loaded: perf owns the counters)
for run in counts mixed; do
	set=$run
	eval "ev=\$PEV_$set; args=\$$(echo "$set" | tr a-z A-Z)"
	m0=$(model)
	taskset -c 0 perf stat -x, -e "$ev" -o "$RESULTS/stat-$run.csv" -- \
		taskset -c 1 tlbrand -c 1 $args >"$RESULTS/wl-stat-$run.txt" 2>&1 ||
		fail_check "perf-stat-$run" "perf stat: $(tail -n 2 "$RESULTS/wl-stat-$run.txt")"
	delta $m0 $(model) >"$RESULTS/model-stat-$run"
	log "perf stat $run: $(awk -F, '$3 ~ /^r/ { printf "%s=%s ", $3, $1 }' "$RESULTS/stat-$run.csv"); model $(cat "$RESULTS/model-stat-$run")"
done

# ---- pmuctl record of the same runs, with the model around each
load_module
for set in counts mixed; do
	eval "ev=\$EV_$set; args=\$$(echo "$set" | tr a-z A-Z)"
	m0=$(model)
	taskset -c 0 pmuctl record -e "$ev" --data-addr -q -o "$RESULTS/$set.pmu" -- \
		taskset -c 1 tlbrand -c 1 $args >"$RESULTS/wl-$set.txt" 2>"$RESULTS/rec-$set.txt"
	rc=$?
	delta $m0 $(model) >"$RESULTS/model-$set"
	log "pmuctl record $set: exit $rc; model (loads walks 4K 2M 1G stlb-hits) $(cat "$RESULTS/model-$set")"
	cat "$RESULTS/wl-$set.txt" "$RESULTS/rec-$set.txt" >>"$RESULTS/scenario.log"
	[ $rc = 0 ] && pass_check "record-$set" ||
		fail_check "record-$set" "pmuctl record exited $rc: $(tail -n 3 "$RESULTS/rec-$set.txt")"
done

# ---- the verdict's prediction, then the measurement with the same event
thp=/sys/kernel/mm/transparent_hugepage
if [ -w "$thp/enabled" ]; then
	echo madvise >"$thp/enabled" # huge pages only where asked (Debian: always)
	for v in 4k thp; do
		flag=
		[ "$v" = thp ] && flag=-H
		m0=$(model)
		taskset -c 0 pmuctl record -e dtlb-load-misses:u/$P --data-addr -q -o "$RESULTS/heap-$v.pmu" -- \
			taskset -c 1 pagesizes -c 1 -r 10 -p rand -m 64 -u 750 $flag heap:20 small:10 \
			</dev/null >"$RESULTS/heap-$v.txt" 2>"$RESULTS/heap-$v.rec"
		rc=$?
		delta $m0 $(model) >"$RESULTS/model-heap-$v"
		log "heap $v: exit $rc; model $(cat "$RESULTS/model-heap-$v"); $(grep '^buffer phase=end name=heap' "$RESULTS/heap-$v.txt")"
		if [ $rc = 0 ] && grep -q '^pagesizes: pid=' "$RESULTS/heap-$v.txt"; then
			pass_check "heap-record-$v"
		else
			fail_check "heap-record-$v" "pmuctl record exited $rc: $(tail -n 2 "$RESULTS/heap-$v.rec")"
		fi
	done
else
	fail_check heap-record "no writable $thp/enabled (a guest kernel without THP)"
fi
unload_module
exit 0
