/* SPDX-License-Identifier: MIT */
/*
 * Symbolization with libelf.
 *
 * User frames: the caller maps an address through the recorded memory maps
 * to (binary path, build-id, file offset); sym__user() finds the binary on
 * this host (by build-id in --buildid-dir, else under --symfs), verifies its build-id (one warning
 * per binary on mismatch), converts the file offset to a link-time address through the PT_LOAD
 * headers (so PIE executables and shared libraries need no load bias), and looks the address up in
 * .symtab, else .dynsym. Stripped binaries get their .symtab from
 * /usr/lib/debug/.build-id/xx/yyyy.debug or through .gnu_debuglink (same dir, .debug/,
 * /usr/lib/debug/<dir>/), with the debuglink CRC checked.
 *
 * Kernel frames: the recorded /proc/kallsyms snapshot, or --vmlinux (ELF
 * .symtab, relocated by the _stext difference when kallsyms is present).
 * Module symbols are named "func [module]".
 *
 * C++ and Rust names are demangled (demangle.h) when a symbol is first
 * returned, unless no_demangle; kernel module names keep their " [module]".
 *
 * Returned names live as long as the symbolizer. Costs: each binary is
 * opened once; each lookup is a binary search. Callers cache per address.
 */
#ifndef PMUCONV_SYMBOLIZE_H
#define PMUCONV_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sym_opts {
	const char *symfs;	 /* root to look binaries up under, or NULL */
	const char *buildid_dir; /* DIR/.build-id/xx/yyyy[.debug] first, or NULL */
	const char *vmlinux;	 /* kernel ELF image, or NULL */
	const char *debug_dir;	 /* default "/usr/lib/debug" (tests override it) */
	int no_offsets;		 /* unresolved user frames as "[unknown]", not bin+0xoff */
	int no_demangle;	 /* keep C++/Rust names mangled (--no-demangle) */
	int no_inline;		 /* no inline frames from DWARF (--no-inline, srcinline.h) */
};

struct symbolizer;

struct symbolizer *sym__new(const struct sym_opts *o);
void sym__free(struct symbolizer *s); /* accepts NULL */

/* Parse a /proc/kallsyms text (kept by pointer? no: copied). Returns the
 * number of text symbols or a negative errno. All-zero addresses (a
 * snapshot taken without privilege) count as no symbols. */
long sym__load_kallsyms(struct symbolizer *s, const char *text, size_t len);

/* Result of a lookup. kind is enum pc_frame_kind. */
struct sym_result {
	const char *name;
	int kind;
};

/* Resolve a user address given as a file offset in `path`. bid/bid_len: the
 * build-id recorded for the mapping (may be 0). adj: 1 for a return address
 * (the lookup uses file_off - 1 so a call ending its function is attributed
 * to the caller; the "binary+0xoffset" name still shows file_off). Never
 * fails: unresolvable frames become "[unknown]" or "binary+0xoffset". */
struct sym_result sym__user(struct symbolizer *s, const char *path, const uint8_t *bid,
			    size_t bid_len, uint64_t file_off, unsigned adj);
/* Resolve a kernel address. */
struct sym_result sym__kernel(struct symbolizer *s, uint64_t addr);

/* The files sym__user() reads for (path, build-id), found the same way:
 * *binary, the binary itself as opened (under --symfs or --buildid-dir), or
 * NULL if it was not found; *debug, the separate debug file, or NULL. The
 * strings live as long as s. 0; 1 when the binary found has another
 * build-id than the recorded one (warned about once); or -ENOMEM. */
int sym__files(struct symbolizer *s, const char *path, const uint8_t *bid, size_t bid_len,
	       const char **binary, const char **debug);

/* One PT_LOAD program header of a binary. */
struct sym_load {
	uint64_t off, filesz, vaddr, align;
};

/* The ELF type and PT_LOAD headers (in header order) of the binary
 * sym__files() returns for (path, build-id), as the symbolizer read them
 * when it opened that file, so the unwinder and the inline lookups need
 * not open it again: *type, *nr headers, the first max of them in out.
 * False if the binary was not found or its headers could not be read. */
bool sym__binary_loads(struct symbolizer *s, const char *path, const uint8_t *bid, size_t bid_len,
		       uint16_t *type, size_t *nr, struct sym_load *out, size_t max);

/* One warning (pc_warn) for each binary some lookup could not resolve in:
 * not found on this host, not an ELF file, or stripped without a debug
 * file. Each names the recorded path and build-id, how many addresses it
 * left unnamed, and what to do. Returns how many binaries it warned about. */
size_t sym__warn_binaries(const struct symbolizer *s);

/* Statistics for the report footer / tests. */
struct sym_stats {
	uint64_t binaries, binaries_missing, build_id_mismatch, debuglink_used, buildid_dir_used;
	uint64_t lookups, unresolved;
};
void sym__stats(const struct symbolizer *s, struct sym_stats *out);

/* The NT_GNU_BUILD_ID of the ELF file at path (under symfs when not NULL)
 * into out (20 bytes); its size, or 0 if the file or the note is missing. */
size_t sym__file_build_id(const char *symfs, const char *path, uint8_t *out);

/* Exposed for unit tests. */
uint32_t sym_crc32(uint32_t crc, const void *buf, size_t len);

#endif
