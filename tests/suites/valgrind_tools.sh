#!/bin/sh
# valgrind-clean runs of the user-facing tools on their normal and error
# paths (issue 8):
#  - pmuctl on the host: encode (two forced PMU models, raw and generic
#    names, unknown names with suggestions), list, info and record without
#    the module (the "not loaded" path), bad flags, --help;
#  - pmuconv: every command of the expected-output suite
#    (tests/suites/pmuconv_expected.sh, through a valgrind wrapper, so the
#    outputs must still match) and every subcommand on a pmugen recording.
# A case fails on any valgrind error (invalid read/write, uninitialised
# value, definite leak) or on an unexpected exit status.
# Prints PASS/FAIL/SKIP lines; always exits 0.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PMUCTL=$BUILD/bin/pmuctl
PMUCONV=$BUILD/bin/pmuconv
PMUGEN=$BUILD/bin/pmugen
OUT=$BUILD/tests/valgrind
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"

if ! command -v valgrind >/dev/null; then
	echo "FAIL: valgrind (valgrind not installed; make deps)"
	exit 0
fi
rm -rf "$OUT"
mkdir -p "$OUT"

# vg NAME WANT_EXIT CMD ARGS...: run under valgrind; pass when the exit is
# WANT_EXIT and valgrind reported nothing.
vg() {
	name=$1
	want=$2
	shift 2
	log=$OUT/$name.vg
	$VG --log-file="$log" "$@" >"$OUT/$name.out" 2>&1
	rc=$?
	if [ -s "$log" ]; then
		echo "FAIL: valgrind/$name (valgrind: $(grep -m1 -E '== [A-Z]|Invalid|uninitialised|definitely' "$log" | sed 's/^==[0-9]*== //'); $log)"
	elif [ "$rc" != "$want" ]; then
		echo "FAIL: valgrind/$name (exit $rc, want $want: $(head -c 200 "$OUT/$name.out" | tr '\n' ' '))"
	else
		echo "PASS: valgrind/$name"
	fi
}

# ------------------------------------------------------------ pmuctl
if [ -x "$PMUCTL" ]; then
	LIBPFM_FORCE_PMU=skl vg pmuctl-encode-skl 0 "$PMUCTL" encode cycles instructions \
		dtlb_load_misses.walk_completed r01a2 llc-misses
	LIBPFM_FORCE_PMU=icl vg pmuctl-encode-icl 0 "$PMUCTL" encode branch-misses ref-cycles \
		'inst_retired.any:u' 'cycles:c=2'
	LIBPFM_FORCE_PMU=skl vg pmuctl-encode-unknown 1 "$PMUCTL" encode cylces
	LIBPFM_FORCE_PMU=skl vg pmuctl-encode-bad-modifier 1 "$PMUCTL" encode 'cycles:zz=9'
	LIBPFM_FORCE_PMU=skl vg pmuctl-list 0 "$PMUCTL" list dtlb
	vg pmuctl-list-glob 0 "$PMUCTL" list 'cpu-*'
	if [ -e /dev/pmuprof ]; then
		echo "SKIP: valgrind/pmuctl-no-module (a pmuprof device exists on this host)"
	else
		vg pmuctl-info-no-module 1 "$PMUCTL" info
		vg pmuctl-record-no-module 1 "$PMUCTL" record -a -e cpu-clock --duration 1 -o "$OUT/x.pmu"
	fi
	vg pmuctl-record-bad-flag 2 "$PMUCTL" record --no-such-flag
	vg pmuctl-record-bad-period 2 "$PMUCTL" record -e cpu-clock -c 0 -a
	vg pmuctl-unknown-command 2 "$PMUCTL" frobnicate
	vg pmuctl-help 0 "$PMUCTL" record --help
else
	echo "FAIL: valgrind/pmuctl (no $PMUCTL; run make)"
fi

# ------------------------------------------------------------ pmuconv
if [ ! -x "$PMUCONV" ]; then
	echo "FAIL: valgrind/pmuconv (no $PMUCONV; run make)"
	exit 0
fi
# The expected-output suite through a wrapper: outputs must still match.
wrap=$OUT/pmuconv-vg
cat >"$wrap" <<EOF
#!/bin/sh
n=\$(date +%s%N)
exec $VG --log-file="$OUT/expected-\$n-%p.vg" "$PMUCONV" "\$@"
EOF
chmod +x "$wrap"
PMUCONV=$wrap sh "$ROOT/tests/suites/pmuconv_expected.sh" >"$OUT/expected.txt" 2>&1
total=$(grep -c -E '^(PASS|FAIL)' "$OUT/expected.txt")
failed=$(grep -c '^FAIL' "$OUT/expected.txt")
bad=$(find "$OUT" -name 'expected-*.vg' -size +0 | head -n 1)
if [ "$total" -eq 0 ]; then
	echo "FAIL: valgrind/pmuconv-expected-suite (no cases ran: $(head -n 2 "$OUT/expected.txt" | tr '\n' ' '))"
elif [ -n "$bad" ]; then
	echo "FAIL: valgrind/pmuconv-expected-suite (valgrind: $(grep -m1 -E 'Invalid|uninitialised|definitely|== [A-Z]' "$bad" | sed 's/^==[0-9]*== //'); $bad)"
elif [ "$failed" -gt 0 ]; then
	echo "FAIL: valgrind/pmuconv-expected-suite ($failed of $total outputs differ under valgrind: $(grep -m1 '^FAIL' "$OUT/expected.txt"))"
else
	echo "PASS: valgrind/pmuconv-expected-suite ($total commands)"
fi

# Every subcommand on a generated recording (stacks, LOST, data addresses).
if [ -x "$PMUGEN" ]; then
	d=$OUT/gen
	mkdir -p "$d"
	printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81001000 T do_syscall_64' \
		'ffffffff81002000 t helper	[mod]' >"$d/kallsyms.txt"
	if "$PMUGEN" -o "$d/a.pmu" -n 400 -d 16 -k 3 -p 3 -S 6 -e 2 -l 7 -a -s 5 -K "$d/kallsyms.txt" >"$d/gen.log" 2>&1 &&
		"$PMUGEN" -o "$d/b.pmu" -n 300 -d 12 -k 3 -p 2 -S 6 -e 2 -l 3 -a -s 9 -K "$d/kallsyms.txt" >>"$d/gen.log" 2>&1; then
		vg pmuconv-folded 0 "$PMUCONV" folded "$d/a.pmu" -o "$d/folded" -q
		vg pmuconv-report 0 "$PMUCONV" report "$d/a.pmu"
		vg pmuconv-report-json 0 "$PMUCONV" report "$d/a.pmu" --json
		vg pmuconv-flamegraph 0 "$PMUCONV" flamegraph "$d/a.pmu" -o "$d/svg" -q
		vg pmuconv-pagesize 0 "$PMUCONV" pagesize "$d/a.pmu"
		vg pmuconv-html 0 "$PMUCONV" html "$d/a.pmu" -o "$d/r.html" -q
		vg pmuconv-diff 0 "$PMUCONV" diff "$d/a.pmu" "$d/b.pmu" -e cycles -q
		vg pmuconv-script 0 "$PMUCONV" script "$d/a.pmu" -q -o "$d/script.txt"
		vg pmuconv-report-sort 0 "$PMUCONV" report "$d/a.pmu" -q \
			--sort pid,cpu,dso,sym,data_page_size --callers do_syscall_64
		vg pmuconv-filters 0 "$PMUCONV" folded "$d/a.pmu" -q -e cycles --cpu 0-1,3 \
			--time 0,1000 --dso '[kernel.kallsyms]'
		head -c 3000 "$d/a.pmu" >"$d/short.pmu"
		vg pmuconv-truncated 1 "$PMUCONV" report "$d/short.pmu"
		vg pmuconv-missing-file 1 "$PMUCONV" report "$d/nonexistent.pmu"
	else
		echo "FAIL: valgrind/pmuconv-generated (pmugen failed: $(head -n 1 "$d/gen.log"))"
	fi
else
	echo "FAIL: valgrind/pmuconv-generated (no $PMUGEN; run make unit)"
fi

# Hostile names (script injection, quotes, control characters), a 3000-deep
# and a self-repeating stack, in perf script text: valgrind-clean, and the
# SVG/HTML carry no live markup or raw control bytes from the input.
h=$OUT/hostile
mkdir -p "$h"
{
	printf 'evil 100/100 [000] 1.000000: 1000 cycles:\n'
	printf '\t401000 <script>alert(1)</script>+0x1 (/bin/x)\n'
	printf '\t401100 a"b&c\047d<e>f+0x2 (/bin/x)\n'
	printf '\t401200 ctl\001\033[31mred\177+0x3 (/bin/x)\n'
	printf '\t401300 main+0x4 (/bin/x)\n\n'
	printf 'evil 100/100 [000] 1.000100: 1000 cycles:\n'
	i=0
	while [ $i -lt 3000 ]; do
		printf '\t%x deep_%d+0x1 (/bin/x)\n' $((0x500000 + i)) $((i % 7))
		i=$((i + 1))
	done
	printf '\n'
	printf 'evil 100/100 [000] 1.000200: 1000 cycles:\n'
	i=0
	while [ $i -lt 200 ]; do
		printf '\t601000 loop+0x1 (/bin/x)\n'
		i=$((i + 1))
	done
	printf '\n'
} >"$h/hostile.txt"
vg pmuconv-hostile-flamegraph 0 "$PMUCONV" flamegraph "$h/hostile.txt" --input-format perf -o "$h/svg" -q
vg pmuconv-hostile-html 0 "$PMUCONV" html "$h/hostile.txt" --input-format perf -o "$h/r.html" -q
vg pmuconv-hostile-folded 0 "$PMUCONV" folded "$h/hostile.txt" --input-format perf -q
files=$(find "$h/svg" "$h/r.html" -type f 2>/dev/null)
if [ -z "$files" ]; then
	echo "FAIL: valgrind/pmuconv-hostile-escaped (no SVG/HTML output)"
elif grep -l '<script>alert' $files >/dev/null 2>&1; then
	echo "FAIL: valgrind/pmuconv-hostile-escaped (a symbol name reached the output as live <script>: $(grep -l '<script>alert' $files | head -n 1))"
elif LC_ALL=C grep -l "$(printf '[\001\033]')" $files >/dev/null 2>&1; then
	echo "FAIL: valgrind/pmuconv-hostile-escaped (raw control bytes from a symbol name in $(LC_ALL=C grep -l "$(printf '[\001\033]')" $files | head -n 1))"
elif ! grep -q 'alert' $files; then
	echo "FAIL: valgrind/pmuconv-hostile-escaped (the hostile frame is missing from the output altogether)"
else
	echo "PASS: valgrind/pmuconv-hostile-escaped"
fi
exit 0
