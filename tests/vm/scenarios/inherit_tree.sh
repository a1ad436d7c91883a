#!/bin/sh
# Scenario: `pmuctl record -- COMMAND` records COMMAND's whole process tree
# (PMUPROF_CF_INHERIT): inhtree's parent, two children (one with a second
# thread) and a grandchild all have samples, maps and symbolizable user
# stacks in the proportions of their work; --no-inherit keeps only COMMAND's
# process; `-p PID --inherit` follows a tree that existed before recording;
# processes shorter than pmuctl's drain tick still get their maps (ptrace
# exit events of every descendant); an opener without CAP_SYS_PTRACE does
# not see a descendant that turned non-dumpable. The host half (inherit_tree.host.sh)
# symbolizes and checks the split.
# needs: module bin:pmuctl bin:inhtree bin:inhcfg
# timeout: 300
# results-mb: 128

roles_ok() {
	[ "$(grep -c '^inhtree: role=' "$1")" -eq 4 ]
}

load_module
# The tree runs on the last CPU, away from pmuctl's own work.
PIN="-c $((NCPUS - 1))"
cp /usr/local/bin/inhtree "$RESULTS/" # the host symbolizes with this very binary

# 1. Default: COMMAND and everything it starts.
pmuctl record -e cpu-clock -F 1000 -g -q -o "$RESULTS/tree.pmu" -- inhtree -u 300 $PIN \
	</dev/null >"$RESULTS/tree.out" 2>"$RESULTS/tree.err"
rc=$?
cat "$RESULTS/tree.out" "$RESULTS/tree.err"
if [ $rc -eq 0 ] && roles_ok "$RESULTS/tree.out"; then
	pass_check record-tree
else
	fail_check record-tree "exit $rc: $(tail -n 3 "$RESULTS/tree.err" | tr '\n' ' ')"
fi

# 2. --no-inherit: COMMAND's own process only.
pmuctl record -e cpu-clock -F 1000 -g -q --no-inherit -o "$RESULTS/noinh.pmu" -- inhtree -u 150 $PIN \
	</dev/null >"$RESULTS/noinh.out" 2>"$RESULTS/noinh.err"
rc=$?
cat "$RESULTS/noinh.out" "$RESULTS/noinh.err"
if [ $rc -eq 0 ] && roles_ok "$RESULTS/noinh.out"; then
	pass_check record-no-inherit
else
	fail_check record-no-inherit "exit $rc: $(tail -n 3 "$RESULTS/noinh.err" | tr '\n' ' ')"
fi

# 3. -p PID --inherit on a tree built before recording: inhtree forks its
# children and grandchild, then every process waits for a line on the FIFO.
rm -f /tmp/inhgo
mkfifo /tmp/inhgo || fail "mkfifo failed"
inhtree -u 200 $PIN -w /tmp/inhgo </dev/null >"$RESULTS/pid.out" 2>&1 &
tree=$!
pmuctl record -e cpu-clock -F 1000 -g -p $tree --inherit -o "$RESULTS/pid.pmu" \
	</dev/null >"$RESULTS/pid.err" 2>&1 &
rec=$!
if wait_started "$RESULTS/pid.err"; then
	echo go >/tmp/inhgo
	wait $tree
	trc=$?
	kill -INT $rec
	wait $rec
	rc=$?
	cat "$RESULTS/pid.out" "$RESULTS/pid.err"
	if [ $trc -eq 0 ] && [ $rc -eq 0 ] && roles_ok "$RESULTS/pid.out"; then
		pass_check record-pid-inherit
	else
		fail_check record-pid-inherit "inhtree exit $trc, pmuctl exit $rc: $(tail -n 3 "$RESULTS/pid.err" | tr '\n' ' ')"
	fi
else
	fail_check record-pid-inherit "pmuctl -p never said it started: $(cat "$RESULTS/pid.err")"
	kill $rec 2>/dev/null
	echo go >/tmp/inhgo
	wait
fi

# 4. Short-lived descendants: ten trees whose processes live a few tens of
# ms (below pmuctl's 100 ms drain tick), started by a shell.
pmuctl record -e cpu-clock -F 2000 -q -o "$RESULTS/short.pmu" -- \
	sh -c 'i=0; while [ $i -lt 10 ]; do inhtree -u 8 || exit 1; i=$((i + 1)); done' \
	</dev/null >"$RESULTS/short.out" 2>"$RESULTS/short.err"
rc=$?
cat "$RESULTS/short.err"
if [ $rc -eq 0 ] && [ "$(grep -c '^inhtree: role=' "$RESULTS/short.out")" -eq 40 ]; then
	pass_check record-short-lived
else
	fail_check record-short-lived "exit $rc: $(tail -n 3 "$RESULTS/short.err" | tr '\n' ' ')"
fi

# 5. An opener without CAP_SYS_PTRACE (uid 65534 with CAP_PERFMON only, via
# relcaps from tests/tools/relfuzz when it is built): a descendant that made
# itself non-dumpable (inhtree -n: the grandchild) is not sampled; the
# others are.
if command -v relcaps >/dev/null 2>&1; then
	mkdir -p /tmp/inh && chmod 777 /tmp/inh
	chgrp 65534 /dev/pmuprof && chmod 0660 /dev/pmuprof || fail "cannot change the node's group/mode"
	relcaps -u 65534 -g 65534 -c perfmon -- pmuctl record -e cpu-clock -F 1000 -g -q \
		-o /tmp/inh/unpriv.pmu -- inhtree -u 300 $PIN -n \
		</dev/null >"$RESULTS/unpriv.out" 2>"$RESULTS/unpriv.err"
	rc=$?
	chgrp 0 /dev/pmuprof && chmod 0600 /dev/pmuprof
	cat "$RESULTS/unpriv.out" "$RESULTS/unpriv.err"
	cp /tmp/inh/unpriv.pmu "$RESULTS/" 2>/dev/null
	if [ $rc -eq 0 ] && roles_ok "$RESULTS/unpriv.out"; then
		pass_check record-unprivileged
	else
		fail_check record-unprivileged "exit $rc: $(tail -n 3 "$RESULTS/unpriv.err" | tr '\n' ' ')"
	fi
else
	fail_check record-unprivileged "relcaps (tests/tools/relfuzz) is not built (make guest-bins)"
fi

# The raw ioctls: INHERIT with target PID works (and samples this shell's
# descendant), without it EINVAL, the next bit stays unknown.
if inhcfg >"$RESULTS/inhcfg.txt" 2>&1; then
	pass_check ioctl-inherit
else
	fail_check ioctl-inherit "$(grep FAIL "$RESULTS/inhcfg.txt" | head -n 3 | tr '\n' ' ')"
fi
cat "$RESULTS/inhcfg.txt"
# pmuctl says what is wrong before the kernel would.
pmuctl record -a --inherit -e cpu-clock --duration 1 -o "$RESULTS/bad.pmu" >"$RESULTS/bad.txt" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- '--inherit needs -p PID or COMMAND' "$RESULTS/bad.txt"; then
	pass_check pmuctl-inherit-needs-target
else
	fail_check pmuctl-inherit-needs-target "exit $rc: $(cat "$RESULTS/bad.txt")"
fi
unload_module
exit 0
