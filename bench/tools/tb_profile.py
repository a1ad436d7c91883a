#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per-function guest instruction counts of pmuprof.ko from a QEMU TCG trace.

    bench/tools/tb_profile.py DIR KO [CPU] [FUNC,FUNC...]

DIR holds what bench/handler_breakdown.sh keeps: trace.log (QEMU
`-d exec,nochain,in_asm -dfilter <module range>`: every translation block
executed in the module, with its bytes) and the guest log out.* (the
module's .text address, "HC ko-text", and the sample count). Each block's
instructions are counted by disassembling its bytes (objdump), each
execution on vCPU CPU (default 1) adds them to the function the block
starts in (KO's symbols). Prints instructions and entries per sample per
function; with FUNC names, each of their blocks (offset, executions per
sample, instructions). REP string instructions count once per iteration,
as the emulated PMU counts them: a block that is one REP instruction runs
once per iteration. Module code only: kernel functions the module calls
(ktime_get_mono_fast_ns, the MSR accessors, memcpy) are not in the trace.
"""
import bisect
import collections
import os
import re
import subprocess
import sys

from qemu_trace import guest_lines, insn_counts, read_trace, sample_count


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d, ko = sys.argv[1], sys.argv[2]
    cpu = sys.argv[3] if len(sys.argv) > 3 else "1"
    want = sys.argv[4].split(",") if len(sys.argv) > 4 else []
    text = samples = None
    for line in guest_lines(d):
        m = re.match(r"HC ko-text (0x[0-9a-f]+)", line)
        if m:
            text = int(m.group(1), 16)
        if samples is None:
            samples = sample_count(line)
    if text is None or not samples:
        sys.exit("tb_profile: no 'HC ko-text' or sample count in %s/out.*: "
                 "was it kept by bench/handler_breakdown.sh?" % d)
    cnt = collections.Counter()

    def on_exec(pc):
        cnt[pc] += 1

    blocks = read_trace(os.path.join(d, "trace.log"), cpu, on_exec)
    ninsn = insn_counts(blocks, cnt.keys())
    syms = []
    nm = subprocess.run(["nm", "-n", ko], capture_output=True, text=True).stdout
    for line in nm.split("\n"):
        p = line.split()
        if len(p) == 3 and p[1] in "tT":
            syms.append((int(p[0], 16) + text, p[2]))
    syms.sort()
    keys = [s[0] for s in syms]
    per, entries = collections.Counter(), collections.Counter()
    detail = []
    for pc, c in cnt.items():
        k = bisect.bisect_right(keys, pc) - 1
        name = syms[k][1] if k >= 0 else "?"
        per[name] += c * ninsn.get(pc, 0)
        if k >= 0 and pc == syms[k][0]:
            entries[name] += c
        if name in want:
            detail.append((name, pc - syms[k][0], c, ninsn.get(pc, 0)))
    tot = sum(per.values())
    print("%d samples; module instructions on CPU %s: %d, %.1f per sample" %
          (samples, cpu, tot, tot / samples))
    print("%-32s %10s %10s" % ("function", "insn/smp", "calls/smp"))
    for name, v in per.most_common():
        print("%-32s %10.1f %10.2f" % (name, v / samples, entries[name] / samples))
    for name, off, c, n in sorted(detail):
        print("  %s+0x%x  x%.2f  %d insn" % (name, off, c / samples, n))


if __name__ == "__main__":
    main()
