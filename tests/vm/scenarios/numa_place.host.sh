#!/bin/sh
# Host half of numa_place: `pmuconv pagesize` (as a user runs it) on the
# recording of numaplace; the page size x node matrix of the workload's
# user-mode samples and its local/remote split per page size, every cell
# within TOL points of the design (30 % 4K node 0, 30 % 2M node 1, 20 % 4K
# node 1, 10 % 2M node 0, 10 % 1G on node G, the node the guest found its
# 1 GiB page on; from CPU 0 on node 0: 4K 60/40 local/remote, 2M 25/75, 1G
# 100/0 or 0/100). The truth of the placement was checked in the guest.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
pid=$(sed -n 's/^numaplace: pid=\([0-9]*\) .*/\1/p' wl.txt)
[ -n "$pid" ] || fail "no 'numaplace: pid=' line in wl.txt"
mkdir -p symfs/usr/local/bin && cp numaplace symfs/usr/local/bin/ || fail "no numaplace binary"
TOL=5
g=$(sed -n 's/^buffer phase=setup .* kind=1g node=\([01]\) .*/\1/p' wl.txt)
[ -n "$g" ] || fail "no 1g buffer line in wl.txt"

"$BIN/pmuconv" pagesize numa.pmu --symfs symfs >ps-all.txt 2>&1 ||
	fail "pmuconv pagesize failed: $(tail -n 2 ps-all.txt)"
"$BIN/pmuconv" pagesize numa.pmu --symfs symfs --pid "$pid" --user-only >ps-user.txt 2>&1 ||
	fail "pmuconv pagesize --user-only failed: $(tail -n 2 ps-user.txt)"
"$BIN/pmuconv" pagesize numa.pmu --symfs symfs --pid "$pid" --user-only --json >ps-user.json 2>&1 ||
	fail "pmuconv pagesize --json failed: $(tail -n 2 ps-user.json)"
"$BIN/pmuconv" report numa.pmu --symfs symfs --pid "$pid" --sort data_node,locality >sort.txt 2>&1 ||
	fail "pmuconv report --sort data_node failed: $(tail -n 2 sort.txt)"
sed -n '/^== NUMA placement/,$p' ps-user.txt
grep -q '^== NUMA placement of data accesses (user and kernel samples): 2 nodes' ps-all.txt &&
	pass_check default-output || fail_check default-output "no NUMA section in the default output"

# cell FILE PAGE COL: the share (percent) in column COL (1 = node 0, 2 = node 1,
# 3 = unknown) of the matrix row PAGE
cell() {
	awk -v pg="$2" -v col="$3" '
		/^Data page size x data node/ { in_m = 1; next }
		in_m && $1 == pg { v = $(2 * col + 1); sub("%", "", v); print v; exit }
		in_m && !/^  / { exit }' "$1"
}
# loc FILE PAGE COL: local (1) or remote (2) share of row PAGE
loc() {
	awk -v pg="$2" -v col="$3" '
		/^Local\/remote per page size/ { in_l = 1; next }
		in_l && $1 == pg { v = $(col + 1); sub("%", "", v); print v; exit }
		in_l && !/^  / { exit }' "$1"
}
judge() { # NAME GOT WANT
	if within "$2" "$3" "$TOL"; then
		pass_check "$1"
		log "$1: ${2}% (design $3%)"
	else
		fail_check "$1" "got ${2:-nothing}%, design $3% +-$TOL"
	fi
}
judge 4K-node0 "$(cell ps-user.txt 4K 1)" 30
judge 4K-node1 "$(cell ps-user.txt 4K 2)" 20
judge 2M-node0 "$(cell ps-user.txt 2M 1)" 10
judge 2M-node1 "$(cell ps-user.txt 2M 2)" 30
judge "1G-node$g" "$(cell ps-user.txt 1G $((g + 1)))" 10
judge "1G-node$((1 - g))" "$(cell ps-user.txt 1G $((2 - g)))" 0
judge all-node0 "$(cell ps-user.txt all 1)" $((40 + 10 * (1 - g)))
judge all-node1 "$(cell ps-user.txt all 2)" $((50 + 10 * g))
judge 4K-local "$(loc ps-user.txt 4K 1)" 60
judge 4K-remote "$(loc ps-user.txt 4K 2)" 40
judge 2M-local "$(loc ps-user.txt 2M 1)" 25
judge 2M-remote "$(loc ps-user.txt 2M 2)" 75
judge 1G-local "$(loc ps-user.txt 1G 1)" $((100 * (1 - g)))
judge all-local "$(loc ps-user.txt all 1)" $((40 + 10 * (1 - g)))
judge all-remote "$(loc ps-user.txt all 2)" $((50 + 10 * g))
# (nearly) nothing unknown: every sample had a physical address
unk=$(cell ps-user.txt all 3)
within "${unk:-0}" 0 1 && pass_check unknown-node || fail_check unknown-node "unknown data node ${unk}%"
# --json: the numa object's 4K node 0 cell agrees with the text, to the
# text's one decimal (a share of exactly 0.2975 prints 29.7 in C and 29.8 in
# Python's "%.1f": compare the numbers, not the two roundings)
j=$(python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["numa"]
row = [r for r in n["events"][0]["matrix"] if r["page"] == "4K"][0]
pct = 100 * row["cells"][0]["share"]
ok = abs(pct - float(sys.argv[2])) <= 0.05 + 1e-9
print("%s %.4f %s" % ("agree" if ok else "differ", pct, n["has_phys"]))' ps-user.json "$(cell ps-user.txt 4K 1)" 2>&1)
if [ "${j%% *}" = agree ] && [ "${j##* }" = True ]; then
	pass_check json
else
	fail_check json "--json says '$j', the text $(cell ps-user.txt 4K 1)"
fi
grep -q 'node 1 *remote' sort.txt && grep -q 'node 0 *local' sort.txt && pass_check sort-data-node ||
	fail_check sort-data-node "$(grep -c node sort.txt) node rows"
# The unprivileged recording: no physical address in any sample, the nodes
# from the module (data_node1), the same matrix within TOL.
if [ -f unpriv.pmu ]; then
	upid=$(sed -n 's/^numaplace: pid=\([0-9]*\) .*/\1/p' wl-unpriv.txt)
	"$BIN/pmuconv" pagesize unpriv.pmu --symfs symfs --pid "$upid" --user-only >up-user.txt 2>&1 ||
		fail_check unpriv-pagesize "pmuconv pagesize failed: $(tail -n 2 up-user.txt)"
	sed -n '/^== NUMA placement/,$p' up-user.txt
	python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["numa"]
sys.exit(0 if n is not None and not n["has_phys"] else 1)' /dev/stdin <<EOF2 && pass_check unpriv-no-phys || fail_check unpriv-no-phys "the unprivileged recording has physical addresses, or no node map"
$("$BIN/pmuconv" pagesize unpriv.pmu --symfs symfs --pid "$upid" --user-only --json 2>/dev/null)
EOF2
	judge unpriv-4K-node0 "$(cell up-user.txt 4K 1)" 40
	judge unpriv-4K-node1 "$(cell up-user.txt 4K 2)" 20
	judge unpriv-2M-node0 "$(cell up-user.txt 2M 1)" 10
	judge unpriv-2M-node1 "$(cell up-user.txt 2M 2)" 30
	judge unpriv-all-local "$(loc up-user.txt all 1)" 50
	judge unpriv-all-remote "$(loc up-user.txt all 2)" 50
else
	fail_check unpriv-pagesize "no unpriv.pmu from the guest"
fi
host_done
