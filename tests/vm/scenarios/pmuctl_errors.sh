#!/bin/sh
# Scenario: every pmuctl error case gives one clear line and its exit code:
# missing module, no permission (names CAP_PERFMON), busy device (names the
# holder), unknown event (suggestions), PMU event without a PMU (TCG),
# period 0 and below the minimum, unknown flag, conflicting flags.
# needs: module bin:pmuctl
# timeout: 180

# expect NAME RC PATTERN CMD ARGS...: CMD exits RC and its output matches PATTERN
# in exactly one line.
expect() {
	_name=$1 _rc=$2 _pat=$3
	shift 3
	"$@" >"$RESULTS/$_name.txt" 2>&1 </dev/null
	_got=$?
	_lines=$(grep -c . "$RESULTS/$_name.txt")
	if [ $_got -eq "$_rc" ] && grep -q -- "$_pat" "$RESULTS/$_name.txt" && [ "$_lines" -eq 1 ]; then
		pass_check "$_name"
	else
		fail_check "$_name" "exit $_got (want $_rc), $_lines lines: $(head -c 300 "$RESULTS/$_name.txt" | tr '\n' ' ')"
	fi
}

# Before the module is loaded.
expect no-module-record 1 "module is not loaded; load it with 'modprobe pmuprof'" \
	pmuctl record -a --duration 1 -o /tmp/x.pmu
expect no-module-info 1 "insmod pmuprof.ko" pmuctl info
# What needs no module is checked first: a misspelt event, a bad -C list, a
# missing -p process or COMMAND are named as such, not as a missing module.
expect no-module-unknown-event 1 "unknown event 'cyclez'" pmuctl record -e cyclez -a -o /tmp/x.pmu
expect no-module-bad-cpu 1 "beyond this machine's CPUs" pmuctl record -C 64 -o /tmp/x.pmu -- true
expect no-module-bad-pid 1 "no such process" pmuctl record -p 999999 -o /tmp/x.pmu
expect no-module-no-command 1 "cannot run 'no-such-program': No such file or directory" \
	pmuctl record -o /tmp/x.pmu -- no-such-program
# Flags are checked before the device is opened.
expect bad-flag 2 "unknown option '--bogus'" pmuctl record --bogus -a
expect period-zero-c 2 "0 is invalid" pmuctl record -c 0 -a
expect c-and-F 2 "exclude each other" pmuctl record -c 100000 -F 100 -a
expect no-target 2 "nothing to record" pmuctl record -e cpu-clock
expect two-targets 2 "exclude each other" pmuctl record -a -p 1
expect a-and-C 2 "exclude" pmuctl record -a -C 0
expect u-and-k 2 "exclude each other" pmuctl record -u -k -a
expect bad-ring 2 "power of two" pmuctl record --ring-size 3000 -a

load_module
expect unknown-event 1 "did you mean cycles" pmuctl record -e cycels -a --duration 1 -o /tmp/x.pmu
expect period-zero-event 1 "period 0 is invalid" pmuctl record -e cpu-clock/0 -a -o /tmp/x.pmu
expect period-below-min 1 "below the module's minimum of 20000 ns" \
	pmuctl record -e cpu-clock/1000 -a -o /tmp/x.pmu
expect freq-above-max 1 "above the module's maximum" pmuctl record -e cpu-clock -F 1000000 -a -o /tmp/x.pmu
expect bad-pid 1 "no such process" pmuctl record -p 999999 -e cpu-clock -o /tmp/x.pmu
expect bad-cpu 1 "beyond this machine's CPUs" pmuctl record -C 64 -e cpu-clock -o /tmp/x.pmu
if [ "$VM_ACCEL" = tcg ]; then
	expect pmu-event-tcg 1 "needs the hardware PMU, which is unusable here: .*virtual machine without a virtual PMU.*use -e cpu-clock" \
		pmuctl record -e cycles -a --duration 1 -o /tmp/x.pmu
	expect pmu-raw-tcg 1 "needs the hardware PMU" pmuctl record -e r01a2 -a -o /tmp/x.pmu
else
	log "pmu-event-tcg: not checked (a PMU exists under $VM_ACCEL)"
fi
[ -e /tmp/x.pmu ] && fail_check no-file-on-error "an error left /tmp/x.pmu behind" || pass_check no-file-on-error

# Not root: a user without CAP_PERFMON (0600 node: EACCES; opened node: the
# module's own capability check).
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
echo 'nogroup:x:65534:' >>/etc/group
expect non-root 1 "CAP_PERFMON" su -s /bin/sh nobody -c 'pmuctl record -a -e cpu-clock -o /tmp/n.pmu'
chmod 0666 /dev/pmuprof
expect non-root-cap 1 "CAP_PERFMON" su -s /bin/sh nobody -c 'pmuctl info'
chmod 0600 /dev/pmuprof

# Busy: a second opener while a session records.
out=$RESULTS/first.txt
pmuctl record -a -e cpu-clock -o /tmp/first.pmu </dev/null >"$out" 2>&1 &
p=$!
wait_started "$out" || fail "first session never started: $(cat "$out")"
expect busy 1 "is busy: another session holds it: pid $p (pmuctl)" \
	pmuctl record -a -e cpu-clock --duration 1 -o /tmp/second.pmu
kill -INT $p
wait $p
[ $? -eq 0 ] && pass_check first-session-unharmed || fail_check first-session-unharmed "$(cat "$out")"
unload_module
exit 0
