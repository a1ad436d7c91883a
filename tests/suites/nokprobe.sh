#!/bin/sh
# Every module function the NMI handler can reach is in the kprobe blacklist
# (PP_NOKPROBE / NOKPROBE_SYMBOL): scripts/check-nokprobe.sh on the module
# `make check` built (kernel/pmuprof.ko); and the PMU layer calls the glue
# directly, never through a function pointer (scripts/check-nmi-direct.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
if out=$(sh scripts/check-nokprobe.sh kernel/pmuprof.ko 2>&1); then
	echo "PASS: nokprobe/nmi-path-marked"
else
	echo "$out" | sed 's/^/  /'
	echo "FAIL: nokprobe/nmi-path-marked ($(echo "$out" | grep -c 'not marked') functions not marked, or no module)"
fi
# The PMU layer's handler hands samples to the glue by direct calls
# (scripts/check-nmi-direct.sh; issue 15).
if out=$(sh scripts/check-nmi-direct.sh kernel/pmuprof.ko 2>&1); then
	echo "PASS: nokprobe/pmi-emit-direct"
else
	echo "$out" | sed 's/^/  /'
	echo "FAIL: nokprobe/pmi-emit-direct (an indirect call in the PMU layer's NMI path, or no module)"
fi
