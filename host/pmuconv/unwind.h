/* SPDX-License-Identifier: MIT */
/*
 * Offline user-stack unwinding (--call-graph dwarf recordings) with
 * elfutils' libdwfl: samples that carry the user registers and a copy of
 * the user stack (PMUPROF_SF_USTACK_COPY) are unwound through the CFI
 * (.eh_frame, .debug_frame) of the binaries mapped in their process.
 *
 * One Dwfl per process map set (a pid's maps snapshot, as pmuctl recorded
 * it), built on first use from the recorded mappings with the files the
 * symbolizer finds for them (sym__files: --symfs, --buildid-dir, debug
 * files by build-id or debuglink), and kept: libdw caches each module's CFI,
 * so no ELF file is opened again per sample. Memory reads come from the
 * stack copy, else from the mapped file images (read-only data). The
 * [vdso] is reported from the image the recording holds (pmufile.vdso);
 * without one, a sample whose pc is in it stops there (no FP fallback).
 *
 * Samples whose unwind depends on the same registers and stack words as
 * one done before get its frames from the map set's memo (unwind_memo.h)
 * instead of another libdwfl walk: same inputs, same frames. Others are
 * walked from the memo's stored steps (what libdwfl computed for a frame
 * of the same CFI row and rule registers) when it has every one, frame by
 * frame as libdwfl goes; else libdwfl walks and its steps are stored.
 *
 * Each frame's pc must have CFI in a reported module; where it has none,
 * the unwind stops there (no frame-pointer guess) and the stack is marked
 * truncated. A sample whose unwind yields no caller at all falls back to
 * the recorded frame-pointer walk when that has more frames.
 */
#ifndef PMUCONV_UNWIND_H
#define PMUCONV_UNWIND_H

#include <stdint.h>

#include "lib/pmufile/pmufile.h"
#include "symbolize.h"

/* How one sample's user stack was unwound (counted in pcagg.h's
 * pc_accounting.unwind[], shown in the report header). */
enum unw_outcome {
	UNW_FULL = 0,	 /* reached the outermost frame (or the frame limit) */
	UNW_NO_CFI = 1,	 /* stopped: a pc with no CFI (or no binary found for it) */
	UNW_SHORT = 2,	 /* stopped: the stack copy ended before the next frame */
	UNW_BAD_MEM = 3, /* stopped: a read outside the copy and the file images */
	UNW_FP = 4,	 /* nothing unwound: the frame-pointer walk was used */
	UNW__NR = 5,
};

/* Pseudo address marking a stack the unwinder stopped on: the outermost
 * entry of the user frames, shown as the root frame "[truncated]". */
#define UNW_TRUNCATED_ADDR UINT64_MAX

const char *unw__outcome_name(int oc);

struct unwinder;

/* f and sym must outlive the unwinder. NULL + errno on failure. */
struct unwinder *unw__new(const struct pmufile *f, struct symbolizer *sym);
void unw__free(struct unwinder *u); /* accepts NULL */
/* The symbol of addr in pid's [vdso] at time t (the recorded image's
 * .dynsym, e.g. "__vdso_clock_gettime"), or NULL without an image. Valid
 * until unw__free. */
const char *unw__vdso_symbol(struct unwinder *u, int32_t pid, uint64_t t, uint64_t addr);
/* One warning (pc_warn) when samples stopped in a [vdso] the recording has
 * no image of; path names the recording. Accepts NULL. */
void unw__warn(const struct unwinder *u, const char *path);

/* The libdwfl sessions (Dwfl) opened so far: one per map set, except that
 * map sets reporting the same files at the same addresses share one. */
size_t unw__nr_dwfls(const struct unwinder *u);

/* Unwind the sample v (v->ucopy not NULL) into out[0, max): the user pc,
 * then return addresses, innermost first, as the recorded ustack[] is; a
 * stopped unwind ends with UNW_TRUNCATED_ADDR (counted in the result).
 * *oc says how it went; with UNW_FP, out holds the recorded FP frames.
 * Returns the number of entries written (>= 1 when max >= 2). */
uint32_t unw__sample(struct unwinder *u, const struct pmufile_sample_view *v, uint64_t *out,
		     uint32_t max, enum unw_outcome *oc);

#endif
