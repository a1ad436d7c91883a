# What the headless-Chromium suites (html_browser.sh, html_pagesize.sh) share,
# sourced after they set S (the suite's name):
#   browser_setup      sets ROOT BUILD PMUCONV MKDATA CHROMIUM NPM_CACHE and W
#                      (an empty work directory $BUILD/tests/$S); prints a FAIL
#                      line and returns 1 when chromium, node, playwright-core
#                      (scripts/npm-deps.sh, run by make deps) or a build
#                      product is missing
#   browser_run JS ARGS...  runs tests/browser/JS under node with a 180 s
#                      backstop (a hung browser must not hang make check;
#                      playwright's own launch timeout is 60 s); FAIL line if
#                      it fails
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
PMUCONV=$BUILD/bin/pmuconv
MKDATA=$BUILD/tests/pmuconv_mkdata
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
NPM_CACHE=${PMUPROF_NPM_CACHE:-${HOME:-/root}/.cache/pmuprof/npm}
W=$BUILD/tests/$S

browser_setup() {
	if [ ! -x "$CHROMIUM" ]; then
		echo "FAIL: $S (no $CHROMIUM; apt-get install chromium, or make deps)"
		return 1
	fi
	if ! command -v node >/dev/null 2>&1; then
		echo "FAIL: $S (node not installed; apt-get install nodejs, or make deps)"
		return 1
	fi
	if [ ! -f "$NPM_CACHE/node_modules/playwright-core/package.json" ]; then
		echo "FAIL: $S (playwright-core not in $NPM_CACHE; run sh scripts/npm-deps.sh)"
		return 1
	fi
	for b in "$PMUCONV" "$MKDATA"; do
		if [ ! -x "$b" ]; then
			echo "FAIL: $S (no $b; run make all unit)"
			return 1
		fi
	done
	rm -rf "$W"
	mkdir -p "$W"
}

browser_run() {
	_js=$1
	shift
	NODE_PATH=$NPM_CACHE/node_modules CHROMIUM=$CHROMIUM timeout -k 5 180 node \
		"$ROOT/tests/browser/$_js" "$@" 2>"$W/node.err"
	_rc=$?
	[ "$_rc" = 0 ] || echo "FAIL: $S/node (exit $_rc: $(tail -n 1 "$W/node.err"))"
}
