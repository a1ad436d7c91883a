#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare what `go tool pprof` prints for a pmuconv pprof export with what
pmuconv itself prints, for tests/suites/exporters.sh. Reads files the suite
wrote; prints one line per problem and exits 1 if there is any.

  pprof_check.py top REPORT.json EVENT PPROF_TOP.txt [N]
      the N (default 10) top functions by self share in pmuconv report
      --json and in `go tool pprof -top` agree within 0.5 percentage points
      (pprof rows of the same name in different binaries are added up)
  pprof_check.py share PAGESIZE.json EVENT PAGE FOCUS.txt ALL.txt
      PAGE's weight share in pmuconv pagesize --json equals the total of
      `-tagfocus data_page_size=PAGE` over the total of every sample with a
      data_page_size label, within 0.5 points
  pprof_check.py cpu REPORT.json EVENT CPU FOCUS.txt
      the CPU's share in the report equals `-tagfocus cpu=^CPU$`'s
"""
import json
import re
import sys

ROW = re.compile(r'^\s*(\S+)\s+([0-9.e+-]+)%\s+([0-9.e+-]+)%\s+(\S+)\s+([0-9.e+-]+)%\s+(.*)$')
SHOWING = re.compile(r'Showing nodes accounting for (\d+)\w*, ([0-9.e+-]+)% of (\d+)\w* total')
TOL = 0.5


def event_of(doc, name):
    for e in doc['events']:
        if e['event'] == name:
            return e
    sys.exit('pprof_check: no event %s in the pmuconv output' % name)


def pprof_rows(path):
    flat = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        m = ROW.match(line)
        if m and not line.lstrip().startswith('flat'):
            flat[m.group(6)] = flat.get(m.group(6), 0.0) + float(m.group(2))
    return flat


def showing(path):
    for line in open(path, encoding='utf-8', errors='replace'):
        m = SHOWING.search(line)
        if m:
            return int(m.group(1)), int(m.group(3))
    return None


def top(report, event, toptxt, n=10):
    ev = event_of(json.load(open(report)), event)
    mine = {r['name']: r['self_percent'] for r in ev['top_self']}
    theirs = pprof_rows(toptxt)
    bad = []
    if not theirs:
        bad.append('%s: no rows in the pprof output %s' % (event, toptxt))
    for name in [r['name'] for r in ev['top_self']][:n]:
        if name not in theirs:
            bad.append('%s: %s (report self %.2f%%) missing in pprof -top' %
                       (event, name, mine[name]))
        elif abs(theirs[name] - mine[name]) > TOL:
            bad.append('%s: %s self %.2f%% in the report, %.2f%% in pprof' %
                       (event, name, mine[name], theirs[name]))
    for name in sorted(theirs, key=lambda k: -theirs[k])[:n]:
        if abs(theirs[name] - mine.get(name, 0.0)) > TOL:
            bad.append('%s: pprof top function %s %.2f%%, report %.2f%%' %
                       (event, name, theirs[name], mine.get(name, 0.0)))
    return bad, '%s: %d top functions agree' % (event, n)


def share(pagesize, event, page, focus, every):
    ev = event_of(json.load(open(pagesize)), event)
    want = ev['data'][page]['weight_percent']
    f, a = showing(focus), showing(every)
    if not f or not a or not a[0]:
        return ['%s: no "Showing nodes" line in the pprof output' % event], ''
    got = 100.0 * f[0] / a[0]
    if abs(got - want) > TOL:
        return ['%s: %s share %.2f%% in pmuconv pagesize, %.2f%% in pprof' %
                (event, page, want, got)], ''
    return [], '%s: %s share %.2f%% (pagesize %.2f%%)' % (event, page, got, want)


def cpu(report, event, cpu_nr, focus):
    ev = event_of(json.load(open(report)), event)
    tot = sum(c['weight'] for c in ev['cpus'])
    want = 100.0 * sum(c['weight'] for c in ev['cpus'] if c['name'] == 'cpu ' + cpu_nr) / tot
    f = showing(focus)
    if not f:
        return ['%s: no "Showing nodes" line in %s' % (event, focus)], ''
    got = 100.0 * f[0] / f[1]
    if abs(got - want) > TOL:
        return ['%s: cpu %s share %.2f%% in the report, %.2f%% in pprof' %
                (event, cpu_nr, want, got)], ''
    return [], '%s: cpu %s share %.2f%%' % (event, cpu_nr, got)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'top':
        bad, ok = top(args[0], args[1], args[2], int(args[3]) if len(args) > 3 else 10)
    elif cmd == 'share':
        bad, ok = share(*args)
    elif cmd == 'cpu':
        bad, ok = cpu(*args)
    else:
        sys.exit('pprof_check: unknown check ' + cmd)
    for b in bad:
        print(b)
    if not bad:
        print(ok)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
