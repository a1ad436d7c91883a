#!/bin/sh
# Install the npm packages of tests/browser/package.json (playwright-core,
# pinned by package-lock.json) into ~/.cache/pmuprof/npm/, where
# tests/suites/html_browser.sh finds them. Called by scripts/deps.sh; rerun
# it by hand after changing the lock file. Idempotent: a no-op when the
# cache already holds exactly the locked packages. Never downloads a browser:
# the test drives Debian's chromium (/usr/bin/chromium).
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$ROOT/tests/browser
DEST=${PMUPROF_NPM_CACHE:-${HOME:-/root}/.cache/pmuprof/npm}
if ! command -v npm >/dev/null 2>&1; then
	echo "npm-deps: npm not found; install nodejs and npm (apt-get install nodejs npm, or make deps)" >&2
	exit 1
fi
mkdir -p "$DEST"
if cmp -s "$SRC/package-lock.json" "$DEST/package-lock.json" &&
	[ -f "$DEST/node_modules/.package-lock.json" ]; then
	exit 0
fi
echo "npm-deps: installing $(sed -n 's/.*"\(playwright-core\)": "\(.*\)".*/\1@\2/p' "$SRC/package.json") into $DEST"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
# npm ci: exactly the lock file's versions and hashes; no install scripts
# (playwright-core has none; this also keeps it from fetching browsers).
(cd "$DEST" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
