#!/bin/sh
# pmuconv's DWARF unwinding of --call-graph dwarf recordings (issue 18), on
# the host without the module: ptsnap (tests/tools/ptsnap) records
# nofpwork (-O2 -fomit-frame-pointer, qsort from the system libc) under
# ptrace with the registers and stack copies the module takes, then:
#   - >= 95 % of the samples' folded stacks are one of the workload's known
#     call paths (_start .. main;phase_a;walk;leaf, main;sort_phase;qsort..;cmp),
#     and the report header counts >= 95 % unwound fully;
#   - the qsort comparator shows main;sort_phase;qsort...;cmp (>= 20 % of the
#     samples), where --call-graph fp (the FP walk) has no such chain;
#   - copies cut to 64 bytes: stops counted as "copy too small" and marked by
#     a [truncated] root frame, never a made-up caller;
#   - the workload's binary deleted after recording: exit 0, its frames not
#     unwound (stopped / FP fallback counted), the binary named in a warning;
#   - copies whose size fields are corrupt: those samples skipped with a
#     message, the others unwound, exit 0;
#   - the unwind memo answers some samples, every answer equal to libdwfl's
#     own unwind (PMUCONV_UNWIND_MEMO=check), the output the same memo off;
#     some answers walked from its stored steps, checked likewise, also on
#     copies cut to 64 and 512 bytes;
#   - the recordings packed (format version 2, tests/tools/ucpack): the same
#     folded output, and unpacked byte for byte the original file.
# Prints PASS/FAIL lines; always exits 0. About 3 s.
S=dwarf_unwind
. "$(dirname "$0")/lib/hostsuite.sh"
WORK=${NOFPWORK:-$BUILD/tests/nofpwork}
N=400
UCPACK=$BUILD/bin/ucpack
suite_setup "$PMUCONV" "$PTSNAP" "$WORK" "$UCPACK" || exit 0
mkdir -p "$W/bin" && cp "$WORK" "$W/bin/nofpwork"

# the known call paths, below the process root frame
START='nofpwork;_start;__libc_start_main[^;]*;__libc_start_call_main;main'
V='(\.[a-z0-9_.]+)?' # GCC's clone suffixes (.constprop.0, .part.0)
KNOWN="^$START(;phase_a$V(;walk$V(;leaf$V)?)?|;sort_phase$V(;qsort[^;]*(;[^;[]+)*)?)? [0-9]+\$"
CMPPATH="^$START;sort_phase$V;qsort[^;]*(;[^;[]+)*;cmp$V [0-9]+\$"

# ---- the full recording --------------------------------------------------
snap_folded "$W/full.pmu" "$W/full.folded" nofpwork
rc=$?
set -- $(share "$W/full.folded" "$KNOWN")
if [ $rc -eq 0 ] && [ "$2" -eq $N ] && [ $(($1 * 100)) -ge $((95 * N)) ]; then
	pass known-paths
else
	fail known-paths "exit $rc; $1 of $2 samples on a known call path, want >= 95 % of $N; first others: $(grep -Ev "$KNOWN" "$W/full.folded" | head -3 | tr '\n' '|')"
fi
set -- $(share "$W/full.folded" "$CMPPATH")
if [ $(($1 * 100)) -ge $((20 * N)) ]; then
	pass qsort-callback
else
	fail qsort-callback "$1 of $N samples on main;sort_phase;qsort..;cmp, want >= 20 %"
fi
"$PMUCONV" folded --weight samples --call-graph fp "$W/full.pmu" >"$W/fp.folded" 2>/dev/null
if grep -q "cmp" "$W/fp.folded" && ! grep -Eq "main;.*;cmp$V [0-9]+\$" "$W/fp.folded"; then
	pass fp-walk-broken-control
else
	fail fp-walk-broken-control "--call-graph fp was expected to lose cmp's callers: $(grep cmp "$W/fp.folded" | head -2 | tr '\n' '|')"
fi
"$PMUCONV" report "$W/full.pmu" >"$W/full.report" 2>&1
line=$(grep '^unwind:' "$W/full.report")
full=$(echo "$line" | sed -n 's/.*copies: \([0-9]*\) unwound fully.*/\1/p')
if echo "$line" | grep -q "^unwind: *$N user stack copies" && [ -n "$full" ] &&
	[ $((full * 100)) -ge $((95 * N)) ]; then
	pass report-outcomes
else
	fail report-outcomes "header line: '$line'"
fi
# the unwind memo (unwind_memo.h) answers repeated stacks, and exactly:
# with PMUCONV_UNWIND_MEMO=check every answer is unwound again by libdwfl
# and compared; the output is the same with the memo on, checked and off
PMUCONV_STATS=1 PMUCONV_UNWIND_MEMO=check "$PMUCONV" folded --weight samples "$W/full.pmu" \
	>"$W/memo-check.folded" 2>"$W/memo-check.err"
PMUCONV_UNWIND_MEMO=0 "$PMUCONV" folded --weight samples "$W/full.pmu" >"$W/memo-off.folded" 2>/dev/null
set -- $(sed -n 's/.*unwind memo: \([0-9]*\) of \([0-9]*\) unwinds answered, \([0-9]*\) checked, \([0-9]*\) differing.*/\1 \2 \3 \4/p' "$W/memo-check.err")
if [ "${1:-0}" -gt 0 ] && [ "$2" -eq $N ] && [ "$3" -eq "$1" ] && [ "$4" -eq 0 ] &&
	cmp -s "$W/full.folded" "$W/memo-check.folded" && cmp -s "$W/full.folded" "$W/memo-off.folded"; then
	pass unwind-memo-exact
else
	fail unwind-memo-exact "stats '${*:-none}' (answered, unwinds, checked, differing); outputs memo on/check/off $(cmp -s "$W/full.folded" "$W/memo-check.folded" && echo same || echo differ) / $(cmp -s "$W/full.folded" "$W/memo-off.folded" && echo same || echo differ); $(grep -v stats: "$W/memo-check.err" | head -2 | tr '\n' '|')"
fi
"$PMUCONV" report --call-graph fp "$W/full.pmu" 2>&1 | grep -q '^unwind: .*ignored (--call-graph fp)' &&
	pass report-fp-option || fail report-fp-option "no 'ignored' line with --call-graph fp"
"$PMUCONV" folded --call-graph lbr "$W/full.pmu" >/dev/null 2>"$W/bad.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "want fp" "$W/bad.err"; then
	pass bad-option
else
	fail bad-option "exit $rc: $(cat "$W/bad.err")"
fi

# ---- copies cut short ------------------------------------------------------
"$PTSNAP" -o "$W/cut.pmu" -n 100 --cut 64 -- "$W/bin/nofpwork" >/dev/null 2>&1
"$PMUCONV" folded --weight samples "$W/cut.pmu" >"$W/cut.folded" 2>"$W/cut.err"
rc=$?
"$PMUCONV" report "$W/cut.pmu" >"$W/cut.report" 2>&1
short=$(sed -n 's/^unwind:.*copy too small \([0-9]*\).*/\1/p' "$W/cut.report")
set -- $(share "$W/cut.folded" '^nofpwork;\[truncated\];')
# every stack that did not reach _start must say so at its root
bad=$(grep -v '^nofpwork;\[truncated\];' "$W/cut.folded" | grep -cv "^$START")
if [ $rc -eq 0 ] && [ "${short:-0}" -gt 0 ] && [ "$1" -gt 0 ] && [ "$bad" -eq 0 ]; then
	pass cut-copy-truncated
else
	fail cut-copy-truncated "exit $rc, copy too small ${short:-?}, $1 [truncated] samples, $bad stacks with a wrong root"
fi
# the memo's stored steps (unwind_memo.h) walk stacks that differ in return
# addresses (qsort's msort recursion), and exactly: checked against
# libdwfl on the full copies (above: unwind-memo-exact's run), and on copies
# cut to 64 and 512 bytes, where walks stop at a read above the copy
"$PTSNAP" -o "$W/cut512.pmu" -n 100 --cut 512 -- "$W/bin/nofpwork" >/dev/null 2>&1
steps=$(sed -n 's/.*unwind memo: .* 0 differing; \([0-9]*\) of them walked from stored steps/\1/p' "$W/memo-check.err")
why=""
for f in cut cut512; do
	PMUCONV_STATS=1 PMUCONV_UNWIND_MEMO=check "$PMUCONV" folded --weight samples "$W/$f.pmu" \
		>"$W/$f-check.folded" 2>"$W/$f-check.err"
	PMUCONV_UNWIND_MEMO=0 "$PMUCONV" folded --weight samples "$W/$f.pmu" >"$W/$f-off.folded" 2>/dev/null
	"$PMUCONV" folded --weight samples "$W/$f.pmu" >"$W/$f-on.folded" 2>/dev/null
	grep -q 'unwind memo: [0-9]* of [0-9]* unwinds answered, [0-9]* checked, 0 differing' "$W/$f-check.err" ||
		why="$why $f: $(grep 'unwind memo' "$W/$f-check.err")"
	cmp -s "$W/$f-off.folded" "$W/$f-check.folded" && cmp -s "$W/$f-off.folded" "$W/$f-on.folded" ||
		why="$why $f: outputs with the memo on/check/off differ"
done
if [ "${steps:-0}" -gt 0 ] && [ -z "$why" ] && grep -q '\[truncated\]' "$W/cut512-on.folded"; then
	pass unwind-memo-steps
else
	fail unwind-memo-steps "full copies: ${steps:-no} answers from stored steps (want > 0);$why"
fi

# ---- packed stack copies (format version 2) --------------------------------
# the full and cut recordings packed (tests/tools/ucpack, what pmuctl record
# writes): smaller, the same folded output, and unpacked byte for byte the
# file they came from
why=""
for f in full cut cut512; do
	if ! "$UCPACK" "$W/$f.pmu" "$W/$f-packed.pmu" 2>"$W/ucpack.err" ||
		! "$UCPACK" -d "$W/$f-packed.pmu" "$W/$f-unpacked.pmu" 2>>"$W/ucpack.err"; then
		why="$why $f: ucpack failed: $(head -1 "$W/ucpack.err")"
		continue
	fi
	"$PMUCONV" folded --weight samples "$W/$f.pmu" >"$W/$f-plain.folded" 2>"$W/$f-plain.err"
	"$PMUCONV" folded --weight samples "$W/$f-packed.pmu" >"$W/$f-packed.folded" 2>"$W/$f-packed.err"
	cmp -s "$W/$f-plain.folded" "$W/$f-packed.folded" || why="$why $f: folded output differs packed"
	sed "s|$W/$f-packed.pmu|$W/$f.pmu|g" "$W/$f-packed.err" | cmp -s "$W/$f-plain.err" - ||
		why="$why $f: messages differ packed: $(head -1 "$W/$f-packed.err")"
	cmp -s "$W/$f.pmu" "$W/$f-unpacked.pmu" || why="$why $f: unpacking did not give the file back"
	[ "$(wc -c <"$W/$f-packed.pmu")" -lt "$(wc -c <"$W/$f.pmu")" ] || why="$why $f: not smaller packed"
done
if [ -z "$why" ]; then
	pass packed-copies
else
	fail packed-copies "$why"
fi

# ---- the binary missing at conversion time ---------------------------------
"$PTSNAP" -o "$W/gone.pmu" -n 100 -- "$W/bin/nofpwork" >/dev/null 2>&1
rm -f "$W/bin/nofpwork"
"$PMUCONV" report "$W/gone.pmu" >"$W/gone.report" 2>"$W/gone.err"
rc=$?
line=$(grep '^unwind:' "$W/gone.report")
if [ $rc -eq 0 ] && echo "$line" | grep -q "^unwind: *100 user stack copies: [0-9] unwound fully" &&
	grep -q "nofpwork" "$W/gone.err"; then
	pass missing-binary
else
	fail missing-binary "exit $rc; '$line'; stderr: $(head -2 "$W/gone.err" | tr '\n' '|')"
fi

# ---- corrupt copy sizes ----------------------------------------------------
cp "$WORK" "$W/bin/nofpwork"
"$PTSNAP" -o "$W/bad.pmu" -n 50 --corrupt 5 -- "$W/bin/nofpwork" >/dev/null 2>&1
"$PMUCONV" report "$W/bad.pmu" >"$W/bad.report" 2>"$W/bad.err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^unwind: *40 user stack copies" "$W/bad.report" &&
	grep -q "skipped 10 malformed sample record" "$W/bad.err"; then
	pass corrupt-size
else
	fail corrupt-size "exit $rc; $(grep '^unwind:' "$W/bad.report"); stderr: $(head -2 "$W/bad.err" | tr '\n' '|')"
fi
exit 0
