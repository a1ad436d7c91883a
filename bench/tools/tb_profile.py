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
import tempfile


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d, ko = sys.argv[1], sys.argv[2]
    cpu = sys.argv[3] if len(sys.argv) > 3 else "1"
    want = sys.argv[4].split(",") if len(sys.argv) > 4 else []
    text = samples = None
    for f in os.listdir(d):
        if not f.startswith("out."):
            continue
        for line in open(os.path.join(d, f), errors="replace"):
            m = re.match(r"HC ko-text (0x[0-9a-f]+)", line)
            if m:
                text = int(m.group(1), 16)
            # the event's line ("cycles:u  N samples"), not "lost 0 samples"
            m = re.match(r"HC rec\s+(\S+)\s+(\d+) samples", line)
            if m and m.group(1) != "lost" and samples is None:
                samples = int(m.group(2))
    if text is None or not samples:
        sys.exit("tb_profile: no 'HC ko-text' or sample count in %s/out.*: "
                 "was it kept by bench/handler_breakdown.sh?" % d)
    blocks, cnt = {}, collections.Counter()
    lines = open(os.path.join(d, "trace.log"), errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("IN:") and i + 1 < len(lines):
            pc = int(lines[i + 1].split(":")[0], 16)
            hx, j = "", i + 2
            while j < len(lines) and lines[j].startswith("OBJD-T: "):
                hx += lines[j][8:].strip()
                j += 1
            blocks[pc] = hx
            i = j
            continue
        if line.startswith("Trace " + cpu + ":"):
            cnt[int(line.split("[")[1].split("/")[1], 16)] += 1
        i += 1
    ninsn = {}
    with tempfile.TemporaryDirectory() as td:
        fn = os.path.join(td, "tb")
        for pc, hx in blocks.items():
            with open(fn, "wb") as f:
                f.write(bytes.fromhex(hx))
            out = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64",
                                  "--adjust-vma=%d" % pc, fn],
                                 capture_output=True, text=True).stdout
            # instruction lines: "addr:\tbytes\tmnemonic" (continuation
            # lines of long encodings have no mnemonic)
            ninsn[pc] = sum(1 for l in out.split("\n")
                            if re.match(r"\s*[0-9a-f]+:\t[^\t]*\t", l))
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
