#!/bin/sh
# Where a configuration's guest kernel instructions go on the workload's
# CPU, per kernel function, exactly (issue 15; bench/RESULTS.md, handler
# cost): one boot of a bench/handler_cost.sh configuration with QEMU
# logging every kernel and module translation block vCPU 1 executes while
# the measured command runs (the exec log is switched on and off through
# the QEMU monitor around it: bench/tools/qemu_log_window.py), then
# bench/tools/ktrace_profile.py counts instructions per function.
#   nmi  inside NMIs only, per NMI: the whole PMI path, the kernel's entry,
#        handler chain and exit included (which handler_breakdown.sh, module
#        code only, leaves out)
#   all  everything on vCPU 1 in the window (a session's fixed costs: what
#        runs on the profiled CPU besides the samples)
# Logging slows the guest a hundredfold, so time-driven work (timer ticks)
# is inflated in `all`; NMI counts are exact.
#
#   sh bench/kernel_breakdown.sh [CFG] [ROUNDS] [PERIOD] [nmi|all]
#   (KEEP=DIR keeps the trace, several GB; default a temporary directory)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
CFG=${1:-pmuprof}
ROUNDS=${2:-24}
PERIOD=${3:-100003}
MODE=${4:-nmi}
case $MODE in nmi | all) ;; *)
	echo "kernel_breakdown: MODE must be nmi or all (got '$MODE')" >&2
	exit 2
	;;
esac
command -v python3 >/dev/null && command -v objdump >/dev/null || {
	echo "kernel_breakdown: needs python3 and objdump (binutils)" >&2
	exit 2
}
D=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$D"' EXIT
mkdir -p "$D"
rm -f "$D/trace.log" "$D/mon.sock"
HC_WATCH=$ROOT/bench/tools/qemu_log_window.py HC_SOCK=$D/mon.sock APPEND_EXTRA="nokaslr hctrace=1" \
	QEMU_EXTRA="-d in_asm,nochain -D $D/trace.log -dfilter 0xffffffff81000000..0xffffffffc0ffffff -monitor unix:$D/mon.sock,server=on,wait=off" \
	CONFIGS="$CFG" KEEP="$D" sh bench/handler_cost.sh 1 "$PERIOD" "$ROUNDS" >"$D/table.txt"
python3 bench/tools/ktrace_profile.py "$D" 1 "$MODE"
