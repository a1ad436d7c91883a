#!/bin/sh
# Host half of emu_pmu_pebs: pmuctl's PEBS recording of
# MEM_INST_RETIRED:ALL_LOADS:u:p on tlbrand, read with pmuconv script: every
# sample at tlbrand's load loop (rand_loads) has the same exact IP and a
# data address inside tlbrand's buffer, and there is one sample per period
# + 1 loads of the loop (records are drained, none lost at stop). Then the
# pebsforms recording of the PEBS-vs-decode check: each addressing form
# sampled, startup under 5 % of the samples.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
mkdir -p symfs/usr/local/bin && cp tlbrand symfs/usr/local/bin/ || fail "no tlbrand binary"
"$BIN/pmuconv" script pebs.pmu --symfs symfs >script.txt 2>script.err ||
	fail "pmuconv script failed: $(tail -n 2 script.err)"
head -n 3 script.txt
N=$(sed -n 's/.* loads=\([0-9]*\).*/\1/p' wl-pmuctl.txt)
P=1009
start=$(sed -n 's/.* start=\(0x[0-9a-f]*\).*/\1/p' wl-pmuctl.txt)
span=$(sed -n 's/.* span=\([0-9]*\).*/\1/p' wl-pmuctl.txt)
[ -n "$N" ] && [ -n "$start" ] && [ -n "$span" ] || fail "no loads/start/span in wl-pmuctl.txt"
# "comm pid/tid [cpu] time: period event: addr ip sym (dso) ..."
set -- $(awk -v s=$((start)) -v n="$span" 'function hex(x,  i, v) {
		sub(/^0x/, "", x); x = tolower(x); v = 0
		for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
		return v
	}
	{ for (k = 3; k <= NF; k++) if ($k == "rand_loads" || index($k, "rand_loads+") == 1) break
	  if (k > NF) next
	  a = hex($(k - 2)); t++; ip[$(k - 1)]++
	  if (a < s || a >= s + n) bad++ }
	END { for (i in ip) nip++; printf "%d %d %d\n", t, bad, nip }' script.txt)
echo "pmuctl: $1 samples at rand_loads, $2 outside the buffer [$start, +$span), $3 distinct IPs"
[ "$1" -gt 0 ] && [ "$2" = 0 ] && pass_check pmuctl-addr-in-buffer ||
	fail_check pmuctl-addr-in-buffer "$1 samples at rand_loads, $2 with an address outside [$start, +$span)"
[ "$3" = 1 ] && pass_check pmuctl-exact-ip || fail_check pmuctl-exact-ip "$3 distinct IPs at rand_loads"
lo=$((N / (P + 1) - 2))
hi=$((N / (P + 1) + 2))
[ "$1" -ge $lo ] && [ "$1" -le $hi ] && pass_check pmuctl-count ||
	fail_check pmuctl-count "$1 samples at rand_loads, want $lo..$hi for $N loads, period $P"

# pebsforms (the PEBS-vs-decode workload): every form function was sampled
# about F / (P + 1) times, and the rest of the program (startup, printf)
# holds < 5 % of the samples, as the guest half's applicable threshold
# assumes
cp pebsforms symfs/usr/local/bin/ || fail "no pebsforms binary"
"$BIN/pmuconv" script forms.pmu --symfs symfs >forms-script.txt 2>forms-script.err ||
	fail "pmuconv script (forms) failed: $(tail -n 2 forms-script.err)"
F=$(sed -n 's/.* loads=\([0-9]*\).*/\1/p' wl-forms.txt)
[ -n "$F" ] || fail "no loads= in wl-forms.txt"
awk '{ f = "other"; for (k = 3; k <= NF; k++) if ($k ~ /^pf_[a-z]+(\+0x[0-9a-f]+)?$/) { f = $k; sub(/\+.*/, "", f); break }
	n[f]++; t++ }
	END { for (f in n) print f, n[f]; print "total", t }' forms-script.txt | sort >forms-by-function.txt
cat forms-by-function.txt
want=$((F / (P + 1)))
for f in pf_base pf_sib pf_abs pf_rip pf_stack pf_fs pf_chase pf_lods; do
	got=$(awk -v f=$f '$1 == f { print $2 }' forms-by-function.txt)
	[ "${got:-0}" -ge $((want - 2)) ] && [ "${got:-0}" -le $((want + 2)) ] && pass_check "forms-$f-sampled" ||
		fail_check "forms-$f-sampled" "${got:-0} samples in $f, want $want +- 2 ($F loads, period $P)"
done
other=$(awk '$1 == "other" { print $2 }' forms-by-function.txt)
total=$(awk '$1 == "total" { print $2 }' forms-by-function.txt)
[ $((${other:-0} * 100)) -lt $((${total:-0} * 5)) ] && pass_check forms-startup-share ||
	fail_check forms-startup-share "${other:-0} of ${total:-0} samples outside the pf_ functions: want < 5 %"
exit 0
