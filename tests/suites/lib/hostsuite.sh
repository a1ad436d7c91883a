# What the host suites that run built binaries share (cli_defaults.sh,
# dwarf_unwind.sh, dwarf_inline.sh, trace_tools.sh), sourced after they set S (the suite's
# name), under LC_ALL=C:
#   suite_setup BIN...  prints "FAIL: $S/setup (no BIN; run make all unit)"
#                       and returns 1 when a build product is missing; else W:
#                       a fresh temporary directory, removed on exit
#   pass NAME, fail NAME WHY   the suite's PASS/FAIL lines
#   share FILE ERE      the samples of folded FILE on lines matching ERE, "k n"
#   snap_folded PMU OUT BIN  ptsnap records $N samples of $W/bin/BIN into PMU
#                       (a FAIL line and exit when it cannot), then pmuconv
#                       folded --weight samples PMU >OUT (stderr: OUT with .err
#                       for .folded); returns folded's exit status
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PMUCONV=${PMUCONV:-$BUILD/bin/pmuconv}
PMUCTL=${PMUCTL:-$BUILD/bin/pmuctl}
PTSNAP=${PTSNAP:-$BUILD/bin/ptsnap}
export LC_ALL=C

suite_setup() {
	for need in "$@"; do
		if [ ! -x "$need" ]; then
			echo "FAIL: $S/setup (no $need; run make all unit)"
			return 1
		fi
	done
	W=$(mktemp -d "${TMPDIR:-/tmp}/$S.XXXXXX")
	trap 'rm -rf "$W"' EXIT
}

pass() { echo "PASS: $S/$1"; }
fail() { echo "FAIL: $S/$1 ($2)"; }

share() {
	awk -v re="$2" '{ n += $NF } $0 ~ re { k += $NF } END { printf "%d %d\n", k, n }' "$1"
}

snap_folded() {
	if ! "$PTSNAP" -o "$1" -n "$N" -- "$W/bin/$3" >"$W/rec.log" 2>&1; then
		fail record "$(tail -1 "$W/rec.log")"
		exit 0
	fi
	"$PMUCONV" folded --weight samples "$1" >"$2" 2>"${2%.folded}.err"
}
