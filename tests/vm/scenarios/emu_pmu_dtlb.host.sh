#!/bin/sh
# Host half of emu_pmu_dtlb: the data TLB model's totals that QEMU prints at
# exit (pmu-dtlb-totals, with pmu-insn-totals=on) equal what the guest last
# read through the emulation-only MSRs on vCPU 1 (user mode: loads, load
# walks, load walks 4K/2M/1G, load STLB hits); pmuconv pagesize on pmuctl's
# recording of dtlb-load-misses --data-addr agrees with the model's walks.
. "$ROOT/tests/vm/lib/host.sh"
q=$RESULTS/qemu.out
grep '^pmu-dtlb-totals: ' "$q" >"$RESULTS/dtlb-totals.txt"
cat "$RESULTS/dtlb-totals.txt"
line=$(grep 'cpu=1 mode=user ' "$RESULTS/dtlb-totals.txt")
host=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	print v["loads"], v["load-walks"], v["load-walks-4k"], v["load-walks-2m"], v["load-walks-1g"], v["load-stlb-hits"] }')
guest=$(cat "$RESULTS/model-final" 2>/dev/null | awk '{ $1 = $1; print }')
echo "host: $host; guest: $guest"
[ -n "$line" ] && [ "$host" = "$guest" ] && pass_check host-totals-equal-guest ||
	fail_check host-totals-equal-guest "QEMU printed '$line'; the guest read '$guest'"

cd "$RESULTS" || fail "no results directory"
mkdir -p symfs/usr/local/bin && cp tlbrand symfs/usr/local/bin/ || fail "no tlbrand binary"
# est FILE PAGE: estimated events (sum of sample periods) of the samples
# whose data address is on PAGE, from a `pmuconv pagesize` text report;
# total FILE.pmu: of all samples, from `pmuconv report`.
est() {
	awk -v pg="$2" 'index($0, "Data page size") == 1 { s = 1; next }
		s && $1 == pg { print $4; exit }' "$1"
}
total() {
	"$BIN/pmuconv" report "$1" 2>/dev/null | sed -n 's/.* \([0-9]*\) estimated events (sum of sample periods).*/\1/p' | head -n 1
}
for r in rec4k; do
	"$BIN/pmuconv" pagesize "$r.pmu" --symfs symfs --user-only >"ps-$r.txt" 2>&1 ||
		fail_check "pagesize-$r" "pmuconv pagesize failed: $(tail -n 2 "ps-$r.txt")"
	echo "== $r (model walks all/4K/2M/1G: $(cat "model-$r"))"
	cat "ps-$r.txt"
done
# 4K buffer, period 1009: the 4K data samples' events within 1 % + a period of the
# model's walks, and nearly all events on 4K pages.
set -- $(cat model-rec4k)
e4=$(est ps-rec4k.txt 4K)
t=$(total rec4k.pmu)
echo "rec4k: events on 4K data pages $e4 of $t, model 4K walks $2"
awk -v e="${e4:-0}" -v t="${t:-0}" -v w="$2" 'BEGIN { d = e - w; if (d < 0) d = -d
	exit !(w > 0 && t > 0 && e >= 0.95 * t && d <= w / 100 + 1009) }' && pass_check pagesize-4k-walks ||
	fail_check pagesize-4k-walks "4K events $e4 of $t vs model 4K walks $2"
host_done
