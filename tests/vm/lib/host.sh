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

# est_events REPORT EVENT: the sum of EVENT's sample periods, pmuconv
# report's "N estimated events" (commas dropped) in REPORT.
est_events() {
	awk -v e="$2" '$1 == e && /estimated/ {
		for (i = 1; i < NF; i++) if ($(i + 1) == "estimated") print $i }' "$1" | tr -d ,
}

# folded_share FOLDED ERE: "K N", the weight of FOLDED's stacks matching ERE
# and the weight of all its stacks (folded text: "STACK COUNT" lines).
folded_share() {
	awk -v re="$2" '{ n += $NF } $0 ~ re { k += $NF } END { printf "%d %d\n", k, n }' "$1"
}

# within A B TOL: the numbers A and B (both given) differ by TOL at most.
within() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'
}

# sum_check SUB REPORT EVENT CSV PERF_EVENT PCT: pass SUB when EVENT's
# est_events in REPORT are within PCT % of perf stat's count of PERF_EVENT
# (CSV: perf stat -x, -o).
sum_check() {
	_est=$(est_events "$2" "$3")
	_c=$(awk -F, -v e="$5" '$3 == e { print $1 }' "$4")
	if [ -z "$_est" ] || [ -z "$_c" ] || [ "$_c" = 0 ]; then
		fail_check "$1" "no count (pmuconv '$_est', perf '$_c')"
		return
	fi
	_d=$((_est > _c ? _est - _c : _c - _est))
	_pct=$(awk -v a="$_d" -v t="$_c" 'BEGIN { printf "%.2f", 100 * a / t }')
	log "$1: sum of periods $_est, perf stat ($5) $_c: off by $_d ($_pct %)"
	[ $((_d * 100)) -le $((_c * $6)) ] && pass_check "$1" ||
		fail_check "$1" "sum of periods $_est, perf stat $_c (off by $_d, $_pct %)"
}

host_done() {
	exit $_host_failed
}
