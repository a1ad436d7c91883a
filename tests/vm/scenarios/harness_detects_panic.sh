#!/bin/sh
# Scenario: negative test of the harness. The guest panics (sysrq crash);
# the harness must report a FAIL naming the panic, not hang or pass
# (reported inverted as "vm/harness/detects-panic").
# expect: fail ^guest never reported.*Kernel panic
# timeout: 60

pass_check before-panic
echo c >/proc/sysrq-trigger
exit 0
