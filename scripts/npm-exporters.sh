#!/bin/sh
# Install the npm packages of tests/exporters/package.json (speedscope, for
# the file-format schema it ships, and ajv to validate against it; pinned by
# package-lock.json) into ~/.cache/pmuprof/npm-exporters/, where
# tests/suites/exporters.sh finds them. Called by scripts/deps.sh; rerun it
# by hand after changing the lock file. Idempotent: a no-op when the cache
# already holds exactly the locked packages.
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$ROOT/tests/exporters
DEST=${PMUPROF_NPM_EXPORTERS:-${HOME:-/root}/.cache/pmuprof/npm-exporters}
if ! command -v npm >/dev/null 2>&1; then
	echo "npm-exporters: npm not found; install nodejs and npm (apt-get install nodejs npm, or make deps)" >&2
	exit 1
fi
mkdir -p "$DEST"
if cmp -s "$SRC/package-lock.json" "$DEST/package-lock.json" &&
	[ -f "$DEST/node_modules/.package-lock.json" ]; then
	exit 0
fi
echo "npm-exporters: installing speedscope and ajv into $DEST"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
# npm ci: exactly the lock file's versions and hashes; no install scripts
(cd "$DEST" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
