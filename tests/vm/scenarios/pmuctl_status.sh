#!/bin/sh
# Scenario: what `pmuctl record` shows a person at a terminal. On a
# pseudo-terminal (ptyrun) it keeps one live status line (elapsed seconds,
# samples/s per event, lost, bytes written), rewritten in place with
# "\r ESC[K", then the end summary; Ctrl-C (SIGINT from the terminal side)
# stops it with a complete file. Without a terminal there is no status line.
# When samples are lost, one warning says so as soon as pmuctl sees it (with
# a --ring-size to try), before the end summary's WARNING.
# needs: module bin:pmuctl bin:ptyrun bin:split7030
# timeout: 120

load_module
ESC=$(printf '\033')
CR=$(printf '\r')

out=$RESULTS/pty.txt
ptyrun -- pmuctl record -e cpu-clock -a --duration 3 -o "$RESULTS/st.pmu" >"$out" 2>&1
rc=$?
tr '\r\033' '|^' <"$out" | head -c 2000
echo
[ $rc -eq 0 ] && pass_check exit-0 || fail_check exit-0 "pmuctl exited $rc on a terminal"
# Status updates: "\r ESC[K recording Ns  cpu-clock R/s  lost L  SIZE"
n=$(tr '\r' '\n' <"$out" | grep -c "^$ESC\[Krecording [0-9]*s  cpu-clock [0-9]*/s  lost [0-9]*  [0-9.]* [KMG]*i*B")
[ "$n" -ge 2 ] && pass_check status-line-updates ||
	fail_check status-line-updates "$n status updates (want >= 2 in 3 s)"
tr '\r' '\n' <"$out" | grep -q "^$ESC\[Krecording 2s" && pass_check status-elapsed ||
	fail_check status-elapsed "no 'recording 2s' update"
# the pty turns "\n" into "\r\n"; the summary starts on a cleared line
tr '\r' '\n' <"$out" | sed "s/^$ESC\[K//" | grep -q '^pmuctl: recorded .* samples, .* written to ' &&
	pass_check summary-after-status ||
	fail_check summary-after-status "no end summary"
grep -q "$CR" "$out" && pass_check rewritten-in-place || fail_check rewritten-in-place "no carriage return"

# Ctrl-C from the terminal: SIGINT after 2 s.
out2=$RESULTS/pty-int.txt
ptyrun -s INT -a 2 -- pmuctl record -e cpu-clock -a -o "$RESULTS/int.pmu" >"$out2" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q 'stopped by .*complete' "$out2" && pass_check ctrl-c-complete ||
	fail_check ctrl-c-complete "exit $rc: $(tr '\r\033' '|^' <"$out2" | tail -c 300)"

# Not a terminal: no status line, no escape sequences.
out3=$RESULTS/notty.txt
pmuctl record -e cpu-clock -a --duration 2 -o "$RESULTS/notty.pmu" </dev/null >"$out3" 2>&1
grep -q "$ESC" "$out3" && fail_check no-status-without-tty "escape sequences in redirected output" ||
	pass_check no-status-without-tty

# Losing samples: 128 KiB rings and 16 KiB stack copies at 20 kHz on a busy
# CPU overflow under TCG. The warning comes once, while recording (before
# the end summary), names the ring in use and one four times larger.
out4=$RESULTS/lost.txt
bg taskset -c 1 split7030 -s 6
wl=$!
pmuctl record -e cpu-clock -F 20000 --call-graph dwarf,16384 --ring-size 128K -C 1 \
	--duration 3 -o "$RESULTS/lost.pmu" </dev/null >"$out4" 2>&1
kill $wl 2>/dev/null
wait $wl 2>/dev/null
cat "$out4" >>"$RESULTS/scenario.log"
nw=$(grep -c '^pmuctl: warning: samples are being lost ([0-9]* so far): the 128K rings per CPU fill faster than pmuctl empties them; next time record with --ring-size 512K, a longer period (-c) or a lower -F, or copy less stack (--call-graph dwarf,SIZE)$' "$out4")
lw=$(grep -n 'samples are being lost' "$out4" | head -n 1 | cut -d: -f1)
ls=$(grep -n '^pmuctl: recorded ' "$out4" | head -n 1 | cut -d: -f1)
if ! grep -q 'were LOST because the rings overflowed' "$out4"; then
	fail_check loss-warned-early "no loss at all (the summary has no LOST warning): $(tail -n 3 "$out4" | tr '\n' ' ')"
elif [ "$nw" = 1 ] && [ -n "$ls" ] && [ "$lw" -lt "$ls" ]; then
	pass_check loss-warned-early
else
	fail_check loss-warned-early "$nw warnings (want 1, at line ${lw:-none}, before the summary at ${ls:-none}): $(head -c 600 "$out4")"
fi
unload_module
exit 0
