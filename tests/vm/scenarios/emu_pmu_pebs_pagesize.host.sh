#!/bin/sh
# Host half of emu_pmu_pebs_pagesize: pebs_pagesize's.
PEBS_WITH_PERF=1
. "$ROOT/tests/vm/scenarios/pebs_pagesize.host.sh"
