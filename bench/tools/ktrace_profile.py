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
import sys

from qemu_trace import guest_lines, insn_counts, read_trace, sample_count


def load(d):
    syms, samples = [], None
    for line in guest_lines(d):
        if line.startswith("HC ks "):
            p = line.split()
            if len(p) >= 4:
                syms.append((int(p[2], 16), p[3]))
            continue
        if samples is None:
            samples = sample_count(line)
    if not syms:
        sys.exit("ktrace_profile: no 'HC ks' lines in %s/out.*: was it kept by "
                 "bench/kernel_breakdown.sh?" % d)
    syms.sort()
    return syms, samples


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
    execs = collections.Counter()
    state = {"nmis": 0, "in": False}

    def on_exec(pc):
        if mode == "nmi":
            # the first block of an entry point: an NMI starts, or
            # whatever follows the NMI (it returned to user code)
            s = sym(pc)
            if entry.match(s) and pc == start_of(pc):
                state["in"] = s == "asm_exc_nmi"
                state["nmis"] += state["in"]
            if not state["in"]:
                return
        execs[pc] += 1

    blocks = read_trace(os.path.join(d, "trace.log"), cpu, on_exec)
    nmis = state["nmis"]
    ninsn = insn_counts(blocks, execs.keys())
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
