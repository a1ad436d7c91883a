#!/bin/sh
# Scenario: `make demo` end to end, also run by make check: load pmuprof,
# record the bundled demo workload with cpu-clock and call stacks (and data
# addresses when pmuctl supports --data-addr); demo.host.sh renders it with
# pmuconv on the host (into $DEMO_OUT when tests/vm/demo.sh runs it).
# The recording is also exported to perf.data here (pmuconv-perfdata: the
# export code of pmuconv perf-data as a static guest binary) and read by the
# guest's perf 6.1, where the recorded kernel runs (kernel symbols by
# build-id from /proc/kallsyms); demo.host.sh compares that perf report
# with pmuconv's (issue 19).
# needs: module perf bin:pmuctl bin:demo bin:pmuconv-perfdata host:pmuconv
# timeout: 240
# results-mb: 256

load_module
pmuctl info >"$RESULTS/info.txt" 2>&1
log "pmuctl info exited $?"

dataaddr=
if pmuctl record --help 2>&1 | grep -q -- '--data-addr'; then
	dataaddr=--data-addr
fi
rec() {
	run pmuctl record -e cpu-clock -g "$@" -o "$RESULTS/demo.pmu" -- demo -s 4
}
if [ -n "$dataaddr" ]; then
	if rec --data-addr; then
		pass_check record-data-addr
	else
		# The demo still works without data addresses (no page-size chart);
		# make it visible rather than failing the whole demo.
		fail_check record-data-addr "pmuctl record --data-addr failed: $(grep '^pmuctl' "$RESULTS/scenario.log" | tail -n 1 | cut -c1-150)"
		dataaddr=
		rec || fail "pmuctl record -e cpu-clock -g -o demo.pmu -- demo -s 4 failed (see scenario.log)"
	fi
else
	fail_check record-data-addr "pmuctl record has no --data-addr yet"
	rec || fail "pmuctl record -e cpu-clock -g -o demo.pmu -- demo -s 4 failed (see scenario.log)"
fi
[ -s "$RESULTS/demo.pmu" ] || fail "pmuctl record left no data file"
pass_check record
echo "$dataaddr" >"$RESULTS/dataaddr.txt"
unload_module

# perf.data export read by the guest's perf
if run pmuconv-perfdata "$RESULTS/demo.pmu" /tmp/demo.data; then
	if perf report -i /tmp/demo.data --stdio --sort sym --no-children -g none \
		>"$RESULTS/perf-report-guest.txt" 2>"$RESULTS/perf-report-guest.err" &&
		grep -q '^# Samples: .* of event' "$RESULTS/perf-report-guest.txt"; then
		pass_check perf-report-in-guest
	else
		fail_check perf-report-in-guest "perf report -i demo.data failed: $(tail -n 1 "$RESULTS/perf-report-guest.err")"
	fi
	if [ -n "$dataaddr" ]; then
		perf script -i /tmp/demo.data -F event,addr,data_page_size -G \
			>"$RESULTS/perf-script-guest.txt" 2>"$RESULTS/perf-script-guest.err" ||
			fail_check perf-script-in-guest "perf script failed: $(tail -n 1 "$RESULTS/perf-script-guest.err")"
	fi
else
	fail_check perf-data-in-guest "pmuconv-perfdata demo.pmu failed (see scenario.log)"
fi
rm -f /tmp/demo.data /tmp/demo.data.kallsyms
exit 0
