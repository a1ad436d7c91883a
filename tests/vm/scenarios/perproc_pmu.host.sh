#!/bin/sh
# Host half of perproc_pmu: every sample of the per-process session is the
# target's (insnloop), none of the busy spin7030 beside it on the same CPU,
# and the sum of their periods is insnloop's perf stat count within 2 %.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
[ -f a.pmu ] || fail "no a.pmu"
"$BIN/pmuconv" report a.pmu >report.txt 2>&1 || fail "pmuconv report failed: $(tail -n 1 report.txt)"
# "By process:" section: share samples est.count name
procs=$(awk '/^By process:/ { on = 1; next } on && NF == 0 { on = 0 } on && $1 ~ /%$/ { print $NF }' report.txt | sort -u | tr '\n' ' ')
log "processes with samples: $procs"
case " $procs" in
*spin7030*) fail_check only-target "spin7030 has samples: $procs" ;;
*" insnloop "*) pass_check only-target ;;
*) fail_check only-target "processes with samples: '$procs' (want insnloop)" ;;
esac
sum_check sum-of-periods report.txt instructions:u stat.csv instructions:u 2
host_done
