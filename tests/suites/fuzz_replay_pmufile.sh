#!/bin/sh
# Replay pmufile fuzz inputs under AddressSanitizer + UBSan (gcc build of
# tests/fuzz/fuzz_pmufile.c): the saved corpus, and damaged files generated
# here from a pmugen recording (every truncation length in 8-byte steps,
# flipped bytes, a big-endian marker, a newer version). A memory error, UB
# or a crash fails the case. The same damaged files then go through pmuconv's
# exporters (pprof, speedscope, perf-data): each must either convert (what --salvage
# would not even be needed for) or exit 1 with a "pmuconv:" message and leave
# no output and no temporary file; a crash or any other exit fails.
# Prints PASS/FAIL/SKIP lines; always exits 0.
BUILD=${BUILD:-build}
BIN=$BUILD/tests/fuzz/replay_pmufile
PMUGEN=$BUILD/bin/pmugen
DATA=$BUILD/tests/data/pmufile
CORPUS=tests/fuzz/corpus/pmufile
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [ ! -x "$BIN" ] && ! make -s "$BIN" >/dev/null 2>&1; then
	echo "FAIL: fuzz_replay_pmufile/build (cannot build $BIN; run make $BIN)"
	exit 0
fi

# replay NAME DIR: one PASS/FAIL line for all inputs in DIR
replay() {
	name=$1
	dir=$2
	log=$DATA/$name.log
	n=$(find "$dir" -type f ! -name '*.log' | wc -l)
	if [ "$n" -eq 0 ]; then
		echo "FAIL: fuzz_replay_pmufile/$name (no inputs in $dir)"
		return
	fi
	"$BIN" "$dir" >"$log" 2>&1
	rc=$?
	ok=$(grep -c '^ok ' "$log")
	if [ "$rc" -eq 0 ] && [ "$ok" -eq "$n" ]; then
		echo "PASS: fuzz_replay_pmufile/$name ($n inputs)"
	else
		why=$(grep -m1 -E 'ERROR: |runtime error|SUMMARY' "$log")
		echo "FAIL: fuzz_replay_pmufile/$name (exit $rc after $ok of $n inputs: ${why:-see $log})"
	fi
}

mkdir -p "$DATA"
replay corpus "$CORPUS"

if [ ! -x "$PMUGEN" ]; then
	echo "FAIL: fuzz_replay_pmufile/damaged (no $PMUGEN; run make unit)"
	exit 0
fi
gen=$DATA/damaged
rm -rf "$gen"
mkdir -p "$gen"
# damage FILE DIR CUT FLIP: DIR/trunc-N, FILE cut to N bytes for every N in
# steps of CUT, and DIR/flip-N, FILE with byte N set to 0xff every FLIP bytes
damage() {
	_size=$(wc -c <"$1")
	_i=0
	while [ "$_i" -lt "$_size" ]; do
		head -c "$_i" "$1" >"$2/trunc-$_i"
		_i=$((_i + $3))
	done
	_i=0
	while [ "$_i" -lt "$_size" ]; do
		cp "$1" "$2/flip-$_i"
		printf '\377' | dd of="$2/flip-$_i" bs=1 seek="$_i" conv=notrunc 2>/dev/null
		_i=$((_i + $4))
	done
}
src=$DATA/base.pmu
printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81001000 T do_syscall_64' \
	'ffffffff81002000 t helper	[mod]' >"$DATA/kallsyms.txt"
if ! "$PMUGEN" -o "$src" -n 30 -d 8 -k 3 -p 3 -S 6 -e 2 -l 7 -a -s 11 \
	-K "$DATA/kallsyms.txt" >"$DATA/pmugen.log" 2>&1; then
	echo "FAIL: fuzz_replay_pmufile/damaged (pmugen failed: $(head -n 1 "$DATA/pmugen.log"))"
	exit 0
fi
# flipped bytes spread over the file (every 61st byte, so every frame type)
damage "$src" "$gen" 8 61
cp "$src" "$gen/bigendian"
printf '\001\002\003\004' | dd of="$gen/bigendian" bs=1 seek=8 conv=notrunc 2>/dev/null
cp "$src" "$gen/version7"
printf '\007' | dd of="$gen/version7" bs=1 seek=12 conv=notrunc 2>/dev/null
replay damaged "$gen"

# the NUMA frame (issue 20): a small recording with one (native_numa's
# single.txt), cut at every 8 bytes and with every byte of the NUMA frame
# and its neighbours flipped (the replayer also repairs the CRCs, so the
# frame's parser sees the damage)
MKDATA=$BUILD/tests/pmuconv_mkdata
numa=$DATA/numa
rm -rf "$numa"
mkdir -p "$numa"
if [ -x "$MKDATA" ] && "$MKDATA" tests/data/pmuconv/native_numa/single.txt "$DATA/numa.pmu" \
	>"$DATA/numa-mkdata.log" 2>&1; then
	size=$(wc -c <"$DATA/numa.pmu")
	i=0
	while [ "$i" -lt "$size" ]; do
		head -c "$i" "$DATA/numa.pmu" >"$numa/trunc-$i"
		i=$((i + 8))
	done
	i=344
	while [ "$i" -lt 600 ] && [ "$i" -lt "$size" ]; do
		cp "$DATA/numa.pmu" "$numa/flip-$i"
		printf '\377' | dd of="$numa/flip-$i" bs=1 seek="$i" conv=notrunc 2>/dev/null
		i=$((i + 1))
	done
	cp "$DATA/numa.pmu" "$numa/intact"
	replay numa-frame "$numa"
else
	echo "FAIL: fuzz_replay_pmufile/numa-frame (no $MKDATA or it failed; run make unit)"
fi

# the exporters on every damaged file: whole output or none, and a message
PMUCONV=$BUILD/bin/pmuconv
if [ ! -x "$PMUCONV" ]; then
	echo "FAIL: fuzz_replay_pmufile/exporters (no $PMUCONV; run make)"
	exit 0
fi
out=$DATA/exported
for x in pprof speedscope perf-data; do
	rm -rf "$out"
	mkdir -p "$out"
	n=0
	bad=""
	for f in "$gen"/*; do
		n=$((n + 1))
		o=$out/$(basename "$f").out
		"$PMUCONV" $x "$f" -o "$o" -q >/dev/null 2>"$out/err"
		rc=$?
		if [ "$rc" = 0 ] && [ -s "$o" ]; then
			rm -f "$o" "$o.kallsyms"
		elif [ "$rc" = 1 ] && [ ! -e "$o" ] && [ ! -e "$o.kallsyms" ] && grep -q '^pmuconv' "$out/err"; then
			:
		else
			bad="$(basename "$f"): exit $rc, output $([ -e "$o" ] && echo left || echo absent), stderr: $(head -n 1 "$out/err" | cut -c1-100)"
			break
		fi
		if ls "$out" | grep -q '\.tmp\.'; then
			bad="$(basename "$f"): temporary file left: $(ls "$out" | grep '\.tmp\.' | head -n 1)"
			break
		fi
	done
	if [ -z "$bad" ]; then
		echo "PASS: fuzz_replay_pmufile/export-$x ($n damaged inputs)"
	else
		echo "FAIL: fuzz_replay_pmufile/export-$x ($bad)"
	fi
done
rm -rf "$out"

# --call-graph dwarf records (registers + stack copy): a ptsnap recording of
# nofpwork, damaged the same way for the reader (ASan), and a well-formed
# one with random registers and stack bytes through pmuconv's unwinder:
# every sample counted under one outcome, exit 0, never a crash.
PTSNAP=$BUILD/bin/ptsnap
NOFPWORK=$BUILD/tests/nofpwork
if [ ! -x "$PTSNAP" ] || [ ! -x "$NOFPWORK" ]; then
	echo "FAIL: fuzz_replay_pmufile/ucopy (no $PTSNAP or $NOFPWORK; run make unit)"
	exit 0
fi
ucopy=$DATA/ucopy.pmu
ugen=$DATA/ucopy-damaged
rm -rf "$ugen"
mkdir -p "$ugen"
if ! "$PTSNAP" -o "$ucopy" -n 6 -s 512 -- "$NOFPWORK" >"$DATA/ptsnap.log" 2>&1; then
	echo "FAIL: fuzz_replay_pmufile/ucopy (ptsnap failed: $(tail -n 1 "$DATA/ptsnap.log"))"
	exit 0
fi
damage "$ucopy" "$ugen" 24 97
replay ucopy-damaged "$ugen"
# the same recording with its copies packed (format version 2, what pmuctl
# record writes), damaged likewise: flipped bytes in the runs and literals
# reach the unpacker (the replayer repairs the CRCs too)
UCPACK=$BUILD/bin/ucpack
upack=$DATA/ucopy-packed.pmu
pgen=$DATA/ucopy-packed-damaged
rm -rf "$pgen"
mkdir -p "$pgen"
# (4 stops written twice each: repeated stacks, so the runs refer to the
# previous copy as well as store new bytes)
if "$PTSNAP" -o "$DATA/ucopy-r.pmu" -n 4 -r 2 -s 512 -- "$NOFPWORK" >"$DATA/ptsnap.log" 2>&1 &&
	"$UCPACK" "$DATA/ucopy-r.pmu" "$upack" >"$DATA/ucpack.log" 2>&1; then
	damage "$upack" "$pgen" 24 13
	replay ucopy-packed-damaged "$pgen"
else
	echo "FAIL: fuzz_replay_pmufile/ucopy-packed-damaged (ucpack failed: $(head -n 1 "$DATA/ucpack.log"))"
fi
garbled=$DATA/ucopy-garbled.pmu
"$PTSNAP" -o "$garbled" -n 300 -s 2048 --garble --seed 7 -- "$NOFPWORK" >"$DATA/ptsnap.log" 2>&1
"$PMUCONV" report "$garbled" >"$DATA/garbled.report" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q '^unwind: *300 user stack copies' "$DATA/garbled.report"; then
	echo "PASS: fuzz_replay_pmufile/ucopy-garbled (300 samples with random registers and stack bytes)"
else
	echo "FAIL: fuzz_replay_pmufile/ucopy-garbled (exit $rc: $(grep -m1 -E '^unwind|pmuconv' "$DATA/garbled.report"))"
fi
# packed, the garbled recording converts to the same report
"$UCPACK" "$garbled" "$DATA/ucopy-garbled-packed.pmu" >"$DATA/ucpack.log" 2>&1
"$PMUCONV" report "$DATA/ucopy-garbled-packed.pmu" 2>&1 | sed 's/ (pmuprof v2)$/ (pmuprof v1)/; s/-packed\.pmu/.pmu/g' >"$DATA/garbled-packed.report"
if cmp -s "$DATA/garbled.report" "$DATA/garbled-packed.report"; then
	echo "PASS: fuzz_replay_pmufile/ucopy-garbled-packed (the same report packed)"
else
	echo "FAIL: fuzz_replay_pmufile/ucopy-garbled-packed (report differs packed: $(diff "$DATA/garbled.report" "$DATA/garbled-packed.report" | sed -n 2p))"
fi
exit 0
