#!/bin/sh
# Replay the pmuconv text-parser fuzz corpora under AddressSanitizer + UBSan
# (gcc builds of tests/fuzz/fuzz_perfscript.c and fuzz_stap.c with the shared
# tests/fuzz/replay_main.c): the saved corpus plus every text input of the
# expected-output cases, and a few inputs mutated here (truncations and byte
# flips of the corpus files). A memory error, UB or a crash fails the case.
# With PMUCONV_FUZZ_TIME=N and clang available, also fuzzes each target for
# N seconds (libFuzzer). Prints PASS/FAIL/SKIP lines; always exits 0.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 0
BUILD=${BUILD:-build}
OUT=$BUILD/tests/data/pmuconv-fuzz
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$OUT"

# mutate SRC_DIR DST_DIR: truncated and byte-flipped copies (deterministic)
mutate() {
	mkdir -p "$2"
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		size=$(wc -c <"$f")
		for cut in 1 7 $((size / 3)) $((size / 2)) $((size - 1)); do
			[ "$cut" -gt 0 ] 2>/dev/null && head -c "$cut" "$f" >"$2/$b.cut$cut"
		done
		# flip one byte a third of the way in to a NUL, a newline and a ';'
		off=$((size / 3))
		for byte in '\000' '\n' ';' '!'; do
			{ head -c "$off" "$f"; printf "$byte"; tail -c +$((off + 2)) "$f"; } \
				>"$2/$b.flip$(printf '%s' "$byte" | od -An -c | tr -dc 'a-z0-9')"
		done
	done
}

for t in perfscript stap; do
	bin=$BUILD/tests/fuzz/replay_$t
	if [ ! -x "$bin" ] && ! make -s "$bin" >/dev/null 2>&1; then
		echo "FAIL: fuzz_replay_pmuconv/$t (cannot build $bin; run make $bin)"
		continue
	fi
	in=$OUT/$t-inputs
	rm -rf "$in"
	mkdir -p "$in"
	cp tests/fuzz/corpus/$t/* "$in"/ 2>/dev/null
	for f in tests/data/pmuconv/*/*.txt tests/data/pmuconv/*/*.folded; do
		[ -f "$f" ] && cp "$f" "$in/data_$(echo "$f" | tr '/' '_')"
	done
	mutate tests/fuzz/corpus/$t "$in"
	n=$(find "$in" -type f | wc -l)
	log=$OUT/$t.log
	if "$bin" "$in" >"$log" 2>&1 && ! grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$log"; then
		echo "PASS: fuzz_replay_pmuconv/$t ($n inputs)"
	else
		echo "FAIL: fuzz_replay_pmuconv/$t (sanitizer report or crash; see $log: $(grep -m1 'ERROR\|runtime error' "$log" | cut -c1-120))"
	fi
	if [ -n "$PMUCONV_FUZZ_TIME" ]; then
		if make -s "$BUILD/fuzz/fuzz_$t" >/dev/null 2>&1; then
			mkdir -p "$BUILD/fuzz/corpus-$t"
			if "$BUILD/fuzz/fuzz_$t" -max_total_time="$PMUCONV_FUZZ_TIME" -max_len=65536 \
				-timeout=10 "$BUILD/fuzz/corpus-$t" "tests/fuzz/corpus/$t" \
				>"$OUT/fuzz-$t.log" 2>&1; then
				echo "PASS: fuzz_pmuconv/$t (${PMUCONV_FUZZ_TIME}s, $(grep -o 'stat::number_of_executed_units: [0-9]*' "$OUT/fuzz-$t.log" | awk '{print $2}') runs)"
			else
				echo "FAIL: fuzz_pmuconv/$t (crash; see $OUT/fuzz-$t.log)"
			fi
		else
			echo "SKIP: fuzz_pmuconv/$t (clang with libFuzzer not available)"
		fi
	fi
done
exit 0
