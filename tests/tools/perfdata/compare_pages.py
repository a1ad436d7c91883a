#!/usr/bin/env python3
"""Compare the data page-size split of `pmuconv pagesize --json -e EVENT` with
`perf script -F event,addr,data_page_size -G` of the `pmuconv perf-data`
export of the same recording (tests/suites/perfdata.sh, demo.host.sh).

  compare_pages.py PAGESIZE.json PERF-SCRIPT.txt EVENT

perf prints ADDR (hex, 0 without a data address) and the page size ("4K",
"2M", "1G" or "1024M", "N/A" when unknown) per sample. Every page size must
have exactly as many samples as pmuconv counts. Prints "ok ..." or
"MISMATCH ..." and exits 1 on a mismatch."""
import json
import sys


def page_name(tok):
    if tok == "N/A":
        return "unknown"
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    try:
        b = int(tok[:-1]) * units[tok[-1]]
    except (KeyError, ValueError):
        return "unknown"
    return {4 << 10: "4K", 2 << 20: "2M", 1 << 30: "1G"}.get(b, "unknown")


def main():
    js, txt, event = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(js) as f:
        ev = json.load(f)["events"][0]
    want = {p: ev["data"][p]["samples"] for p in ("4K", "2M", "1G", "unknown")}
    got = dict.fromkeys(want, 0)
    with open(txt) as f:
        for line in f:
            t = line.split()
            if len(t) >= 3 and t[0] == event + ":" and int(t[1], 16) != 0:
                got[page_name(t[-1])] += 1
    desc = " ".join("%s=%d" % (p, got[p]) for p in got)
    if got == want:
        print("ok %s: %s" % (event, desc))
        return 0
    print("MISMATCH %s: perf script %s, pmuconv pagesize %s" % (
        event, desc, " ".join("%s=%d" % (p, want[p]) for p in want)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
