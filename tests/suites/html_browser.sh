#!/bin/sh
# The HTML report in headless Chromium: tests/browser/html_check.js loads a
# page rendered from tests/data/pmuconv/native_sources/spec.txt (a cpu-clock
# recording whose samples came from two sources) at 1024 and 1400 px,
# screenshots it into build/tests/html_browser/ and checks layout, keys,
# the source split and function-row zoom (see the script's header).
# Needs /usr/bin/chromium, node, and playwright-core in ~/.cache/pmuprof/npm
# (scripts/npm-deps.sh, run by make deps); FAILs with the reason otherwise.
#
# Prints PASS/FAIL lines; always exits 0.
S=html_browser
. "$(dirname "$0")/lib/browser.sh"
browser_setup || exit 0
if ! (cd "$W" && "$MKDATA" "$ROOT/tests/data/pmuconv/native_sources/spec.txt" data.pmu) \
	>"$W/mkdata.log" 2>&1; then
	echo "FAIL: $S/input (mkdata: $(tail -n 1 "$W/mkdata.log"))"
	exit 0
fi
if ! "$PMUCONV" html -q "$W/data.pmu" -o "$W/report.html" 2>"$W/html.err"; then
	echo "FAIL: $S/render (pmuconv html: $(head -n 1 "$W/html.err"))"
	exit 0
fi
browser_run html_check.js "$W/report.html" "$W"
exit 0
