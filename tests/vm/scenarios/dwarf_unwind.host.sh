#!/bin/sh
# Host half of dwarf_unwind: pmuconv unwinds the module's stack copies of
# nofpwork (binary from build/guest via --symfs): >= 95 % of the user
# stacks on a known call path from _start, >= 20 % on
# main;sort_phase;qsort..;cmp; the FP walk of the same samples has no
# caller above cmp; the report header counts the outcomes.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
path=$(cat nofpwork.path)
mkdir -p "symfs$(dirname "$path")" && cp "$GUEST_BIN/nofpwork" "symfs$path" || fail "no nofpwork binary"
"$BIN/pmuconv" folded dwarf.pmu --symfs symfs --comm nofpwork --user-only --weight samples \
	-o dwarf.folded 2>dwarf.err || fail_check folded "pmuconv folded failed: $(tail -n 1 dwarf.err)"
"$BIN/pmuconv" folded dwarf.pmu --symfs symfs --comm nofpwork --user-only --weight samples \
	--call-graph fp -o fp.folded 2>fp.err || fail_check folded-fp "$(tail -n 1 fp.err)"
"$BIN/pmuconv" report dwarf.pmu --symfs symfs >report.txt 2>&1
cat dwarf.err fp.err >>"$RESULTS/host.log" 2>/dev/null
grep '^unwind:' report.txt >>"$RESULTS/host.log"
V='(\.[a-z0-9_.]+)?'
START="^nofpwork;_start;__libc_start_main[^;]*;__libc_start_call_main;main"
KNOWN="$START(;phase_a$V(;walk$V(;leaf$V)?)?|;sort_phase$V(;[_a-z]*qsort[^;]*(;[^;[]+)*)?)? [0-9]+\$"
CMPPATH="$START;sort_phase$V;[_a-z]*qsort[^;]*(;[^;[]+)*;cmp$V [0-9]+\$"
set -- $(folded_share dwarf.folded "$KNOWN")
if [ "$2" -ge 100 ] && [ $(($1 * 100)) -ge $(($2 * 95)) ]; then
	pass_check known-paths
else
	fail_check known-paths "$1 of $2 samples on a known path (want >= 95 %, >= 100 samples); others: $(grep -Ev "$KNOWN" dwarf.folded | head -n 3 | cut -c1-200 | tr '\n' '|')"
fi
set -- $(folded_share dwarf.folded "$CMPPATH")
if [ "$2" -gt 0 ] && [ $(($1 * 100)) -ge $(($2 * 20)) ]; then
	pass_check qsort-callback
else
	fail_check qsort-callback "$1 of $2 samples on main;sort_phase;qsort..;cmp (want >= 20 %)"
fi
if grep -q "cmp" fp.folded && ! grep -Eq "main;.*;cmp$V [0-9]+\$" fp.folded; then
	pass_check fp-walk-broken-control
else
	fail_check fp-walk-broken-control "the FP walk was expected to lose cmp's callers: $(grep cmp fp.folded | head -n 2 | tr '\n' '|')"
fi
if grep -q '^unwind: *[0-9]* user stack copies: [0-9]* unwound fully' report.txt; then
	pass_check report-outcomes
else
	fail_check report-outcomes "no unwind line in the report header"
fi
host_done
