#!/bin/sh
# pmuconv expected-output tests: for every case tests/data/pmuconv/<case>/
# with a `cmds` file, prepare the inputs in a scratch directory (gen.sh if
# present, else spec.txt -> data.pmu via mkdata), run each command and diff
# stdout (+ stderr for "+stderr" names) plus "exit=N" against
# expected/<case>-<name>. One PASS/FAIL/SKIP line per command.
#
#   tests/suites/pmuconv_expected.sh [--update] [CASE...]
# --update writes the actual outputs into expected/: review every changed
# file by hand before committing (see tests/data/pmuconv/README).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
PMUCONV_BIN=${PMUCONV:-$BUILD/bin/pmuconv}
MKDATA=${MKDATA:-$BUILD/tests/pmuconv_mkdata}
DATA=$ROOT/tests/data/pmuconv
UPDATE=0
if [ "$1" = "--update" ]; then
	UPDATE=1
	shift
fi
# gen.sh may copy stored fixtures from the source tree ($SRC_ROOT/tests/data)
SRC_ROOT=$ROOT
export PMUCONV_BIN MKDATA SRC_ROOT LC_ALL=C

if [ ! -x "$PMUCONV_BIN" ]; then
	echo "FAIL: pmuconv_expected (no $PMUCONV_BIN; run make)"
	exit 0
fi

cases=$*
[ -n "$cases" ] || cases=$(cd "$DATA" && for d in */; do [ -f "$d/cmds" ] && echo "${d%/}"; done)

for c in $cases; do
	src=$DATA/$c
	work=$(mktemp -d "${TMPDIR:-/tmp}/pmuconv_expected.XXXXXX")
	cp -R "$src"/. "$work"/
	rm -rf "$work/expected"
	prep_err=""
	if [ -f "$src/gen.sh" ]; then
		if ! (cd "$work" && sh ./gen.sh >gen.log 2>&1); then
			prep_err="gen.sh failed: $(tail -1 "$work/gen.log")"
		fi
	elif [ -f "$src/spec.txt" ]; then
		if [ ! -x "$MKDATA" ]; then
			echo "FAIL: pmuconv/$c (no $MKDATA; run make unit)"
			rm -rf "$work"
			continue
		fi
		(cd "$work" && "$MKDATA" spec.txt data.pmu >gen.log 2>&1) ||
			prep_err="mkdata failed: $(tail -1 "$work/gen.log")"
	fi
	grep -v '^#' "$src/cmds" | grep ':' | while IFS= read -r line; do
		name=${line%%:*}
		cmd=${line#*:}
		want=$src/expected/$c-$name
		if [ -n "$prep_err" ]; then
			echo "FAIL: pmuconv/$c-$name ($prep_err)"
			continue
		fi
		case $name in
		*+stderr) redirect="2>&1" ;;
		*) redirect="2>/dev/null" ;;
		esac
		got=$work/.got.$name
		(
			cd "$work" || exit 1
			pmuconv() { "$PMUCONV_BIN" "$@"; }
			eval "$cmd $redirect"
			echo "exit=$?"
		) >"$got.raw"
		# scratch paths vary per run
		sed "s|$work|WORKDIR|g" "$got.raw" >"$got"
		if [ "$UPDATE" = 1 ]; then
			mkdir -p "$src/expected"
			if ! cmp -s "$got" "$want"; then
				cp "$got" "$want"
				echo "UPDATED: $want (review it by hand)" >&2
			fi
		fi
		# JSON outputs must parse (minus the exit line)
		case $name in
		*json*)
			if command -v python3 >/dev/null &&
				! sed '$d' "$got" | python3 -m json.tool >/dev/null 2>&1; then
				echo "FAIL: pmuconv/$c-$name (output is not valid JSON)"
				continue
			fi
			;;
		esac
		if [ ! -f "$want" ]; then
			echo "FAIL: pmuconv/$c-$name (no expected file $want)"
		elif cmp -s "$got" "$want"; then
			echo "PASS: pmuconv/$c-$name"
		else
			echo "FAIL: pmuconv/$c-$name (output differs: $(diff "$want" "$got" | sed -n 2p | cut -c1-100))"
		fi
	done
	rm -rf "$work"
done
exit 0
