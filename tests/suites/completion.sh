#!/bin/sh
# bash completion for pmuctl and pmuconv (scripts/completion/, installed by
# make install): each case sources the script in bash, sets COMP_WORDS and
# COMP_CWORD as bash does for a TAB after the words given (the last word is
# the one being completed) and checks COMPREPLY holds the expected word.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
ok() { echo "PASS: completion/$1"; }
ko() { echo "FAIL: completion/$1 ($2)"; }
if ! command -v bash >/dev/null; then
	echo "FAIL: completion (no bash)"
	exit 0
fi
for b in pmuctl pmuconv; do
	if [ ! -x "$BUILD/bin/$b" ]; then
		echo "FAIL: completion (no $BUILD/bin/$b; run make)"
		exit 0
	fi
done
# expect NAME TOOL WANT WORD... : completing WORDS (after the tool) offers WANT
expect() {
	_name=$1 _tool=$2 _want=$3
	shift 3
	_got=$(bash -c '
		. "$1"
		tool=$2
		shift 2
		COMP_WORDS=("'"$BUILD"'/bin/$tool" "$@")
		COMP_CWORD=$#
		_$tool
		printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/scripts/completion/$_tool" "$_tool" "$@" 2>&1)
	if printf '%s\n' "$_got" | grep -qx -- "$_want"; then
		ok "$_name"
	else
		ko "$_name" "'$_want' not offered; got: $(printf '%s' "$_got" | tr '\n' ' ' | head -c 200)"
	fi
}
expect pmuctl-commands pmuctl record ""
expect pmuctl-version pmuctl --version --v
expect pmuctl-command-prefix pmuctl record rec
expect pmuctl-record-option pmuctl --output record --ou
expect pmuctl-record-cpu pmuctl --cpu record --cp
expect pmuctl-list-all pmuctl --all list --a
expect pmuctl-event pmuctl cpu-clock record -e cpu-c
expect pmuctl-after-dashdash pmuctl true record -e cpu-clock -- tru
expect pmuconv-commands pmuconv report ""
expect pmuconv-version pmuconv --version --ver
expect pmuconv-command-prefix pmuconv pagesize pag
expect pmuconv-report-option pmuconv --salvage report --salv
expect pmuconv-progress pmuconv --no-progress folded --no-pro
expect pmuconv-input-format pmuconv perf-script report --input-format perf
expect pmuconv-file pmuconv "$ROOT/tests/suites/cli_defaults.sh" report "$ROOT/tests/suites/cli_def"
exit 0
