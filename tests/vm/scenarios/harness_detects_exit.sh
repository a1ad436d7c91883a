#!/bin/sh
# Scenario: negative test of the harness. The scenario exits with status 3
# and a reason; the harness must propagate it as a FAIL
# (reported inverted as "vm/harness/detects-exit").
# expect: fail ^scenario exited 3: deliberate failure
# timeout: 60

echo "deliberate failure" >"$RESULTS/.reason"
exit 3
