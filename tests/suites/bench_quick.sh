#!/bin/sh
# make bench QUICK=1 runs and produces its table (out of the way, in
# build/bench/quick-check/ instead of out/bench/). No assertions on times:
# only that every section of the table is there and either has measured
# rows or says "not available: <reason>", and that the Markdown and JSON
# copies were written. About 2 minutes (three short VM boots).
# SKIP_VM=1 (tests/run-all.sh's knob): host parts only, VM checks skipped.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
BUILD=${BUILD:-build}
OUT=$ROOT/$BUILD/bench/quick-check
LOG=$OUT.log
rm -rf "$OUT"
mkdir -p "$(dirname "$OUT")"

if [ "${SKIP_VM:-0}" = 1 ]; then
	BENCH_OUT=$OUT sh bench/run.sh --quick --only host >"$LOG" 2>&1
	rc=$?
	what="bench/run.sh --quick --only host"
else
	BENCH_OUT=$OUT make --no-print-directory bench QUICK=1 >"$LOG" 2>&1
	rc=$?
	what="make bench QUICK=1"
fi
if [ $rc -eq 0 ]; then
	echo "PASS: bench/quick-runs"
else
	echo "FAIL: bench/quick-runs ($what exited $rc; see $LOG)"
fi
T=$OUT/results.txt
if [ ! -s "$T" ]; then
	echo "FAIL: bench/table-written (no $T; see $LOG)"
	exit 0
fi
echo "PASS: bench/table-written"
# The table went to stdout too.
grep -q '^(5) Converter throughput' "$LOG" && echo "PASS: bench/table-printed" ||
	echo "FAIL: bench/table-printed (the table is not in the output; see $LOG)"

# section N: the lines of section N of the text table (title to blank line).
section() {
	awk -v n="($1)" 'index($0, n) == 1 { on = 1 } on && /^$/ { exit } on' "$T"
}
# A section passes when it has its title, a header rule and at least one
# row that is either measured (contains a digit outside the title) or an
# explicit "not available: <reason>" line.
check_section() { # N NAME
	s=$(section "$1")
	if [ -z "$s" ]; then
		echo "FAIL: bench/section-$2 (section ($1) missing from $T)"
		return
	fi
	rows=$(echo "$s" | sed '1,/^-[-+]*$/d' | grep -v '^  \* ')
	if [ -z "$rows" ]; then
		echo "FAIL: bench/section-$2 (section ($1) has no rows)"
	elif echo "$rows" | grep -q '^not available: .\{3,\}'; then
		echo "PASS: bench/section-$2 (not available: $(echo "$rows" | sed -n 's/^not available: //p' | head -n 1))"
	elif echo "$rows" | grep -q '[0-9]'; then
		echo "PASS: bench/section-$2"
	else
		echo "FAIL: bench/section-$2 (rows carry no figures and no reason)"
	fi
}
if [ "${SKIP_VM:-0}" = 1 ]; then
	for n in slowdown handler lost; do echo "SKIP: bench/section-$n (SKIP_VM=1)"; done
else
	check_section 1 slowdown
	check_section 1b qthreads
	check_section 2 handler
	check_section 3 lost
fi
check_section 4 ring
check_section 5 converter

# Slowdown rows: one per rate (1 kHz and 10 kHz) unless not available.
if [ "${SKIP_VM:-0}" != 1 ]; then
	s=$(section 1)
	if echo "$s" | grep -q '^not available: '; then
		echo "SKIP: bench/slowdown-rates (slowdown $(echo "$s" | grep -m1 '^not available: '))"
	elif echo "$s" | grep -q '^1 kHz ' && echo "$s" | grep -q '^10 kHz '; then
		echo "PASS: bench/slowdown-rates"
	else
		echo "FAIL: bench/slowdown-rates (no 1 kHz and 10 kHz rows)"
	fi
	# Slowdown runs that were measured were also followed from the host:
	# section (1b) has the unprofiled row and a perf and a pmuprof row.
	q=$(section 1b)
	if echo "$s" | grep -q '^not available: '; then
		echo "SKIP: bench/qthreads-rows (no slowdown runs)"
	elif echo "$q" | grep -q '^unprofiled ' && echo "$q" | grep -q '^perf @ 10 kHz ' &&
		echo "$q" | grep -q '^pmuprof @ 10 kHz '; then
		echo "PASS: bench/qthreads-rows"
	else
		echo "FAIL: bench/qthreads-rows (section (1b) lacks measured rows: $(echo "$q" | sed -n 3p))"
	fi
fi

M=$OUT/results.md
if [ -s "$M" ] && [ "$(grep -c '^## (' "$M")" -eq 6 ] && grep -q '^| --- |' "$M"; then
	echo "PASS: bench/markdown"
else
	echo "FAIL: bench/markdown ($M missing or without its 6 tables)"
fi
J=$OUT/results.json
if [ ! -s "$J" ] || [ "$(grep -c '"id": ' "$J")" -ne 6 ]; then
	echo "FAIL: bench/json ($J missing or without its 6 sections)"
elif command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["sections"]) == 6' "$J" 2>"$OUT/json.err"; then
		echo "PASS: bench/json"
	else
		echo "FAIL: bench/json (not valid JSON: $(tail -n 1 "$OUT/json.err"))"
	fi
else
	echo "PASS: bench/json (structure only; no python3 to parse it)"
fi
exit 0
