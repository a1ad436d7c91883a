#!/bin/sh
# Host half of dwarf_perf: the share of samples on each of nofpwork's call
# paths from main (main;phase_a.. and main;sort_phase..: user frames) from
# pmuconv's unwinding of pmuctl's copies and from perf's own dwarf
# unwinding (perf script text read by pmuconv): within 3 percentage points
# of each other. Which leaf inside qsort a sample lands on (cmp or libc's
# merge sort) is compared for the record only (host.log): the two tools
# sample differently (NMI IPI vs hrtimer) and TCG moves short functions'
# samples between them.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
path=$(cat nofpwork.path)
mkdir -p "symfs$(dirname "$path")" && cp "$GUEST_BIN/nofpwork_dyn" "symfs$path" || fail "no nofpwork_dyn"
# the guest's libc and loader are this host's (copied for perf by run.sh)
for lib in /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2; do
	mkdir -p "symfs$(dirname "$lib")" && cp -L "$lib" "symfs$lib" || fail "no $lib on this host"
done
"$BIN/pmuconv" folded pmuprof.pmu --symfs symfs --comm nofpwork_dyn --user-only --weight samples \
	--no-process -o pmuprof.folded 2>pmuprof.err || fail_check folded "$(tail -n 1 pmuprof.err)"
"$BIN/pmuconv" folded perf.txt --input-format perf-script --comm nofpwork_dyn --user-only \
	--weight samples --no-process -o perf.folded 2>perf.err || fail_check folded-perf "$(tail -n 1 perf.err)"
cat pmuprof.err perf.err >>"$RESULTS/host.log" 2>/dev/null
V='(\.[a-z0-9_.]+)?'
# the paths, from main (perf and pmuprof may name the frames below main differently)
share() {
	awk -v re="$2" '{ n += $NF } $0 ~ re { k += $NF } END { printf "%d %d\n", k, n }' "$1"
}
set -- $(share pmuprof.folded "(^|;)main;sort_phase$V;([^;]+;)*cmp$V [0-9]+\$") \
	$(share perf.folded "(^|;)main;sort_phase$V;([^;]+;)*cmp$V [0-9]+\$")
echo "leaf cmp under sort_phase (not judged): pmuprof $1 of $2, perf $3 of $4" >>"$RESULTS/host.log"
for p in "phase_a;main;phase_a$V(;walk$V(;leaf$V)?)? [0-9]+\$" "sort_phase;main;sort_phase$V(;[^;]+)* [0-9]+\$"; do
	name=${p%%;*}
	re="(^|;)${p#*;}"
	set -- $(share pmuprof.folded "$re") $(share perf.folded "$re")
	echo "path $name: pmuprof $1 of $2, perf $3 of $4" >>"$RESULTS/host.log"
	if [ "$2" -ge 100 ] && [ "$4" -ge 100 ]; then
		d=$(awk -v a="$1" -v b="$2" -v c="$3" -v e="$4" 'BEGIN { x = 100 * a / b - 100 * c / e; printf "%.1f", x < 0 ? -x : x }')
		if awk -v d="$d" 'BEGIN { exit !(d <= 3) }'; then
			pass_check "share-$name"
		else
			fail_check "share-$name" "pmuprof $1/$2, perf $3/$4: $d pp apart (want <= 3)"
		fi
	else
		fail_check "share-$name" "too few samples: pmuprof $2, perf $4 (want >= 100 each)"
	fi
done
host_done
