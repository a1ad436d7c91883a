#!/bin/sh
# Scenario: /dev/pmuprof is root-only (0600); an opener without CAP_PERFMON
# or CAP_SYS_ADMIN gets EPERM; an opener with only CAP_PERFMON is not
# "privileged": GET_INFO says so, its samples carry no kernel IPs and no
# kernel stacks (zeroed/omitted), PHYS_ADDR is refused with EPERM, and its
# user-space data is intact.
# needs: module bin:ppclient bin:spin7030
# timeout: 240

load_module
mode=$(ls -l /dev/pmuprof | cut -c1-10)
[ "$mode" = "crw-------" ] && pass_check device-mode-0600 || fail_check device-mode-0600 "mode $mode"

if ppclient --caps none info >"$RESULTS/nocaps.txt" 2>&1; then
	fail_check no-caps-eperm "open succeeded without capabilities"
else
	grep -q 'Operation not permitted' "$RESULTS/nocaps.txt" && pass_check no-caps-eperm ||
		fail_check no-caps-eperm "$(cat "$RESULTS/nocaps.txt")"
fi

ppclient --caps perfmon info >"$RESULTS/info.txt" 2>&1 || fail "CAP_PERFMON opener: $(cat "$RESULTS/info.txt")"
flags=$(sed -n 's/^flags=//p' "$RESULTS/info.txt")
[ $(( flags & 4 )) = 0 ] && pass_check perfmon-not-privileged || fail_check perfmon-not-privileged "flags=$flags"
check perfmon-phys-eperm ppclient --caps perfmon record -A -Y -E EPERM

bg taskset -c 1 spin7030 6
wl=$!
out=$RESULTS/record.txt
check_out record-accounting "$out" 'CHECK FAILED' \
	ppclient --caps perfmon record -s clock -P 1000000 -g -U -A -t 3 -o "$RESULTS/unpriv.bin"
an=$RESULTS/analyze.txt
check_out kernel-addresses-hidden-user-intact "$an" 'CHECK FAILED' \
	ppclient analyze "$RESULTS/unpriv.bin" --hidden --comm spin7030 --elf "$(command -v spin7030)" \
	--funcs hot_a,hot_b --min 300 --main-min 90
kill $wl 2>/dev/null
wait $wl 2>/dev/null
unload_module
exit 0
