#!/bin/sh
# Host half of pmu_counts: pmuconv's sum of sample periods per event against
# perf stat's count of the same command in the same boot (within 1 %), no
# sample lost, all samples in user mode, and the command line kept whole in
# the header.
. "$ROOT/tests/vm/lib/host.sh"
for P in ${PERIODS:-1000 10000 1000000}; do
	f=$RESULTS/c$P.pmu
	[ -f "$f" ] || { fail_check "file-c$P" "no $f"; continue; }
	"$BIN/pmuconv" report "$f" >"$RESULTS/report-$P.txt" 2>&1 ||
		{ fail_check "report-c$P" "pmuconv report exited $?"; continue; }
	grep -q "^command: .*-e instructions:u/$P,cycles:u/$P,branches:u/$P -o" "$RESULTS/report-$P.txt" &&
		pass_check "header-cmdline-c$P" ||
		fail_check "header-cmdline-c$P" "$(grep '^command:' "$RESULTS/report-$P.txt")"
	# lost samples are missing from the sums: say so by name
	lost=$(sed -n 's/^lost: *\([0-9]*\) .*/\1/p' "$RESULTS/report-$P.txt")
	[ "${lost:-x}" = 0 ] && pass_check "no-lost-c$P" ||
		fail_check "no-lost-c$P" "${lost:-?} samples lost (ring overflow): the sums below fall short"
	for e in instructions:u cycles:u branches:u; do
		sum_check "sum-c$P-$e" "$RESULTS/report-$P.txt" "$e" "$RESULTS/stat.csv" "$e" 1
	done
	# :u events sample user code: a kernel IP only when the overflowing
	# instruction was the SYSCALL itself (the PMI is taken at the next
	# boundary, in the kernel: zero skid; hardware does the same with its
	# skid, and perf keeps those samples too): at most 1 in 1000
	"$BIN/pmuconv" report --kernel-only "$f" >"$RESULTS/kreport-$P.txt" 2>&1
	r=$(sed -n 's/^samples: *\([0-9]*\) read, \([0-9]*\) removed.*/\1 \2/p' "$RESULTS/kreport-$P.txt")
	if [ -n "$r" ] && [ $(((${r% *} - ${r#* }) * 1000)) -le "${r% *}" ]; then
		pass_check "user-only-c$P"
	else
		fail_check "user-only-c$P" "$(grep '^samples:' "$RESULTS/kreport-$P.txt")"
	fi
done
host_done
