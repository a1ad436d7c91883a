#!/bin/sh
# Scenario (issue 16): the emulated PMU's data TLB model and memory events
# (tests/vm/qemu-pmu 0005-0007; docs/TESTING.md "The emulated PMU"), held to
# Linux perf in the guest and to the model's own totals:
#   - no KPTI at boot (IA32_ARCH_CAPABILITIES.RDCL_NO announced);
#   - random loads over 32 MiB (tlbrand) on 4K, THP, hugetlb 2M and 1G pages:
#     perf stat -a -C 1 with the raw Skylake encodings (ALL_LOADS,
#     WALK_COMPLETED_4K/_2M_4M/_1G, user mode) equals the model's user-mode
#     totals of vCPU 1 (emulation-only MSRs 0x400000f0+) exactly;
#   - load walks per load at the buffer's page size fall >= 10x from 4K to
#     2M (THP and hugetlb) and again from 2M to 1G, and the 4K rate is the
#     model's analytic one (1 - 1536/8192 STLB entries per page = 0.8125);
#   - perf's generic dTLB-load-misses/dTLB-loads are the model's events;
#   - pmuctl record -e dtlb-load-misses:u --data-addr on the 4K run; the host
#     half (emu_pmu_dtlb.host.sh) runs pmuconv pagesize: events on 4K data
#     pages against the model's walks within 1 %, and holds QEMU's
#     pmu-dtlb-totals line printed at exit to the guest's last MSR reading.
#     Walk shares by page size on a mixed 4K/2M/1G run are emu_pmu_tlbcount's
#     (about 2500 samples; the mixed run that was here made about 200 and
#     read the 2M share 3.2 points high in 3 of 5 boots).
# needs: pmu perf module bin:tlbrand bin:pmuregs bin:pmuctl host:pmuconv
# kmods: msr
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,pmu-insn-totals=on,rdcl-no=on
# timeout: 420

N=${DTLB_LOADS:-200000}

# ---- boot: no page-table isolation
dmesg >"$RESULTS/boot-dmesg.txt"
melt=$(cat /sys/devices/system/cpu/vulnerabilities/meltdown 2>&1)
log "meltdown: $melt"
if [ "$melt" = "Not affected" ] && ! grep -q 'page tables isolation: enabled' "$RESULTS/boot-dmesg.txt"; then
	pass_check no-kpti
else
	fail_check no-kpti "meltdown: '$melt'; $(grep -m1 'isolation' "$RESULTS/boot-dmesg.txt")"
fi

kmod_load msr
caps=$(msr_read 0 0x10a)
[ $((caps & 1)) = 1 ] && pass_check arch-caps-rdcl-no || fail_check arch-caps-rdcl-no "IA32_ARCH_CAPABILITIES=$caps"

# The model's user-mode totals on vCPU 1 (PMU_MEM_* order of pmu_helper.c):
# loads, load walks, load walks 4K, 2M, 1G, load STLB hits.
model() {
	for i in 0 2 3 4 5 6; do
		printf '%s ' "$(msr_read 1 $((0x400000f0 + i)))"
	done
}
# perf stat -a -C 1 (all of CPU 1, user mode) around one tlbrand run on CPU 1;
# the model's deltas are compared with its counts exactly. The four events
# are one group: perf enables and disables a group with one ioctl, so all four
# count over the same window, and the model (which runs while any memory
# event is programmed) over that window too. As separate events they were
# enabled and disabled one by one, and the user-mode work CPU 1 did in between
# (about 6000 loads a second of it here, with nothing else running) made the
# model's totals 141 loads and 7 walks larger than the counts.
run_kind() { # KIND
	k=$1
	set -- $(model)
	m0_ld=$1 m0_w=$2 m0_4k=$3 m0_2m=$4 m0_1g=$5
	taskset -c 0 perf stat -a -C 1 -x, -e "{r81d0:u,r0208:u,r0408:u,r0808:u}" -o "$RESULTS/stat-$k.txt" -- \
		taskset -c 1 tlbrand -c 1 -n "$N" "$k" >"$RESULTS/wl-$k.txt" 2>&1
	rc=$?
	set -- $(model)
	d_ld=$(($1 - m0_ld)) d_w=$(($2 - m0_w)) d_4k=$(($3 - m0_4k)) d_2m=$(($4 - m0_2m)) d_1g=$(($5 - m0_1g))
	cat "$RESULTS/wl-$k.txt" >>"$RESULTS/scenario.log"
	if [ $rc != 0 ]; then
		fail_check "run-$k" "tlbrand $k exited $rc: $(cat "$RESULTS/wl-$k.txt")"
		return 1
	fi
	p=$(awk -F, '$3 ~ /^r/ { printf "%s ", $1 }' "$RESULTS/stat-$k.txt")
	log "$k: perf loads/walks4k/2m/1g: $p; model: $d_ld $d_4k $d_2m $d_1g (all walks $d_w)"
	if [ "$p" = "$d_ld $d_4k $d_2m $d_1g " ] && [ "$d_ld" -ge "$N" ]; then
		pass_check "perf-equals-model-$k"
	else
		fail_check "perf-equals-model-$k" "perf $p, model $d_ld $d_4k $d_2m $d_1g (at least $N loads)"
	fi
	[ $((d_4k + d_2m + d_1g)) = "$d_w" ] && [ "$d_w" -gt 0 ] && pass_check "walks-sum-$k" ||
		fail_check "walks-sum-$k" "walks $d_w != 4K $d_4k + 2M $d_2m + 1G $d_1g"
	echo "$d_ld $d_4k $d_2m $d_1g" >"$RESULTS/counts-$k"
}

for k in 4k thp 2m 1g; do
	run_kind $k
done

# ---- load walks per load, at the buffer's page size (millionths)
rate() { # KIND FIELD(2: 4K, 3: 2M, 4: 1G) -> walks per million loads of the loop
	awk -v n="$N" -v f="$2" '{ printf "%.3f", 1e6 * $f / n }' "$RESULTS/counts-$1" 2>/dev/null
}
r4k=$(rate 4k 2)
rthp=$(rate thp 3)
r2m=$(rate 2m 3)
r1g=$(rate 1g 4)
log "walks per million loads at the buffer's page size: 4K $r4k, THP $rthp, 2M $r2m, 1G $r1g"
ge10() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && b > 0 && a >= 10 * b) }'; }
ge10 "$r4k" "$r2m" && pass_check falls-4k-to-2m || fail_check falls-4k-to-2m "4K $r4k vs 2M $r2m"
ge10 "$r4k" "$rthp" && pass_check falls-4k-to-thp || fail_check falls-4k-to-thp "4K $r4k vs THP $rthp"
ge10 "$r2m" "$r1g" && pass_check falls-2m-to-1g || fail_check falls-2m-to-1g "2M $r2m vs 1G $r1g"
# Uniform random loads over 8192 4K pages with 1536 STLB entries (LRU in
# 12-way sets: 12 of the 64 pages of each set cached): 0.8125 walks a load.
awk -v r="$r4k" 'BEGIN { exit !(r >= 790000 && r <= 835000) }' && pass_check rate-4k-model ||
	fail_check rate-4k-model "4K walks per million loads $r4k, model 812500"

# ---- Linux's generic names are the model's events (Skylake: 0x81d0, 0xe08)
perf stat -x, -e dTLB-loads:u,dTLB-load-misses:u,r0108:u,r2008:u -o "$RESULTS/stat-generic.txt" -- \
	taskset -c 1 tlbrand -c 1 -n "$N" 4k >>"$RESULTS/scenario.log" 2>&1 || fail_check generic-events "perf stat failed"
set -- $(awk -F, '$3 ~ /dTLB|^r/ { printf "%s ", $1 }' "$RESULTS/stat-generic.txt")
log "4k generic: dTLB-loads $1 dTLB-load-misses $2 MISS_CAUSES_A_WALK $3 STLB_HIT $4"
if [ $# = 4 ] && [ "$2" = "$3" ] && [ "$1" -ge "$N" ] && [ $(($2 + $4)) -le "$1" ] && [ "$2" -ge $((N * 7 / 10)) ]; then
	pass_check generic-events
else
	fail_check generic-events "dTLB-loads '$1' dTLB-load-misses '$2' walks '$3' stlb-hits '$4' for $N loads"
fi

# ---- pmuprof on the model's events: pmuctl record -e dtlb-load-misses
# --data-addr, pmuconv pagesize in the host half. The model's walk counts
# around each recording (its hook runs only while pmuprof's counters are
# programmed, i.e. while the recorded command runs) are the truth.
load_module
cp /usr/local/bin/tlbrand "$RESULTS/"
pmuctl encode dtlb-load-misses:u >"$RESULTS/encode.txt" 2>&1
log "dtlb-load-misses:u is $(tr '\n' ' ' <"$RESULTS/encode.txt")"
record() { # NAME PERIOD COMMAND...
	name=$1 period=$2
	shift 2
	set -- "$period" "$@" $(model)
	taskset -c 0 pmuctl record -e dtlb-load-misses:u -c "$1" --data-addr -q -o "$RESULTS/$name.pmu" -- \
		taskset -c 1 "$2" "$3" "$4" >"$RESULTS/wl-$name.txt" 2>"$RESULTS/rec-$name.txt" ||
		fail_check "record-$name" "pmuctl record: $(tail -n 3 "$RESULTS/rec-$name.txt")"
	m=$(model)
	echo "$m" | awk -v a="$5 $6 $7 $8 $9" '{ split(a, b, " "); for (i = 2; i <= 5; i++) printf "%d ", $i - b[i]; print "" }' \
		>"$RESULTS/model-$name"
	log "$name: model walks (all 4K 2M 1G): $(cat "$RESULTS/model-$name")"
}
record rec4k 1009 sh -c "tlbrand -c 1 -n $N 4k"
pass_check pmuctl-record

# The last reading, for the host half (no memory event is programmed from
# here on, so the model counts nothing more).
echo "$(model)" >"$RESULTS/model-final"
exit 0
