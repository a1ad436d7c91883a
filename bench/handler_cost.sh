#!/bin/sh
# Per-sample handler cost in kernel instructions (issue 15), measured outside
# the guest: QEMU with the emulated Intel PMU (tests/vm/qemu-pmu) and
# pmu-insn-totals=on prints each vCPU's exact retired user and kernel
# instructions at exit. One boot per configuration:
#   none        the workload alone (the baseline of perf's rows)
#   none-ko     the same with pmuprof.ko loaded (the baseline of pmuprof's rows;
#               the module is not loaded for perf: its NMI handler would sit
#               in the chain perf's PMIs walk)
#   spin        benchwork for 1 s of wall time on CPU 1 (tick calibration)
#   perf        perf record -e cycles:u -c P -m RING
#   perf-g      the same with -g (frame pointers; perf_event_max_stack = STACK)
#   pmuprof     pmuctl record -e cycles:u -c P --ring-size RING
#   pmuprof-g   the same with -g --depth STACK
#   nmi         no profiler: tests/vm/kmods/nmitool sends CPU 1 one NMI IPI at a
#               time (9614 of them, as many as the sampling rows take) while the
#               workload runs, each claimed by a handler that does nothing else:
#               the floor of one NMI (entry, Linux's handler chain, exit) that
#               both tools pay on top of their own work (baseline: none)
# The workload is benchwork -d DEPTH -r ROUNDS -k ITERS pinned to CPU 1
# (fixed user work, DEPTH + 3 frame-pointer frames, deeper than STACK so both
# tools truncate at STACK); everything else of the guest's init, the tools
# included, runs on CPU 0. Per boot of a sampling configuration:
#   (CPU 1 kernel instructions - median of its baseline) / samples in the file
# then median and min-max over REPEATS boots (configurations interleaved).
# cycles:u counts user cycles only (one per instruction in the model), so
# every sample is a user-mode sample with a user stack, and both tools see
# exactly the same overflows: floor(user cycles / P) samples unless they
# lose or throttle some.
#
# The guest boots with CPU 1 offline (maxcpus=1) and its init brings it
# online: a secondary CPU that boots with the kernel spins for 0.5-1.2 G
# kernel instructions under TCG (varying with the host's load); one brought
# online by init costs 4.1 M +- 0.01 M. idle=halt: under TCG with more than
# one vCPU, MWAIT does not sleep, so an idle CPU would count kernel
# instructions for as long as it idles. tsc=reliable: no TSC sync busy-wait.
# -accel tcg,thread=single: one host thread runs both vCPUs in turn (a PAUSE
# hands over at once). With a thread per vCPU (MTTCG) the host deschedules
# one vCPU while the other spins on a lock or waits for an IPI answer, and
# the spin counts: baselines moved between 2.2 M and 6.0 M, per-sample
# figures by up to 50 % from boot to boot on this loaded 2-core host;
# single-threaded, two boots agree to 0.3 %. (-icount would make the whole
# boot deterministic but aborts QEMU at the first PMI: "Raised interrupt
# while not in I/O function".)
# The timer ticks on CPU 1 follow the workload's wall time, which sampling
# stretches (far more under TCG than on hardware): the "spin" boot measures
# the kernel instructions of one tick, and the table shows CPU 1's ticks
# during each run and the per-sample figure with the extra ticks removed.
#
#   sh bench/handler_cost.sh [REPEATS] [PERIOD] [ROUNDS]
#   (environment: ITERS DEPTH STACK RING CONFIGS KEEP=DIR for the guest logs)
#
# Prints a Markdown table, then the raw per-boot lines. Needs
# 'make all guest-bins build/bench/guest/benchwork' and perf on the host (it
# is copied into the guest with its libraries); never loads the module on the
# host.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
REPEATS=${1:-3}
PERIOD=${2:-100003}
ROUNDS=${3:-1200}
ITERS=${ITERS:-100000}
DEPTH=${DEPTH:-80}
STACK=${STACK:-64}
RING=${RING:-16M}
CONFIGS=${CONFIGS:-none none-ko spin perf perf-g pmuprof pmuprof-g}
BUILD=${BUILD:-build}
KVER=$(sh scripts/kver.sh)
KERNEL=$BUILD/guest-kernel/vmlinuz-$KVER
WL=$BUILD/bench/guest/benchwork
KO=kernel/pmuprof.ko
PMUCTL=$BUILD/guest/pmuctl
PMUCONV=$BUILD/bin/pmuconv
for f in "$KERNEL" "$WL" "$KO" "$PMUCTL" "$PMUCONV"; do
	[ -f "$f" ] || {
		echo "handler_cost: $f missing; run 'make all guest-bins $WL'" >&2
		exit 2
	}
done
QEMU=$(sh tests/vm/qemu-pmu/build.sh)
PERF_BIN=$(command -v perf)
CPU=max,vendor=GenuineIntel,family=6,model=94,pmu=on,pmu-insn-totals=on
ACCEL=${ACCEL:--accel tcg,thread=single}
APPEND="console=ttyS0 quiet panic=-1 no_timer_check nmi_watchdog=0 retbleed=off tsc=reliable idle=halt maxcpus=1 ${APPEND_EXTRA:-}"

ST=$(mktemp -d)
trap 'rm -rf "$ST"' EXIT
r=$ST/root
mkdir -p "$r/bin" "$r/usr/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
cp "$(command -v busybox)" "$r/bin/busybox"
for a in sh mount poweroff cat taskset insmod grep awk sed sort uniq head sleep tr; do
	ln -s busybox "$r/bin/$a"
done
cp "$WL" "$PMUCTL" "$PMUCONV" "$r/usr/bin/"
cp "$KO" "$r/pmuprof.ko"
case " $CONFIGS " in
*" nmi "*)
	# nmitool, built against the guest's headers as tests/vm/run.sh does
	mkdir -p "$ST/nt"
	cp tests/vm/kmods/nmitool/* "$ST/nt/"
	if ! make -s -C "${VM_KDIR:-/usr/src/linux-headers-$KVER}" M="$ST/nt" modules >"$ST/nt.log" 2>&1; then
		echo "handler_cost: building nmitool.ko failed (see $ST/nt.log; 'make deps' installs the headers)" >&2
		exit 2
	fi
	cp "$ST/nt/nmitool.ko" "$r/nmitool.ko"
	;;
esac
cp -L "$PERF_BIN" "$r/usr/bin/perf"
for lib in $({ ldd "$PERF_BIN" && ldd "$PMUCONV"; } |
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u); do
	mkdir -p "$r$(dirname "$lib")"
	cp -L "$lib" "$r$lib"
done
# The guest's init (no test harness): one configuration per boot, hc=CFG on
# the kernel command line. Lines for the host start with "HC ".
cat >"$r/init" <<EOF
#!/bin/sh
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# this shell and all it starts stay on CPU 0; only the workload goes to CPU 1
taskset -p -c 0 \$\$ >/dev/null
echo 1 >/sys/devices/system/cpu/cpu1/online
loc1() { awk '\$1 == "LOC:" { print \$3 }' /proc/interrupts; }
ko() {
	insmod /pmuprof.ko max_handler_pct=0 ${KO_ARGS:-} || echo "HC insmod failed"
	n=0
	while [ ! -c /dev/pmuprof ] && [ \$n -lt 50 ]; do sleep 0.1; n=\$((n + 1)); done
	echo "HC ko-text \$(cat /sys/module/pmuprof/sections/.text)"
}
cfg=none
for a in \$(cat /proc/cmdline); do
	case "\$a" in hc=*) cfg=\${a#hc=} ;; esac
done
# perf throttles itself when its NMI handler looks slow (it always does
# under emulation): raise the rate limit, turn the time check off. perf's
# max_stack counts return addresses (the user IP included), not the
# PERF_CONTEXT_USER marker.
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo $STACK >/proc/sys/kernel/perf_event_max_stack
WL="taskset -c 1 benchwork -d $DEPTH -r $ROUNDS -k $ITERS"
cd /tmp
case \$cfg in none-ko | pmuprof*) ko ;; esac
l0=\$(loc1)
trace=0
for a in \$(cat /proc/cmdline); do
	case "\$a" in hctrace=1) trace=1 ;; esac
done
[ \$trace = 1 ] && { echo "HC trace-on"; sleep 2; }
case \$cfg in
none | none-ko)
	\$WL >/tmp/wl.out 2>&1 ;;
spin)
	taskset -c 1 benchwork -d $DEPTH -s 1 -k $ITERS >/tmp/wl.out 2>&1 ;;
nmi)
	insmod /nmitool.ko || echo "HC insmod nmitool failed"
	\$WL >/tmp/wl.out 2>&1 &
	w=\$!
	# the NMIs while the workload runs on CPU 1 (it runs for seconds)
	n=0
	while ! grep -q benchwork /proc/\$w/comm 2>/dev/null && [ \$n -lt 100000 ]; do n=\$((n + 1)); done
	echo "noop 1 9614" >/sys/kernel/debug/nmitool/cmd && echo "HC samples 9614"
	wait \$w ;;
perf | perf-g)
	g=
	[ \$cfg = perf-g ] && g=-g
	perf record -q -e cycles:u -c $PERIOD \$g -m $RING -o /tmp/perf.data -- \$WL >/tmp/wl.out 2>/tmp/rec.out ;;
pmuprof | pmuprof-g)
	g=
	[ \$cfg = pmuprof-g ] && g="-g --depth $STACK"
	pmuctl record -q -e cycles:u -c $PERIOD \$g --ring-size $RING -o /tmp/pp.pmu -- \$WL >/tmp/wl.out 2>/tmp/rec.out ;;
esac
echo "HC rc \$? loc \$((\$(loc1) - l0))"
[ \$trace = 1 ] && { echo "HC trace-off"; sleep 2; awk '\$2 ~ /^[tT]\$/ { print "HC ks", \$1, \$3 }' /proc/kallsyms; }
case \$cfg in
perf*)
	perf report -D -i /tmp/perf.data >/tmp/dump 2>/dev/null
	echo "HC samples \$(grep -c 'PERF_RECORD_SAMPLE(' /tmp/dump)"
	echo "HC lost-records \$(grep -c 'PERF_RECORD_LOST' /tmp/dump)"
	echo "HC throttle-records \$(grep -c 'PERF_RECORD_THROTTLE' /tmp/dump)"
	# callchain entries per sample (PERF_CONTEXT_USER + user frames)
	sed -n 's/.*chain: nr:\([0-9]*\).*/\1/p' /tmp/dump | sort -n | uniq -c | sort -rn | head -n 3 | sed 's/^/HC chain /' ;;
pmuprof-g)
	# frames per sample, counted from pmuconv's folded stacks
	pmuconv folded -q --no-process --weight samples /tmp/pp.pmu 2>/dev/null |
		awk '{ c[split(\$1, f, ";")] += \$NF } END { for (n in c) print c[n], n }' |
		sort -rn | head -n 3 | sed 's/^/HC frames /' ;;
esac
[ \$cfg = none ] && echo "HC flags \$(grep -m1 '^flags' /proc/cpuinfo | grep -o -w -e erms -e fsrm -e rep_good | sort -u | tr '\n' ' ')"
sed 's/^/HC wl /' /tmp/wl.out
[ -f /tmp/rec.out ] && sed 's/^/HC rec /' /tmp/rec.out
poweroff -f
EOF
chmod 755 "$r/init"
(cd "$r" && find . | cpio -o -H newc --quiet) >"$ST/initrd"

# boot CFG REP -> "cfg rep k1 u1 samples ticks wall_s" (k1, u1: CPU 1's
# kernel and user instructions; ticks: CPU 1's local timer interrupts
# during the run)
boot() {
	o=$ST/out.$1.$2
	t0=$(date +%s)
	[ -n "${HC_WATCH:-}" ] && python3 "$HC_WATCH" "$o" "$HC_SOCK" &
	# shellcheck disable=SC2086 # ACCEL is a list of options
	"$QEMU" -L /usr/share/seabios -L /usr/share/qemu $ACCEL ${QEMU_EXTRA:-} -cpu "$CPU" -smp 2 -m 1024 \
		-nodefaults -display none -serial stdio -no-reboot -kernel "$KERNEL" -initrd "$ST/initrd" \
		-append "$APPEND hc=$1" >"$o" 2>&1 || true
	t1=$(date +%s)
	k1=$(sed -n 's/^pmu-insn-totals: cpu=1 .*insns-kernel=\([0-9]*\).*/\1/p' "$o")
	u1=$(sed -n 's/^pmu-insn-totals: cpu=1 insns-user=\([0-9]*\).*/\1/p' "$o")
	ticks=$(sed -n 's/^HC rc 0 loc \([0-9]*\).*/\1/p' "$o")
	case $1 in
	perf* | nmi) s=$(sed -n 's/^HC samples \([0-9]*\).*/\1/p' "$o") ;;
	pmuprof*) s=$(awk '$1 == "HC" && $2 == "rec" && $3 == "cycles:u" && $5 == "samples" { print $4 }' "$o") ;;
	*) s=0 ;;
	esac
	echo "$1 $2 ${k1:-nan} ${u1:-nan} ${s:-nan} ${ticks:-nan} $((t1 - t0))"
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
date0=$(date -u '+%Y-%m-%d %H:%M')
i=0
while [ $i -lt "$REPEATS" ]; do
	for cfg in $CONFIGS; do
		boot "$cfg" $i >>"$ST/runs"
	done
	i=$((i + 1))
done
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$ST"/out.* "$ST/runs" "$KEEP/"
fi

# The table. Baselines: medians of none (perf's rows) and none-ko
# (pmuprof's); one tick: median over the spin boots of
# (k1 - none's k1) / (ticks - none's ticks).
awk -v stack="$STACK" '
function median(cfg, field,   n, i, v) {
	n = 0
	for (i = 0; i < nrep[cfg]; i++) v[++n] = val[cfg, i, field]
	if (!n) return "nan"
	stats(v, n)
	return med
}
function stats(x, n,   i, j, t) { # sorts x[1..n]; sets lo, hi, med
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
	lo = x[1]; hi = x[n]; med = x[int((n + 1) / 2)]
}
{
	cfg = $1; i = nrep[cfg]++
	val[cfg, i, "k1"] = $3; val[cfg, i, "u1"] = $4; val[cfg, i, "s"] = $5; val[cfg, i, "t"] = $6
}
END {
	bk["perf"] = median("none", "k1"); bt["perf"] = median("none", "t")
	bk["pmuprof"] = median("none-ko", "k1"); bt["pmuprof"] = median("none-ko", "t")
	n = 0
	for (i = 0; i < nrep["spin"]; i++) {
		dt = val["spin", i, "t"] - bt["perf"]
		if (dt > 0) x[++n] = (val["spin", i, "k1"] - bk["perf"]) / dt
	}
	tick = "nan"
	if (n) { stats(x, n); tick = med }
	print "| configuration | samples | CPU 1 kernel instructions | CPU 1 timer ticks | kernel instructions / sample, median [min-max] | same, extra ticks removed |"
	print "| --- | ---: | ---: | ---: | --- | ---: |"
	if (nrep["none"])
		printf "| none (baseline of perf) | 0 | %.0f | %d | | |\n", bk["perf"], bt["perf"]
	if (nrep["none-ko"])
		printf "| none, pmuprof.ko loaded (baseline of pmuprof) | 0 | %.0f | %d | | |\n", bk["pmuprof"], bt["pmuprof"]
	split("nmi perf perf-g pmuprof pmuprof-g", order, " ")
	label["nmi"] = "one no-op NMI (the floor both pay)"
	label["perf"] = "perf, IP only"; label["perf-g"] = "perf -g, " stack " frames"
	label["pmuprof"] = "pmuprof, IP only"; label["pmuprof-g"] = "pmuprof -g --depth " stack
	for (c = 1; c <= 5; c++) {
		cfg = order[c]
		if (!nrep[cfg]) continue
		tool = cfg; sub(/-g$/, "", tool)
		if (tool == "nmi") tool = "perf" # baseline: none
		n = 0; m = 0
		for (i = 0; i < nrep[cfg]; i++) {
			if (val[cfg, i, "s"] + 0 <= 0) continue
			x[++n] = (val[cfg, i, "k1"] - bk[tool]) / val[cfg, i, "s"]
			if (tick != "nan")
				y[++m] = (val[cfg, i, "k1"] - bk[tool] - tick * (val[cfg, i, "t"] - bt[tool])) / val[cfg, i, "s"]
		}
		if (!n) { printf "| %s | no samples | | | | |\n", label[cfg]; continue }
		stats(x, n); per[cfg] = med; plo = lo; phi = hi
		corr = "n/a"
		if (m) { stats(y, m); corr = sprintf("%.0f", med); pc[cfg] = med }
		printf "| %s | %d | %.0f | %d | %.0f [%.0f-%.0f] | %s |\n", label[cfg], median(cfg, "s"),
			median(cfg, "k1"), median(cfg, "t"), per[cfg], plo, phi, corr
	}
	print ""
	if (tick != "nan") printf "One timer tick on CPU 1 (spin boots, median): %.0f kernel instructions.\n", tick
	if (per["perf"] && per["pmuprof"])
		printf "pmuprof / perf, IP only: %.2fx (extra ticks removed: %.2fx).\n", per["pmuprof"] / per["perf"],
			pc["perf"] ? pc["pmuprof"] / pc["perf"] : 0
	if (per["perf-g"] && per["pmuprof-g"])
		printf "pmuprof / perf, %d-frame stacks: %.2fx (extra ticks removed: %.2fx).\n", stack,
			per["pmuprof-g"] / per["perf-g"], pc["perf-g"] ? pc["pmuprof-g"] / pc["perf-g"] : 0
	print "Goal: pmuprof <= 0.5x perf."
}' "$ST/runs"
echo
echo "cycles:u -c $PERIOD, workload benchwork -d $DEPTH -r $ROUNDS -k $ITERS on CPU 1, $REPEATS boots per configuration."
echo "Host: $(nproc) CPUs, load average $load0 at the start ($date0 UTC), $(cut -d' ' -f1-3 /proc/loadavg) at the end; guest: $KVER, -cpu $CPU, -smp 2."
echo
echo "Raw (cfg, repeat, CPU 1 kernel and user instructions, samples, CPU 1 ticks, boot seconds):"
echo
sed 's/^/    /' "$ST/runs"
for f in "$ST"/out.*; do
	grep -h -e '^HC flags' -e '^HC chain' -e '^HC frames' -e '^HC lost' -e '^HC throttle' -e '^HC rec .*lost' "$f" |
		sed "s|^HC |    ${f##*/out.}: |"
done
