#!/bin/sh
# make soak: the long versions of the reliability tests (issue 8), then the
# "Last results" section of docs/RELIABILITY.md is rewritten from what ran.
#
#   sh tests/soak.sh [--no-vm] [--no-fuzz] [--fuzz-secs N] [--no-doc]
#
#  1. VM scenarios rel_* in soak mode: each tests/vm/scenarios/rel_*.sh is
#     copied to build/soak/scenarios/ with REL_LEVEL=soak and its
#     "# soak-timeout:" as timeout, and run by tests/vm/run.sh through
#     VM_SCEN_DIR (ioctl fuzzing for 8 minutes, hotplug/churn for 5, ring
#     full for 10, a 10-minute 10 kHz recording, permissions).
#  2. libFuzzer (clang, ASan+UBSan) on every fuzz target of the tree
#     (data-file parser, perf-script and stap parsers) for N seconds each
#     (default 600; SOAK_FUZZ_SECS), seeded from tests/fuzz/corpus/<target>.
#     A crash, leak or sanitizer report fails; the reproducer is kept under
#     build/soak/ and named in the output.
#  3. valgrind suite (tests/suites/valgrind_tools.sh).
# SOAK_VM="rel_faults rel_perms" limits step 1 to those scenarios.
# Prints PASS/FAIL/SKIP lines and "N passed, N failed[, N skipped]"; exits 1
# when anything failed.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
SOAK=$BUILD/soak
FUZZ_SECS=${SOAK_FUZZ_SECS:-600}
DO_VM=1 DO_FUZZ=1 DO_DOC=1
while [ $# -gt 0 ]; do
	case "$1" in
	--no-vm) DO_VM=0 ;;
	--no-fuzz) DO_FUZZ=0 ;;
	--no-doc) DO_DOC=0 ;;
	--fuzz-secs)
		FUZZ_SECS=$2
		shift
		;;
	-h | --help)
		sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "soak: unknown option $1 (try --help)" >&2
		exit 2
		;;
	esac
	shift
done
mkdir -p "$SOAK"
LOG=$SOAK/soak.log
RES=$SOAK/results.txt # one "name|result|seconds|details" line per test
: >"$RES"
: >"$LOG"
pass=0 fail=0 skip=0

record() { # NAME RESULT SECONDS DETAILS
	echo "$1|$2|$3|$4" >>"$RES"
	case "$2" in
	PASS) pass=$((pass + 1)) ;;
	FAIL) fail=$((fail + 1)) ;;
	*) skip=$((skip + 1)) ;;
	esac
	if [ -n "$4" ] && [ "$2" != PASS ]; then
		echo "$2: soak/$1 ($4)"
	else
		echo "$2: soak/$1"
	fi
}

# ------------------------------------------------------------ 1. VM
if [ $DO_VM = 1 ]; then
	sd=$SOAK/scenarios
	rm -rf "$sd"
	mkdir -p "$sd"
	names=""
	for f in tests/vm/scenarios/rel_*.sh; do
		case "$f" in *.host.sh)
			cp "$f" "$sd/"
			continue
			;;
		esac
		n=$(basename "$f" .sh)
		st=$(sed -n '/^[^#]/q; s/^# *soak-timeout: *//p' "$f" | head -n 1)
		sed -e 's/^REL_LEVEL=check$/REL_LEVEL=soak/' \
			-e "s/^# timeout: .*/# timeout: ${st:-900}/" "$f" >"$sd/$n.sh"
		grep -q '^REL_LEVEL=soak$' "$sd/$n.sh" || echo "soak: $f has no REL_LEVEL=check line" >&2
		names="$names $n"
	done
	[ -n "${SOAK_VM:-}" ] && names=$SOAK_VM
	for n in $names; do
		t0=$(date +%s)
		VM_SCEN_DIR=$ROOT/$sd sh tests/vm/run.sh --keep "$n" >"$SOAK/$n.out" 2>&1
		t1=$(date +%s)
		cat "$SOAK/$n.out" >>"$LOG"
		line=$(grep -E "^(PASS|FAIL|SKIP): vm/$n( |$)" "$SOAK/$n.out" | tail -n 1)
		res=${line%%:*}
		[ -n "$res" ] || res=FAIL
		run=$(ls -dt "$BUILD"/vm/runs/"$n"-* 2>/dev/null | head -n 1)
		details=""
		if [ -n "$run" ] && [ -f "$run/results/summary.txt" ]; then
			details=$(tr '\n' ';' <"$run/results/summary.txt" | sed 's/;$//')
			cp "$run/results/summary.txt" "$SOAK/$n.summary.txt"
		fi
		subfail=$(grep -c "^FAIL: vm/$n/" "$SOAK/$n.out")
		[ "$res" = PASS ] || details="$(echo "$line" | sed 's/^[A-Z]*: //') $details"
		grep -E "^(PASS|FAIL|SKIP): vm/$n/" "$SOAK/$n.out" | sed 's/^/  /'
		record "$n" "$res" $((t1 - t0)) "$details"
		[ "$subfail" -eq 0 ] || true
	done
fi

# ------------------------------------------------------------ 2. libFuzzer
if [ $DO_FUZZ = 1 ]; then
	if ! command -v clang >/dev/null; then
		record libfuzzer SKIP 0 "clang not installed (make deps)"
	else
		for t in pmufile perfscript stap; do
			bin=$BUILD/fuzz/fuzz_$t
			if ! make -s "$bin" >>"$LOG" 2>&1; then
				record "libfuzzer-$t" FAIL 0 "cannot build $bin (see $LOG)"
				continue
			fi
			corp=$SOAK/corpus-$t
			mkdir -p "$corp"
			rm -f "$SOAK"/crash-$t-* "$SOAK"/leak-$t-* "$SOAK"/timeout-$t-* "$SOAK"/oom-$t-*
			flog=$SOAK/libfuzzer-$t.log
			t0=$(date +%s)
			"$bin" -max_total_time="$FUZZ_SECS" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
				-print_final_stats=1 -artifact_prefix="$SOAK/" "$corp" "tests/fuzz/corpus/$t" >"$flog" 2>&1
			rc=$?
			t1=$(date +%s)
			runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$flog" | tail -n 1)
			cov=$(grep -E '^#[0-9]+' "$flog" | tail -n 1 | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
			art=$(ls "$SOAK"/crash-* "$SOAK"/leak-* "$SOAK"/timeout-* "$SOAK"/oom-* 2>/dev/null | head -n 1)
			d="inputs=${runs:-?} coverage=${cov:-?} corpus=$(ls "$corp" | wc -l) seconds=$((t1 - t0))"
			if [ $rc -eq 0 ] && [ -z "$art" ]; then
				record "libfuzzer-$t" PASS $((t1 - t0)) "$d"
			else
				record "libfuzzer-$t" FAIL $((t1 - t0)) "exit $rc, reproducer ${art:-none}: $(grep -m1 -E 'ERROR|runtime error' "$flog") $d"
			fi
		done
	fi
fi

# ------------------------------------------------------------ 3. valgrind
t0=$(date +%s)
sh tests/suites/valgrind_tools.sh >"$SOAK/valgrind.txt" 2>&1
t1=$(date +%s)
vp=$(grep -c '^PASS' "$SOAK/valgrind.txt")
vf=$(grep -c '^FAIL' "$SOAK/valgrind.txt")
if [ "$vf" -eq 0 ] && [ "$vp" -gt 0 ]; then
	record valgrind-tools PASS $((t1 - t0)) "$vp cases"
else
	record valgrind-tools FAIL $((t1 - t0)) "$vf of $((vp + vf)) cases failed: $(grep -m1 '^FAIL' "$SOAK/valgrind.txt")"
fi

# ------------------------------------------------------------ doc
if [ $DO_DOC = 1 ] && [ -f docs/RELIABILITY.md ]; then
	tmp=$SOAK/results.md
	{
		echo "<!-- soak-results:begin (written by tests/soak.sh; do not edit by hand) -->"
		echo "Last \`make soak\`: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n | cut -c1-20), $(nproc) CPUs, VM accelerator ${VM_ACCEL:-auto}, libFuzzer ${FUZZ_SECS} s per target."
		echo
		echo "| test | result | seconds | counts |"
		echo "|---|---|---|---|"
		while IFS='|' read -r n r s d; do
			echo "| $n | $r | $s | $(echo "$d" | sed 's/|/\//g') |"
		done <"$RES"
		echo
		echo "$pass passed, $fail failed, $skip skipped."
		echo "<!-- soak-results:end -->"
	} >"$tmp"
	awk -v f="$tmp" '
		/<!-- soak-results:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
		/<!-- soak-results:end/ { skip = 0; next }
		!skip { print }' docs/RELIABILITY.md >"$SOAK/RELIABILITY.md.new" &&
		grep -q 'soak-results:begin' "$SOAK/RELIABILITY.md.new" &&
		mv "$SOAK/RELIABILITY.md.new" docs/RELIABILITY.md
	echo "soak: docs/RELIABILITY.md updated (Last results)"
fi

if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail -eq 0 ]
