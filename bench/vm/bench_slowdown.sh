#!/bin/sh
# Scenario: bench: slowdown of one CPU-bound workload (benchwork, 24 nested
# frames) unprofiled, under `perf record -e cpu-clock -g -F HZ` and under
# `pmuctl record -e cpu-clock -F HZ -g`, in one boot, runs interleaved.
# Run by bench/run.sh (make bench), not by make check.
# timeout: 900
# results-mb: 16

. /scenarios/benchlib.sh
bench_unpack
perf_ready
pmuprof_ready
kv env accel="$VM_ACCEL" ncpus="$NCPUS" kernel="$(uname -r)" perf="${PERF_VERSION:-none}" \
	repeats="$BENCH_REPEATS" rates="$(echo $BENCH_RATES | tr ' ' ',')" depth="$BENCH_DEPTH"
[ -n "$PERF_NA" ] && na slowdown perf "$PERF_NA"
[ -n "$PP_NA" ] && na slowdown pmuprof "$PP_NA"

WCPU=$((NCPUS - 1))
W="benchwork -c $WCPU -d $BENCH_DEPTH"
tmp=/tmp/bench.out

# Warm-up (TCG translates the code once) and calibration: rounds that take
# about BENCH_WORK_S seconds unprofiled.
$W -s 0.5 >/dev/null 2>&1
$W -s 1 >$tmp 2>&1 || fail "benchwork does not run: $(cat $tmp)"
per_s=$(field rounds $tmp)
ROUNDS=$(awk -v r="$per_s" -v s="$BENCH_WORK_S" 'BEGIN { n = int(r * s); print n < 1 ? 1 : n }')
kv calib rounds_per_s="$per_s" rounds="$ROUNDS" work_s="$BENCH_WORK_S" cpu="$WCPU"

# one TOOL RATE REP: one timed run; appends a "run" line.
one() {
	tool=$1 rate=$2 rep=$3
	rm -f $tmp /tmp/bt.txt /tmp/perf.data /tmp/pp.pmu
	# benchwork -M: markers around its timed work, which the host follows
	# (bench/tools/qemu_threads.sh)
	M="tool=$tool rate=$rate rep=$rep"
	case $tool in
	base) benchtime -o /tmp/bt.txt -l t -- $W -r "$ROUNDS" -M "$M" >$tmp 2>&1 ;;
	perf)
		perf_reset_limits
		benchtime -o /tmp/bt.txt -l t -- perf record -e cpu-clock -g -F "$rate" \
			-o /tmp/perf.data -- $W -r "$ROUNDS" -M "$M" >$tmp 2>&1
		;;
	pmuprof)
		benchtime -o /tmp/bt.txt -l t -- pmuctl record -e cpu-clock -F "$rate" -g -q \
			-o /tmp/pp.pmu -- $W -r "$ROUNDS" -M "$M" >$tmp 2>&1
		;;
	esac
	st=$(field status /tmp/bt.txt)
	ws=$(field seconds $tmp)
	case $tool in
	perf) ns=$(perf_samples $tmp) ;;
	pmuprof) ns=$(pmuctl_samples $tmp) ;;
	*) ns=0 ;;
	esac
	extra=
	[ $tool = perf ] && extra="max_rate_after=$(cat /proc/sys/kernel/perf_event_max_sample_rate)"
	[ $tool = pmuprof ] && extra="lost=$(pmuctl_lost $tmp) throttled=$(pmuctl_throttled $tmp)"
	if [ "$st" != 0 ] || [ -z "$ws" ]; then
		log "run $tool $rate failed: $(tail -n 3 $tmp)"
		cat $tmp >>"$RESULTS/scenario.log"
		kv run tool=$tool rate=$rate rep=$rep ok=0 status="${st:-none}"
		return
	fi
	kv run tool=$tool rate=$rate rep=$rep ok=1 work_s=$ws wall_s="$(field wall_s /tmp/bt.txt)" \
		samples=${ns:-?} $extra
}

rep=1
while [ $rep -le "$BENCH_REPEATS" ]; do
	# Alternate the order between repetitions so slow drift of the host
	# does not favour one tool.
	if [ $((rep % 2)) = 1 ]; then order="base perf pmuprof"; else order="pmuprof perf base"; fi
	for rate in $BENCH_RATES; do
		for tool in $order; do
			[ $tool = perf ] && [ -n "$PERF_NA" ] && continue
			[ $tool = pmuprof ] && [ -n "$PP_NA" ] && continue
			one $tool "$rate" $rep
		done
	done
	rep=$((rep + 1))
done
[ -z "$PP_NA" ] && rmmod pmuprof
exit 0
