/* SPDX-License-Identifier: MIT */
/*
 * Readable C++ and Rust names: a thin wrapper over libiberty's
 * cplus_demangle (the demangler binutils and gdb use), with DMGL_PARAMS |
 * DMGL_ANSI (argument lists and cv-qualifiers) in its automatic style,
 * which tries Rust first (legacy "_ZN...17h<hash>E", whose hash it drops,
 * and v0 "_R...") and then Itanium C++ ("_Z...").
 */
#ifndef PMUCONV_DEMANGLE_H
#define PMUCONV_DEMANGLE_H

#include <stddef.h>
#include <stdint.h>
#include "pcagg.h"

/* The demangled form of `name` in a malloc()ed string the caller frees, or
 * NULL when the name is not mangled (C symbols, or a string libiberty
 * rejects): then keep the name as it is. Cheap for plain names (a prefix
 * check); callers still call it once per symbol, not per sample. */
char *pc_demangle(const char *name);

/* For text inputs, which see the same name many times: each distinct
 * mangled name is demangled once and remembered. */
struct pc_demangle_cache {
	struct pc_strtab raw; /* mangled names seen, by id */
	const char **out;     /* out[id]: its demangling, or NULL to keep it */
	uint32_t *out_len;
	size_t nr, cap;
	struct pc_arena arena;
};

/* The name to show for the len bytes at s (not NUL-terminated): s itself
 * when it is not a mangled name libiberty understands (*out_len = len),
 * else its cached demangling. NULL on ENOMEM. */
const char *pc_demangle_cached(struct pc_demangle_cache *c, const char *s, size_t len,
			       size_t *out_len);
void pc_demangle_cache__free(struct pc_demangle_cache *c); /* accepts a zeroed one */

#endif
