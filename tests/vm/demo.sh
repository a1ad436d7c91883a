#!/bin/sh
# make demo: boot a guest, load pmuprof, record the bundled demo workload
# (pmuctl record -e cpu-clock -g [--data-addr] -- demo), bring the data file
# back and render it on the host with pmuconv into out/demo/:
#   report.txt, flamegraphs/*.svg, pagesize.txt + pagesize.svg, report.html, demo.pmu,
#   symfs/ (the guest's binaries) and demo-binaries.tar (pmuconv archive)
# The work is the VM scenario tests/vm/scenarios/demo.sh (+ demo.host.sh),
# which make check runs too.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
BUILD=${BUILD:-build}
OUT=${DEMO_OUT:-$ROOT/out/demo}

missing=0
need() { # FILE WHAT HOW
	if [ ! -e "$1" ]; then
		echo "make demo: $2 is missing ($1); $3" >&2
		missing=1
	fi
}
need kernel/pmuprof.ko "the kernel module" "run 'make module' (build log: $BUILD/module-build.log)"
need "$BUILD/guest/pmuctl" "the static guest build of pmuctl" "run 'make guest-bins'"
need "$BUILD/guest/demo" "the demo workload" "run 'make guest-bins'"
need "$BUILD/bin/pmuconv" "pmuconv" "run 'make userspace'"
[ $missing = 0 ] || exit 1

rm -rf "$OUT"
mkdir -p "$OUT" || exit 1
echo "make demo: profiling the demo workload in a QEMU guest (takes about a minute)..."
DEMO_OUT=$OUT sh tests/vm/run.sh demo
rc=$?
if [ $rc -ne 0 ]; then
	echo "make demo: FAILED (see the lines above; the guest console log path is printed there)" >&2
	exit 1
fi
rel=${OUT#"$ROOT"/}
echo
echo "make demo: done. Results in $rel/:"
for f in report.txt report.html pagesize.txt pagesize.svg demo.pmu demo-binaries.tar; do
	[ -e "$OUT/$f" ] && echo "  $rel/$f"
done
for f in "$OUT"/flamegraphs/*.svg; do
	[ -e "$f" ] && echo "  ${f#"$ROOT"/}"
done
echo "Open $rel/report.html in a browser; text summary: $rel/report.txt"
echo "The guest's binaries are in $rel/symfs/: read demo.pmu yourself with"
echo "  $BUILD/bin/pmuconv report $rel/demo.pmu --symfs $rel/symfs"
echo "or, elsewhere, from $rel/demo-binaries.tar (pmuconv archive, by build-id):"
echo "  pmuconv report demo.pmu --symfs demo-binaries.tar"
