#!/bin/sh
# Host half of every bench scenario (staged by bench/run.sh as
# bench_NAME.host.sh): copy the guest's results to $BENCH_RAW/NAME/, where
# bench/run.sh and bench/report.sh read them. Environment from
# tests/vm/run.sh: RESULTS, SCENARIO; from bench/run.sh: BENCH_RAW.
[ -n "${BENCH_RAW:-}" ] || {
	echo "HOSTREASON: BENCH_RAW is not set (run the bench scenarios through bench/run.sh)"
	exit 1
}
mkdir -p "$BENCH_RAW/$SCENARIO" && cp -R "$RESULTS"/. "$BENCH_RAW/$SCENARIO/" || {
	echo "HOSTREASON: copying $RESULTS to $BENCH_RAW/$SCENARIO failed"
	exit 1
}
echo "PASS: vm/$SCENARIO/results-copied"
exit 0
