#!/bin/sh
# Host half of the demo: pmuconv turns the guest's recording into the report,
# flamegraphs, page-size histogram and HTML page. Output goes to $DEMO_OUT
# (tests/vm/demo.sh sets it to out/demo) or to $RESULTS/out.
. "$ROOT/tests/vm/lib/host.sh"
OUT=${DEMO_OUT:-$RESULTS/out}
PMUCONV=$BIN/pmuconv
mkdir -p "$OUT" || fail "cannot create $OUT"
DATA=$OUT/demo.pmu
cp "$RESULTS/demo.pmu" "$DATA" || fail "no demo.pmu came back from the guest"
cp "$RESULTS/info.txt" "$OUT/pmuctl-info.txt" 2>/dev/null

# The guest's binaries live at /usr/local/bin there; pmuconv finds them
# under a symfs root that mirrors that layout (tests/vm/demo.sh prints the
# --symfs to use).
SYMFS=$OUT/symfs
mkdir -p "$SYMFS/usr/local/bin"
cp "$GUEST_BIN"/* "$SYMFS/usr/local/bin/" 2>/dev/null

check report "$PMUCONV" report "$DATA" --symfs "$SYMFS" -o "$OUT/report.txt"
check flamegraph "$PMUCONV" flamegraph "$DATA" --symfs "$SYMFS" -o "$OUT/flamegraphs"
check pagesize "$PMUCONV" pagesize "$DATA" --symfs "$SYMFS" -o "$OUT/pagesize.txt"
check pagesize-svg "$PMUCONV" pagesize "$DATA" --symfs "$SYMFS" -o /dev/null --svg "$OUT/pagesize.svg"
check html "$PMUCONV" html "$DATA" --symfs "$SYMFS" -o "$OUT/report.html"

# The binaries the samples hit, by build-id (pmuconv archive), for reading
# demo.pmu on another machine; the report made from the archive alone (its
# .build-id/ layout, read straight from the tar) must equal the one made
# from the symfs.
check archive "$PMUCONV" archive "$DATA" --symfs "$SYMFS" -o "$OUT/demo-binaries.tar"
if "$PMUCONV" report "$DATA" --buildid-dir "$OUT/demo-binaries.tar" -o "$RESULTS/report-archive.txt" &&
	cmp -s "$OUT/report.txt" "$RESULTS/report-archive.txt"; then
	pass_check report-from-archive
else
	fail_check report-from-archive "report with --buildid-dir demo-binaries.tar differs from report.txt (see report-archive.txt)"
fi

# The demo's hot functions must show up by name, symbolized on the host.
hot=0
for fn in checksum_blocks stream_sum chase_pointers scan_table; do
	grep -q "$fn" "$OUT/report.txt" 2>/dev/null && hot=$((hot + 1))
done
if [ $hot -ge 3 ]; then
	pass_check hot-functions-in-report
else
	fail_check hot-functions-in-report "only $hot of checksum_blocks/stream_sum/chase_pointers/scan_table in report.txt"
fi
if ls "$OUT"/flamegraphs/*.svg >/dev/null 2>&1 && grep -q 'stream_sum\|checksum_blocks' "$OUT"/flamegraphs/*.svg; then
	pass_check hot-functions-in-flamegraph
else
	fail_check hot-functions-in-flamegraph "no SVG in $OUT/flamegraphs naming the demo's hot functions"
fi

# perf.data (issue 19): the guest's perf report of the export (kernel symbols
# from the running kernel) and the host's (kernel symbols from the recorded
# kallsyms, the demo binary under the symfs) list the same top 10 functions
# as pmuconv report, self shares within 0.5 percentage points; with data
# addresses, the guest's perf script counts the same samples per data page
# size as pmuconv pagesize.
# size. Names at one address (glibc's __memcpy_*/__memmove_* aliases) count
# as one: the tools may pick different aliases. pmuconv's side without
# inline frames: perf's --sort sym names the symbol the IP is in, where
# pmuconv report names the innermost inlined function (demo's stream_sum
# and scan_table inline wl_common.h's wl_seq_loads).
CMPDIR=$ROOT/tests/tools/perfdata
"$PMUCONV" report "$DATA" --symfs "$SYMFS" --json --top 10 -q --no-inline >"$OUT/report.json"
"$PMUCONV" perf-data "$DATA" --symfs "$SYMFS" -o "$OUT/demo.data" -q ||
	fail_check perf-data "pmuconv perf-data demo.pmu failed"
nm "$GUEST_BIN/demo" >"$OUT/demo.nm" 2>/dev/null
ALIASES="--syms $OUT/demo.nm --syms $OUT/demo.data.kallsyms"
# compare_top NAME PERF-REPORT.txt
compare_top() {
	if [ ! -s "$2" ]; then
		fail_check "$1" "no perf report output ($2)"
	elif python3 "$CMPDIR/compare_top.py" "$OUT/report.json" "$2" 10 0.5 $ALIASES >"$OUT/$1.txt" 2>&1; then
		pass_check "$1"
	else
		fail_check "$1" "$(tr '\n' ' ' <"$OUT/$1.txt" | cut -c1-300)"
	fi
	log "$1: $(tr '\n' ' ' <"$OUT/$1.txt")"
}
compare_top perf-report-guest-top10 "$RESULTS/perf-report-guest.txt"
perf report -i "$OUT/demo.data" --kallsyms "$OUT/demo.data.kallsyms" --symfs "$SYMFS" \
	--stdio --sort sym --no-children -g none >"$OUT/perf-report-host.txt" 2>/dev/null
compare_top perf-report-host-top10 "$OUT/perf-report-host.txt"
if [ -n "$(cat "$RESULTS/dataaddr.txt" 2>/dev/null)" ]; then
	ev=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"][0]["event"])' "$OUT/report.json")
	"$PMUCONV" pagesize "$DATA" --symfs "$SYMFS" --json -e "$ev" --together -q >"$OUT/pagesize.json"
	if python3 "$CMPDIR/compare_pages.py" "$OUT/pagesize.json" "$RESULTS/perf-script-guest.txt" "$ev" \
		>"$OUT/perf-pages-cmp.txt" 2>&1; then
		pass_check perf-script-guest-page-sizes
	else
		fail_check perf-script-guest-page-sizes "$(tr '\n' ' ' <"$OUT/perf-pages-cmp.txt" | cut -c1-300)"
	fi
	log "guest perf script vs pmuconv pagesize: $(cat "$OUT/perf-pages-cmp.txt")"
fi
host_done
