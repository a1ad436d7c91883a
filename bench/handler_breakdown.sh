#!/bin/sh
# Where pmuprof's per-sample handler instructions go, per function of
# pmuprof.ko (issue 15; bench/RESULTS.md, handler cost): one boot of a
# bench/handler_cost.sh configuration (default pmuprof; pmuprof-g for
# stacks) with a short workload, QEMU logging every translation block the
# module executes (-d exec,nochain,in_asm, -dfilter on the module area;
# nokaslr puts the module there), then bench/tools/tb_profile.py counts
# them per function and sample. Deterministic instruction counts, like
# handler_cost.sh; the kernel functions the module calls are not traced
# (tracing all kernel text would log the whole boot).
#
#   sh bench/handler_breakdown.sh [CFG] [ROUNDS] [FUNC,FUNC...]
#   (KEEP=DIR keeps the trace; default a temporary directory)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
CFG=${1:-pmuprof}
ROUNDS=${2:-24}
FUNCS=${3:-}
case $CFG in pmuprof | pmuprof-g) ;; *)
	echo "handler_breakdown: CFG must be pmuprof or pmuprof-g (got '$CFG')" >&2
	exit 2
	;;
esac
command -v python3 >/dev/null && command -v objdump >/dev/null || {
	echo "handler_breakdown: needs python3 and objdump (binutils)" >&2
	exit 2
}
D=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$D"' EXIT
mkdir -p "$D"
rm -f "$D/trace.log"
APPEND_EXTRA=nokaslr \
	QEMU_EXTRA="-d exec,nochain,in_asm -D $D/trace.log -dfilter 0xffffffffc0000000..0xffffffffc0ffffff" \
	CONFIGS="$CFG" KEEP="$D" sh bench/handler_cost.sh 1 100003 "$ROUNDS" >"$D/table.txt"
python3 bench/tools/tb_profile.py "$D" kernel/pmuprof.ko 1 $FUNCS
