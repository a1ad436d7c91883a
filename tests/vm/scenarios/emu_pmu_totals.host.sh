#!/bin/sh
# Host half of emu_pmu_totals: read QEMU's pmu-insn-totals lines.
. "$ROOT/tests/vm/lib/host.sh"
q=$RESULTS/qemu.out
grep '^pmu-insn-totals: ' "$q" >"$RESULTS/totals.txt"
cat "$RESULTS/totals.txt"
[ "$(grep -c 'cpu=[01] ' "$RESULTS/totals.txt")" = 2 ] && pass_check totals-per-vcpu ||
	fail_check totals-per-vcpu "$(head -c 300 "$q")"
u1=$(sed -n 's/.*cpu=1 insns-user=\([0-9]*\) insns-kernel=\([0-9]*\).*/\1/p' "$RESULTS/totals.txt")
k1=$(sed -n 's/.*cpu=1 insns-user=\([0-9]*\) insns-kernel=\([0-9]*\).*/\2/p' "$RESULTS/totals.txt")
p=$(cat "$RESULTS/perf-insns-u")
n=$(cat "$RESULTS/loop-n")
echo "cpu1: user $u1 kernel $k1; perf instructions:u $p; loop $((3 * n))"
[ -n "$u1" ] && [ -n "$p" ] && [ "$u1" -ge "$p" ] && [ "$p" -ge $((3 * n)) ] && [ "${k1:-0}" -gt 0 ] &&
	pass_check totals-bound-perf || fail_check totals-bound-perf "cpu1 user=$u1 kernel=$k1, perf=$p, loop=$((3 * n))"
host_done
