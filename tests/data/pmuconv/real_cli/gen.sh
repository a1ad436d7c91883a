#!/bin/sh
# real_cli: the stored real recording (tests/data/pmufile/real-syscall-heavy.pmu:
# pmuctl record -e cpu-clock -g -- syscall_heavy -s 1 in the pmuctl_record_cmd
# VM scenario, 601 samples with kernel and user stacks) for the perf-style
# command line on real data.
set -e
cp "$SRC_ROOT/tests/data/pmufile/real-syscall-heavy.pmu" real.pmu
