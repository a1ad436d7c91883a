#!/bin/sh
# Per-CPU ring microbenchmark: prints a table.
#   sh bench/ring/run.sh [RINGBENCH_BINARY]     (make bench-ring builds it first)
# Environment: QUICK=1 for fewer records; OUT=FILE also writes the table there.
# Instruction counts come from valgrind's callgrind (deterministic); timings
# from wall clock on this machine (noisy on a shared 2-core box).
set -eu
BIN=${1:-build/bench/ringbench}
if [ ! -x "$BIN" ]; then
	echo "ring bench: $BIN not built; run 'make bench-ring'" >&2
	exit 1
fi
if [ "${QUICK:-0}" = 1 ]; then N_T=300000 N_C=20000; else N_T=2000000 N_C=200000; fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

val() { sed -n "s/^$1 //p" "$2"; }

"$BIN" throughput -n "$N_T" >"$TMP/t" || { echo "ring bench: throughput run failed" >&2; exit 1; }
"$BIN" producer -n "$N_T" >"$TMP/p" || { echo "ring bench: producer run failed" >&2; exit 1; }

# Ir: instructions executed inside the toggled functions, from callgrind's
# "totals:"/"summary:" line (first event is Ir).
callgrind_ir() { # out-file mode records toggle...
	out=$1 mode=$2 n=$3
	shift 3
	tog=""
	for f in "$@"; do tog="$tog --toggle-collect=$f"; done
	# shellcheck disable=SC2086
	valgrind --tool=callgrind --callgrind-out-file="$out" $tog "$BIN" "$mode" -n "$n" \
		>/dev/null 2>"$out.log" || { echo "ring bench: callgrind $mode failed, see:" >&2; cat "$out.log" >&2; exit 1; }
	awk '/^(summary|totals):/ { print $2; exit }' "$out"
}

if command -v valgrind >/dev/null 2>&1; then
	ir_ring=$(callgrind_ir "$TMP/cg1" producer "$N_C" ring__reserve_sample ring__commit)
	ir_all=$(callgrind_ir "$TMP/cg2" producer "$N_C" bench_write_one)
	ir_nmi=$(callgrind_ir "$TMP/cg5" producer-nmi "$N_C" bench_nmi_reserve bench_nmi_commit)
	# "full" mode fills the ring first with the toggles active: subtract a
	# run that only fills (-n 0).
	ir_full=$(callgrind_ir "$TMP/cg3" full "$N_C" ring__reserve_sample ring__commit)
	ir_fill=$(callgrind_ir "$TMP/cg4" full 0 ring__reserve_sample ring__commit)
	ir_full=$((ir_full - ir_fill))
	per() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.1f", a / n }'; }
	ipr_ring=$(per "$ir_ring" "$N_C")
	ipr_all=$(per "$ir_all" "$N_C")
	ipr_nmi=$(per "$ir_nmi" "$N_C")
	ipr_full=$(per "$ir_full" "$N_C")
else
	ipr_ring="n/a (no valgrind)" ipr_all="n/a" ipr_full="n/a" ipr_nmi="n/a"
fi

target=100
verdict=PASS
case "$ipr_ring" in
n/a*) verdict=SKIP ;;
*) awk -v v="$ipr_ring" -v t="$target" 'BEGIN { exit !(v < t) }' || verdict=FAIL ;;
esac

{
	echo "pmuprof ring benchmark: $(val record_bytes "$TMP/t")-byte sample (32-frame kernel stack)"
	printf '%-58s %s\n' "metric" "value"
	printf '%-58s %s\n' "end-to-end records/s (1 producer + 1 consumer thread)" "$(val records_per_s "$TMP/t")"
	printf '%-58s %s\n' "end-to-end MB/s" "$(val mb_per_s "$TMP/t")"
	printf '%-58s %s\n' "producer-only records/s (reserve + fill + commit)" "$(val producer_records_per_s "$TMP/p")"
	printf '%-58s %s\n' "instructions/record, reserve + commit (no stack copy)" "$ipr_ring"
	printf '%-58s %s\n' "instructions/record, NMI writer, no writer open" "$ipr_nmi"
	printf '%-58s %s\n' "instructions/record, incl. filling the record + stack" "$ipr_all"
	printf '%-58s %s\n' "instructions/attempt, ring full (loss path)" "$ipr_full"
	printf '%-58s %s\n' "target: reserve + commit < $target instructions/record" "$verdict"
} >"$TMP/table"
cat "$TMP/table"
if [ -n "${OUT:-}" ]; then
	mkdir -p "$(dirname "$OUT")"
	cp "$TMP/table" "$OUT"
fi
[ "$verdict" != FAIL ]
