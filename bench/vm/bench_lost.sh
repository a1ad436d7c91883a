#!/bin/sh
# Scenario: bench: lost samples under pressure. Every CPU runs a workload
# with 70 nested frames; pmuctl records every CPU (-a) at 10 kHz per CPU
# with 64-frame stacks (-g --depth 64), default ring sizes, writing its file
# to a block device; then the rate is stepped up to find where loss begins.
# Run by bench/run.sh (make bench), not by make check.
# timeout: 600
# results-mb: 512

. /scenarios/benchlib.sh
bench_unpack
pmuprof_ready
if [ -n "$PP_NA" ]; then
	na lost check "$PP_NA"
	exit 0
fi

# The guest has no disk but the harness's raw results disk (/dev/vda), whose
# contents /init overwrites with the results tar only after this scenario:
# pmuctl writes its data file onto that block device (real block I/O through
# the page cache and virtio-blk), each step from offset 0. Falls back to
# tmpfs if the device cannot be opened.
TARGET=/dev/vda
[ -b $TARGET ] && [ -w $TARGET ] || TARGET=/tmp/lost.pmu

cpu=0
wls=
while [ $cpu -lt "$NCPUS" ]; do
	bg benchwork -c $cpu -d 70 -k 20000 -y 2 -s 100000
	wls="$wls $!"
	cpu=$((cpu + 1))
done
sleep 1

first_loss=
for hz in $BENCH_LOST_RATES; do
	out=/tmp/lost-$hz.txt
	n0=$(nmi_count)
	pmuctl record -a -e cpu-clock -F "$hz" -g --depth 64 -q --duration "$BENCH_LOST_S" \
		-o $TARGET >$out 2>&1
	rc=$?
	cat $out >>"$RESULTS/scenario.log"
	if [ $rc -ne 0 ] && [ $TARGET = /dev/vda ] && ! grep -q '^pmuctl: recorded' $out; then
		log "pmuctl could not write to $TARGET; falling back to tmpfs"
		TARGET=/tmp/lost.pmu
		pmuctl record -a -e cpu-clock -F "$hz" -g --depth 64 -q --duration "$BENCH_LOST_S" \
			-o $TARGET >$out 2>&1
		rc=$?
		cat $out >>"$RESULTS/scenario.log"
	fi
	nmis=$(($(nmi_count) - n0))
	secs=$(sed -n 's/^pmuctl: recorded \([0-9.]*\) s: .*/\1/p' $out | tail -n 1)
	if [ $rc -ne 0 ] && [ -z "$secs" ]; then
		na lost "$hz" "pmuctl record -a -F $hz exited $rc: $(tail -n 1 $out)"
		break
	fi
	lost=$(pmuctl_lost $out)
	kv lost hz=$hz cpus=$NCPUS seconds=${secs:-?} samples="$(pmuctl_samples $out)" \
		lost=${lost:-?} throttled="$(pmuctl_throttled $out)" target=$TARGET nmis=$nmis rc=$rc
	rm -f /tmp/lost.pmu
	if [ "${lost:-0}" != 0 ] && [ -z "$first_loss" ]; then
		first_loss=$hz
		break
	fi
done
kv lostsum first_loss_hz=${first_loss:-none} max_tried_hz=$hz rates="$(echo $BENCH_LOST_RATES | tr ' ' ',')"
for w in $wls; do kill $w 2>/dev/null; done
for w in $wls; do wait $w 2>/dev/null; done
rmmod pmuprof
exit 0
