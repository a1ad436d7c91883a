#!/bin/sh
# Install the npm packages the tests use, each set pinned by its
# package-lock.json, into a cache that CI can rebuild:
#   tests/browser   (playwright-core) -> ~/.cache/pmuprof/npm/ (html_browser.sh)
#   tests/exporters (speedscope's schema, ajv) -> ~/.cache/pmuprof/npm-exporters/
#                   (exporters.sh)
# Called by scripts/deps.sh; rerun it by hand after changing a lock file.
# Idempotent: a no-op for a cache that already holds exactly the locked
# packages. Never downloads a browser: the test drives Debian's chromium.
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v npm >/dev/null 2>&1; then
	echo "npm-deps: npm not found; install nodejs and npm (apt-get install nodejs npm, or make deps)" >&2
	exit 1
fi
# install SRC DEST: npm ci of SRC's lock file in DEST (exactly the locked
# versions and hashes; no install scripts, so no browser downloads either)
install() {
	mkdir -p "$2"
	if cmp -s "$1/package-lock.json" "$2/package-lock.json" &&
		[ -f "$2/node_modules/.package-lock.json" ]; then
		return 0
	fi
	echo "npm-deps: installing the packages of ${1#"$ROOT"/}/package-lock.json into $2"
	cp "$1/package.json" "$1/package-lock.json" "$2/"
	(cd "$2" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund \
		--loglevel=error)
}
install "$ROOT/tests/browser" "${PMUPROF_NPM_CACHE:-${HOME:-/root}/.cache/pmuprof/npm}"
install "$ROOT/tests/exporters" "${PMUPROF_NPM_EXPORTERS:-${HOME:-/root}/.cache/pmuprof/npm-exporters}"
