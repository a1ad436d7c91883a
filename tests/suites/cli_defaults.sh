#!/bin/sh
# The perf habits of both tools' command lines, on the host (no module):
# --version prints the file VERSION; pmuconv with no FILE reads pmuprof.data
# in the current directory (diff: pmuprof.data.old and pmuprof.data, as
# pmuctl record leaves them) or says clearly that there is none; `-` reads a
# .pmu (or text) from standard input, piped or redirected, with the same
# output as the file apart from the source line. pmuctl record checks what
# needs no module (event names, -C, -p, COMMAND) before looking for it, so
# this host (no module: never loaded here) hears about the real mistake.
set -u
S=cli_defaults
. "$(dirname "$0")/lib/hostsuite.sh"
FIX=$ROOT/tests/data/pmufile/real-syscall-heavy.pmu
VER=$(cat "$ROOT/VERSION")
suite_setup "$PMUCONV" "$PMUCTL" || exit 0
D=$W
cd "$D" || exit 1

# --version: the release in VERSION
v=$("$PMUCONV" --version 2>&1 | head -c 200)
[ "$v" = "pmuconv $VER" ] && pass pmuconv-version || fail pmuconv-version "got '$v', want 'pmuconv $VER'"
v=$("$PMUCTL" --version 2>&1 | head -c 200)
case $v in
"pmuctl $VER (pmuprof ABI "*) pass pmuctl-version ;;
*) fail pmuctl-version "got '$v', want 'pmuctl $VER (pmuprof ABI N)'" ;;
esac

# no FILE and no pmuprof.data here: a clear message, usage exit code
for cmd in report folded pagesize diff; do
	"$PMUCONV" $cmd >out.txt 2>err.txt
	rc=$?
	if [ $rc -eq 2 ] && grep -q "no input file given and no pmuprof.data.* in the current directory" err.txt; then
		pass "no-default-$cmd"
	else
		fail "no-default-$cmd" "exit $rc: $(head -c 200 err.txt)"
	fi
done

# no FILE: pmuprof.data, as `pmuconv report pmuprof.data` reads it
cp "$FIX" pmuprof.data
"$PMUCONV" report pmuprof.data >want.txt 2>/dev/null
"$PMUCONV" report >got.txt 2>/dev/null
rc=$?
[ $rc -eq 0 ] && [ -s want.txt ] && cmp -s want.txt got.txt && pass default-report ||
	fail default-report "exit $rc; $(diff want.txt got.txt | head -n 3 | tr '\n' ' ')"
"$PMUCONV" folded pmuprof.data >want.txt 2>/dev/null
"$PMUCONV" folded >got.txt 2>/dev/null && cmp -s want.txt got.txt && pass default-folded ||
	fail default-folded "$(diff want.txt got.txt | head -n 3 | tr '\n' ' ')"
# diff: pmuprof.data.old (A) against pmuprof.data (B)
cp "$FIX" pmuprof.data.old
"$PMUCONV" diff pmuprof.data.old pmuprof.data >want.txt 2>/dev/null
"$PMUCONV" diff >got.txt 2>/dev/null && [ -s want.txt ] && cmp -s want.txt got.txt &&
	grep -q '^A: pmuprof.data.old' got.txt && grep -q '^B: pmuprof.data:' got.txt && pass default-diff ||
	fail default-diff "$(head -n 2 got.txt | tr '\n' ' ')"

# `-`: standard input, piped and redirected; only the source line differs
"$PMUCONV" report pmuprof.data 2>/dev/null | sed 1d >want.txt
cat pmuprof.data | "$PMUCONV" report - >got.txt 2>/dev/null
if head -n 1 got.txt | grep -q '^source: *- (pmuprof' && sed 1d got.txt | cmp -s want.txt -; then
	pass stdin-pipe-pmu
else
	fail stdin-pipe-pmu "$(head -n 1 got.txt) $(sed 1d got.txt | diff want.txt - | head -n 3 | tr '\n' ' ')"
fi
"$PMUCONV" report - <pmuprof.data 2>/dev/null | sed 1d | cmp -s want.txt - && pass stdin-redirect-pmu ||
	fail stdin-redirect-pmu "differs from the file's report"
# a cut .pmu on stdin: the strict error, and --salvage
head -c 5000 pmuprof.data | "$PMUCONV" report - >out.txt 2>err.txt
rc=$?
[ $rc -ne 0 ] && grep -q 'truncated' err.txt && pass stdin-cut-strict ||
	fail stdin-cut-strict "exit $rc: $(head -c 200 err.txt)"
head -c 5000 pmuprof.data | "$PMUCONV" report --salvage - >out.txt 2>/dev/null &&
	grep -q '^samples: ' out.txt && pass stdin-cut-salvage || fail stdin-cut-salvage "no report"
# text on stdin still works, and empty stdin says so
printf 'main;work 3\n' | "$PMUCONV" folded - >got.txt 2>/dev/null
[ "$(cat got.txt)" = "main;work 3" ] && pass stdin-text || fail stdin-text "got '$(cat got.txt)'"
"$PMUCONV" report - </dev/null >out.txt 2>err.txt
rc=$?
[ $rc -ne 0 ] && grep -q 'empty' err.txt && pass stdin-empty || fail stdin-empty "exit $rc: $(cat err.txt)"

# pmuctl record: mistakes named before the (missing) module
pre() {
	_name=$1 _pat=$2
	shift 2
	"$PMUCTL" record -o "$D/x.pmu" "$@" >out.txt 2>&1
	_rc=$?
	if [ $_rc -eq 1 ] && grep -q -- "$_pat" out.txt && [ "$(grep -c . out.txt)" -eq 1 ] &&
		[ ! -e "$D/x.pmu" ]; then
		pass "record-$_name"
	else
		fail "record-$_name" "exit $_rc: $(head -c 300 out.txt)"
	fi
}
pre unknown-event "unknown event 'cyclez'" -e cyclez -a
pre bad-cpu "-C 9999: a CPU number is beyond this machine's CPUs" -C 9999 -- true
pre bad-cpu-list "-C 1-x: give a CPU list" -C 1-x -- true
pre no-pid "-p 999999999: no such process" -p 999999999
pre no-command "cannot run 'no-such-program-x': No such file or directory" -- no-such-program-x
# a ring too small for the stack copies: named as a usage error (exit 2),
# with the size to give, before the module (which would only say EINVAL)
"$PMUCTL" record --call-graph dwarf,16384 --ring-size 64K -a -o "$D/x.pmu" >out.txt 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- 'a ring of 65536 bytes (--ring-size) is too small for --call-graph dwarf,16384: .* give --ring-size 128K or more' out.txt &&
	[ ! -e "$D/x.pmu" ]; then
	pass record-ring-too-small-for-copy
else
	fail record-ring-too-small-for-copy "exit $rc: $(head -c 300 out.txt)"
fi
# -C together with -p or COMMAND is accepted (the module is what is missing)
"$PMUCTL" record -C 0 -o "$D/x.pmu" -- true >out.txt 2>&1
if [ -e /dev/pmuprof ] || grep -q 'module is not loaded' out.txt; then
	pass record-C-with-command
else
	fail record-C-with-command "$(head -c 300 out.txt)"
fi
exit 0
