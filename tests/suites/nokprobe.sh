#!/bin/sh
# Every module function the NMI handler can reach is in the kprobe blacklist
# (PP_NOKPROBE / NOKPROBE_SYMBOL): scripts/check-nokprobe.sh on the module
# `make check` built (kernel/pmuprof.ko).
set -u
cd "$(dirname "$0")/../.." || exit 1
if out=$(sh scripts/check-nokprobe.sh kernel/pmuprof.ko 2>&1); then
	echo "PASS: nokprobe/nmi-path-marked"
else
	echo "$out" | sed 's/^/  /'
	echo "FAIL: nokprobe/nmi-path-marked ($(echo "$out" | grep -c 'not marked') functions not marked, or no module)"
fi
