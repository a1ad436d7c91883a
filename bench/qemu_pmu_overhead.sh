#!/bin/sh
# Cost of the emulated PMU (tests/vm/qemu-pmu) in QEMU's TCG: the same guest
# boot and workload under
#   baseline   QEMU 7.2 built the same way without the series
#   idle       the series, Intel PMU identity, nothing counting (nmi_watchdog=0)
#   counting   the series, NMI watchdog on (cycles on every CPU) and perf stat
#              -a counting instructions and branches for the whole workload
#   memory     the series, perf stat -a counting dTLB-loads, dTLB-load-misses,
#              dTLB-stores and dTLB-store-misses (the data TLB model's events:
#              every guest memory access calls the model; nmi_watchdog=0)
# all with -cpu max,vendor=GenuineIntel,family=6,model=94,pmu=on.
# The workload is split7030 -r ROUNDS pinned to CPU 1 (fixed work, few memory
# accesses), then tlbrand -n LOADS 4k (random loads over 32 MiB of 4K pages:
# a memory access, and a data TLB miss, every few instructions).
# Prints a Markdown table: median of REPEATS interleaved runs of the whole boot (QEMU's
# wall time) and of each workload alone (its own seconds, guest clock).
#
#   sh bench/qemu_pmu_overhead.sh [REPEATS] [ROUNDS] [LOADS]
# Run on a quiet machine: TCG wall times follow the host's load.
# MEM_COMPARE=PATH adds a fifth configuration, "memory-compare": the memory
# configuration under another build of the series (e.g. the cached binary of
# an earlier series, `ls ~/.cache/pmuprof/qemu-pmu/`), interleaved with the
# others, for before/after figures under the same load. The table also gives
# each configuration's QEMU CPU time (user+sys, median), less sensitive to
# the host's load than the guest's wall-clock figures.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
REPEATS=${1:-5}
ROUNDS=${2:-1500}
LOADS=${3:-3000000}
BUILD=${BUILD:-build}
KVER=$(sh scripts/kver.sh)
KERNEL=$BUILD/guest-kernel/vmlinuz-$KVER
WL=$BUILD/guest/split7030
WL2=$BUILD/guest/tlbrand
for f in "$KERNEL" "$WL" "$WL2"; do
	[ -f "$f" ] || {
		echo "qemu_pmu_overhead: $f missing; run 'make deps guest-bins'" >&2
		exit 2
	}
done
PATCHED=$(sh tests/vm/qemu-pmu/build.sh)
BASELINE=$(sh tests/vm/qemu-pmu/build.sh --baseline)
PERF_BIN=$(command -v perf)
CPU=max,vendor=GenuineIntel,family=6,model=94,pmu=on

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
ST=$(mktemp -d)
trap 'rm -rf "$ST"' EXIT
r=$ST/root
mkdir -p "$r/bin" "$r/usr/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
cp "$(command -v busybox)" "$r/bin/busybox"
for a in sh mount poweroff cat taskset; do ln -s busybox "$r/bin/$a"; done
cp "$WL" "$WL2" "$r/usr/bin/"
cp -L "$PERF_BIN" "$r/usr/bin/perf"
for lib in $(ldd "$PERF_BIN" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	mkdir -p "$r$(dirname "$lib")"
	cp -L "$lib" "$r$lib"
done
cat >"$r/init" <<EOF
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
W="split7030 -r $ROUNDS; tlbrand -n $LOADS 4k"
case "\$(cat /proc/cmdline)" in
*bench=counting*) perf stat -a -x, -e instructions,branches -o /tmp/stat -- \
	taskset -c 1 sh -c "\$W" ;;
*bench=memory*) perf stat -a -x, -e dTLB-loads,dTLB-load-misses,dTLB-stores,dTLB-store-misses \
	-o /tmp/stat -- taskset -c 1 sh -c "\$W" ;;
*) taskset -c 1 sh -c "\$W" ;;
esac
poweroff -f
EOF
chmod 755 "$r/init"
(cd "$r" && find . | cpio -o -H newc --quiet) >"$ST/initrd"

[ -z "${MEM_COMPARE:-}" ] || [ -x "$MEM_COMPARE" ] || {
	echo "qemu_pmu_overhead: MEM_COMPARE=$MEM_COMPARE is not an executable QEMU" >&2
	exit 2
}
CONFIGS="baseline idle counting memory${MEM_COMPARE:+ memory-compare}"

boot() { # QEMU CMDLINE-EXTRA -> "wall_s split7030_s tlbrand_s cpu_s"
	t0=$(date +%s.%N)
	c0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	out=$("$1" -L /usr/share/seabios -L /usr/share/qemu -accel tcg -cpu "$CPU" -smp 2 -m 1024 \
		-nodefaults -display none -serial stdio -no-reboot -kernel "$KERNEL" -initrd "$ST/initrd" \
		-append "console=ttyS0 quiet panic=-1 no_timer_check retbleed=off $2" 2>&1)
	t1=$(date +%s.%N)
	# the children's CPU time this shell has waited for: QEMU's, in ticks
	c1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	w=$(echo "$out" | sed -n 's/.*split7030: .* seconds=\([0-9.]*\).*/\1/p' | tail -n 1)
	w2=$(echo "$out" | sed -n 's/.*tlbrand: .* seconds=\([0-9.]*\).*/\1/p' | tail -n 1)
	echo "$t0 $t1 ${w:-nan} ${w2:-nan} $c0 $c1 $(getconf CLK_TCK)" |
		awk '{ printf "%.2f %s %s %.2f\n", $2 - $1, $3, $4, ($6 - $5) / $7 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| configuration | boot + workloads, s (median of $REPEATS) | QEMU CPU, s | split7030, s | vs baseline | tlbrand 4k, s | vs baseline |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
cfg_of() { # CFG -> "QEMU EXTRA-CMDLINE"
	case $1 in
	baseline) echo "$BASELINE nmi_watchdog=0" ;;
	idle) echo "$PATCHED nmi_watchdog=0" ;;
	counting) echo "$PATCHED nmi_watchdog=1 bench=counting" ;;
	memory) echo "$PATCHED nmi_watchdog=0 bench=memory" ;;
	memory-compare) echo "$MEM_COMPARE nmi_watchdog=0 bench=memory" ;;
	esac
}
# Interleaved (baseline, idle, counting, memory, baseline, ...) so that a change in
# the host's load moves every configuration alike.
i=0
while [ $i -lt "$REPEATS" ]; do
	for cfg in $CONFIGS; do
		set -- $(cfg_of $cfg)
		q=$1
		shift
		boot "$q" "$*" >>"$ST/runs.$cfg"
	done
	i=$((i + 1))
done
base=""
base2=""
for cfg in $CONFIGS; do
	wall=$(cut -d' ' -f1 "$ST/runs.$cfg" | median)
	cpu=$(cut -d' ' -f4 "$ST/runs.$cfg" | median)
	wl=$(cut -d' ' -f2 "$ST/runs.$cfg" | median)
	wl2=$(cut -d' ' -f3 "$ST/runs.$cfg" | median)
	[ -z "$base" ] && base=$wl && base2=$wl2
	ratio=$(echo "$wl $base" | awk '{ printf "%+.1f %%", ($1 / $2 - 1) * 100 }')
	ratio2=$(echo "$wl2 $base2" | awk '{ printf "%.2fx", $1 / $2 }')
	echo "| $cfg | $wall | $cpu | $wl | $ratio | $wl2 | $ratio2 |"
done
echo
[ -z "${MEM_COMPARE:-}" ] || echo "memory-compare: $MEM_COMPARE"
echo "host: $(nproc) CPUs, load at start $LOAD0, at end $(cut -d' ' -f1-3 /proc/loadavg); guest: $KVER, -cpu $CPU, -smp 2"
