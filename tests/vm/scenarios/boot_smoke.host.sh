#!/bin/sh
# Host half of boot_smoke: the results channel brought the files back.
. "$ROOT/tests/vm/lib/host.sh"
[ -f "$RESULTS/channel.txt" ] || fail "channel.txt did not come back from the guest"
grep -qx 'pmtest results channel ok' "$RESULTS/channel.txt" || fail "channel.txt is corrupted"
pass_check results-channel
[ -s "$RESULTS/dmesg.txt" ] && pass_check dmesg-collected || fail_check dmesg-collected "no dmesg.txt"
host_done
