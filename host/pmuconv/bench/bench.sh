#!/bin/sh
# pmuconv throughput benchmark (issue 5 "Speed"):
#   - native: `pmuconv folded` on a pmugen recording of SAMPLES samples with
#     32-frame stacks (default 10 M), reported as samples/s (wall and user CPU);
#   - perf script: `pmuconv folded -e cycles` on a generated perf script text
#     of MB megabytes with 32-frame callchains, reported as MB/s;
#   - memory: anonymous RSS (PMUCONV_STATS) for SAMPLES/10 and SAMPLES samples
#     over the same unique stacks: it should not grow with samples.
# Usage: host/pmuconv/bench/bench.sh [--quick] [OUTDIR]   (default out/bench)
# Targets: >= 10 M samples/s native, >= 200 MB/s perf script (one core).
set -e
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SAMPLES=10000000
MB=400
if [ "$1" = "--quick" ]; then
	SAMPLES=1000000
	MB=50
	shift
fi
OUT=${1:-$ROOT/out/bench}
mkdir -p "$OUT"
P=$BUILD/bin/pmuconv
G=$BUILD/bin/pmugen
[ -x "$P" ] && [ -x "$G" ] || { echo "bench: build pmuconv and pmugen first (make all unit)"; exit 1; }
LIBC=$(ldd /bin/ls | awk '/libc.so/ { print $3 }')

now() { date +%s.%N; }
# run CMD...: wall seconds in $wall, user seconds in $user
run() {
	t0=$(now)
	/usr/bin/env time -f '%U' -o "$OUT/.time" "$@" >/dev/null 2>"$OUT/.stderr"
	t1=$(now)
	wall=$(echo "$t1 - $t0" | bc -l)
	user=$(cat "$OUT/.time")
}

$G -o "$OUT/native.pmu" -n "$SAMPLES" -d 32 -S 5000 -p 8 -b /bin/ls -b "$LIBC" >/dev/null
cat "$OUT/native.pmu" >/dev/null # warm the page cache
run "$P" folded "$OUT/native.pmu" -o "$OUT/native.folded" -q --no-progress
printf 'native folded: %d samples, %s MB: %.2f s wall (%.2f M samples/s), %.2f s user (%.2f M samples/s)\n' \
	"$SAMPLES" $(($(stat -c %s "$OUT/native.pmu") >> 20)) "$wall" \
	"$(echo "$SAMPLES / $wall / 1000000" | bc -l)" "$user" \
	"$(echo "$SAMPLES / ($user + 0.001) / 1000000" | bc -l)" | tee "$OUT/pmuconv.txt"

$G -o "$OUT/native_small.pmu" -n $((SAMPLES / 10)) -d 32 -S 5000 -p 8 -b /bin/ls -b "$LIBC" >/dev/null
for f in native_small native; do
	PMUCONV_STATS=1 "$P" folded "$OUT/$f.pmu" -o /dev/null -q --no-progress 2>"$OUT/.stats" || true
	echo "memory $f: $(grep RssAnon "$OUT/.stats" | awk '{print $5, $6}') anonymous" | tee -a "$OUT/pmuconv.txt"
done

python3 "$ROOT/host/pmuconv/bench/gen_perfscript.py" "$OUT/perf.txt" "$MB" 32
cat "$OUT/perf.txt" >/dev/null
size=$(stat -c %s "$OUT/perf.txt")
run "$P" folded "$OUT/perf.txt" -e cycles -q --no-progress
printf 'perf script folded: %d MB: %.2f s wall (%.0f MB/s), %.2f s user (%.0f MB/s)\n' \
	$((size >> 20)) "$wall" "$(echo "$size / 1048576 / $wall" | bc -l)" "$user" \
	"$(echo "$size / 1048576 / ($user + 0.001)" | bc -l)" | tee -a "$OUT/pmuconv.txt"
rm -f "$OUT/.time" "$OUT/.stderr" "$OUT/.stats"
