#!/bin/sh
# make bench: measure pmuprof beside what a user would otherwise use.
#
#   sh bench/run.sh [--quick] [--only vm|host]      (make bench [QUICK=1])
#
# (1) workload slowdown: perf vs pmuprof, same guest boot   [VM]
# (2) NMI handler cost per sample from GET_STATS            [VM]
# (3) lost samples under pressure, and where loss begins    [VM]
# (4) per-CPU ring microbenchmark (bench/ring, callgrind)    [host]
# (5) pmuconv folded throughput, native format + perf script, and the
#     pprof / speedscope / perf.data exports of the native file [host]
#
# Prints the table and writes out/bench/results.{txt,md,json}; raw results
# (key=value lines, guest logs, data files) go to out/bench/raw/. The VM
# parts run the scenarios of bench/vm/ through the VM harness
# (tests/vm/run.sh, with VM_SCEN_DIR pointing at a staged copy); what cannot
# run is reported in the table as "not available: <reason>", never dropped.
# --quick: tiny sizes, one repetition, same table shape (~2 minutes).
# Exit status: 0 when the table was written (whatever it says), 1 otherwise.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${BENCH_OUT:-$ROOT/out/bench}
RAW=$OUT/raw
# Per-run scratch and staging directories: make check may run the quick
# bench (tests/suites/bench_quick.sh) while someone runs the full one.
STAGE=$BUILD/bench/vm-scen.$$
SCRATCH=$BUILD/bench/scratch.$$
trap 'rm -rf "$STAGE" "$STAGE.root" "$STAGE.perf" "$SCRATCH"' EXIT
trap 'exit 130' INT TERM
BT=$BUILD/bench/benchtime

QUICK=0
ONLY=all
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) QUICK=1 ;;
	--only)
		shift
		ONLY=${1:-}
		case "$ONLY" in vm | host) ;; *)
			echo "bench: --only takes vm or host" >&2
			exit 2
			;;
		esac
		;;
	-h | --help)
		sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "bench: unknown argument '$1' (try --help)" >&2
		exit 2
		;;
	esac
	shift
done

# ------------------------------------------------------------ sizes
if [ $QUICK = 1 ]; then
	MODE=quick
	REPEATS=1 WORK_S=0.5 HANDLER_S=1 LOST_S=1 LOST_RATES="10000 50000"
	CONV_SAMPLES=200000 PS_MB=16 CONV_REPEATS=1 UNW_STOPS=400
	VM_TIMEOUT=150
else
	MODE=full
	REPEATS=7 WORK_S=2 HANDLER_S=4 LOST_S=3 LOST_RATES="10000 20000 30000 40000 50000"
	CONV_SAMPLES=10000000 PS_MB=300 CONV_REPEATS=3 UNW_STOPS=2000
	VM_TIMEOUT=900
fi
RATES="1000 10000"
HANDLER_HZ=2000

say() { echo "bench: $*" >&2; }
KV=$RAW/host.kv
kv() { echo "$*" >>"$KV"; }
na() { kv "$1 what=$2 na=1 reason: $3"; }

rm -rf "$RAW"
mkdir -p "$RAW" "$SCRATCH" || exit 1
: >"$KV"
T_START=$(date +%s)

# ------------------------------------------------------------ build
say "building the bench tools (make bench-bins)"
if ! make --no-print-directory -s -C "$ROOT" bench-bins >"$RAW/build.log" 2>&1; then
	say "building the bench tools failed; see $RAW/build.log"
	tail -n 20 "$RAW/build.log" >&2
	exit 1
fi

# ------------------------------------------------------------ machine
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
ncpu=$(getconf _NPROCESSORS_ONLN)
mem_gib=$(awk '/^MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
os=$(sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p' /etc/os-release 2>/dev/null)
qemu=$(qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
kv "meta mode=$MODE date=$(date -u +%Y-%m-%dT%H:%M:%SZ) host_kernel=$(uname -r) ncpu=$ncpu mem_gib=$mem_gib qemu=${qemu:-none} repeats=$REPEATS conv_repeats=$CONV_REPEATS"
kv "meta_text cpu: ${cpu_model:-unknown}"
kv "meta_text load_start: $(cut -d' ' -f1-3 /proc/loadavg)"
kv "meta_text os: ${os:-unknown}"
# The perf shipped to the guest: /usr/bin/perf, or the binary behind
# Debian's versioned wrapper script (/usr/bin/perf_6.1 and the like).
PERF_BIN=$(command -v perf 2>/dev/null)
if [ -n "$PERF_BIN" ] && [ "$(head -c 4 "$PERF_BIN" 2>/dev/null | tail -c 3)" != ELF ]; then
	PERF_BIN=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | tail -n 1)
fi
if [ -n "$PERF_BIN" ] && [ -x "$PERF_BIN" ]; then
	kv "meta_text perf: $("$PERF_BIN" --version 2>/dev/null) ($PERF_BIN with $(ldd "$PERF_BIN" | grep -c '=> /') shared libraries, copied into the guest)"
else
	PERF_BIN=
fi

# ------------------------------------------------------------ VM parts
# stage_vm: build/bench/vm-scen/ = bench scenarios + benchlib.sh (settings
# + bench/vm/guestlib.sh) + two payload tars the harness ships like any
# scenario file (it copies every *.sh of VM_SCEN_DIR into the initramfs and
# has no other way to add files): bench-payload.tar.sh (benchwork,
# benchtime) and bench-perf.tar.sh (perf and its shared libraries at their
# Debian paths, unpacked only by the slowdown scenario).
stage_vm() {
	rm -rf "$STAGE"
	rm -rf "$STAGE.root" "$STAGE.perf"
	mkdir -p "$STAGE" "$STAGE.root/usr/local/bin" "$STAGE.perf" || return 1
	for s in bench/vm/bench_*.sh; do
		sed "s/^# timeout: .*/# timeout: $VM_TIMEOUT/" "$s" >"$STAGE/$(basename "$s")"
		cp bench/vm/collect.host.sh "$STAGE/$(basename "$s" .sh).host.sh"
	done
	{
		echo "# settings of this bench run (bench/run.sh, mode $MODE)"
		echo "BENCH_QUICK=$QUICK BENCH_REPEATS=$REPEATS BENCH_WORK_S=$WORK_S"
		echo "BENCH_RATES='$RATES' BENCH_DEPTH=24"
		echo "BENCH_HANDLER_HZ=$HANDLER_HZ BENCH_HANDLER_S=$HANDLER_S"
		echo "BENCH_LOST_RATES='$LOST_RATES' BENCH_LOST_S=$LOST_S"
		cat bench/vm/guestlib.sh
	} >"$STAGE/benchlib.sh"
	r=$STAGE.root
	cp "$BUILD/bench/guest/benchwork" "$BUILD/bench/guest/benchtime" "$r/usr/local/bin/"
	if [ -n "$PERF_BIN" ]; then
		p=$STAGE.perf
		mkdir -p "$p/usr/bin"
		cp -L "$PERF_BIN" "$p/usr/bin/perf"
		for lib in $(ldd "$PERF_BIN" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$p$(dirname "$lib")"
			cp -L "$lib" "$p$lib"
		done
		mktar "$p" "$STAGE/bench-perf.tar.sh" || return 1
	else
		say "perf not found on the host (apt-get install linux-perf, or make deps): perf columns will say not available"
	fi
	mktar "$r" "$STAGE/bench-payload.tar.sh" || return 1
	rm -rf "$r" "$STAGE.perf"
}

# mktar DIR OUT: deterministic tar of DIR (same inputs, same bytes: the
# harness caches the initramfs by a hash of its files).
mktar() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | tar -cf "$2" --no-recursion --owner=0 \
		--group=0 --numeric-owner --mtime=@0 -T -)
}

run_vm() {
	vmreason=""
	kver=$(sh scripts/kver.sh 2>/dev/null)
	if [ -z "$kver" ] || [ ! -f "$BUILD/guest-kernel/vmlinuz-$kver" ]; then
		vmreason="guest kernel image missing (make deps)"
	elif ! command -v qemu-system-x86_64 >/dev/null; then
		vmreason="qemu-system-x86_64 missing (make deps)"
	elif ! stage_vm; then
		vmreason="staging the bench scenarios failed"
	fi
	if [ -n "$vmreason" ]; then
		say "VM parts not available: $vmreason"
		for w in slowdown handler lost; do na vmfail "$w" "$vmreason"; done
		return
	fi
	accel=$(VM_ACCEL=${VM_ACCEL:-} sh -c '
		if [ -n "$VM_ACCEL" ]; then echo "$VM_ACCEL";
		elif (exec 3<>/dev/kvm) 2>/dev/null && grep -qwE "vmx|svm" /proc/cpuinfo; then echo kvm;
		else echo tcg; fi')
	kv "meta_vm accel=$accel guest_kernel=$kver smp=2 mem_mib=3072"
	# One harness call for the three boots (one initramfs build).
	say "VM: bench_slowdown, bench_handler, bench_lost ($accel, one boot each; log: ${RAW#"$ROOT"/}/vm.log)"
	t0=$(date +%s)
	# The host's view of the slowdown runs (QEMU threads' CPU time and
	# blocking waits per run), next to the guest's own timing.
	sh bench/tools/qemu_threads.sh bench_slowdown "$RAW/qthreads.kv" "$VM_TIMEOUT" \
		2>"$RAW/qthreads.err" &
	qtpid=$!
	VM_SCEN_DIR=$STAGE BENCH_RAW=$RAW/vm sh tests/vm/run.sh bench_slowdown bench_handler bench_lost \
		>"$RAW/vm.log" 2>&1
	kv "vmrun seconds=$(($(date +%s) - t0))"
	# it ends with the slowdown QEMU; if that never started, stop it here
	sleep 1
	kill $qtpid 2>/dev/null
	wait $qtpid 2>/dev/null
	[ -f "$RAW/qthreads.kv" ] && cat "$RAW/qthreads.kv" >>"$KV"
	for scen in bench_slowdown bench_handler bench_lost; do
		w=${scen#bench_}
		line=$(grep -E "^(PASS|FAIL|SKIP): vm/$scen( |\$)" "$RAW/vm.log" | tail -n 1)
		secs=$(sed -n "s/^vm: $scen: [A-Z]* in \([0-9.]*\)s.*/\1/p" "$RAW/vm.log" | tail -n 1)
		kv "vmrun scenario=$w seconds=${secs:-?} result=${line%%:*}"
		case "$line" in
		PASS:*) continue ;;
		esac
		reason=$(echo "$line" | sed 's/^[A-Z]*: vm\/[a-z_]* *//; s/^(//; s/)$//')
		[ -n "$reason" ] || reason="the VM harness printed no result (see $RAW/vm.log)"
		say "VM: $scen did not pass: $reason"
		na vmfail "$w" "VM scenario $scen: $reason"
		# A failed boot keeps its run directory: use what it measured.
		kept=$(echo "$reason" | sed -n 's/.*run dir \(build\/vm\/runs\/[^ ;)]*\).*/\1/p')
		if [ -n "$kept" ] && [ -f "$ROOT/$kept/results/bench.kv" ] && [ ! -d "$RAW/vm/$scen" ]; then
			mkdir -p "$RAW/vm/$scen" && cp -R "$ROOT/$kept/results/." "$RAW/vm/$scen/"
			kv "vmpartial scenario=$w"
		fi
	done
	# Handler cost: the stats frames of the returned data files.
	for f in "$RAW"/vm/bench_handler/handler-*.pmu; do
		[ -f "$f" ] || continue
		c=$(basename "$f" .pmu)
		s=$("$BUILD/bench/pmustats" "$f" 2>>"$RAW/pmustats.err") &&
			kv "hstats what=${c#handler-} $s"
		rm -f "$f" # data files are large; the stats are kept
	done
}

# ------------------------------------------------------------ ring
run_ring() {
	say "host: ring microbenchmark (bench/ring/run.sh, callgrind)"
	if [ ! -f bench/ring/run.sh ]; then
		na ring all "bench/ring/run.sh is missing"
		return
	fi
	QUICK=$QUICK sh bench/ring/run.sh "$BUILD/bench/ringbench" >"$RAW/ring.txt" 2>"$RAW/ring.err"
	rc=$?
	if ! grep -q '^metric' "$RAW/ring.txt"; then
		na ring all "bench/ring/run.sh exited $rc without a table: $(tail -n 1 "$RAW/ring.err")"
		return
	fi
	kv "ringhead $(head -n 1 "$RAW/ring.txt")"
	# Rows are "%-58s %s": label, then the value.
	sed '1,/^metric/d' "$RAW/ring.txt" | while IFS= read -r l; do
		lab=$(echo "$l" | cut -c1-58 | sed 's/ *$//')
		val=$(echo "$l" | cut -c60-)
		kv "ring value=$(echo "$val" | tr ' ' '_') label: $lab"
	done
}

# ------------------------------------------------------------ converter
# conv_one NAME INPUT SAMPLES [pmuconv options...]: CONV_REPEATS timed runs
# of pmuconv $CONV_CMD (default folded) --weight period; one "conv" line each.
conv_one() {
	name=$1 in=$2 n=$3
	cmd=${CONV_CMD:-folded}
	shift 3
	bytes=$(stat -c %s "$in")
	i=1
	while [ $i -le $CONV_REPEATS ]; do
		rm -f "$RAW/bt.txt"
		"$BT" -o "$RAW/bt.txt" -l t -- "$BUILD/bin/pmuconv" "$cmd" --weight period --no-progress \
			"$@" -o "$SCRATCH/out.$cmd" "$in" 2>"$RAW/conv-$name.err"
		st=$(sed -n 's/.* status=\([0-9]*\).*/\1/p' "$RAW/bt.txt")
		if [ "$st" != 0 ]; then
			na conv "$name" "pmuconv $cmd exited ${st:-?}: $(tail -n 1 "$RAW/conv-$name.err")"
			return
		fi
		stacks=$(sed -n 's/.*, \([0-9]*\) stacks, .*/\1/p' "$RAW/conv-$name.err" | head -n 1)
		kv "conv what=$name rep=$i samples=$n bytes=$bytes stacks=${stacks:-?} $(sed 's/^t //' "$RAW/bt.txt")"
		i=$((i + 1))
	done
}

# export_one NAME INPUT SAMPLES SUBCOMMAND: CONV_REPEATS timed runs of
# pmuconv SUBCOMMAND INPUT -o FILE (an exporter); "conv" lines as above.
export_one() {
	name=$1 in=$2 n=$3 sub=$4
	bytes=$(stat -c %s "$in")
	i=1
	while [ $i -le $CONV_REPEATS ]; do
		rm -f "$RAW/bt.txt"
		"$BT" -o "$RAW/bt.txt" -l t -- "$BUILD/bin/pmuconv" "$sub" -q "$in" \
			-o "$SCRATCH/out.export" 2>"$RAW/conv-$name.err"
		st=$(sed -n 's/.* status=\([0-9]*\).*/\1/p' "$RAW/bt.txt")
		if [ "$st" != 0 ]; then
			na conv "$name" "pmuconv $sub exited ${st:-?}: $(tail -n 1 "$RAW/conv-$name.err")"
			return
		fi
		kv "conv what=$name rep=$i samples=$n bytes=$bytes stacks=- $(sed 's/^t //' "$RAW/bt.txt")"
		i=$((i + 1))
	done
	rm -f "$SCRATCH"/out.export*
}

run_conv() {
	say "host: converter throughput ($CONV_SAMPLES samples native, $PS_MB MB perf script)"
	if [ ! -x "$BUILD/bin/pmuconv" ] || [ ! -x "$BUILD/bin/pmugen" ]; then
		for w in native-sym export-pprof export-speedscope export-perfdata native-nosym perfscript-sym perfscript-nosym unwind-dwarf unwind-fp; do
			na conv "$w" "build/bin/pmuconv or build/bin/pmugen not built (make all unit)"
		done
		return
	fi
	g=$SCRATCH/gen.pmu
	# Symbolization on: user frames inside real ELF files present on this
	# host (pmuconv itself and libc: .symtab and .dynsym), kernel frames
	# from the embedded kallsyms snapshot. Off: the same shape, but the
	# binaries do not exist here, so user frames print as binary+0xoffset.
	libc=$(ldd "$BUILD/bin/pmuconv" | awk '$1 ~ /^libc\.so/ { print $3 }')
	if "$BUILD/bin/pmugen" -o "$g" -n "$CONV_SAMPLES" -d 32 -S 5000 -p 4 -c 4 \
		-b "$BUILD/bin/pmuconv" ${libc:+-b "$libc"} >"$RAW/pmugen.log" 2>&1; then
		conv_one native-sym "$g" "$CONV_SAMPLES"
		# the exports of the same file (stacks, symbols, ids per sample)
		for x in pprof speedscope; do
			CONV_CMD=$x
			conv_one "export-$x" "$g" "$CONV_SAMPLES"
		done
		CONV_CMD=
		export_one export-perfdata "$g" "$CONV_SAMPLES" perf-data
	else
		for w in native-sym export-pprof export-speedscope export-perfdata; do
			na conv "$w" "pmugen failed: $(tail -n 1 "$RAW/pmugen.log")"
		done
	fi
	if "$BUILD/bin/pmugen" -o "$g" -n "$CONV_SAMPLES" -d 32 -S 5000 -p 4 -c 4 \
		>"$RAW/pmugen.log" 2>&1; then
		conv_one native-nosym "$g" "$CONV_SAMPLES"
	else
		na conv native-nosym "pmugen failed: $(tail -n 1 "$RAW/pmugen.log")"
	fi
	rm -f "$g"
	p=$SCRATCH/perf-script.txt
	for v in sym nosym; do
		flag=
		[ $v = nosym ] && flag=-u
		if ! gen=$("$BUILD/bench/perfscriptgen" -o "$p" -m "$PS_MB" -d 32 -S 4000 $flag 2>&1); then
			na conv "perfscript-$v" "perfscriptgen failed: $gen"
			continue
		fi
		n=$(echo "$gen" | sed -n 's/^samples=\([0-9]*\).*/\1/p')
		conv_one "perfscript-$v" "$p" "$n" --input-format perf-script
	done
	rm -f "$p" "$SCRATCH/out.folded" "$SCRATCH/out.pprof" "$SCRATCH/out.speedscope"
	# --call-graph dwarf (issue 18): ptsnap stack copies of 8 KiB from
	# nofpwork (-O2 -fomit-frame-pointer + libc), each stop written 25 times,
	# unwound with libdwfl; the same file with --call-graph fp as the baseline
	u=$SCRATCH/unwind.pmu
	if [ ! -x "$BUILD/bin/ptsnap" ] || [ ! -x "$BUILD/tests/nofpwork" ]; then
		for w in unwind-dwarf unwind-fp; do
			na conv "$w" "build/bin/ptsnap or build/tests/nofpwork not built (make unit)"
		done
	elif "$BUILD/bin/ptsnap" -o "$u" -n "$UNW_STOPS" -r 25 -i 400 -s 8192 -- \
		"$BUILD/tests/nofpwork" >"$RAW/ptsnap.log" 2>&1; then
		conv_one unwind-dwarf "$u" $((UNW_STOPS * 25)) --call-graph dwarf
		conv_one unwind-fp "$u" $((UNW_STOPS * 25)) --call-graph fp
	else
		for w in unwind-dwarf unwind-fp; do
			na conv "$w" "ptsnap failed: $(tail -n 1 "$RAW/ptsnap.log")"
		done
	fi
	rm -f "$u"
}

if [ "$ONLY" = host ]; then
	for w in slowdown handler lost; do na vmfail "$w" "not run (--only host)"; done
else
	run_vm
fi
if [ "$ONLY" = vm ]; then
	na ring all "not run (--only vm)"
	for w in native-sym export-pprof export-speedscope export-perfdata native-nosym perfscript-sym perfscript-nosym unwind-dwarf unwind-fp; do
		na conv "$w" "not run (--only vm)"
	done
else
	run_ring
	run_conv
fi
kv "meta_end seconds=$(($(date +%s) - T_START))"
kv "meta_text load_end: $(cut -d' ' -f1-3 /proc/loadavg)"

# ------------------------------------------------------------ report
cat "$RAW"/vm/*/bench.kv >"$RAW/vm.kv" 2>/dev/null || : >"$RAW/vm.kv"
if ! sh bench/report.sh "$RAW/host.kv" "$RAW/vm.kv" "$OUT"; then
	say "writing the report failed"
	exit 1
fi
cat "$OUT/results.txt"
say "table written to ${OUT#"$ROOT"/}/results.txt, results.md, results.json (raw data in ${RAW#"$ROOT"/}/)"
exit 0
