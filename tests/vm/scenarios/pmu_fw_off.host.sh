#!/bin/sh
# Host half of pmu_fw_off: the checks of pmu_counts on its periods.
PERIODS=$(cat "$RESULTS/periods")
. "$ROOT/tests/vm/scenarios/pmu_counts.host.sh"
