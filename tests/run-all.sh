#!/bin/sh
# Run every test level and print one closing line:
#   N passed, N failed[, N skipped]
#
# Levels, in order:
#   1. host unit tests: every build/tests/unit/test_* Check program
#      (each Check test case counts as one test)
#   2. script suites: every executable tests/suites/*.sh, which print
#      "PASS: name", "FAIL: name (why)" or "SKIP: name (why)" lines
#   3. VM tests: tests/vm/run.sh --all, same line format
#
# A unit program that crashes or prints no Check summary counts as one
# failure. Exit status is 0 only when nothing failed.
#
# Environment: SKIP_VM=1 skips level 3 (counted as one skip, visibly).
set -u
BUILD=${BUILD:-build}
LOG=$BUILD/test-logs
mkdir -p "$LOG"
pass=0
fail=0
skip=0
failed_names=""
skipped_names=""

add_fail() {
	fail=$((fail + 1))
	failed_names="$failed_names
  $1"
}

# --- 1. unit tests -------------------------------------------------------
echo "== unit tests"
for t in "$BUILD"/tests/unit/test_*; do
	[ -x "$t" ] || continue
	case "$t" in *.o | *.d) continue ;; esac
	name=$(basename "$t")
	out="$LOG/$name.log"
	CK_FORK=yes CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60} "$t" >"$out" 2>&1
	rc=$?
	summary=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$out" | tail -n 1)
	if [ -z "$summary" ]; then
		echo "FAIL: unit/$name (no Check summary, exit $rc; see $out)"
		add_fail "unit/$name"
		continue
	fi
	n=$(echo "$summary" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
	f=$(echo "$summary" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
	e=$(echo "$summary" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
	bad=$((f + e))
	pass=$((pass + n - bad))
	if [ "$bad" -gt 0 ] || [ "$rc" -ne 0 ]; then
		[ "$bad" -gt 0 ] || bad=1
		fail=$((fail + bad))
		failed_names="$failed_names
  unit/$name ($bad failing; see $out)"
		grep -E ':[EF]:' "$out" | head -n 20
	fi
	echo "$summary  [$name]"
done

# --- 2/3. line-format suites ---------------------------------------------
run_suite() {
	label=$1
	shift
	out="$LOG/$label.log"
	"$@" >"$out" 2>&1
	rc=$?
	p=$(grep -c '^PASS: ' "$out")
	f=$(grep -c '^FAIL: ' "$out")
	s=$(grep -c '^SKIP: ' "$out")
	grep -E '^(PASS|FAIL|SKIP): ' "$out"
	pass=$((pass + p))
	skip=$((skip + s))
	[ "$s" -gt 0 ] && skipped_names="$skipped_names
$(grep '^SKIP: ' "$out" | sed 's/^SKIP: /  /')"
	if [ "$f" -gt 0 ]; then
		fail=$((fail + f))
		failed_names="$failed_names
$(grep '^FAIL: ' "$out" | sed 's/^FAIL: /  /')"
	fi
	if [ $((p + f + s)) -eq 0 ]; then
		echo "FAIL: $label (suite reported nothing, exit $rc; see $out)"
		add_fail "$label"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $label (suite exited $rc; see $out)"
		add_fail "$label (exit $rc)"
	fi
}

echo "== script suites"
for s in tests/suites/*.sh; do
	[ -f "$s" ] || continue
	run_suite "suite-$(basename "$s" .sh)" sh "$s"
done

echo "== VM tests"
if [ "${SKIP_VM:-0}" = 1 ]; then
	echo "SKIP: vm (SKIP_VM=1)"
	skip=$((skip + 1))
	skipped_names="$skipped_names
  vm (SKIP_VM=1)"
elif [ -f tests/vm/run.sh ]; then
	run_suite vm sh tests/vm/run.sh --all
else
	echo "FAIL: vm (tests/vm/run.sh missing)"
	add_fail "vm"
fi

if [ "$fail" -gt 0 ]; then
	echo "Failed:$failed_names"
fi
# Every skip with its reason: a skip is allowed only for a hardware
# prerequisite this machine lacks (tests/vm/README.md, "needs:").
if [ "$skip" -gt 0 ]; then
	echo "Skipped:$skipped_names"
fi
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
