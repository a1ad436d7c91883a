#!/bin/sh
# pmuconv's exports read back by the tools they are for:
#   - pprof: `go tool pprof -top -sample_index=N` on the export of a pmugen
#     recording (two events, ELF symbols, data addresses, losses) agrees with
#     `pmuconv report` per event (top 10 functions by self share, within 0.5
#     percentage points); `-tagfocus data_page_size=2M` gives the 2M share
#     `pmuconv pagesize --together` prints (pprof tags samples of both
#     modes; that recording and the hand-checked
#     native_basic case); the cpu label matches the report's CPU split; the
#     main mapping carries the binary's build-id; -e/--pid filters apply;
#   - speedscope: the file validates (ajv) against the schema the speedscope
#     npm package ships, and every frame's self and total weight per event
#     equals what `pmuconv folded` gives; a broken file is rejected (the
#     check can fail);
#   - a truncated recording or an unwritable output: a clear error, exit 1,
#     no output file and no temporary left, an existing output untouched.
# go (golang-go) and the npm packages (scripts/npm-deps.sh) come from
# make deps: without them the checks FAIL, they never skip.
# Prints PASS/FAIL lines; always exits 0.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 0
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
P=$BUILD/bin/pmuconv
G=$BUILD/bin/pmugen
MKDATA=$BUILD/tests/pmuconv_mkdata
NPM=${PMUPROF_NPM_EXPORTERS:-${HOME:-/root}/.cache/pmuprof/npm-exporters}/node_modules
CHECK=$ROOT/tests/exporters/pprof_check.py
SS=$ROOT/tests/exporters/speedscope_check.js
W=$BUILD/tests/exporters
S=exporters
export LC_ALL=C

pass() { echo "PASS: $S/$1"; }
fail() { echo "FAIL: $S/$1 ($2)"; }

for b in "$P" "$G" "$MKDATA"; do
	if [ ! -x "$b" ]; then
		fail build "no $b; run make all unit"
		exit 0
	fi
done
rm -rf "$W"
mkdir -p "$W"

# ---- inputs ----------------------------------------------------------------
libc=$(ldd "$P" | awk '$1 ~ /^libc\.so/ { print $3 }')
if ! "$G" -o "$W/rec.pmu" -n 20000 -d 16 -S 300 -p 3 -e 2 -a -s 5 -l 997 -b "$P" \
	${libc:+-b "$libc"} >"$W/pmugen.log" 2>&1; then
	fail inputs "pmugen failed: $(tail -n 1 "$W/pmugen.log")"
	exit 0
fi
mkdir -p "$W/basic"
cp tests/data/pmuconv/native_basic/spec.txt tests/data/pmuconv/native_basic/kallsyms.txt "$W/basic/"
if ! (cd "$W/basic" && "$MKDATA" spec.txt data.pmu >mkdata.log 2>&1); then
	fail inputs "mkdata failed on native_basic: $(tail -n 1 "$W/basic/mkdata.log")"
	exit 0
fi
"$P" report "$W/rec.pmu" --json --top 100000 -q >"$W/report.json"
"$P" pagesize "$W/rec.pmu" --together --json -q >"$W/pagesize.json"
"$P" pagesize "$W/basic/data.pmu" --together --json -q >"$W/basic/pagesize.json"
events=$(python3 -c 'import json,sys; print(" ".join(e["event"] for e in json.load(open(sys.argv[1]))["events"]))' "$W/report.json")

# ---- pprof -----------------------------------------------------------------
pprof_ok=1
if ! command -v go >/dev/null 2>&1; then
	fail pprof "go not found: go tool pprof is the check (apt-get install golang-go, or make deps)"
	pprof_ok=0
elif ! "$P" pprof "$W/rec.pmu" -o "$W/rec.pb.gz" -q 2>"$W/pprof.err"; then
	fail pprof "pmuconv pprof failed: $(head -n 1 "$W/pprof.err")"
	pprof_ok=0
elif ! "$P" pprof "$W/basic/data.pmu" -o "$W/basic/out.pb.gz" -q 2>"$W/pprof.err"; then
	fail pprof "pmuconv pprof failed on native_basic: $(head -n 1 "$W/pprof.err")"
	pprof_ok=0
fi
# gp OUT ARGS...: go tool pprof -top with every node, raw values
gp() {
	o=$1
	shift
	go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -unit=ns "$@" >"$o" 2>"$o.err"
}
# check NAME ARGS...: pprof_check.py, PASS/FAIL with its message
check() {
	name=$1
	shift
	if msg=$(python3 "$CHECK" "$@" 2>&1); then
		pass "$name ($msg)"
	else
		fail "$name" "$(echo "$msg" | head -n 3 | tr '\n' ';')"
	fi
}
if [ "$pprof_ok" = 1 ]; then
	i=0
	for ev in $events; do
		gp "$W/top$i.txt" -sample_index=$i "$W/rec.pb.gz"
		check "pprof/top-$ev" top "$W/report.json" "$ev" "$W/top$i.txt" 10
		i=$((i + 1))
	done
	# the hand-checked case: two events with different profiles
	"$P" report "$W/basic/data.pmu" --json --top 100 -q >"$W/basic/report.json"
	gp "$W/basic/top0.txt" -sample_index=0 "$W/basic/out.pb.gz"
	check pprof/top-basic-cycles top "$W/basic/report.json" cycles "$W/basic/top0.txt" 10
	gp "$W/basic/top1.txt" -sample_index=1 "$W/basic/out.pb.gz"
	check pprof/top-basic-cpu-clock top "$W/basic/report.json" cpu-clock "$W/basic/top1.txt" 10
	# other inputs and options: the same agreement, per event
	# (perf script text, no mappings; --weight samples; --kernel-only)
	k=0
	for v in "tests/data/pmuconv/perf_real/callchain.txt|" "$W/rec.pmu|--weight samples" \
		"$W/rec.pmu|--kernel-only"; do
		in=${v%%|*}
		opts=${v#*|}
		k=$((k + 1))
		# shellcheck disable=SC2086 # opts are words
		if ! "$P" pprof "$in" $opts -o "$W/v$k.pb.gz" -q 2>"$W/v$k.err" ||
			! "$P" report "$in" $opts --json --top 100000 -q >"$W/v$k.json"; then
			fail "pprof/variant-$k" "$in $opts: $(head -n 1 "$W/v$k.err")"
			continue
		fi
		i=0
		for ev in $(python3 -c 'import json,sys; print(" ".join(e["event"] for e in json.load(open(sys.argv[1]))["events"]))' "$W/v$k.json"); do
			gp "$W/v$k-$i.txt" -sample_index=$i "$W/v$k.pb.gz"
			check "pprof/top-$(basename "$in")$(echo "$opts" | tr ' ' '_')-$ev" top "$W/v$k.json" "$ev" "$W/v$k-$i.txt" 10
			i=$((i + 1))
		done
	done
	gp "$W/f2m.txt" -sample_index=0 -tagfocus data_page_size=2M "$W/rec.pb.gz"
	gp "$W/fall.txt" -sample_index=0 '-tagfocus=data_page_size=.' "$W/rec.pb.gz"
	check pprof/tagfocus-2M share "$W/pagesize.json" cycles 2M "$W/f2m.txt" "$W/fall.txt"
	gp "$W/basic/f2m.txt" -sample_index=0 -tagfocus data_page_size=2M "$W/basic/out.pb.gz"
	gp "$W/basic/fall.txt" -sample_index=0 '-tagfocus=data_page_size=.' "$W/basic/out.pb.gz"
	check pprof/tagfocus-2M-basic share "$W/basic/pagesize.json" cycles 2M "$W/basic/f2m.txt" \
		"$W/basic/fall.txt"
	gp "$W/fcpu.txt" -sample_index=0 '-tagfocus=cpu=^2$' "$W/rec.pb.gz"
	check pprof/label-cpu cpu "$W/report.json" cycles 2 "$W/fcpu.txt"
	# the program's mapping carries its build-id
	want=$(readelf -n "$P" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
	got=$(sed -n 's/^Build ID: //p' "$W/top0.txt")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "pprof/build-id ($got)"
	else
		fail pprof/build-id "pprof shows '$got', $P has '$want'"
	fi
	# filters: one event; one process
	"$P" pprof "$W/rec.pmu" -e instructions --pid 1001 -o "$W/filt.pb.gz" -q
	go tool pprof -raw "$W/filt.pb.gz" >"$W/filt.raw" 2>/dev/null
	go tool pprof -tags "$W/filt.pb.gz" >"$W/filt.tags" 2>/dev/null
	types=$(sed -n '/^Samples:/{n;p;}' "$W/filt.raw" | tr -s ' ')
	pids=$(awk '/^ pid:/ { on = 1; next } /^ *$/ { on = 0 } on && $1 + 0 > 0 { print $NF }' \
		"$W/filt.tags" | tr '\n' ' ')
	if [ "$types" = "instructions/count" ] && [ "$pids" = "1001 " ]; then
		pass "pprof/filters (sample types: $types; pids with samples: $pids)"
	else
		fail pprof/filters "sample types '$types' (want instructions/count), pids '$pids' (want 1001)"
	fi
	# numa_node (issue 20): native_numa's recording (spec.txt: on node 1's pages
	# 30 + 20 + 6 user and 5 kernel samples, on node 0's 40 + 10; 6 with no node)
	if "$MKDATA" "$ROOT/tests/data/pmuconv/native_numa/spec.txt" "$W/numa.pmu" >/dev/null &&
		"$P" pprof "$W/numa.pmu" -o "$W/numa.pb.gz" -q 2>/dev/null; then
		go tool pprof -tags "$W/numa.pb.gz" >"$W/numa.tags" 2>/dev/null
		nodes=$(awk '/^ numa_node:/ { on = 1; next } /^ *$/ || /^ [a-z_]*:/ { on = 0 }
			on { print $NF "=" $1 }' "$W/numa.tags" | sort | tr '\n' ' ')
		if [ "$nodes" = "0=50.0ms 1=61.0ms " ]; then
			pass "pprof/label-numa_node ($nodes)"
		else
			fail pprof/label-numa_node "numa_node label values '$nodes', want '0=50.0ms 1=61.0ms '"
		fi
	else
		fail pprof/label-numa_node "mkdata or pmuconv pprof failed on native_numa's spec"
	fi
fi

# ---- speedscope ------------------------------------------------------------
if ! command -v node >/dev/null 2>&1 || [ ! -d "$NPM/ajv" ] || [ ! -d "$NPM/speedscope" ]; then
	fail speedscope "node or the npm packages missing (need $NPM/ajv and speedscope: run sh scripts/npm-deps.sh, or make deps)"
elif ! "$P" speedscope "$W/rec.pmu" -o "$W/rec.json" -q 2>"$W/ss.err"; then
	fail speedscope "pmuconv speedscope failed: $(head -n 1 "$W/ss.err")"
elif ! node "$SS" "$NPM" "$W/rec.json" >"$W/ss.frames" 2>"$W/ss.check.err"; then
	fail speedscope/schema "$(head -n 3 "$W/ss.check.err" | tr '\n' ';')"
else
	pass "speedscope/schema (speedscope $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$NPM/speedscope/package.json"))"
	# the same totals from folded text: self = leaf, total once per stack
	"$P" folded "$W/rec.pmu" -o "$W/folded" -q
	for ev in $events; do
		awk -v ev="$ev" '{
			n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
			k = split(line, f, ";"); delete seen
			for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; tot[f[i]] += n }
			self[f[k]] += n
		} END { for (x in tot) printf "%s\t%s\t%d\t%d\n", ev, x, self[x], tot[x] }' \
			"$W/folded/$ev.folded"
	done | sort >"$W/folded.frames"
	if [ -s "$W/folded.frames" ] && cmp -s "$W/folded.frames" "$W/ss.frames"; then
		pass "speedscope/frame-totals ($(wc -l <"$W/ss.frames") event/frame totals equal folded)"
	else
		fail speedscope/frame-totals "differ from folded: $(diff "$W/folded.frames" "$W/ss.frames" | head -n 3 | tr '\n' ';')"
	fi
	# the check can fail: no "$schema", and a sample pointing past the frames
	sed 's/"\$schema":"[^"]*",//' "$W/rec.json" >"$W/bad1.json"
	sed 's/"samples":\[\[/"samples":[[999999,/' "$W/rec.json" >"$W/bad2.json"
	if ! node "$SS" "$NPM" "$W/bad1.json" >/dev/null 2>&1 &&
		! node "$SS" "$NPM" "$W/bad2.json" >/dev/null 2>&1; then
		pass "speedscope/check-rejects (missing \$schema, frame index out of range)"
	else
		fail speedscope/check-rejects "speedscope_check.js accepted a broken file"
	fi
fi

# ---- nothing partial -------------------------------------------------------
size=$(wc -c <"$W/rec.pmu")
head -c $((size / 2)) "$W/rec.pmu" >"$W/cut.pmu"
for x in pprof speedscope; do
	out=$W/cut-$x.out
	echo old >"$out"
	"$P" $x "$W/cut.pmu" -o "$out" >"$W/cut-$x.stdout" 2>"$W/cut-$x.err"
	rc=$?
	left=$(ls "$W" | grep -c "^cut-$x.out.tmp")
	if [ "$rc" = 1 ] && grep -q '^pmuconv: .*cut.pmu' "$W/cut-$x.err" && [ "$(cat "$out")" = old ] &&
		[ "$left" = 0 ]; then
		pass "$x/truncated-input ($(head -n 1 "$W/cut-$x.err" | cut -c1-100))"
	else
		fail "$x/truncated-input" "exit $rc, output '$(head -c 20 "$out")', $left temporary file(s), stderr: $(head -n 1 "$W/cut-$x.err")"
	fi
	"$P" $x "$W/rec.pmu" -o "$W/no-such-dir/out" -q 2>"$W/nodir-$x.err"
	rc=$?
	if [ "$rc" = 1 ] && grep -q 'cannot write .*no-such-dir/out' "$W/nodir-$x.err"; then
		pass "$x/unwritable-output"
	else
		fail "$x/unwritable-output" "exit $rc: $(head -n 1 "$W/nodir-$x.err")"
	fi
done
exit 0
