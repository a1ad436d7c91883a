#!/bin/sh
# make vm-shell, driven as a person would (issue 21): boot the interactive
# guest, record a workload into /results, 'exit'; the recording must come
# back to the host and run.sh must print the pmuconv commands that render
# it, and those commands must work. One PASS/FAIL line per check.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
cd "$ROOT" || exit 1
if [ "${SKIP_VM:-0}" = 1 ]; then
	echo "SKIP: vm_shell (SKIP_VM=1)"
	exit 0
fi
log=$BUILD/test-logs/vm_shell.out
mkdir -p "$(dirname "$log")"
python3 - "$log" <<'PY'
import subprocess, sys, time, select, os
log = open(sys.argv[1], "wb")
p = subprocess.Popen(["sh", "tests/vm/run.sh", "--shell"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
buf = b""
def wait_for(s, limit):
    global buf
    end = time.time() + limit
    while s not in buf:
        if time.time() > end or p.poll() is not None:
            return False
        r, _, _ = select.select([p.stdout], [], [], 1)
        if r:
            d = os.read(p.stdout.fileno(), 65536)
            log.write(d); log.flush()
            buf += d
    return True
def send(s):
    p.stdin.write(s.encode()); p.stdin.flush()
ok = wait_for(b"'exit' powers off", 300)
if ok:
    time.sleep(1)  # let the shell start reading its terminal (input before it is echoed anyway)
    send("pmuctl record -e cpu-clock -F 1000 -g -q -o /results/shell.pmu -- split7030 -s 2; echo REC-DONE-$?\n")
    ok = wait_for(b"REC-DONE-0", 240)
    send("exit\n")
try:
    rest, _ = p.communicate(timeout=120)
    log.write(rest); buf += rest
except subprocess.TimeoutExpired:
    p.kill(); ok = False
log.close()
sys.exit(0 if ok else 1)
PY
rc=$?
[ $rc = 0 ] && echo "PASS: vm_shell/record-in-guest" ||
	echo "FAIL: vm_shell/record-in-guest (see $log)"
dir=$(sed -n "s|^vm: the guest's /results is in \(.*\) ([0-9]* files):.*|\1|p" "$log" | tail -n 1)
if [ -n "$dir" ] && [ -s "$dir/shell.pmu" ]; then
	echo "PASS: vm_shell/results-read-back"
else
	echo "FAIL: vm_shell/results-read-back (no shell.pmu came back; see $log)"
fi
cmd=$(grep "^vm:   .*pmuconv report .*shell.pmu" "$log" | head -n 1 | sed 's/^vm:   //')
if [ -n "$cmd" ] && $cmd >"$BUILD/test-logs/vm_shell.report" 2>&1 &&
	grep -q 'split7030\|hot_a' "$BUILD/test-logs/vm_shell.report"; then
	echo "PASS: vm_shell/printed-command-renders"
else
	echo "FAIL: vm_shell/printed-command-renders (command '${cmd:-none}'; see $BUILD/test-logs/vm_shell.report)"
fi
[ -n "$dir" ] && rm -rf "$(dirname "$dir")"
exit 0
