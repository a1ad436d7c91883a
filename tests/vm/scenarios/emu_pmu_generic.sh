#!/bin/sh
# Scenario: an Intel model Linux has no table for (family 6 model 32) on the
# emulated PMU: Linux's "generic architected perfmon" driver, and perf's
# architectural events count exactly there too.
# needs: pmu perf bin:insnloop
# cpu: max,vendor=GenuineIntel,family=6,model=32,pmu=on
# timeout: 180

dmesg | grep -q 'Performance Events: .*generic architected perfmon, .*Intel PMU driver' && pass_check generic-driver ||
	fail_check generic-driver "$(dmesg | grep 'Performance Events')"
u() { perf stat -x, -e instructions:u,branches:u -- insnloop loop "$1" 2>&1 >/dev/null | awk -F, '/instructions|branches/ { printf "%s ", $1 }'; }
set -- $(u 1000000)
i1=$1 b1=$2
set -- $(u 2000000)
[ $(($1 - i1)) = 3000000 ] && [ $(($2 - b1)) = 1000000 ] && pass_check counts-exact ||
	fail_check counts-exact "instructions:u $i1 -> $1, branches:u $b1 -> $2"
exit 0
