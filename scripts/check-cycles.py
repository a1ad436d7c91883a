#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail when the files under the given directories depend on each other in a circle.

    scripts/check-cycles.py [--objs BUILD/obj] DIR...

A node is a source file with its header (x.c and x.h in one directory are one
node, "dir/x"). Edges:
  - #include "..." of a file under the DIRs (resolved beside the including file,
    then from the tree's top, as the Makefile's -I does);
  - with --objs, file-level symbol references read with `nm` from the objects
    (BUILD/obj/<source path>.o): an undefined symbol, weak ones included, of one
    object that another object under the DIRs defines.
Prints every circle (a strongly connected set of nodes) with one path around it
and the names that tie each step; exits 1 if there is one, 0 otherwise.
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def node(path):
    return os.path.splitext(os.path.normpath(path))[0]


def sources(dirs):
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.normpath(os.path.join(root, f))


def include_edges(files, edges):
    known = set(files)
    for f in files:
        with open(f, errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            for cand in (os.path.join(os.path.dirname(f), inc), inc):
                cand = os.path.normpath(cand)
                if cand in known:
                    if node(cand) != node(f):
                        edges[node(f)][node(cand)].add(os.path.basename(cand))
                    break


def symbol_edges(files, objdir, edges):
    defs, undefs = {}, defaultdict(set)
    for f in files:
        if not f.endswith(".c"):
            continue
        obj = os.path.join(objdir, os.path.splitext(f)[0] + ".o")
        if not os.path.exists(obj):
            continue
        out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True)
        for line in out.stdout.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            name, kind = parts[0], parts[1]
            if kind == "U" or (kind in "wv" and len(parts) == 2):
                undefs[node(f)].add(name)
            elif kind.isupper() or kind in "wv":
                defs.setdefault(name, node(f))
    for n, names in undefs.items():
        for name in names:
            d = defs.get(name)
            if d and d != n:
                edges[n][d].add(name)


def circles(edges):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = sorted(set(edges) | {m for v in edges.values() for m in v})

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def path_around(comp, edges):
    """One shortest circle through the first node, inside the component."""
    start, inside = comp[0], set(comp)
    prev, todo = {start: None}, [start]
    for v in todo:
        for w in sorted(edges.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in inside and w not in prev:
                prev[w] = v
                todo.append(w)
    return comp


def main(argv):
    objdir, dirs = None, []
    args = iter(argv)
    for a in args:
        if a == "--objs":
            objdir = next(args, None)
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            dirs.append(a)
    if not dirs or not objdir and "--objs" in argv:
        sys.exit(__doc__)
    files = sorted(set(sources(dirs)))
    edges = defaultdict(lambda: defaultdict(set))
    include_edges(files, edges)
    if objdir:
        symbol_edges(files, objdir, edges)
    found = circles(edges)
    for i, comp in enumerate(found, 1):
        print("check-cycles: circle %d: %s" % (i, ", ".join(comp)))
        p = path_around(comp, edges)
        for a, b in zip(p, p[1:]):
            names = sorted(edges[a][b])
            more = " and %d more" % (len(names) - 4) if len(names) > 4 else ""
            print("  %s -> %s: %s%s" % (a, b, ", ".join(names[:4]), more))
    what = "includes and symbol references" if objdir else "includes"
    if found:
        print("check-cycles: %d circle(s) in %s (%s)" % (len(found), " ".join(dirs), what))
        return 1
    print("check-cycles: no circles in %s (%d files, %s)" % (" ".join(dirs), len(files), what))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
