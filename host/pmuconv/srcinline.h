/* SPDX-License-Identifier: MIT */
/*
 * Inline frames and source positions from DWARF debug info (libdw): for a
 * user address (a recorded mapping's file and file offset, as sym__user
 * takes it), the functions the compiler inlined at that code, innermost
 * first, and where each function is defined ("file:line", the
 * DW_AT_decl_file/DW_AT_decl_line of its abstract definition).
 *
 * How: the file's debug info is the one the symbolizer finds (sym__files:
 * the binary itself, or its separate debug file by build-id or debuglink);
 * the file offset becomes a link-time address through the binary's
 * PT_LOAD headers; dwarf_addrdie finds the compilation unit,
 * dwarf_getscopes the innermost inlined instance at the address, and
 * dwarf_getscopes_die the chain of instances it sits in, up to the
 * out-of-line function (dwarf_getscopes alone stops at the innermost one).
 * Names: the DW_AT_linkage_name demangled (demangle.h, unless
 * no_demangle), so C++ frames read as the symbol table's do; else DW_AT_name.
 *
 * Costs: each file is opened once (libdw keeps its CU index); each
 * (file, address) is looked up once and remembered, so a profile pays per
 * unique code address, not per sample. Files without .debug_info cost one
 * failed open. Returned strings live as long as the srcinline.
 */
#ifndef PMUCONV_SRCINLINE_H
#define PMUCONV_SRCINLINE_H

#include <stddef.h>
#include <stdint.h>

#include "symbolize.h"

struct inl_frame {
	const char *name; /* the inlined function */
	const char *src;  /* "file:line" of its definition, or NULL */
};

struct srcinline;

/* sym must outlive it. NULL + errno on failure. */
struct srcinline *inl__new(struct symbolizer *sym, int no_demangle);
void inl__free(struct srcinline *c); /* accepts NULL */

/* The code at file offset off of path (bid: the recorded build-id; adj: 1
 * for a return address, looked up at off - 1 as sym__user does): sets
 * *frames to the functions inlined there, innermost first (the count is
 * returned; 0 when none, or without debug info) and *src to the position
 * of the out-of-line function's definition (NULL if unknown). */
uint32_t inl__lookup(struct srcinline *c, const char *path, const uint8_t *bid, size_t bid_len,
		     uint64_t off, unsigned adj, const struct inl_frame **frames, const char **src);

/* Statistics for tests: lookups asked, answered from the cache. */
struct inl_stats {
	uint64_t lookups, cached, files, files_with_dwarf;
};
void inl__stats(const struct srcinline *c, struct inl_stats *out);

#endif
