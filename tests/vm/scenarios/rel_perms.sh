#!/bin/sh
# Scenario: permissions (issue 8), through pmuctl as a user would meet them
# and through the raw ABI:
#  - /dev/pmuprof is root-only (crw------- root root) by default;
#  - uid 65534 without capabilities: pmuctl fails with one clear line naming
#    CAP_PERFMON, whether the node's mode (EACCES) or the module (EPERM,
#    after an admin opened the node to a group) refuses;
#  - uid 65534 with CAP_PERFMON only: GET_INFO says not privileged, physical
#    addresses are refused, and a `pmuctl record -a -g --data-addr` file
#    holds no kernel address or physical address (host: relcheck --hidden),
#    while CAP_SYSLOG makes the opener privileged;
#  - PID targets only where ptrace would be allowed (PTRACE_MODE_READ):
#    own process yes; a root process, a same-uid non-dumpable process (as
#    ssh-agent makes itself) and a same-uid process of another gid no.
# needs: module bin:relcaps bin:pmuctl bin:ppclient bin:spin7030 bin:syscall_heavy host:pmuconv
# timeout: 240
# soak-timeout: 240
REL_LEVEL=check

load_module
mode=$(ls -l /dev/pmuprof | awk '{print $1, $3, $4}')
[ "$mode" = "crw------- root root" ] && pass_check device-node-root-only || fail_check device-node-root-only "$mode"

mkdir -p /tmp/rel && chmod 777 /tmp/rel
NOBODY="relcaps -u 65534 -g 65534"

# pmuctl_denied SUB: pmuctl as uid 65534 without capabilities
pmuctl_denied() {
	_o=$RESULTS/$1.txt
	$NOBODY -- pmuctl record -a -e cpu-clock --duration 1 -o /tmp/rel/$1.pmu >"$_o" 2>&1
	_rc=$?
	cat "$_o" >>"$RESULTS/scenario.log"
	_lines=$(grep -c 'pmuctl' "$_o")
	if [ $_rc -ne 0 ] && grep -q 'CAP_PERFMON' "$_o" && [ "$_lines" -le 2 ] && [ ! -s /tmp/rel/$1.pmu ]; then
		pass_check "$1"
	else
		fail_check "$1" "exit $_rc: $(tr '\n' ' ' <"$_o")"
	fi
}
pmuctl_denied unprivileged-node-mode-denied
grep -q 'mode' "$RESULTS/unprivileged-node-mode-denied.txt" && pass_check eacces-names-node-mode ||
	fail_check eacces-names-node-mode "the message does not say the node's mode refused: $(cat "$RESULTS/unprivileged-node-mode-denied.txt")"

# An admin lets group 65534 open the node; the module must still refuse
# an opener without CAP_PERFMON.
chgrp 65534 /dev/pmuprof && chmod 0660 /dev/pmuprof || fail "cannot change the node's group/mode"
pmuctl_denied unprivileged-module-eperm
if $NOBODY -- ppclient info >"$RESULTS/raw-nocaps.txt" 2>&1; then
	fail_check raw-open-eperm "open succeeded without CAP_PERFMON"
else
	grep -q 'Operation not permitted' "$RESULTS/raw-nocaps.txt" && pass_check raw-open-eperm ||
		fail_check raw-open-eperm "$(cat "$RESULTS/raw-nocaps.txt")"
fi

# CAP_PERFMON only: not privileged.
$NOBODY -c perfmon -- ppclient info >"$RESULTS/perfmon-info.txt" 2>&1 || fail "CAP_PERFMON opener: $(cat "$RESULTS/perfmon-info.txt")"
flags=$(sed -n 's/^flags=//p' "$RESULTS/perfmon-info.txt")
[ $((flags & 4)) = 0 ] && pass_check perfmon-not-privileged || fail_check perfmon-not-privileged "flags=$flags"
check perfmon-phys-refused $NOBODY -c perfmon -- ppclient record -s clock -A -Y -t 1 -E EPERM
$NOBODY -c perfmon -c syslog -- ppclient info >"$RESULTS/syslog-info.txt" 2>&1
flags=$(sed -n 's/^flags=//p' "$RESULTS/syslog-info.txt")
[ $((${flags:-0} & 4)) = 4 ] && pass_check perfmon-syslog-privileged || fail_check perfmon-syslog-privileged "flags=${flags:-?}: $(head -c 300 "$RESULTS/syslog-info.txt")"

bg syscall_heavy -s 8
sh_pid=$!
out=$RESULTS/unpriv-record.txt
$NOBODY -c perfmon -- pmuctl record -a -e cpu-clock -F 2000 -g --data-addr --duration 3 -q -o /tmp/rel/unpriv.pmu >"$out" 2>&1
rc=$?
cat "$out" >>"$RESULTS/scenario.log"
[ $rc = 0 ] && cp /tmp/rel/unpriv.pmu "$RESULTS/unpriv.pmu" && pass_check perfmon-record ||
	fail_check perfmon-record "exit $rc: $(tail -n 3 "$out" | tr '\n' ' ')"
kill $sh_pid 2>/dev/null
wait $sh_pid 2>/dev/null

# ptrace rule for PID targets.
bg spin7030 30
root_t=$!
check pid-root-target-refused $NOBODY -c perfmon -- ppclient record -p $root_t -t 1 -E EPERM
$NOBODY -c perfmon -- pmuctl record -p $root_t -e cpu-clock --duration 1 -o /tmp/rel/p.pmu >"$RESULTS/pmuctl-pid-root.txt" 2>&1
rc=$?
cat "$RESULTS/pmuctl-pid-root.txt" >>"$RESULTS/scenario.log"
[ $rc != 0 ] && grep -q 'ptrace' "$RESULTS/pmuctl-pid-root.txt" && pass_check pmuctl-pid-root-message ||
	fail_check pmuctl-pid-root-message "exit $rc: $(tr '\n' ' ' <"$RESULTS/pmuctl-pid-root.txt")"
$NOBODY -- spin7030 30 </dev/null >/dev/null 2>&1 &
own_t=$!
check pid-own-target-allowed $NOBODY -c perfmon -- ppclient record -p $own_t -t 1
$NOBODY -n </dev/null >"$RESULTS/nodump.txt" 2>&1 &
nodump_t=$!
n=0
while ! grep -q 'nodump pid' "$RESULTS/nodump.txt" && [ $n -lt 200 ]; do usleep 50000; n=$((n + 1)); done
check pid-nondumpable-target-refused $NOBODY -c perfmon -- ppclient record -p $nodump_t -t 1 -E EPERM
relcaps -u 65534 -g 0 -- spin7030 30 </dev/null >/dev/null 2>&1 &
gid_t=$!
check pid-other-gid-target-refused $NOBODY -c perfmon -- ppclient record -p $gid_t -t 1 -E EPERM
kill $root_t $own_t $nodump_t $gid_t 2>/dev/null
wait $root_t $own_t $nodump_t $gid_t 2>/dev/null

chmod 0600 /dev/pmuprof && chgrp 0 /dev/pmuprof
unload_module
exit 0
