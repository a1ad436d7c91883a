#!/bin/sh
# Host half: the -a file is complete and symbolizes the workload; the -C 1
# file holds only CPU 1's samples; the -p file holds only the target pid.
. "$ROOT/tests/vm/lib/host.sh"
VERIFY=$BUILD/tests/pmuctl-verify
[ -x "$VERIFY" ] || fail "$VERIFY not built (make guest-bins)"
wl=$(cat "$RESULTS/wl.pid")
v() {
	_name=$1
	shift
	if "$VERIFY" "$@" >"$RESULTS/verify-$_name.txt" 2>&1; then
		pass_check "$_name"
	else
		fail_check "$_name" "$(grep FAIL "$RESULTS/verify-$_name.txt" | head -n 3 | tr '\n' ' ')"
	fi
}
v all-symbolizes "$RESULTS/all.pmu" --pid "$wl" --binary "$RESULTS/split7030" \
	--expect hot_a --expect hot_b --min-samples 50
v short-lived-processes-mapped "$RESULTS/all.pmu" --each-comm split7030
grep -h '^each_comm' "$RESULTS/verify-short-lived-processes-mapped.txt"
v all-has-kernel-symbols "$RESULTS/all.pmu"
grep -q 'kallsyms=[1-9]' "$RESULTS/verify-all-has-kernel-symbols.txt" &&
	grep -q 'kernel_build_id=20' "$RESULTS/verify-all-has-kernel-symbols.txt" &&
	pass_check kallsyms-and-build-id || fail_check kallsyms-and-build-id "no kallsyms/build-id"
v cpu1-only "$RESULTS/cpu1.pmu" --only-cpu 1
v pid-only "$RESULTS/pid.pmu" --pid "$wl" --only-pid --binary "$RESULTS/split7030" \
	--expect hot_a --min-samples 50
# (at least 10 samples: what is checked is where they come from; a loaded
# host can drop most cpu-clock samples of a 1 s recording)
v pid-cpu1-only "$RESULTS/pidcpu1.pmu" --pid "$wl" --only-pid --only-cpu 1 --min-samples 10
v cmd-cpu1-only "$RESULTS/cmdcpu1.pmu" --comm split7030 --only-pid --only-cpu 1 --min-samples 10
[ -f "$RESULTS/default.pmu" ] && v default-file "$RESULTS/default.pmu"
host_done
