#!/usr/bin/env python3
"""Write a synthetic `perf script` text (callchains, two events) for the
pmuconv throughput benchmark: bench/gen_perfscript.py OUT SIZE_MB [DEPTH].
Deterministic (fixed seed). Frames look like perf 6.1 output:
    comm  pid/tid [cpu] time: period event:
    \t    ffffffff81001234 func+0x1d ([kernel.kallsyms])
    \t        55d0c0de1234 main+0x2a (/usr/bin/prog)
"""
import random
import sys

out, size_mb = sys.argv[1], int(sys.argv[2])
depth = int(sys.argv[3]) if len(sys.argv) > 3 else 32
rng = random.Random(1)
kfuncs = ["k_func_%d" % i for i in range(300)]
ufuncs = ["std::vector<int, std::allocator<int> >::push_back_%d" % i if i % 7 == 0
          else "user_func_%d" % i for i in range(2000)]
blocks = []
for s in range(3000):
    kd = rng.randrange(0, depth // 3)
    lines = []
    for i in range(depth):
        if i < kd:
            lines.append("\t    ffffffff81%06x %s+0x%x ([kernel.kallsyms])\n" %
                         (rng.randrange(1 << 24), rng.choice(kfuncs), rng.randrange(400)))
        else:
            lines.append("\t        55d0c0%06x %s+0x%x (/usr/lib/prog/libwork.so)\n" %
                         (rng.randrange(1 << 24), rng.choice(ufuncs), rng.randrange(400)))
    blocks.append("".join(lines))
comms = ["worker", "Web Content", "kworker/0:1", "prog"]
limit = size_mb << 20
written = 0
t = 1000.0
with open(out, "w") as f:
    while written < limit:
        buf = []
        for _ in range(2000):
            t += 0.0001
            ev = "cycles" if rng.random() < 0.7 else "instructions"
            c = rng.randrange(len(comms))
            hdr = "%s %d/%d [%03d] %.6f: %d %s: \n" % (
                comms[c], 1000 + c, 1000 + c + rng.randrange(3), rng.randrange(4),
                t, 100003, ev)
            buf.append(hdr + blocks[int(rng.paretovariate(1.2)) % len(blocks)] + "\n")
        s = "".join(buf)
        f.write(s)
        written += len(s)
