#!/bin/sh
# Scenario: bench: pmuprof NMI handler cost per sample (GET_STATS handler
# histogram, saved in each data file's stats frame) for IP-only samples,
# 32-frame kernel+user stacks, and stacks + --data-addr. The data files come
# back to the host, where bench/run.sh reads their stats (pmustats).
# Run by bench/run.sh (make bench), not by make check.
# timeout: 600
# results-mb: 256

. /scenarios/benchlib.sh
bench_unpack
pmuprof_ready
if [ -n "$PP_NA" ]; then
	for c in ip stack32 stack32-addr; do na handler "$c" "$PP_NA"; done
	exit 0
fi

# The workload runs pinned to the last CPU with 40 nested frames (deeper
# than the 32-frame limit) and a syscall mix, so a share of the samples are
# in the kernel with a kernel stack on top of the user stack. Only that CPU
# is sampled (-C), so the histogram holds the workload's samples and not
# the cheap filtered NMIs of an idle CPU; pmuctl itself stays on CPU 0.
WCPU=$((NCPUS - 1))
RCPU=0
bg benchwork -c $WCPU -d 40 -k 20000 -y 4 -s 100000
wl=$!
sleep 1

for c in ip stack32 stack32-addr; do
	case $c in
	ip) flags= ;;
	stack32) flags="-g --depth 32" ;;
	stack32-addr) flags="-g --depth 32 --data-addr" ;;
	esac
	out=/tmp/h-$c.txt
	# shellcheck disable=SC2086
	taskset -c $RCPU pmuctl record -C $WCPU -e cpu-clock -F "$BENCH_HANDLER_HZ" $flags -q \
		--duration "$BENCH_HANDLER_S" -o "$RESULTS/handler-$c.pmu" >$out 2>&1
	rc=$?
	cat $out >>"$RESULTS/scenario.log"
	if [ $rc -ne 0 ]; then
		na handler "$c" "pmuctl record $flags exited $rc: $(tail -n 1 $out)"
		rm -f "$RESULTS/handler-$c.pmu"
		continue
	fi
	kv handler what=$c file=handler-$c.pmu hz="$BENCH_HANDLER_HZ" seconds="$BENCH_HANDLER_S" \
		samples="$(pmuctl_samples $out)" lost="$(pmuctl_lost $out)"
done
kill $wl 2>/dev/null
wait $wl 2>/dev/null
rmmod pmuprof
exit 0
