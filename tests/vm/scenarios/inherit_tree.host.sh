#!/bin/sh
# Host half of inherit_tree: check the recordings with inhcheck (see
# tests/tools/inherit/inhcheck.c) and, for the short-lived trees, that every
# inhtree process's user IPs fall in its recorded maps (pmuctl-verify).
. "$ROOT/tests/vm/lib/host.sh"
CHECK=$BUILD/tests/inhcheck
VERIFY=$BUILD/tests/pmuctl-verify
[ -x "$CHECK" ] || fail "$CHECK not built (make guest-bins)"
BINARY=$RESULTS/inhtree

# name FILE ROLES MODE...: one sub-check from one inhcheck run
inhcheck() {
	_name=$1
	_file=$2
	_roles=$3
	shift 3
	if [ ! -s "$_file" ]; then
		fail_check "$_name" "no $(basename "$_file") (the guest part failed)"
		return
	fi
	if "$CHECK" "$_file" --roles "$_roles" --binary "$BINARY" "$@" \
		>"$RESULTS/$_name.txt" 2>&1; then
		pass_check "$_name"
	else
		fail_check "$_name" "$(grep FAIL "$RESULTS/$_name.txt" | head -n 3 | tr '\n' ' ')"
	fi
	cat "$RESULTS/$_name.txt"
}

inhcheck tree-split "$RESULTS/tree.pmu" "$RESULTS/tree.out" --tree --stacks --tol 6 --min-samples 50
inhcheck no-inherit-parent-only "$RESULTS/noinh.pmu" "$RESULTS/noinh.out" --only-parent --min-samples 30
inhcheck pid-inherit-split "$RESULTS/pid.pmu" "$RESULTS/pid.out" --tree --stacks --tol 6 --min-samples 30

if [ -s "$RESULTS/unpriv.out" ]; then
	inhcheck unprivileged-nondumpable-filtered "$RESULTS/unpriv.pmu" "$RESULTS/unpriv.out" \
		--tree --absent grandchild --min-samples 20
fi

if [ ! -x "$VERIFY" ]; then
	fail_check short-lived-maps "$VERIFY not built (make guest-bins)"
elif [ ! -s "$RESULTS/short.pmu" ]; then
	fail_check short-lived-maps "no short.pmu (the guest part failed)"
elif "$VERIFY" "$RESULTS/short.pmu" --each-comm inhtree --min-mapped 90 \
	>"$RESULTS/short-verify.txt" 2>&1; then
	# pmuctl-verify passes with 75 % of the processes mapped; want (nearly) all
	line=$(grep '^each_comm=' "$RESULTS/short-verify.txt")
	n=$(echo "$line" | sed -n 's/.*with_user_samples=\([0-9]*\).*/\1/p')
	m=$(echo "$line" | sed -n 's/.*with_maps=\([0-9]*\).*/\1/p')
	if [ -n "$n" ] && [ "$n" -ge 20 ] && [ "$m" -eq "$n" ]; then
		pass_check short-lived-maps
	else
		fail_check short-lived-maps "$line"
	fi
else
	fail_check short-lived-maps "$(grep FAIL "$RESULTS/short-verify.txt" | head -n 2 | tr '\n' ' ')"
fi
cat "$RESULTS/short-verify.txt" 2>/dev/null
host_done
