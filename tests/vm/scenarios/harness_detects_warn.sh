#!/bin/sh
# Scenario: negative test of the harness. Everything here passes, but the
# module loaded WARNs once; the harness must flag the scenario as failed
# (reported as "vm/harness/detects-warn", inverted by run.sh).
# expect: fail ^kernel problem in dmesg: WARNING: CPU
# timeout: 60

[ -n "$WARNMOD_KO" ] || fail "warnmod.ko not built (run.sh builds it against the guest kernel headers)"
pass_check before-warn
run insmod "$WARNMOD_KO" || fail "insmod warnmod failed"
run rmmod warnmod || fail "rmmod warnmod failed"
exit 0
