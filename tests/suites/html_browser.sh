#!/bin/sh
# The HTML report in headless Chromium: tests/browser/html_check.js loads a
# page rendered from tests/data/pmuconv/native_sources/spec.txt (a cpu-clock
# recording whose samples came from two sources) at 1024 and 1400 px,
# screenshots it into build/tests/html_browser/ and checks layout, keys,
# the source split and function-row zoom (see the script's header).
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
W=$BUILD/tests/html_browser
S=html_browser

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
if ! (cd "$W" && "$MKDATA" "$ROOT/tests/data/pmuconv/native_sources/spec.txt" data.pmu) \
	>"$W/mkdata.log" 2>&1; then
	echo "FAIL: $S/input (mkdata: $(tail -n 1 "$W/mkdata.log"))"
	exit 0
fi
if ! "$PMUCONV" html -q "$W/data.pmu" -o "$W/report.html" 2>"$W/html.err"; then
	echo "FAIL: $S/render (pmuconv html: $(head -n 1 "$W/html.err"))"
	exit 0
fi
# A hung browser must not hang make check: playwright's own launch timeout
# is 60 s; this is the backstop for the whole run.
NODE_PATH=$NPM_CACHE/node_modules timeout -k 5 180 node "$ROOT/tests/browser/html_check.js" \
	"$W/report.html" "$W" 2>"$W/node.err"
rc=$?
[ "$rc" = 0 ] || echo "FAIL: $S/node (exit $rc: $(tail -n 1 "$W/node.err"))"
exit 0
