# Helpers for VM scenarios, sourced in the guest (busybox sh) before the
# scenario script runs. Documented in tests/vm/README.md; keep them in sync.
# Results protocol (read by tests/vm/run.sh on the host):
#   $RESULTS/.checks  one "PASS|FAIL|SKIP: vm/NAME/SUB[ (reason)]" line per sub-check
#   $RESULTS/.reason  reason of an overall fail/skip
#   $RESULTS/.failed  exists when any fail_check happened
# The exit status of the scenario is its result: 0 pass, 77 skip, else fail.

RESULTS=${RESULTS:-/results}
SCENARIO=${SCENARIO:-unknown}

log() {
	_t=$(cut -d' ' -f1 /proc/uptime)
	echo "[vm $_t] $*"
	echo "[$_t] $*" >>"$RESULTS/scenario.log"
}

fail() {
	echo "${1:-failed}" >"$RESULTS/.reason"
	log "FAIL: ${1:-failed}"
	exit 1
}

skip() {
	echo "${1:-skipped}" >"$RESULTS/.reason"
	log "SKIP: ${1:-skipped}"
	exit 77
}

# Sub-check names may not contain spaces; reasons may.
pass_check() {
	echo "PASS: vm/$SCENARIO/$1" >>"$RESULTS/.checks"
	log "PASS: $1"
}

fail_check() {
	echo "FAIL: vm/$SCENARIO/$1 (${2:-failed})" >>"$RESULTS/.checks"
	: >"$RESULTS/.failed"
	log "FAIL: $1 (${2:-failed})"
}

skip_check() {
	echo "SKIP: vm/$SCENARIO/$1 (${2:-skipped})" >>"$RESULTS/.checks"
	log "SKIP: $1 (${2:-skipped})"
}

# wait_for FILE REGEX: bounded wait (30 s, 50 ms steps; no fixed sleeps)
# until FILE has a line matching REGEX; status 1 if it never did.
wait_for() {
	_n=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		[ $_n -ge 600 ] && return 1
		usleep 50000
		_n=$((_n + 1))
	done
}

# wait_started FILE: pmuctl's output FILE says recording started.
wait_started() { wait_for "$1" 'recording to'; }

# check SUB CMD ARGS...: pass or fail SUB by CMD's exit status.
check() {
	_sub=$1
	shift
	if run "$@"; then
		pass_check "$_sub"
	else
		fail_check "$_sub" "'$*' exited $?"
	fi
}

# check_out SUB OUT PATTERN CMD ARGS...: CMD's output into OUT (and appended
# to scenario.log); pass or fail SUB by its exit status, a fail quoting up to
# four of OUT's lines that match the extended regexp PATTERN.
check_out() {
	_sub=$1 _out=$2 _pat=$3
	shift 3
	"$@" >"$_out" 2>&1
	_rc=$?
	cat "$_out" >>"$RESULTS/scenario.log"
	if [ $_rc = 0 ]; then
		pass_check "$_sub"
	else
		fail_check "$_sub" "$(grep -E "$_pat" "$_out" | head -n 4 | tr '\n' ' ')"
	fi
}

# run CMD ARGS...: log it, output appended to $RESULTS/scenario.log.
run() {
	log "+ $*"
	"$@" >>"$RESULTS/scenario.log" 2>&1
}

# bg CMD ARGS...: background job with stdio redirected (busybox rule:
# a background job without redirected stdio dies at once). $! is its pid.
bg() {
	"$@" </dev/null >>"$RESULTS/scenario.log" 2>&1 &
}

# pin CPU CMD ARGS...: run CMD on one CPU.
pin() {
	_cpu=$1
	shift
	taskset -c "$_cpu" "$@"
}

# msr_read CPU MSR: the MSR's value on CPU, in decimal (pmuregs, bin:pmuregs).
msr_read() {
	echo $((0x$(pmuregs rdmsr "$1" "$2")))
}

# check_no_pmu DMESG: what a guest without a PMU shows (emu_pmu_absent*;
# needs bin:pmuregs, kmods: cpuid): CPUID.0AH all zero, no PDCM
# (CPUID.1:ECX bit 15), and dmesg holding DMESG, Linux's word for why it
# has no PMU driver.
check_no_pmu() {
	_why=$1
	kmod_load cpuid
	[ "$(pmuregs cpuid 0 0xa)" = "00000000 00000000 00000000 00000000" ] && pass_check cpuid-0a-zero ||
		fail_check cpuid-0a-zero "$(pmuregs cpuid 0 0xa)"
	set -- $(pmuregs cpuid 0 1)
	[ $(((0x$3 >> 15) & 1)) = 0 ] && pass_check no-pdcm || fail_check no-pdcm "CPUID.1:ECX=$3"
	dmesg | grep -q "$_why" && pass_check no-pmu-driver || fail_check no-pmu-driver "$(dmesg | grep 'Performance Events\|PMU')"
}

# pp_allocations: the module's live session allocations (debugfs), "" if absent.
pp_allocations() {
	sed -n 's/.*session=\([0-9]*\).*/\1/p' /sys/kernel/debug/pmuprof/allocations 2>/dev/null
}

# load_module [PARAM=VALUE...]: insmod pmuprof.ko and wait for /dev/pmuprof.
load_module() {
	[ -n "$PMUPROF_KO" ] && [ -f "$PMUPROF_KO" ] ||
		fail "pmuprof.ko is not in the initramfs (run 'make module' on the host)"
	# follow_target=0 unless the scenario passes follow_target=1 (the last
	# value wins): following patches __schedule's tracepoint with
	# text_poke_bp() at the first per-process session and at rmmod, and under
	# QEMU TCG (Debian's unmodified 7.2 too) such a patch freezes the guest
	# about once in a few hundred (rel_tp_toggle, docs/KERNEL.md). The
	# scenarios that test following (perproc_*, rel_perproc_stress) turn it
	# on; perproc_ipi checks that the module's own default is on.
	log "+ insmod pmuprof.ko follow_target=0 $*"
	insmod "$PMUPROF_KO" follow_target=0 "$@" >>"$RESULTS/scenario.log" 2>&1 ||
		fail "insmod pmuprof.ko follow_target=0 $* failed (see dmesg.txt)"
	_n=0
	while [ ! -c /dev/pmuprof ] && [ $_n -lt 500 ]; do
		usleep 10000
		_n=$((_n + 1))
	done
	[ -c /dev/pmuprof ] || fail "pmuprof loaded but /dev/pmuprof did not appear within 5 s"
}

unload_module() {
	log "+ rmmod pmuprof"
	rmmod pmuprof >>"$RESULTS/scenario.log" 2>&1 || fail "rmmod pmuprof failed (see scenario.log)"
}

module_loaded() {
	grep -q "^$1 " /proc/modules
}

# kmod_load NAME: load a stock guest-kernel module (and its dependencies)
# that the harness put in the initramfs (scenario header "# kmods: NAME").
kmod_load() {
	[ -f "/lib/pmtest/kmod/$1.order" ] ||
		fail "stock module $1 not in the initramfs (add '# kmods: $1' to the scenario header)"
	for _m in $(cat "/lib/pmtest/kmod/$1.order"); do
		module_loaded "$_m" || insmod "/lib/pmtest/kmod/$_m.ko" || fail "insmod $_m failed"
	done
}
