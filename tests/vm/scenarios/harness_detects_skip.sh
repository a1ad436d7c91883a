#!/bin/sh
# Scenario: negative test of the harness. The scenario declares no hardware
# prerequisite (no kvm-pmu/pmu/tcg in "# needs:") and skips a sub-check, then
# itself; the harness must turn both into failures
# (reported inverted as "vm/harness/detects-skip").
# expect: fail ^skipped \(no reason to skip\) without a hardware prerequisite
# timeout: 60

skip_check not-run "a sub-check with no reason to skip"
skip "no reason to skip"
