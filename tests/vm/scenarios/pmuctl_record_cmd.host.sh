#!/bin/sh
# Host half: the recorded file is complete, the workload's pid is in it with
# its process record, its user IPs fall in recorded maps of split7030 whose
# build-id matches the host's copy, and they symbolize to hot_a/hot_b.
. "$ROOT/tests/vm/lib/host.sh"
VERIFY=$BUILD/tests/pmuctl-verify
[ -x "$VERIFY" ] || fail "$VERIFY not built (make guest-bins)"
if "$VERIFY" "$RESULTS/cmd.pmu" --comm split7030 --binary "$RESULTS/split7030" \
	--expect hot_a --expect hot_b --min-samples 100 >"$RESULTS/verify.txt" 2>&1; then
	pass_check file-symbolizes
else
	fail_check file-symbolizes "$(grep FAIL "$RESULTS/verify.txt" | head -n 3 | tr '\n' ' ')"
fi
cat "$RESULTS/verify.txt"
# The two functions split their time about 70/30 by design; the user-mode
# samples in them show that the maps resolve the right symbols.
a=$(sed -n 's/^func=hot_a hits=//p' "$RESULTS/verify.txt")
b=$(sed -n 's/^func=hot_b hits=//p' "$RESULTS/verify.txt")
if [ -n "$a" ] && [ -n "$b" ] && [ $((a + b)) -gt 0 ] && [ $((a * 100 / (a + b))) -ge 55 ] &&
	[ $((a * 100 / (a + b))) -le 85 ]; then
	pass_check hot-split
else
	fail_check hot-split "hot_a=$a hot_b=$b"
fi
if "$VERIFY" "$RESULTS/exec.pmu" --comm split7030 --binary "$RESULTS/split7030" --expect hot_a \
	>"$RESULTS/verify-exec.txt" 2>&1; then
	pass_check exec-chain-symbolizes
else
	fail_check exec-chain-symbolizes "$(grep FAIL "$RESULTS/verify-exec.txt" | head -n 2 | tr '\n' ' ')"
fi
if "$VERIFY" "$RESULTS/sys.pmu" --comm syscall_heavy --binary "$RESULTS/syscall_heavy" \
	--min-samples 50 >"$RESULTS/verify-sys.txt" 2>&1; then
	pass_check syscall-heavy-maps
else
	fail_check syscall-heavy-maps "$(grep FAIL "$RESULTS/verify-sys.txt" | head -n 2 | tr '\n' ' ')"
fi
# Kernel frames resolve with the kernel symbols written on demand: the
# syscall path of syscall_heavy's kernel-mode samples.
if "$BUILD/bin/pmuconv" folded "$RESULTS/sys.pmu" -o "$RESULTS/sys.folded" \
	>"$RESULTS/folded-sys.txt" 2>&1 && grep -q 'do_syscall_64' "$RESULTS"/sys.folded*; then
	pass_check kernel-symbols-on-demand
else
	fail_check kernel-symbols-on-demand "no do_syscall_64 frame: $(head -c 300 "$RESULTS/folded-sys.txt")"
fi
# pmuconv with no file reads what pmuctl record wrote by default.
if (cd "$RESULTS/defaults" && "$BUILD/bin/pmuconv" report >report.txt 2>&1 &&
	grep -q '^source: *pmuprof.data (pmuprof' report.txt &&
	"$BUILD/bin/pmuconv" diff >diff.txt 2>&1 && grep -q '^A: pmuprof.data.old' diff.txt); then
	pass_check default-input
else
	fail_check default-input "$(head -c 300 "$RESULTS/defaults/report.txt") $(head -c 200 "$RESULTS/defaults/diff.txt" 2>/dev/null)"
fi
# One duration (docs/FORMAT.md "Duration"): pmuctl's summary and pmuconv
# report's header print the same START-to-STOP time (to their precision).
rec=$(sed -n 's/^pmuctl: recorded \([0-9.]*\) s:.*/\1/p' "$RESULTS/record-sys.txt")
rep=$("$BUILD/bin/pmuconv" report "$RESULTS/sys.pmu" 2>/dev/null | sed -n 's/^duration: *\([0-9.]*\) s$/\1/p')
if [ -n "$rec" ] && [ -n "$rep" ] && awk -v a="$rec" -v b="$rep" 'BEGIN { d = a - b; exit !(d <= 0.006 && d >= -0.006) }'; then
	pass_check one-duration
else
	fail_check one-duration "pmuctl said '$rec' s, pmuconv report '$rep' s"
fi
if "$VERIFY" "$RESULTS/dwarf.pmu" --comm split7030 --ustack-copy 4096 --min-samples 100 \
	>"$RESULTS/verify-dwarf.txt" 2>&1; then
	pass_check dwarf-copies-match-fp-walk
else
	fail_check dwarf-copies-match-fp-walk "$(grep -E 'FAIL|ustack_copies' "$RESULTS/verify-dwarf.txt" | head -n 3 | tr '\n' ' ')"
fi
cat "$RESULTS/verify-dwarf.txt"
host_done
