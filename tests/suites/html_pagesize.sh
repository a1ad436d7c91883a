#!/bin/sh
# The HTML report's page-size section (issue 17) in headless Chromium:
# tests/browser/pagesize_check.js loads pages rendered from
# tests/data/pmuconv/native_hugepages/spec.txt (with data addresses) and
# native_sources/spec.txt (without), screenshots the section into
# build/tests/html_pagesize/ and checks the verdict on top, the per-mapping
# bars, the kernel view's zeroing line, no JS errors, and the how-to line
# for a recording without data addresses (see the script's header).
# Needs /usr/bin/chromium, node, and playwright-core in ~/.cache/pmuprof/npm
# (scripts/npm-deps.sh, run by make deps); SKIPs with the reason otherwise.
#
# Prints PASS/FAIL/SKIP lines; always exits 0.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
PMUCONV=$BUILD/bin/pmuconv
MKDATA=$BUILD/tests/pmuconv_mkdata
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
NPM_CACHE=${PMUPROF_NPM_CACHE:-${HOME:-/root}/.cache/pmuprof/npm}
W=$BUILD/tests/html_pagesize
S=html_pagesize

if [ ! -x "$CHROMIUM" ]; then
	echo "SKIP: $S (no $CHROMIUM; apt-get install chromium, or make deps)"
	exit 0
fi
if ! command -v node >/dev/null 2>&1; then
	echo "SKIP: $S (node not installed; apt-get install nodejs, or make deps)"
	exit 0
fi
if [ ! -f "$NPM_CACHE/node_modules/playwright-core/package.json" ]; then
	echo "SKIP: $S (playwright-core not in $NPM_CACHE; run sh scripts/npm-deps.sh)"
	exit 0
fi
for b in "$PMUCONV" "$MKDATA"; do
	if [ ! -x "$b" ]; then
		echo "SKIP: $S (no $b; run make all unit)"
		exit 0
	fi
done
rm -rf "$W"
mkdir -p "$W"
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
# A hung browser must not hang make check: the backstop for the whole run.
NODE_PATH=$NPM_CACHE/node_modules CHROMIUM=$CHROMIUM timeout -k 5 120 node \
	"$ROOT/tests/browser/pagesize_check.js" "$W/pages.html" "$W/nodata.html" "$W" 2>"$W/node.err"
rc=$?
[ "$rc" = 0 ] || echo "FAIL: $S/node (exit $rc: $(tail -n 1 "$W/node.err"))"
exit 0
