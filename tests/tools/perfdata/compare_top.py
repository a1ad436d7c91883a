#!/usr/bin/env python3
"""Compare the top functions by self share of `pmuconv report --json` with
`perf report --stdio --sort sym --no-children` of the same recording
exported by `pmuconv perf-data` (tests/suites/perfdata.sh, demo.host.sh).

  compare_top.py PMUCONV.json PERF-REPORT.txt [N [TOLERANCE_PP]] [--syms FILE]...

For every event of the JSON: perf's section for that event must list the
same N functions (a tie at the N-th share may be broken either way), each
with a self share within TOLERANCE_PP percentage points (default 0.5).
Module functions ("func [mod]" in pmuconv) are compared by function name.
Frames neither tool could name (pmuconv "[unknown]" or "binary+0xOFF", perf
"0x..." addresses) are left out on both sides: pmuconv merges them, perf
lists each address. --syms FILE (nm or kallsyms format: ADDR TYPE NAME):
function names at one address are aliases (glibc's __memcpy_*/__memmove_*),
of which the two tools may pick different ones; they are compared as one.
Prints one "ok EVENT ..." or "MISMATCH EVENT ..." line per event and exits
1 if any event mismatches or is missing from perf's output."""
import json
import re
import sys


def perf_sections(text):
    """{event: [(name, share), ...]} in perf's order."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^# Samples: \S+\s+of event '([^']*)'", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s+([0-9.]+)%\s+\[(.)\]\s+(.*?)\s*$", line)
        if m and cur is not None:
            cur.append((m.group(3), float(m.group(1))))
    return out


def unnamed_mine(fn):
    return fn == "[unknown]" or re.search(r"\+0x[0-9a-f]+$", fn) is not None


def unnamed_perf(fn):
    return re.match(r"^0x[0-9a-f]+$", fn) is not None


def aliases(files):
    """{name: canonical name} over function symbols sharing an address."""
    canon = {}
    for path in files:
        at = {}
        with open(path, errors="replace") as f:
            for line in f:
                t = line.split()
                if len(t) >= 3 and t[1] in "tTwWiI":
                    at.setdefault(t[0], set()).add(t[2])
        for names in at.values():
            if len(names) > 1:
                first = min(names)
                for nm in names:
                    canon[nm] = first
    return canon


def merged(entries, canon):
    """entries with aliases renamed and their shares added, order kept."""
    out = {}
    for fn, pct in entries:
        fn = canon.get(fn, fn)
        out[fn] = out.get(fn, 0.0) + pct
    return list(out.items())


def main():
    args, syms = [], []
    it = iter(sys.argv[1:])
    for a in it:
        if a == "--syms":
            syms.append(next(it))
        else:
            args.append(a)
    js, txt = args[0], args[1]
    n = int(args[2]) if len(args) > 2 else 10
    tol = float(args[3]) if len(args) > 3 else 0.5
    canon = aliases(syms)
    with open(js) as f:
        rep = json.load(f)
    with open(txt) as f:
        perf = perf_sections(f.read())
    bad = 0
    for ev in rep["events"]:
        name = ev["event"]
        mine = [(re.sub(r" \[[^\]]+\]$", "", t["name"]), t["self_percent"])
                for t in ev["top_self"]][:n]
        mine = merged([(fn, pct) for fn, pct in mine if not unnamed_mine(fn)], canon)
        theirs = perf.get(name)
        if theirs:
            theirs = merged([(fn, pct) for fn, pct in theirs if not unnamed_perf(fn)], canon)
        if not theirs:
            print("MISMATCH %s: no section for it in perf report (%s)" % (name, ", ".join(perf)))
            bad += 1
            continue
        shares = dict(theirs)
        cut = mine[-1][1] if mine else 0.0
        problems = []
        for fn, pct in mine:
            if fn not in shares:
                problems.append("%s (%.2f%%) missing" % (fn, pct))
            elif abs(shares[fn] - pct) > tol:
                problems.append("%s %.2f%% vs perf %.2f%%" % (fn, pct, shares[fn]))
        mine_names = {fn for fn, _ in mine}
        for fn, pct in theirs[:len(mine)]:
            if fn not in mine_names and abs(pct - cut) > tol:
                problems.append("perf's top %d has %s (%.2f%%)" % (n, fn, pct))
        if problems:
            print("MISMATCH %s: %s" % (name, "; ".join(problems)))
            bad += 1
        else:
            print("ok %s: %d functions, largest difference %.3f pp" % (
                name, len(mine),
                max([abs(shares[fn] - pct) for fn, pct in mine] or [0.0])))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
