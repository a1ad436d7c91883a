#!/bin/sh
# `pmuconv perf-data` read back by Linux perf (the host's perf 6.1, which
# `make deps` installs: linux-perf), on the fixture of tests/data/perfdata
# (a PIE built here, two events, kernel and module frames, data addresses,
# LOST records):
#   - perf report --sort sym lists the same top 10 functions per event as
#     pmuconv report, self shares within 0.5 percentage points;
#   - perf report shows the lost samples pmuconv report counts;
#   - perf script shows the data address and page-size columns, with as many
#     samples per data page size as pmuconv pagesize counts;
#   - filters (-e, --pid, --time) reach the perf.data file;
#   - perf script text of the export, read back by pmuconv pagesize/report
#     (the import direction), gives the page-size split and top functions of
#     the original recording;
#   - a truncated recording: exit 1 with a message and no output or
#     temporary file left behind (the damaged-file replay of every exporter
#     is in fuzz_replay_pmufile.sh).
# Prints PASS/FAIL lines; always exits 0.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PMUCONV=${PMUCONV:-$BUILD/bin/pmuconv}
MKDATA=${MKDATA:-$BUILD/tests/pmuconv_mkdata}
PERF=${PERF:-perf}
CMP=$ROOT/tests/tools/perfdata/compare_top.py
export LC_ALL=C

for need in "$PMUCONV" "$MKDATA"; do
	if [ ! -x "$need" ]; then
		echo "FAIL: perfdata/setup (no $need; run make all unit)"
		exit 0
	fi
done
if ! command -v "$PERF" >/dev/null 2>&1; then
	echo "FAIL: perfdata/setup (no perf on this host; make deps installs linux-perf)"
	exit 0
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/perfdata.XXXXXX")
trap 'rm -rf "$W"' EXIT
if ! sh "$ROOT/tests/data/perfdata/gen.sh" "$W" "$MKDATA" >"$W/gen.log" 2>&1; then
	echo "FAIL: perfdata/setup (gen.sh: $(tail -n 1 "$W/gen.log"))"
	exit 0
fi
cd "$W" || exit 0

pass() { echo "PASS: perfdata/$1"; }
fail() { echo "FAIL: perfdata/$1 ($2)"; }
# perf report of FILE, symbols from the recording's kallsyms
preport() {
	f=$1
	shift
	"$PERF" report -i "$f" --kallsyms "$f.kallsyms" --stdio "$@" 2>"$f.report.err"
}

# ---- export
if "$PMUCONV" perf-data data.pmu -o out.data 2>export.err && [ -s out.data ] &&
	[ -s out.data.kallsyms ] && [ -z "$(ls | grep '\.tmp\.')" ]; then
	pass export
else
	fail export "exit $?: $(head -c 200 export.err)"
fi

# ---- top 10 per event, against pmuconv report
"$PMUCONV" report data.pmu --json --top 10 -q >report.json
preport out.data --sort sym --no-children -g none >perf-report.txt
if python3 "$CMP" report.json perf-report.txt 10 0.5 >cmp.txt 2>&1; then
	pass "perf-report-top10 ($(tr '\n' ' ' <cmp.txt | cut -c1-150))"
else
	fail perf-report-top10 "$(tr '\n' ' ' <cmp.txt | cut -c1-300)"
fi

# ---- lost samples
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lost"])' report.json)
got=$(sed -n 's/^# Total Lost Samples: \([0-9]*\)$/\1/p' perf-report.txt)
if [ -n "$want" ] && [ "$want" != 0 ] && [ "$got" = "$want" ]; then
	pass "perf-report-lost ($got)"
else
	fail perf-report-lost "perf report says '$got' lost samples, pmuconv report $want"
fi

# ---- data address and page-size columns: samples per data page size
"$PERF" script -i out.data -F event,addr,data_page_size -G 2>/dev/null >script-addr.txt
"$PMUCONV" pagesize data.pmu --json -e cycles --together -q >pagesize.json
if python3 "$ROOT/tests/tools/perfdata/compare_pages.py" pagesize.json script-addr.txt cycles >pages.txt 2>&1; then
	pass "perf-script-data-page-size ($(cat pages.txt))"
else
	fail perf-script-data-page-size "$(tr '\n' ' ' <pages.txt | cut -c1-300)"
fi

# ---- filters reach the file
"$PMUCONV" perf-data data.pmu -o ev.data -e cpu-clock -q
preport ev.data --sort sym >ev.txt
if grep -q "of event 'cpu-clock'" ev.txt && ! grep -q "of event 'cycles'" ev.txt; then
	pass filter-event
else
	fail filter-event "perf report of -e cpu-clock: $(grep '^# Samples' ev.txt | tr '\n' ' ')"
fi
# the kernel samples at session times 5100 and 5200 ns (12 cycles samples):
# --time ,0.0000050 (up to 5.0999 us, as filterspec.h rounds END) keeps all
# but those
"$PMUCONV" perf-data data.pmu -o time.data --time ,0.0000050 -q
n=$("$PERF" script -i time.data -F event -G 2>/dev/null | grep -c :)
all=$("$PERF" script -i out.data -F event -G 2>/dev/null | grep -c :)
if [ "$n" -eq $((all - 12)) ]; then
	pass "filter-time ($n of $all samples)"
else
	fail filter-time "perf script counts $n of $all samples, expected $((all - 12))"
fi
"$PMUCONV" perf-data data.pmu -o pid.data -p 999 2>pid.err
if [ "$("$PERF" script -i pid.data -G 2>/dev/null | grep -c :)" -eq 0 ] && grep -q 'no sample passed' pid.err; then
	pass filter-pid
else
	fail filter-pid "samples of pid 999 in the export or no warning: $(head -c 150 pid.err)"
fi

# --kernel-only: only kernel-mode samples and [k] symbols; --user-only: the
# user side of every sample (the 37 kernel-mode cycles samples keep their
# user frames), no [k] symbol
"$PMUCONV" perf-data data.pmu -o k.data --kernel-only -q
"$PMUCONV" perf-data data.pmu -o u.data --user-only -q
# the cycles section of a perf report
cycles_part() { awk "/^# Samples: .* of event '/ { on = /'cycles'/ } on"; }
preport k.data --sort sym --no-children -g none | cycles_part >k.txt
preport u.data --sort sym --no-children -g none | cycles_part >u.txt
nk=$(grep -c '%  *\[k\]' k.txt)
nku=$(grep -c '%  *\[\.\]' k.txt)
nu=$(grep -c '%  *\[k\]' u.txt)
su=$(sed -n "s/^# Samples: \([0-9]*\) *of event 'cycles'/\1/p" u.txt)
sk=$(sed -n "s/^# Samples: \([0-9]*\) *of event 'cycles'/\1/p" k.txt)
if [ "$nk" -gt 0 ] && [ "$nku" -eq 0 ] && [ "$nu" -eq 0 ] && [ "$su" = 270 ] && [ "$sk" = 37 ]; then
	pass "filter-mode (kernel-only $sk samples, user-only $su)"
else
	fail filter-mode "kernel-only: $sk samples, $nk [k] and $nku [.] symbols; user-only: $su samples, $nu [k] symbols"
fi

# ---- import: perf script text of the export back into pmuconv
"$PERF" script -i out.data --kallsyms out.data.kallsyms -F comm,pid,tid,cpu,time,event,ip,sym,dso,addr,phys_addr,data_page_size,period \
	-G 2>/dev/null >script.txt
"$PMUCONV" pagesize script.txt --json -e cycles --together -q >pagesize-script.json 2>import.err
if python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["events"][0]
b = json.load(open(sys.argv[2]))["events"][0]
for p in ("4K", "2M", "1G", "unknown"):
    if a["data"][p]["samples"] != b["data"][p]["samples"] or a["data"][p]["weight"] != b["data"][p]["weight"]:
        sys.exit("%s: %s vs %s" % (p, a["data"][p], b["data"][p]))
if a["no_data_access"] != b["no_data_access"]:
    sys.exit("no data access: %d vs %d" % (a["no_data_access"], b["no_data_access"]))
' pagesize.json pagesize-script.json >import.cmp 2>&1; then
	pass import-perf-script-pagesize
else
	fail import-perf-script-pagesize "$(head -c 200 import.cmp) $(head -c 200 import.err)"
fi

# ---- damaged input: a clear error and no output left
head -c 3000 data.pmu >cut.pmu
"$PMUCONV" perf-data cut.pmu -o cut.data >cut.out 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'cut.pmu' cut.out && [ ! -e cut.data ] && [ ! -e cut.data.kallsyms ] &&
	[ -z "$(ls | grep '\.tmp\.')" ]; then
	pass "truncated-input ($(head -n 1 cut.out | cut -c1-120))"
else
	fail truncated-input "exit $rc, $(ls | grep 'cut\.' | tr '\n' ' '): $(head -c 200 cut.out)"
fi
# every 8-byte truncation and flipped bytes of a pmugen recording:
# tests/suites/fuzz_replay_pmufile.sh (export-perf-data)
exit 0
