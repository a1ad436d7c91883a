#!/bin/sh
# Host half of emu_pmu_dtlb: the data TLB model's totals that QEMU prints at
# exit (pmu-dtlb-totals, with pmu-insn-totals=on) equal what the guest last
# read through the emulation-only MSRs on vCPU 1 (user mode: loads, load
# walks, load walks 4K/2M/1G, load STLB hits).
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
host_done
