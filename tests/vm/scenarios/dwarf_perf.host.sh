#!/bin/sh
# Host half of dwarf_perf.
# nofpwork: the share of samples on each of its call paths from main
# (main;phase_a.. and main;sort_phase..: user frames) from pmuconv's
# unwinding of pmuctl's copies and from perf's own dwarf unwinding (perf
# script text read by pmuconv): within 3 percentage points of each other.
# Inside libc's qsort, what can be judged is: the comparator's callers
# (>= 95 % of pmuprof's samples in cmp have main;sort_phase;qsort..;cmp),
# that every sample under sort_phase ends in sort_phase itself, cmp or libc
# (never another function of the workload, never [truncated]), and that cmp
# is the hot leaf there for both tools (>= 50 %). How the samples inside
# qsort split between cmp and libc's merge sort is logged only (host.log):
# the two tools sample differently (NMI IPI vs hrtimer) and TCG moves short
# functions' samples between them (runs measured 2-12 pp apart).
# cxxwork: >= 95 % of pmuprof's samples in the workload (those with main or
# its functions on the stack; not process start-up and exit in ld.so and
# libc) on a known full call path from _start, with the inlined
# pmu::Mix::apply/Fold::apply;hot_mix frames (>= 90 % of the samples in
# run<>), its samples in the vDSO (pmu::clock_phase -> clock_gettime)
# unwound through the [vdso] image pmuctl records (>= 95 % of them reach
# main, through clock_phase or main's own now()), and run<Mix>'s share of
# the samples in run<Mix> or run<Fold> (2/3 of their work) within 3 pp of
# perf's, or within 3 standard deviations of the difference where that is
# more (about 1500 and 2200 such samples under TCG give 4.9 pp: a 3 pp
# bound alone would fail about 1 run in 15 from sampling noise, and runs on a loaded
# host measured 3.3-3.7 pp). Shares of all samples are logged only: perf 6.1's unwinding out
# of the vDSO fails on some runs (its stacks then end
# [unknown];clock_gettime;__vdso_clock_gettime, not under main), which moves
# every other path's share.
# Both comparisons use --no-inline (perf script --no-inline).
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
for w in nofpwork cxxwork; do
	path=$(cat $w.path)
	mkdir -p "symfs$(dirname "$path")" && cp "$GUEST_BIN/${w}_dyn" "symfs$path" || fail "no ${w}_dyn"
done
# the guest's libc and loader are this host's (copied for perf by run.sh)
for lib in /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2; do
	mkdir -p "symfs$(dirname "$lib")" && cp -L "$lib" "symfs$lib" || fail "no $lib on this host"
done
# fold: pmuprof recording $1 and perf script text $2 of comm $3 into $4.pmuprof / $4.perf
fold() {
	"$BIN/pmuconv" folded "$1" --symfs symfs --comm "$3" --user-only --weight samples \
		--no-process --no-inline -o "$4.pmuprof" 2>"$4.pmuprof.err" ||
		fail_check "folded-$4" "$(tail -n 1 "$4.pmuprof.err")"
	"$BIN/pmuconv" folded "$2" --input-format perf-script --comm "$3" --user-only \
		--weight samples --no-process -o "$4.perf" 2>"$4.perf.err" ||
		fail_check "folded-perf-$4" "$(tail -n 1 "$4.perf.err")"
	cat "$4.pmuprof.err" "$4.perf.err" >>"$RESULTS/host.log" 2>/dev/null
}
fold pmuprof.pmu perf.txt nofpwork_dyn nofp
fold cxx.pmu cxx-perf.txt cxxwork_dyn cxx
V='(\.[a-z0-9_.]+)?'
# judge: check name $1, "k n" of pmuprof ($2 $3) >= $4 percent, needing n >= $5 (100)
at_least() {
	if [ "$3" -ge "${5:-100}" ] && [ $(($2 * 100)) -ge $(($4 * $3)) ]; then
		pass_check "$1"
	else
		fail_check "$1" "$2 of $3 samples, want >= $4 % of >= ${5:-100}"
	fi
}
# compare: share of ERE $2 (from main) in folded $3.pmuprof and $3.perf
# within 3 pp; with $4 = sigma: within 3 pp or 3 standard deviations of the
# difference of two sampled shares, whichever is larger (few samples); with
compare() {
	set -- "$1" "(^|;)$2" "$3" $(folded_share "$3.pmuprof" "(^|;)$2") $(folded_share "$3.perf" "(^|;)$2") "${4:-}"
	echo "path $1: pmuprof $4 of $5, perf $6 of $7" >>"$RESULTS/host.log"
	if [ "$5" -ge 100 ] && [ "$7" -ge 100 ]; then
		d=$(awk -v a="$4" -v b="$5" -v c="$6" -v e="$7" 'BEGIN { x = 100 * a / b - 100 * c / e; printf "%.1f", x < 0 ? -x : x }')
		lim=$(awk -v a="$4" -v b="$5" -v c="$6" -v e="$7" -v s="$8" 'BEGIN {
			p = a / b; q = c / e; v = 300 * sqrt(p * (1 - p) / b + q * (1 - q) / e)
			printf "%.1f", (s == "sigma" && v > 3) ? v : 3 }')
		if awk -v d="$d" -v l="$lim" 'BEGIN { exit !(d <= l) }'; then
			pass_check "share-$1"
		else
			fail_check "share-$1" "pmuprof $4/$5, perf $6/$7: $d pp apart (want <= $lim)"
		fi
	else
		fail_check "share-$1" "too few samples: pmuprof $5, perf $7 (want >= 100 each)"
	fi
}

# ---- nofpwork ------------------------------------------------------------
compare phase_a "main;phase_a$V(;walk$V(;leaf$V)?)? [0-9]+\$" nofp
compare sort_phase "main;sort_phase$V(;[^;]+)* [0-9]+\$" nofp
SORT="(^|;)main;sort_phase$V"
CMP="$SORT;([^;]+;)*cmp$V [0-9]+\$"
# the comparator's callers: through qsort, from sort_phase
set -- $(folded_share nofp.pmuprof "$SORT;qsort[^;]*(;[^;]+)*;cmp$V [0-9]+\$") $(folded_share nofp.pmuprof ";cmp$V [0-9]+\$")
at_least qsort-cmp-callers "$1" "$3" 95
# what ends a sort_phase sample: sort_phase, cmp or libc (not the workload's other functions)
set -- $(folded_share nofp.pmuprof "$SORT(;qsort[^;]*(;[^;]*)*)? [0-9]+\$") $(folded_share nofp.pmuprof "$SORT(;[^;]+)* [0-9]+\$")
bad=$(grep -E "$SORT" nofp.pmuprof | grep -E ';(main|phase_a|walk|leaf)(\.[a-z0-9_.]+)? [0-9]+$|\[truncated\]' | head -2 | tr '\n' '|')
if [ "$3" -ge 100 ] && [ $(($1 * 100)) -ge $((95 * $3)) ] && [ -z "$bad" ]; then
	pass_check qsort-leaves
else
	fail_check qsort-leaves "$1 of $3 sort_phase samples end in sort_phase, qsort.. or cmp; stray: $bad"
fi
# cmp is the hot leaf under sort_phase, for both tools; the split is logged
set -- $(folded_share nofp.pmuprof "$CMP") $(folded_share nofp.pmuprof "$SORT(;[^;]+)* [0-9]+\$") \
	$(folded_share nofp.perf "$CMP") $(folded_share nofp.perf "$SORT(;[^;]+)* [0-9]+\$")
echo "leaf cmp of sort_phase's samples (logged): pmuprof $1 of $3, perf $5 of $7" >>"$RESULTS/host.log"
at_least cmp-hot-leaf "$1" "$3" 50
at_least cmp-hot-leaf-perf "$5" "$7" 50

# ---- cxxwork -------------------------------------------------------------
"$BIN/pmuconv" folded cxx.pmu --symfs symfs --comm cxxwork_dyn --user-only --weight samples \
	--no-process -o cxx.inline 2>>"$RESULTS/host.log"
RUN='unsigned long pmu::run<pmu::(Mix|Fold)>\(unsigned long\)'
APPLY='pmu::(Mix|Fold)::apply\(unsigned long, unsigned long\)'
CLOCK='pmu::clock_phase\([^)]*\)'
START='^_start;__libc_start_main[^;]*(;[^;]+)?;main'
set -- $(folded_share cxx.inline "$START(;$RUN(;$APPLY;hot_mix)?|;$CLOCK(;[^;[]+)*)? [0-9]+\$") \
	$(folded_share cxx.inline "(^|;)(main|pmu::[^;]*|[^;]*pmu::run<[^;]*)(;[^;]+)* [0-9]+\$")
at_least cxx-full-stacks "$1" "$3" 95
set -- $(folded_share cxx.inline "$START;$RUN;$APPLY;hot_mix [0-9]+\$") $(folded_share cxx.inline ";$RUN(;[^;]+)* [0-9]+\$")
at_least cxx-inline-frames "$1" "$3" 90 50
# a vDSO leaf: a named __vdso_* function, or a static one inside it
INVDSO='(;__vdso_[a-z_]+|;\[vdso\][^;]*)+ [0-9]+$'
set -- $(folded_share cxx.inline "$START(;$CLOCK|;now)?;[^;]*clock_gettime[^;]*$INVDSO") $(folded_share cxx.inline "$INVDSO")
echo "vdso: $1 of $3 samples in the vDSO unwound to main" >>"$RESULTS/host.log"
if [ "$3" -gt 0 ] && [ $(($1 * 100)) -ge $((95 * $3)) ]; then
	pass_check cxx-vdso-unwound
else
	fail_check cxx-vdso-unwound "$1 of $3 samples in the vDSO reach main through clock_phase or now (want >= 95 % of > 0)"
fi
# run<Mix>'s share of the run<> samples (the two files cut to them)
for t in pmuprof perf; do
	grep -E '(^|;)main;[^;]*pmu::run<pmu::(Mix|Fold)>' cxx.$t >cxx-run.$t
	set -- $(folded_share cxx.$t "(^|;)main;[^;]*pmu::run<pmu::Mix>") $(folded_share cxx.$t "(^|;)main;[^;]*pmu::run<pmu::Fold>") \
		$(folded_share cxx.$t "(^|;)main;[^;]*pmu::clock_phase")
	echo "paths of all samples (logged) $t: run<Mix> $1, run<Fold> $3, clock_phase $5 of $2" >>"$RESULTS/host.log"
done
# Instruction shares (instructions:u every P, both tools): within 3 pp of
# perf's, or 3 standard deviations of the difference where that is more.
# (They were cpu-clock time shares before, judged within 15 pp only: under
# TCG on a loaded host two such runs measured 0.9, 11.7 and 15.8 pp apart.)
compare run-Mix-of-run "main;[^;]*pmu::run<pmu::Mix>[^;]*(;[^;]+)* [0-9]+\$" cxx-run sigma
# and against the truth: run<Mix>'s loop runs hot_mix 2000 times a call,
# run<Fold>'s 1000, the same instructions each, so 2/3 of run<>'s
# instructions are run<Mix>'s: pmuprof's share within 3 pp (or 3 sigma)
set -- $(folded_share cxx-run.pmuprof "(^|;)main;[^;]*pmu::run<pmu::Mix>[^;]*(;[^;]+)* [0-9]+\$")
echo "run<Mix> of run<>: pmuprof $1 of $2 (truth: 2/3 of the instructions)" >>"$RESULTS/host.log"
if [ "$2" -ge 100 ] && awk -v k="$1" -v n="$2" 'BEGIN { p = k / n; d = 100 * p - 200 / 3; if (d < 0) d = -d
	v = 300 * sqrt(p * (1 - p) / n); exit !(d <= (v > 3 ? v : 3)) }'; then
	pass_check run-Mix-of-run-truth
else
	fail_check run-Mix-of-run-truth "pmuprof $1 of $2 run<> samples in run<Mix>, want 2/3 within 3 pp (or 3 sigma)"
fi
host_done
