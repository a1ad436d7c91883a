/* SPDX-License-Identifier: MIT */
/*
 * An address of a pmuprof sample as a perf user reads it: its symbol, its
 * DSO ("[kernel.kallsyms]", "[module]", the mapped file's recorded path,
 * "//anon" for an anonymous mapping, "[unknown]") and its side ([k] or
 * [.]), plus the --dso/--symbol filters that match the sampled IP against
 * them. Used by the native input (filters), `pmuconv script` and the
 * perf-style `report --sort` table (samplewalk.c).
 */
#ifndef PMUCONV_WHERE_H
#define PMUCONV_WHERE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pcagg.h"
#include "symbolize.h"

struct pmufile;

struct pc_where {
	const char *name; /* pmuconv's frame name, e.g. "xfs_ilock [xfs]", "app+0x50" */
	size_t sym_len;	  /* the symbol part of name (without " [module]") */
	const char *dso;
	int kind;    /* enum pc_frame_kind */
	bool kernel; /* kernel side of the address space */
};

/* Resolve addr of pid at session time t. adj: 1 for a return address (looked
 * up at addr - 1, as everywhere in pmuconv). Names live as long as sym and f. */
struct pc_where pc_where__resolve(struct symbolizer *sym, const struct pmufile *f, int32_t pid,
				  uint64_t addr, bool kernel, unsigned adj, uint64_t t);

/* The DSO's last path component ("libc.so.6"), as perf report's column. */
const char *pc_where__short_dso(const char *dso);

/* Does an IP at w pass the filter's --dso and --symbol (true if neither)?
 * --dso matches the recorded path or its last component; --symbol the
 * symbol with or without its " [module]" suffix. */
bool pc_where__match(const struct pc_filter *f, const struct pc_where *w);

#endif
