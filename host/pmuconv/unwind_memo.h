/* SPDX-License-Identifier: MIT */
/*
 * Exact memoization of libdwfl user-stack unwinds (unwind.c): a sample
 * whose unwind depends on the same inputs as one already done gets that
 * unwind's frames and outcome without running libdwfl again.
 *
 * What an unwind depends on is read from the CFI rules libdw returns for
 * each frame's pc (dwarf_cfi_addrframe, dwarf_frame_cfa,
 * dwarf_frame_register), scanned for the registers they name, never
 * evaluated: going from the outermost frame inwards, the registers a frame
 * needs are those its CFA rule names, those naming any address libdwfl
 * reads, and, for each register its caller needs, those of its rule (a
 * register restored from the stack needs the stack word read for it). The
 * key of a stored unwind is the map set, the initial pc, sp, the copy's
 * valid length, the frame limit, the values of the initial registers so
 * needed, and the stack words needed (offset from sp, value); every
 * address libdwfl reads is then the same, so is every read's outcome.
 * Saved registers no caller's CFA depends on (rbx, r12.. in -O2 code)
 * are not part of the key: they differ from sample to sample while the
 * return addresses do not.
 *
 * Unwinds through rules that read memory themselves (DW_OP_deref: signal
 * frames, the CFA of a PLT entry is fine), unwinds cut at the frame limit
 * and unwinds libdwfl ended in error are not stored.
 */
#ifndef PMUCONV_UNWIND_MEMO_H
#define PMUCONV_UNWIND_MEMO_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/pmufile/pmufile.h"

/* Where one memory read of an unwind was served from. */
enum unw_read_src {
	UNW_READ_COPY = 0,  /* the sample's stack copy */
	UNW_READ_IMAGE = 1, /* a mapped file image */
	UNW_READ_FAIL = 2,  /* neither: the read failed */
};

/* One memory read libdwfl made, in order: while unwinding frame `frame`. */
struct unw_read {
	uint64_t addr, val;
	uint32_t frame;
	uint32_t src; /* enum unw_read_src */
};

/* One finished unwind, as unwind.c saw it. */
struct unw_done {
	const struct pmufile_sample_view *v;
	uint32_t max;	     /* the frame limit it ran with */
	const uint64_t *out; /* the result: nr entries */
	uint32_t nr;	     /* incl. a truncation mark */
	uint32_t nr_frames;  /* frames libdwfl reported (out[0, nr_frames)) */
	bool last_unwound;   /* libdwfl unwound out[nr_frames - 1] (walk ended) */
	int oc;		     /* enum unw_outcome */
	const struct unw_read *reads;
	uint32_t nr_reads;
};

struct unw_memo;

struct unw_memo *unw_memo__new(Dwfl *dwfl); /* NULL + errno on failure */
void unw_memo__free(struct unw_memo *m);    /* accepts NULL */
/* The stored unwind whose inputs v has (the frame limit max), copied into
 * out[0, max), its outcome in *oc; 0 if none. */
uint32_t unw_memo__lookup(struct unw_memo *m, const struct pmufile_sample_view *v, uint32_t max,
			  uint64_t *out, int *oc);
/* Store d if its inputs can be told (see above); quietly not otherwise. */
void unw_memo__store(struct unw_memo *m, const struct unw_done *d);
/* Lookups answered, and unwinds stored. */
void unw_memo__stats(const struct unw_memo *m, uint64_t *hits, uint64_t *stored);

/*
 * Steps: libdwfl's unwinding of one frame, stored by what it depends on:
 * the frame's CFI row (the rules at its lookup pc: the pc, or pc - 1 for
 * a return address) and the values of the registers those rules name.
 * Stored is, for each caller register the rules compute, the value (a
 * val rule) or the address read (a register saved on the stack); the
 * read itself is made again for each sample, so its value and outcome are
 * the sample's. Unwinds whose stacks differ only in return addresses (a
 * recursion's paths, qsort's msort) are walked from steps seen before.
 */

/* One step libdwfl made, as unwind.c saw it. */
struct unw_step_seen {
	uint64_t lookup_pc;
	const uint64_t *regs; /* the frame's registers (dwfl_frame_reg) */
	uint32_t set;	      /* which are set */
	const uint64_t *caller;
	uint32_t caller_set;	      /* caller NULL: not seen (the walk ended there) */
	const struct unw_read *reads; /* made for this step, in order */
	uint32_t nr_reads;
};

/* A step answered: the caller's registers. */
struct unw_step_out {
	uint64_t regs[PMUPROF_NR_UREGS];
	uint32_t set;
	bool ra_undefined; /* the rules leave the return address undefined */
	bool vals_unknown; /* stored from a walk's last frame: the computed
			    * values were not seen (only its reads are known) */
};

/* Reads one word for a step (unwind.c's memory reads, with their effects). */
typedef bool (*unw_step_read_fn)(void *ctx, uint64_t addr, uint64_t *val);

/* Store what s shows, if its rules can be told (as for unwinds). */
void unw_memo__step_store(struct unw_memo *m, const struct unw_step_seen *s);
/* The step of a frame at lookup_pc with registers regs (set): 0 with *o
 * filled, reads made in libdwfl's order; -1 if none is stored (nothing
 * read then). A word inside v's stack copy is read from it here (such a
 * read has no other effect in unwind.c), any other through rd. */
int unw_memo__step(struct unw_memo *m, uint64_t lookup_pc, const uint64_t *regs, uint32_t set,
		   struct unw_step_out *o, const struct pmufile_sample_view *v, unw_step_read_fn rd,
		   void *ctx);

#endif
