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
host_done
