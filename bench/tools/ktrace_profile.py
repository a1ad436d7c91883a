#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per-function guest kernel instructions on one vCPU from a QEMU TCG trace.

    bench/tools/ktrace_profile.py DIR [CPU] [nmi|all] [TOP]

DIR holds what bench/kernel_breakdown.sh keeps: trace.log (QEMU
`-d in_asm,nochain -dfilter <kernel and module text>` from boot, `exec`
switched on through the monitor only while the guest runs the measured
command) and the guest log out.* with the kernel's text symbols ("HC ks
ADDR NAME" lines from /proc/kallsyms, module symbols included) and the
sample count. Each block's instructions are counted by disassembling its
bytes (objdump); REP string instructions count once per iteration, as the
emulated PMU counts them (a block that is one REP instruction runs once
per iteration).

  nmi  only the NMIs: from the first block of asm_exc_nmi up to the first
       block of the next kernel entry (a user-mode NMI returns to user code,
       which the trace does not log, so what follows it in the trace starts
       at an entry point: asm_*, entry_*). Prints instructions per NMI and per function, per
       sample of the recording (for cycles:u every sample is one NMI).
  all  every logged block of the vCPU in the window, per function.
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile


def load(d):
    syms, samples = [], None
    for f in sorted(os.listdir(d)):
        if not f.startswith("out."):
            continue
        for line in open(os.path.join(d, f), errors="replace"):
            if line.startswith("HC ks "):
                p = line.split()
                if len(p) >= 4:
                    syms.append((int(p[2], 16), p[3]))
                continue
            m = re.match(r"HC rec\s+(\S+)\s+(\d+) samples", line)
            if m and m.group(1) != "lost" and samples is None:
                samples = int(m.group(2))
    if not syms:
        sys.exit("ktrace_profile: no 'HC ks' lines in %s/out.*: was it kept by "
                 "bench/kernel_breakdown.sh?" % d)
    syms.sort()
    return syms, samples


def count_insns(blocks, pcs):
    """Instructions per block start, for the blocks in pcs."""
    n = {}
    with tempfile.TemporaryDirectory() as td:
        fn = os.path.join(td, "tb")
        for pc in pcs:
            hx = blocks.get(pc)
            if not hx:
                n[pc] = 0
                continue
            with open(fn, "wb") as f:
                f.write(bytes.fromhex(hx))
            out = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64",
                                  "--adjust-vma=%d" % pc, fn],
                                 capture_output=True, text=True).stdout
            n[pc] = sum(1 for l in out.split("\n")
                        if re.match(r"\s*[0-9a-f]+:\t[^\t]*\t", l))
    return n


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    cpu = sys.argv[2] if len(sys.argv) > 2 else "1"
    mode = sys.argv[3] if len(sys.argv) > 3 else "nmi"
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    if mode not in ("nmi", "all"):
        sys.exit("ktrace_profile: mode must be nmi or all, not '%s'" % mode)
    syms, samples = load(d)
    keys = [s[0] for s in syms]
    name_of = {}

    def sym(pc):
        s = name_of.get(pc)
        if s is None:
            k = bisect.bisect_right(keys, pc) - 1
            s = name_of[pc] = syms[k][1] if k >= 0 else "?"
        return s

    def start_of(pc):
        k = bisect.bisect_right(keys, pc) - 1
        return syms[k][0] if k >= 0 else -1

    entry = re.compile(r"^(asm_|entry_|ret_from_fork|xen_)")
    blocks, execs = {}, collections.Counter()
    nmis, in_nmi = 0, False
    prefix = "Trace " + cpu + ":"
    with open(os.path.join(d, "trace.log"), errors="replace") as f:
        pending = None  # pc of an "IN:" block whose bytes follow
        for line in f:
            if pending is not None:
                if line.startswith("OBJD-T: "):
                    blocks[pending] = blocks.get(pending, "") + line[8:].strip()
                    continue
                if line.startswith("0x") and pending == -1:
                    pending = int(line.split(":")[0], 16)
                    blocks[pending] = ""
                    continue
                pending = None
            if line.startswith("IN:"):
                pending = -1
                continue
            if not line.startswith(prefix):
                continue
            pc = int(line.split("/")[1], 16)
            if mode == "nmi":
                # the first block of an entry point: an NMI starts, or
                # whatever follows the NMI (it returned to user code)
                s = sym(pc)
                if entry.match(s) and pc == start_of(pc):
                    in_nmi = s == "asm_exc_nmi"
                    nmis += in_nmi
                if not in_nmi:
                    continue
            execs[pc] += 1
    ninsn = count_insns(blocks, execs.keys())
    per, calls = collections.Counter(), collections.Counter()
    for pc, c in execs.items():
        s = sym(pc)
        per[s] += c * ninsn[pc]
        k = bisect.bisect_right(keys, pc) - 1
        if k >= 0 and syms[k][0] == pc:
            calls[s] += c
    tot = sum(per.values())
    unit = nmis if mode == "nmi" else (samples or 1)
    what = "NMI" if mode == "nmi" else "sample"
    missing = sum(1 for pc in execs if not blocks.get(pc))
    print("vCPU %s, %s: %d instructions; %d NMIs, %s samples; %.1f per %s" %
          (cpu, mode, tot, nmis, samples, tot / max(unit, 1), what))
    if missing:
        print("(%d executed blocks had no IN: bytes in the log and count 0)" % missing)
    print("%-40s %10s %10s" % ("function", "insn/" + what, "calls/" + what))
    for name, v in per.most_common(top):
        print("%-40s %10.1f %10.2f" % (name, v / max(unit, 1), calls[name] / max(unit, 1)))


if __name__ == "__main__":
    main()
