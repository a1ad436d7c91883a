/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PEBS path checked against the decode path (issue 16: "the data
 * address from PEBS equals the decoded one"): for one PEBS record, decode
 * the instruction at its eventing IP, compute the address of its first
 * accessed memory operand from the record's own GPRs, and compare it with
 * the record's data linear address.
 *
 * Format 0..3 records hold the GPRs AFTER the eventing instruction retired.
 * An instruction that may write one of its own address registers (mov
 * (%rax),%rax; pop; string ops; mul (%rdx) ...) cannot be checked from
 * them: NOT APPLICABLE, never a disagreement. pebs_check__written() is the
 * conservative list of GPRs an instruction may write (the ModRM.reg
 * register unless the opcode only reads it, and the implicit ones).
 *
 * Results (counted per CPU by capture__pebs_check, summed in GET_STATS):
 *   AGREE        decoded address == record's data address
 *   DISAGREE     they differ, or the decoder finds no memory access at an
 *                IP where PEBS reports one
 *   NA           nothing to compare: the record has no GPRs, no data
 *                address or no exact eventing IP (formats 0/1), the
 *                instruction may write an address register, or it has an
 *                FS/GS segment override and the segment base is unknown
 *   UNDECODABLE  the instruction bytes could not be read (fetch fault), are
 *                not a valid instruction, or the operand's address is not
 *                computable (VSIB gathers, MPX tables, EVEX disp8 with
 *                unknown N)
 * Pure except pebs_check__record's one instruction fetch; NMI-safe, no
 * loops beyond the decoder's 15-byte bound: one decode per record.
 */
#ifndef PMUPROF_PEBSCHECK_H
#define PMUPROF_PEBSCHECK_H

#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "x86_decode.h"
#include "../pmu/pebs.h"

enum pebs_check_result {
	PEBS_CHECK_AGREE = 0,
	PEBS_CHECK_DISAGREE = 1,
	PEBS_CHECK_NA = 2,
	PEBS_CHECK_UNDECODABLE = 3,
	PEBS_CHECK_NR
};

/* GPRs insn may write, bit PP_REG_* each; conservative (more, not fewer):
 * all 16 when unknown. Does not include the stack pointer/RSI/RDI updates
 * of X86_MEMF_STACK/STRING operands (pebs_check__classify treats those as
 * not applicable by themselves). */
u32 pebs_check__written(const struct x86_insn *insn);

/*
 * Classify record `rec` given the instruction bytes at rec->ip
 * (bytes[0..n), n = 0: fetch failed). `intr` are the interrupted
 * registers of the PMI that drained the record: only their fs_base,
 * gs_base and compat are used, and only when `segs_valid` (the session
 * read the segment bases and the PMI interrupted the record's mode). The
 * decoded address is stored in *decoded when one was computed (else 0).
 */
enum pebs_check_result pebs_check__classify(const struct pebs_sample *rec, const u8 *bytes,
					    unsigned int n, const struct pp_regs *intr,
					    bool segs_valid, u64 *decoded);

/* [NMI] Fetch the bytes at rec->ip (user copy, or kernel text for a kernel
 * IP; dataaddr__fetch) and classify. `have_segs`: intr's segment bases were
 * read; they are used only when intr->user matches the record's mode. */
enum pebs_check_result pebs_check__record(const struct pebs_sample *rec, const struct pp_regs *intr,
					  bool have_segs);

#endif /* PMUPROF_PEBSCHECK_H */
