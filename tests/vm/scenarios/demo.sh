#!/bin/sh
# Scenario: `make demo` end to end, also run by make check: load pmuprof,
# record the bundled demo workload with cpu-clock and call stacks (and data
# addresses when pmuctl supports --data-addr); demo.host.sh renders it with
# pmuconv on the host (into $DEMO_OUT when tests/vm/demo.sh runs it).
# needs: module bin:pmuctl bin:demo host:pmuconv
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
		skip_check record-data-addr "pmuctl record --data-addr failed: $(grep '^pmuctl' "$RESULTS/scenario.log" | tail -n 1 | cut -c1-150)"
		dataaddr=
		rec || fail "pmuctl record -e cpu-clock -g -o demo.pmu -- demo -s 4 failed (see scenario.log)"
	fi
else
	skip_check record-data-addr "pmuctl record has no --data-addr yet"
	rec || fail "pmuctl record -e cpu-clock -g -o demo.pmu -- demo -s 4 failed (see scenario.log)"
fi
[ -s "$RESULTS/demo.pmu" ] || fail "pmuctl record left no data file"
pass_check record
echo "$dataaddr" >"$RESULTS/dataaddr.txt"
unload_module
exit 0
