#!/bin/sh
# The HTML report's page-size section (issue 17) in headless Chromium:
# tests/browser/pagesize_check.js loads pages rendered from
# tests/data/pmuconv/native_hugepages/spec.txt (with data addresses) and
# native_sources/spec.txt (without), screenshots the section into
# build/tests/html_pagesize/ and checks the verdict on top, the per-mapping
# bars, the kernel view's zeroing line, no JS errors, and the how-to line
# for a recording without data addresses (see the script's header).
# Needs /usr/bin/chromium, node, and playwright-core in ~/.cache/pmuprof/npm
# (scripts/npm-deps.sh, run by make deps); FAILs with the reason otherwise.
#
# Prints PASS/FAIL lines; always exits 0.
S=html_pagesize
. "$(dirname "$0")/lib/browser.sh"
browser_setup || exit 0
D=$ROOT/tests/data/pmuconv
if ! (cd "$W" && cp "$D/native_hugepages/kallsyms.txt" . &&
	"$MKDATA" "$D/native_hugepages/spec.txt" pages.pmu &&
	"$MKDATA" "$D/native_sources/spec.txt" nodata.pmu) >"$W/mkdata.log" 2>&1; then
	echo "FAIL: $S/input (mkdata: $(tail -n 1 "$W/mkdata.log"))"
	exit 0
fi
for p in pages nodata; do
	if ! "$PMUCONV" html -q "$W/$p.pmu" -o "$W/$p.html" 2>"$W/html.err"; then
		echo "FAIL: $S/render (pmuconv html $p.pmu: $(head -n 1 "$W/html.err"))"
		exit 0
	fi
done
browser_run pagesize_check.js "$W/pages.html" "$W/nodata.html" "$W"
exit 0
