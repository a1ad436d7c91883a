# SPDX-License-Identifier: MIT
"""What the QEMU-trace profilers share (tb_profile.py, ktrace_profile.py).

A trace is QEMU's `-d in_asm,exec,nochain` log: each translated block once
as "IN:", its address line and its bytes on "OBJD-T: " lines (QEMU built
without a disassembler), and each execution as "Trace CPU: HOSTPC
[CS_BASE/PC/FLAGS/...]". The guest's log out.* of the same boot carries
the bench's "HC ..." lines.
"""
import os
import re
import subprocess
import tempfile

_INSN = re.compile(r"\s*[0-9a-f]+:\t[^\t]*\t")
_REC = re.compile(r"HC rec\s+(\S+)\s+(\d+) samples")


def guest_lines(d):
    """Every line of the guest logs out.* in DIR, in file-name order."""
    for f in sorted(os.listdir(d)):
        if f.startswith("out."):
            with open(os.path.join(d, f), errors="replace") as fh:
                yield from fh


def sample_count(line):
    """The recording's sample count if LINE is its event line ("HC rec
    cycles:u  N samples"), not "lost N samples"; else None."""
    m = _REC.match(line)
    if m and m.group(1) != "lost":
        return int(m.group(2))
    return None


def read_trace(path, cpu, on_exec):
    """Stream the trace at PATH: on_exec(pc) for each block executed on
    vCPU CPU (a string, "1"). Returns {pc: hex bytes} of the blocks, the
    last translation of each address winning."""
    blocks = {}
    prefix = "Trace " + cpu + ":"
    pending = None  # -1 after "IN:", then the block's address
    with open(path, errors="replace") as f:
        for line in f:
            if pending is not None:
                if line.startswith("OBJD-T: "):
                    blocks[pending] = blocks.get(pending, "") + line[8:].strip()
                    continue
                if pending == -1 and line.startswith("0x"):
                    pending = int(line.split(":")[0], 16)
                    blocks[pending] = ""
                    continue
                pending = None
            if line.startswith("IN:"):
                pending = -1
            elif line.startswith(prefix):
                on_exec(int(line.split("[")[1].split("/")[1], 16))
    return blocks


def insn_counts(blocks, pcs):
    """Instructions in each block of PCS, by disassembling its bytes with
    objdump (0 for a block whose bytes the trace lacks). A REP string
    instruction is one instruction; the emulated PMU counts it once per
    iteration, and a block that is one REP instruction runs once per
    iteration, so counting executions x instructions matches."""
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
            # instruction lines: "addr:\tbytes\tmnemonic" (continuation
            # lines of long encodings have no mnemonic)
            n[pc] = sum(1 for l in out.split("\n") if _INSN.match(l))
    return n
