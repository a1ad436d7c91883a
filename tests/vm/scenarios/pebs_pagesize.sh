#!/bin/sh
# Scenario (issue 6, PEBS): with a virtual PMU that offers PEBS (KVM,
# -cpu host,pmu=on, Intel host, page-table isolation off in the guest), a
# precise load event records the data linear address from PEBS records, and
# the 4K/2M/1G split of the pagesizes workload's sampled loads follows what
# the workload did (host half: pebs_pagesize.host.sh). Skipped under TCG
# (no PMU) and where the guest PMU has no PEBS; UNVERIFIED until it has run
# on such a machine (docs/PMU.md).
# needs: module kvm-pmu bin:pmuctl bin:pagesizes host:pmuconv
# timeout: 300
# results-mb: 64

load_module
cp /usr/local/bin/pagesizes "$RESULTS/"
pmuctl info --json >"$RESULTS/info.json" 2>&1 || fail "pmuctl info failed: $(tail -n 2 "$RESULTS/info.json")"
grep -q '"pebs"' "$RESULTS/info.json" ||
	skip "the guest PMU offers no PEBS: $(grep -E '"(sources|pmu_status|vendor_string)"' "$RESULTS/info.json" | tr -d '\n')"
pass_check pebs-offered

# The all-loads precise event has changed names across generations.
ev=
for cand in MEM_INST_RETIRED.ALL_LOADS MEM_UOPS_RETIRED.ALL_LOADS MEM_LOAD_UOPS_RETIRED.L1_HIT; do
	if pmuctl encode "$cand:p" >/dev/null 2>&1; then
		ev=$cand
		break
	fi
done
[ -n "$ev" ] || skip "no precise all-loads event known for this CPU model"
log "precise event: $ev:p"

wl=$RESULTS/wl.txt
taskset -c 0 pmuctl record -e "$ev:p" -c 20011 --data-addr -q -o "$RESULTS/pebs.pmu" -- \
	pagesizes -c 1 -s 4 -m 1 -u 50000 -p seq 4k:50 2m:30 1g:20 </dev/null >"$wl" 2>"$RESULTS/record.txt"
rc=$?
cat "$RESULTS/record.txt" "$wl"
[ $rc -eq 0 ] || fail "pmuctl record exited $rc: $(tail -n 3 "$RESULTS/record.txt")"
grep -q '^pagesizes: pid=' "$wl" || fail "the workload did not finish: $(tail -n 3 "$wl")"
bad=
for k in 4k 2m 1g; do
	actual=$(sed -n "s/^buffer phase=end name=$k .* actual=\([^ ]*\) .*/\1/p" "$wl")
	[ "$actual" = "$k" ] || bad="$bad $k buffer got actual=${actual:-nothing};"
done
[ -z "$bad" ] || fail "the kernel did not give the requested page sizes:$bad"
pass_check record
unload_module

# Linux perf as the oracle, same boot (issue 16; the emulated-PMU variant
# sets PEBS_WITH_PERF=1): the same precise event, period and workload with
# `perf record -d --data-page-size`; the host half compares the split of
# the workload's samples by data page size with pmuconv's (3 points).
# perf prints a 1 GiB page as "1024M".
if [ "${PEBS_WITH_PERF:-0}" = 1 ]; then
	# MEM_INST_RETIRED.ALL_LOADS, user mode, PEBS (the event the
	# emulation writes records for; pmuconv looks at user samples only)
	taskset -c 0 perf record -q -e r81d0:upp -c 20011 -d --data-page-size \
		-o "$RESULTS/perf.data" -- pagesizes -c 1 -s 4 -m 1 -u 50000 -p seq \
		4k:50 2m:30 1g:20 </dev/null >"$RESULTS/wl-perf.txt" 2>"$RESULTS/perf-record.txt" ||
		fail "perf record failed: $(tail -n 3 "$RESULTS/perf-record.txt")"
	perf script -i "$RESULTS/perf.data" -F comm,data_page_size 2>"$RESULTS/perf-script.err" |
		awk '$1 == "pagesizes" { k = $NF; if (k == "1024M") k = "1G"; n[k]++ }
			END { for (k in n) print k, n[k] }' \
			>"$RESULTS/perf-split.txt"
	cat "$RESULTS/perf-split.txt"
	[ -s "$RESULTS/perf-split.txt" ] ||
		fail "perf script gave no data page sizes: $(tail -n 2 "$RESULTS/perf-script.err")"
	pass_check perf-record
fi
exit 0
