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

/* The demangled form of `name` in a malloc()ed string the caller frees, or
 * NULL when the name is not mangled (C symbols, or a string libiberty
 * rejects): then keep the name as it is. Cheap for plain names (a prefix
 * check); callers still call it once per symbol, not per sample. */
char *pc_demangle(const char *name);

#endif
