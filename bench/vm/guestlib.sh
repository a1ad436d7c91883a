# Guest-side helpers of the VM benchmarks (bench/vm/bench_*.sh), busybox sh.
# bench/run.sh stages the bench scenarios into build/bench/vm-scen/ and writes
# /scenarios/benchlib.sh = the settings of this run (BENCH_*) + this file;
# every bench scenario sources it after the harness's tests/vm/lib/guest.sh.
#
# Results: every measurement is one line appended to $RESULTS/bench.kv:
#   KIND key=value key=value ...
# (no spaces inside values; a line may end in " reason: free text", which
# is how "not available" is recorded: na KIND WHAT "why").
# bench/vm/bench.host.sh copies $RESULTS to $BENCH_RAW on the host, where
# bench/report.sh turns it into the tables.

KV=$RESULTS/bench.kv
BENCH_PAYLOAD=/scenarios/bench-payload.tar.sh
BENCH_PERF=/scenarios/bench-perf.tar.sh

# kv KIND key=value...: record one result line.
kv() {
	echo "$*" >>"$KV"
	log "kv: $*"
}

# na KIND WHAT "reason": record that a measurement is not available here.
na() {
	kv "$1" what="$2" na=1 reason: "$(echo "$3" | tr '\n\t' '  ' | cut -c1-200)"
}

# Unpack the payload bench/run.sh shipped as a scenario file (benchwork,
# benchtime into /usr/local/bin).
bench_unpack() {
	if [ -f "$BENCH_PAYLOAD" ]; then
		tar -xf "$BENCH_PAYLOAD" -C / || fail "unpacking the bench payload failed"
	else
		fail "no bench payload in the initramfs (run the VM benchmarks through bench/run.sh)"
	fi
	command -v benchwork >/dev/null || fail "benchwork missing from the bench payload"
	command -v benchtime >/dev/null || fail "benchtime missing from the bench payload"
}

# pmuprof_ready: load the module and check pmuctl; sets PP_NA to a reason
# (empty when pmuprof can be used).
pmuprof_ready() {
	PP_NA=
	if [ -z "$PMUPROF_KO" ]; then
		PP_NA="kernel/pmuprof.ko not built for the guest kernel (make module)"
	elif ! command -v pmuctl >/dev/null; then
		PP_NA="guest pmuctl not built (make guest-bins)"
	elif ! insmod "$PMUPROF_KO" >>"$RESULTS/scenario.log" 2>&1; then
		PP_NA="insmod pmuprof.ko failed (see dmesg.txt)"
	else
		_n=0
		while [ ! -c /dev/pmuprof ] && [ $_n -lt 500 ]; do
			usleep 10000
			_n=$((_n + 1))
		done
		[ -c /dev/pmuprof ] || PP_NA="/dev/pmuprof did not appear after insmod"
	fi
	[ -z "$PP_NA" ] || log "pmuprof not available: $PP_NA"
}

# perf_ready: unpack perf and its shared libraries (at their Debian paths)
# if bench/run.sh shipped them; sets PERF_NA (empty when perf runs here) and
# PERF_VERSION.
perf_ready() {
	PERF_NA=
	PERF_VERSION=
	[ -f "$BENCH_PERF" ] && { tar -xf "$BENCH_PERF" -C / || log "unpacking perf failed"; }
	if ! command -v perf >/dev/null; then
		PERF_NA="perf not in the bench payload (install linux-perf on the host: make deps)"
		return
	fi
	PERF_VERSION=$(perf --version 2>&1 | head -n 1)
	case "$PERF_VERSION" in
	"perf version"*) PERF_VERSION=$(echo "$PERF_VERSION" | sed 's/^perf version //') ;;
	*)
		PERF_NA="perf does not start in the guest: $PERF_VERSION"
		PERF_VERSION=
		;;
	esac
}

# Every perf run starts from the kernel's boot defaults: the kernel lowers
# perf_event_max_sample_rate on its own when perf's interrupts take long
# (as they do under TCG), and a later run would otherwise inherit that.
perf_reset_limits() {
	echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null
	echo 25 >/proc/sys/kernel/perf_cpu_time_max_percent 2>/dev/null
}

# field NAME FILE: value of NAME=... in the last line of FILE that has it.
field() {
	sed -n "s/.*[ :]$1=\([^ ]*\).*/\1/p" "$2" | tail -n 1
}

# Samples a recorder reported at its end (perf: "(N samples)"; pmuctl:
# "recorded X s: N samples"); empty if not found.
perf_samples() {
	sed -n 's/.*perf record: Captured and wrote .*(\([0-9]*\) samples).*/\1/p' "$1" | tail -n 1
}
pmuctl_samples() {
	sed -n 's/^pmuctl: recorded [0-9.]* s: \([0-9]*\) samples.*/\1/p' "$1" | tail -n 1
}
pmuctl_lost() {
	sed -n 's/^ *lost \([0-9]*\) samples (.*/\1/p' "$1" | tail -n 1
}
pmuctl_throttled() {
	sed -n 's/^ *lost [0-9]* samples (.*), throttled \([0-9]*\) times.*/\1/p' "$1" | tail -n 1
}

# nmi_count: NMIs taken so far, summed over CPUs (/proc/interrupts "NMI:").
nmi_count() {
	awk '$1 == "NMI:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }' \
		/proc/interrupts
}
