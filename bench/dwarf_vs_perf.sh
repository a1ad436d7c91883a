#!/bin/sh
# Issue 18's offline unwinding comparison: pmuconv unwinding pmuctl's
# --call-graph dwarf stack copies vs perf report --stdio and perf script
# unwinding perf's --call-graph dwarf recording of the same workload
# (nofpwork_dyn: -O2 -fomit-frame-pointer, qsort from libc; 8 s of
# cpu-clock at ~1 kHz on one vCPU), both recorded in the same guest boot by
# the VM scenario dwarf_perf (tests/vm/scenarios/dwarf_perf.sh, which keeps
# perf.data, pmuprof.pmu and the binaries under symfs/).
#
# Method: the VM runs TCG, where timing a converter means timing QEMU, so
# the conversions run on this host, from the files the guest wrote, each
# pinned to one CPU (taskset -c CPU), REPEATS times; the table gives the
# least user+sys CPU seconds of each (the run least disturbed by the other
# work on the machine) and samples per CPU-second, with the samples each
# tool recorded (they differ: two recordings). perf is the host's perf (the
# guest's: Debian's 6.1), reading the guest's binaries with --symfs.
#
#   sh bench/dwarf_vs_perf.sh [RESULTS_DIR] [REPEATS]
#
# RESULTS_DIR: a kept dwarf_perf run's results (build/vm/runs/dwarf_perf-*/
# results); without it, the newest kept one, else the scenario runs once
# (sh tests/vm/run.sh --keep dwarf_perf, about a minute under TCG). The run
# bench/RESULTS.md (5d) measures is kept outside the tree, in
# ~/.cache/pmuprof/bench/dwarf_perf-20261126-132631-3564-1/results (78 MB).
# PMUCONV=another/pmuconv times another build on the same files (before and
# after a change, in one sitting: the host's load moves the numbers).
# Prints a markdown table; the target (issue 18) is pmuconv >= 10x perf.
# A row without the unwind memo (PMUCONV_UNWIND_MEMO=0) shows what it saves,
# and the line below the table how many unwinds it answered. pmuctl stores
# stack copies packed since 2026-11-26 (format version 2): the file is
# converted packed and whole (tests/tools/ucpack packs an older recording,
# or unpacks a newer one, in a temporary directory; the same samples), and
# the last lines give the three files' sizes.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
PMUCONV=${PMUCONV:-$BUILD/bin/pmuconv}
PERF=${PERF:-perf}
CPU=${CPU:-0}
R=$1
N=${2:-3}
export LC_ALL=C

die() {
	echo "dwarf_vs_perf: $*" >&2
	exit 1
}
newest() { ls -d "$BUILD"/vm/runs/dwarf_perf-*/results 2>/dev/null | tail -n 1; }
UCPACK=${UCPACK:-$BUILD/bin/ucpack}
[ -x "$PMUCONV" ] || die "no $PMUCONV (make all)"
[ -x "$UCPACK" ] || die "no $UCPACK (make unit)"
command -v "$PERF" >/dev/null 2>&1 || die "no perf (make deps installs linux-perf)"
[ -n "$R" ] || R=$(newest)
if [ -z "$R" ]; then
	nice sh "$ROOT/tests/vm/run.sh" --keep dwarf_perf >&2 || die "the dwarf_perf scenario failed"
	R=$(newest)
fi
for f in perf.data pmuprof.pmu symfs; do
	[ -e "$R/$f" ] || die "$R has no $f (a dwarf_perf run from before it kept perf.data?)"
done
R=$(cd "$R" && pwd) # perf wants an absolute --symfs
W=$(mktemp -d "${TMPDIR:-/tmp}/dwarf_vs_perf.XXXXXX")
trap 'rm -rf "$W"' EXIT

# best: least user+sys CPU seconds of N runs of the command "$@" (getrusage
# of the child: microseconds, where time(1) has 10 ms steps)
best() {
	python3 - "$N" "$CPU" "$@" <<'PY' || die "failed: $*"
import resource, subprocess, sys
n, cpu, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
best = None
for _ in range(n):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(["taskset", "-c", cpu] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit(1)
    t = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    best = t if best is None or t < best else best
print("%.5f" % best)
PY
}
# the recording packed (P) and whole (F): one of them is the kept file
case $(od -A n -t u4 -j 12 -N 4 "$R/pmuprof.pmu" | tr -d ' ') in
1)
	F=$R/pmuprof.pmu P=$W/packed.pmu
	"$UCPACK" "$R/pmuprof.pmu" "$P" || die "ucpack failed"
	;;
*)
	P=$R/pmuprof.pmu F=$W/whole.pmu
	"$UCPACK" -d "$R/pmuprof.pmu" "$F" || die "ucpack -d failed"
	;;
esac
# the samples each recording holds
ns_pmu=$("$PMUCONV" report "$R/pmuprof.pmu" --symfs "$R/symfs" 2>/dev/null |
	sed -n 's/^unwind: *\([0-9]*\) user stack copies.*/\1/p')
ns_perf=$("$PERF" script -i "$R/perf.data" --symfs "$R/symfs" -F event 2>/dev/null | grep -c 'cpu-clock')
[ "${ns_pmu:-0}" -gt 0 ] && [ "${ns_perf:-0}" -gt 0 ] || die "no samples counted (pmuprof ${ns_pmu:-?}, perf ${ns_perf:-?})"

t_fold=$(best "$PMUCONV" folded "$P" --symfs "$R/symfs" -q -o "$W/f")
t_fold_ni=$(best "$PMUCONV" folded "$P" --symfs "$R/symfs" --no-inline -q -o "$W/f")
t_fold_wh=$(best "$PMUCONV" folded "$F" --symfs "$R/symfs" -q -o "$W/f")
# the same without the unwind memo: every sample unwound by libdwfl
export PMUCONV_UNWIND_MEMO=0
t_fold_nm=$(best "$PMUCONV" folded "$P" --symfs "$R/symfs" -q -o "$W/f")
unset PMUCONV_UNWIND_MEMO
PMUCONV_STATS=1 "$PMUCONV" folded "$P" --symfs "$R/symfs" -q -o "$W/f" 2>"$W/stats" >/dev/null
memo=$(sed -n 's/.*unwind memo: \([0-9]* of [0-9]*\) unwinds answered.*/\1/p' "$W/stats")
steps=$(sed -n 's/.*unwind memo: .*; \([0-9]*\) of them walked from stored steps.*/\1/p' "$W/stats")
t_script=$(best "$PMUCONV" script "$P" --symfs "$R/symfs" -q)
t_prep=$(best "$PERF" report --stdio -i "$R/perf.data" --symfs "$R/symfs")
t_pscr=$(best "$PERF" script -i "$R/perf.data" --symfs "$R/symfs")

rate() { awk -v n="$1" -v t="$2" 'BEGIN { r = t > 0 ? n / t : 0; if (r >= 1000) printf "%.0f k", r / 1000; else printf "%.0f", r }'; }
ratio() { awk -v a="$1" -v ta="$2" -v b="$3" -v tb="$4" 'BEGIN { printf "%.1fx", (a / ta) / (b / tb) }'; }
echo "| conversion | samples | CPU s (best of $N) | samples per CPU-s | vs perf report / perf script |"
echo "| --- | ---: | ---: | ---: | ---: |"
row() { echo "| $1 | $2 | $3 | $(rate "$2" "$3") | $4 |"; }
row "pmuconv folded (unwind + inline frames)" "$ns_pmu" "$t_fold" \
	"$(ratio "$ns_pmu" "$t_fold" "$ns_perf" "$t_prep") / $(ratio "$ns_pmu" "$t_fold" "$ns_perf" "$t_pscr")"
row "pmuconv folded, copies stored whole (version 1 file)" "$ns_pmu" "$t_fold_wh" \
	"$(ratio "$ns_pmu" "$t_fold_wh" "$ns_perf" "$t_prep") / $(ratio "$ns_pmu" "$t_fold_wh" "$ns_perf" "$t_pscr")"
row "pmuconv folded --no-inline" "$ns_pmu" "$t_fold_ni" \
	"$(ratio "$ns_pmu" "$t_fold_ni" "$ns_perf" "$t_prep") / $(ratio "$ns_pmu" "$t_fold_ni" "$ns_perf" "$t_pscr")"
row "pmuconv folded, unwind memo off" "$ns_pmu" "$t_fold_nm" \
	"$(ratio "$ns_pmu" "$t_fold_nm" "$ns_perf" "$t_prep") / $(ratio "$ns_pmu" "$t_fold_nm" "$ns_perf" "$t_pscr")"
row "pmuconv script (every sample printed)" "$ns_pmu" "$t_script" \
	"$(ratio "$ns_pmu" "$t_script" "$ns_perf" "$t_prep") / $(ratio "$ns_pmu" "$t_script" "$ns_perf" "$t_pscr")"
row "perf report --stdio" "$ns_perf" "$t_prep" "1x / -"
row "perf script" "$ns_perf" "$t_pscr" "- / 1x"
echo
echo "unwind memo: ${memo:-?} samples' unwinds answered${steps:+, $steps of them walked from stored steps} (PMUCONV_STATS=1)"
size() { wc -c <"$1" | awk -v n="$2" '{ printf "%.2f MB, %.0f bytes per sample", $1 / 1e6, $1 / n }'; }
echo
echo "files: pmuprof packed $(size "$P" "$ns_pmu"); pmuprof whole $(size "$F" "$ns_pmu"); perf.data $(size "$R/perf.data" "$ns_perf")"
