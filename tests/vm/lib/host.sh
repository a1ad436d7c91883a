# Helpers for the host half of a VM scenario (NAME.host.sh), sourced by it.
# Sub-check lines go to stdout; run.sh picks up lines starting with
# PASS:/FAIL:/SKIP: and the first "HOSTREASON: ..." line as the reason of an
# overall fail/skip. End the script with host_done (exit 1 if any fail_check).
# Variables from run.sh: RESULTS ROOT BUILD BIN GUEST_BIN VM_ACCEL SCENARIO.
_host_failed=0

log() {
	echo "[host] $*"
}

fail() {
	echo "HOSTREASON: ${1:-failed}"
	exit 1
}

skip() {
	echo "HOSTREASON: ${1:-skipped}"
	exit 77
}

pass_check() {
	echo "PASS: vm/$SCENARIO/$1"
}

fail_check() {
	echo "FAIL: vm/$SCENARIO/$1 (${2:-failed})"
	_host_failed=1
}

skip_check() {
	echo "SKIP: vm/$SCENARIO/$1 (${2:-skipped})"
}

# check SUB CMD ARGS...: pass/fail SUB by CMD's exit status (output kept in host.log).
check() {
	_sub=$1
	shift
	log "+ $*"
	if "$@"; then
		pass_check "$_sub"
	else
		fail_check "$_sub" "'$*' exited $?"
	fi
}

# check_log SUB LOG CMD ARGS...: CMD's output into LOG; pass/fail SUB by its
# exit status, a fail quoting LOG's first two FAIL lines.
check_log() {
	_sub=$1
	_log=$2
	shift 2
	if "$@" >"$_log" 2>&1; then
		pass_check "$_sub"
	else
		fail_check "$_sub" "$(grep FAIL "$_log" | head -n 2 | tr '\n' ' ')"
	fi
}

host_done() {
	exit $_host_failed
}
