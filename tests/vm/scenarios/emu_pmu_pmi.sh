#!/bin/sh
# Scenario: the emulated Intel PMU's interrupt behaviour at the register
# level, against the SDM (Vol. 3B ch. 20) and independent of Linux perf:
# tests/vm/kmods/pmutest programs the counters with WRMSR and handles the
# PMIs itself (exactly floor(N'/P) overflows for GP and fixed counters and
# several at once, LVTPC masked by every PMI and blocking until unmasked,
# GLOBAL_CTRL/EN/FIXED_CTR_CTRL gating, STATUS_SET/RESET, freeze-on-PMI,
# RDPMC and its #GP, zero skid), on CPU 0 and again on CPU 1 (names cpu1-*).
# One sub-check per "pmutest: CHECK name PASS|FAIL|SKIP detail" line.
# needs: pmu
# cmdline: nmi_watchdog=0
# timeout: 150

KO=/lib/pmuprof/pmutest.ko
[ -f "$KO" ] || fail "pmutest.ko is not in the initramfs (run.sh builds tests/vm/kmods/pmutest against the guest kernel headers; see the harness's notes)"
[ "$(cat /proc/sys/kernel/nmi_watchdog)" = 0 ] ||
	fail "the NMI watchdog is on: perf would own a counter (boot with nmi_watchdog=0)"

# Linux's NMI exit path checks each handler's duration (nmi_check_duration)
# and takes another path past nmi_longest_ns (1 ms), which a host hiccup
# under TCG can cause: the zero-skid checks need that path constant.
NMI_LONGEST=/sys/kernel/debug/x86/nmi_longest_ns
[ -w "$NMI_LONGEST" ] || fail "$NMI_LONGEST missing (debugfs): the skid checks need it"
old_longest=$(cat "$NMI_LONGEST")
echo 60000000000 >"$NMI_LONGEST"

# suite CPU PREFIX: load pmutest on CPU, one sub-check per CHECK line, unload.
suite() {
	log "+ insmod pmutest.ko cpu=$1"
	insmod "$KO" cpu="$1" >>"$RESULTS/scenario.log" 2>&1 ||
		fail "insmod pmutest.ko cpu=$1 failed (see dmesg.txt)"
	# This run's lines: from its START line on.
	dmesg | sed 's/^\[[^]]*\] //' >/tmp/dmesg.txt
	start=$(grep -n "^pmutest: START cpu=$1 " /tmp/dmesg.txt | tail -n 1 | cut -d: -f1)
	[ -n "$start" ] || fail "pmutest loaded but printed no START line for cpu $1"
	tail -n "+$start" /tmp/dmesg.txt | grep '^pmutest: ' >"$RESULTS/pmutest-cpu$1.txt"
	n=0
	while read -r _tag _check name res detail; do
		[ "$_check" = CHECK ] || continue
		n=$((n + 1))
		case "$res" in
		PASS)
			log "$1: $name: $detail"
			pass_check "$2$name"
			;;
		SKIP) skip_check "$2$name" "$detail" ;;
		*) fail_check "$2$name" "$res $detail" ;;
		esac
	done <"$RESULTS/pmutest-cpu$1.txt"
	grep -q '^pmutest: DONE ' "$RESULTS/pmutest-cpu$1.txt" ||
		fail_check "${2}done" "no DONE line after $n checks (suite did not finish)"
	log "+ rmmod pmutest"
	rmmod pmutest >>"$RESULTS/scenario.log" 2>&1 || fail "rmmod pmutest failed"
}

suite 0 ""
[ "$NCPUS" -gt 1 ] && suite 1 cpu1-
echo "$old_longest" >"$NMI_LONGEST"
exit 0
