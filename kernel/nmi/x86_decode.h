/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 instruction decoder for data-address sampling: given the bytes at a
 * sampled IP, find the instruction's length and its memory operands, then
 * compute their linear addresses from the interrupted registers.
 *
 * Pure C, no allocation, no globals written, NMI-safe. Bounded: reads at
 * most min(len, 15) bytes of `buf` (never beyond), and every loop is capped
 * by the 15-byte architectural limit.
 *
 * Coverage: legacy prefixes (segment overrides, 0x66, 0x67, LOCK, REP),
 * REX, VEX2/VEX3, EVEX (with disp8*N compressed displacement), the one-byte,
 * 0F, 0F38 and 0F3A opcode maps, EVEX maps 5/6, ModRM/SIB with every
 * special case, 16-bit addressing (0x67 in 32-bit code), RIP-relative
 * (relative to the next instruction), moffs, string instructions (RSI/RDI),
 * implicit stack accesses (push/pop/call/ret/enter/leave/pushf/popf), x87,
 * 32-bit compat mode.
 *
 * Documented choices:
 *  - Segments: only FS and GS contribute a base (x86-64 ignores CS/DS/ES/SS
 *    bases; 32-bit Linux user code is flat too), so x86_mem.seg is FLAT,
 *    FS or GS.
 *  - An instruction that forms an address without accessing memory is
 *    reported with its operand but access X86_ACC_NONE: LEA, NOP/hint-NOP
 *    with a memory form (0F 18 /4-7, 0F 19-1F), INVLPG, CLFLUSH(OPT), CLWB,
 *    CLDEMOTE, MPX BNDCL/BNDCU/BNDCN/BNDMK.
 *  - Software prefetches (0F 18 /0-3, 0F 0D) are reported as loads of
 *    unknown size: they move the line through the load path and the TLB.
 *  - MPX BNDLDX/BNDSTX access a bound table the decoder cannot locate:
 *    operand flagged X86_MEMF_NOADDR. VSIB (gather/scatter) operands have a
 *    vector index: X86_MEMF_VSIB, also not computable.
 *  - Bit-string instructions (BT/BTS/BTR/BTC m, r) report the operand's
 *    address; with a large bit offset in the register the CPU touches
 *    another word (address + (offset >> 3) rounded to the operand size).
 *  - For two memory operands (MOVS, CMPS, PUSH/POP/CALL with a memory
 *    operand) mem[0] is the explicit or source operand and mem[1] the
 *    other (the RDI destination or the stack slot).
 *  - Access sizes are given where the opcode fixes them; 0 means unknown
 *    (e.g. FXSAVE/XSAVE areas, far pointers, many SSE conversions).
 */
#ifndef PMUPROF_X86_DECODE_H
#define PMUPROF_X86_DECODE_H

#include "pmuprof/types.h"
#include "pmuprof/platform.h"

#define X86_MAX_INSN_LEN 15

/* Register numbers in x86_mem.base/index: PP_REG_* (0..15) or these. */
#define X86_REG_NONE (-1)
#define X86_REG_RIP  (-2)

enum x86_seg {
	X86_SEG_FLAT = 0, /* base 0 */
	X86_SEG_FS = 1,	  /* regs->fs_base */
	X86_SEG_GS = 2,	  /* regs->gs_base */
};

/* Access kinds; values match pmuprof_sample_addr.access. */
#define X86_ACC_NONE  0 /* address formed, memory not accessed (LEA, NOP) */
#define X86_ACC_LOAD  1
#define X86_ACC_STORE 2
#define X86_ACC_RMW   3

/* x86_mem.flags */
#define X86_MEMF_XLAT	(1u << 0) /* index is AL zero-extended (XLAT) */
#define X86_MEMF_VSIB	(1u << 1) /* index is a vector register: no single address */
#define X86_MEMF_NOADDR (1u << 2) /* address not computable (MPX bound table) */
#define X86_MEMF_DISP8N (1u << 3) /* EVEX disp8 with unknown scale N */
#define X86_MEMF_STACK	(1u << 4) /* implicit stack slot */
#define X86_MEMF_STRING (1u << 5) /* implicit RSI/RDI string operand */
#define X86_MEMF_BITSTR (1u << 6) /* bit string: bit_reg moves the address (BT m, r) */

struct x86_mem {
	s64 disp;     /* displacement, EVEX disp8 already multiplied by N;
		       * absolute address for moffs */
	s8 base;      /* PP_REG_*, X86_REG_NONE or X86_REG_RIP */
	s8 index;     /* PP_REG_* or X86_REG_NONE */
	u8 scale;     /* 1, 2, 4, 8 */
	u8 seg;	      /* enum x86_seg */
	u8 access;    /* X86_ACC_* */
	u8 size;      /* bytes accessed, 0 unknown */
	u8 addr_size; /* 2, 4 or 8: width the offset is truncated to */
	u8 flags;     /* X86_MEMF_* */
	s8 bit_reg;   /* X86_MEMF_BITSTR: the bit offset's PP_REG_* */
};

enum x86_encoding {
	X86_ENC_LEGACY = 0,
	X86_ENC_VEX = 1,
	X86_ENC_EVEX = 2,
};

/* x86_insn.rex bits (REX, or VEX/EVEX's inverted R/X/B/W as REX) */
#define X86_INSN_REX_W 0x08
#define X86_INSN_REX_R 0x04 /* extends ModRM.reg */
#define X86_INSN_REX_X 0x02
#define X86_INSN_REX_B 0x01

/* x86_insn.prefixes */
#define X86_PFX_LOCK   (1u << 0)
#define X86_PFX_REP    (1u << 1) /* F3 */
#define X86_PFX_REPNE  (1u << 2) /* F2 */
#define X86_PFX_OPSIZE (1u << 3) /* 66 */
#define X86_PFX_ADSIZE (1u << 4) /* 67 */

struct x86_insn {
	u8 len;	     /* total length in bytes */
	u8 mode;     /* 64 or 32 */
	u8 encoding; /* enum x86_encoding */
	u8 map;	     /* 0 one-byte, 1 0F, 2 0F38, 3 0F3A, 5/6 EVEX maps */
	u8 opcode;
	u8 modrm;
	u8 sib;
	u8 rex;	      /* REX byte, or the equivalent bits of VEX/EVEX; 0 if none */
	u8 prefixes;  /* X86_PFX_* */
	u8 simd;      /* mandatory prefix as VEX.pp numbers it: 0, 66, F3, F2 */
	u8 seg;	      /* FS/GS override, enum x86_seg */
	u8 opnd_size; /* 2, 4 or 8 */
	u8 addr_size; /* 2, 4 or 8 */
	u8 vl;	      /* vector length in bytes (16 for legacy SSE) */
	u8 disp_size; /* 0, 1, 2, 4 or 8 (moffs) */
	u8 imm_size;  /* total immediate bytes */
	u8 nr_mem;    /* entries of mem[] used */
	bool has_modrm;
	bool has_sib;
	bool evex_b; /* EVEX.b (broadcast with a memory operand) */
	struct x86_mem mem[2];
};

/*
 * Decode the instruction at buf[0..len). `compat` selects 32-bit code
 * (regs->compat). Returns 0, or
 *   -ENODATA  the instruction continues beyond len bytes (fetch more)
 *   -EINVAL   not a valid instruction (or longer than 15 bytes)
 *   -EOPNOTSUPP valid but outside what the decoder handles (AMD XOP/3DNow!
 *             with unknown layout); its length is unknown
 */
int x86_decode(struct x86_insn *insn, const u8 *buf, size_t len, bool compat);

/* The operand a data-address sample reports: the first one that accesses
 * memory (X86_ACC_LOAD/STORE/RMW), or NULL. */
const struct x86_mem *x86_insn_access(const struct x86_insn *insn);

/*
 * Linear address of operand m of insn (decoded at regs->ip) in the
 * interrupted context: base + index * scale + disp, truncated to the
 * address size, plus the FS/GS base (and wrapped to 32 bits in compat
 * mode). RIP-relative uses the address of the next instruction.
 * Returns 0, or -EOPNOTSUPP for X86_MEMF_VSIB/NOADDR/DISP8N operands.
 */
int x86_mem_addr(const struct x86_insn *insn, const struct x86_mem *m, const struct pp_regs *regs,
		 u64 *addr);

#endif /* PMUPROF_X86_DECODE_H */
