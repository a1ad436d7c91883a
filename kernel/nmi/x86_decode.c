// SPDX-License-Identifier: GPL-2.0
/*
 * x86 memory-operand decoder; see x86_decode.h. Encoding facts from the
 * SDM vol.2 (ch.2 "Instruction format", appendix A "Opcode map") are kept
 * in the attribute tables below; the code only interprets them.
 */
#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "x86_decode.h"

/* ---------------------------------------------------------------------- */
/* Encoding constants (SDM vol.2 ch.2)                                     */
/* ---------------------------------------------------------------------- */
#define PFX_LOCK   0xf0
#define PFX_REPNE  0xf2
#define PFX_REP	   0xf3
#define PFX_CS	   0x2e
#define PFX_SS	   0x36
#define PFX_DS	   0x3e
#define PFX_ES	   0x26
#define PFX_FS	   0x64
#define PFX_GS	   0x65
#define PFX_OPSIZE 0x66
#define PFX_ADSIZE 0x67
#define REX_MASK   0xf0
#define REX_BASE   0x40
#define REX_W	   0x08
#define REX_R	   0x04
#define REX_X	   0x02
#define REX_B	   0x01
#define ESC_0F	   0x0f
#define ESC_0F38   0x38
#define ESC_0F3A   0x3a
#define OP_3DNOW   0x0f /* 0F 0F modrm [sib] [disp] imm8-suffix (AMD) */
#define VEX3	   0xc4
#define VEX2	   0xc5
#define EVEX	   0x62
#define XOP	   0x8f
#define VEX_MODE32_MASK                                                                            \
	0xc0		  /* in 32-bit code C4/C5/62 are VEX/EVEX only when the                    \
			   * next byte has bits 7:6 = 11 (else LES/LDS/BOUND) */
#define XOP_MAP_MASK 0x38 /* 8F: a nonzero ModRM.reg field means XOP */

#define MODRM_MOD(b) ((b) >> 6)
#define MODRM_REG(b) (((b) >> 3) & 7)
#define MODRM_RM(b)  ((b)&7)
#define MOD_REG	     3 /* ModRM.mod = 11: register operand */
#define RM_SIB	     4 /* rm = 100: SIB follows (32/64-bit addressing) */
#define RM_DISP32    5 /* mod 00 rm 101: RIP-relative (64) / disp32 (32) */
#define SIB_NO_INDEX 4 /* index = 100 without REX.X: no index */
#define SIB_NO_BASE  5 /* base = 101 with mod 00: no base, disp32 */
#define RM16_DISP16  6 /* 16-bit: mod 00 rm 110 = disp16 */

/* SIMD prefix as VEX.pp numbers it. */
enum simd_pfx { SIMD_NONE = 0, SIMD_66 = 1, SIMD_F3 = 2, SIMD_F2 = 3 };

/* ---------------------------------------------------------------------- */
/* Opcode attributes                                                       */
/* ---------------------------------------------------------------------- */
#define A_OK	  (1u << 0)  /* defined opcode */
#define A_M	  (1u << 1)  /* ModRM follows */
#define A_IMM_SH  2	     /* 4 bits: enum imm_kind */
#define A_ACC_SH  6	     /* 2 bits: X86_ACC_* of the ModRM memory operand */
#define A_SZ_SH	  8	     /* 4 bits: enum size_class */
#define A_INV64	  (1u << 12) /* invalid in 64-bit mode */
#define A_DEF64	  (1u << 13) /* operand size defaults to 64 in 64-bit mode */
#define A_F64	  (1u << 14) /* operand size is 64 in 64-bit mode, 66 ignored */
#define A_REGONLY (1u << 15) /* ModRM.mod ignored: always a register */
#define A_SP_SH	  16	     /* 6 bits: enum special */

enum imm_kind {
	I_NONE = 0,
	I_B,	 /* imm8 / rel8 */
	I_W,	 /* imm16 */
	I_Z,	 /* imm16 or imm32 by operand size (never 64) */
	I_V,	 /* imm16/32/64 by operand size (MOV r, imm) */
	I_WB,	 /* imm16 + imm8 (ENTER) */
	I_MOFFS, /* address-size offset (MOV moffs) */
	I_FAR,	 /* ptr16:16/16:32 (CALLF/JMPF, 32-bit only) */
	I_J,	 /* rel32 in 64-bit mode; rel16/32 by operand size in 32-bit */
	I_BB,	 /* imm8 + imm8 (SSE4a EXTRQ/INSERTQ) */
};

enum size_class {
	SZ_0 = 0, /* unknown */
	SZ_B,	  /* 1 */
	SZ_W,	  /* 2 */
	SZ_D,	  /* 4 */
	SZ_Q,	  /* 8 */
	SZ_O,	  /* 16 */
	SZ_Y,	  /* 32 */
	SZ_V,	  /* operand size */
	SZ_VL,	  /* vector length */
	SZ_S,	  /* by SIMD prefix: none/66 vector, F3 4, F2 8 */
	SZ_P,	  /* MMX/SSE: legacy without prefix 8, else vector length */
	SZ_DQ,	  /* 8 if REX.W/VEX.W in 64-bit mode, else 4 */
	SZ_SS,	  /* scalar compare: none 4, 66 8 */
	SZ_VL2,	  /* half vector */
	SZ_VL4,	  /* quarter vector */
	SZ_VL8,	  /* eighth vector */
};

enum special {
	SP_NONE = 0,
	SP_PUSH,  /* store [SP - opsize] */
	SP_POP,	  /* load [SP] */
	SP_CALL,  /* store return address at [SP - opsize] */
	SP_RET,	  /* load [SP] */
	SP_RETF,  /* load [SP], size unknown */
	SP_ENTER, /* store [SP - opsize] (push BP) */
	SP_LEAVE, /* load [BP] (pop BP after SP := BP) */
	SP_PUSHA, /* store [SP - 8 * opsize] */
	SP_POPA,  /* load [SP] */
	SP_LODS,
	SP_STOS,
	SP_MOVS,
	SP_CMPS,
	SP_SCAS,
	SP_INS,
	SP_OUTS,
	SP_XLAT,
	SP_MOFFS_LOAD,
	SP_MOFFS_STORE,
	SP_X87,
	SP_G1,	 /* 80-83 */
	SP_G1A,	 /* 8F: POP r/m */
	SP_G2,	 /* shifts */
	SP_G3_B, /* F6 */
	SP_G3_V, /* F7 */
	SP_G4,	 /* FE */
	SP_G5,	 /* FF */
	SP_G11,	 /* C6/C7 */
	SP_G6,	 /* 0F 00 */
	SP_G7,	 /* 0F 01 */
	SP_G8,	 /* 0F BA */
	SP_G9,	 /* 0F C7 */
	SP_G15,	 /* 0F AE */
	SP_G16,	 /* 0F 18 */
	SP_MPX,	 /* 0F 1A / 0F 1B */
	SP_LES,	 /* C4/C5 in 32-bit code: LES/LDS */
	SP_BOUND,
	SP_63,	/* MOVSXD (64) / ARPL (32) */
	SP_SSE, /* prefix-dependent 0F opcode, see sse_fixup() */
	SP_MASKMOV,
	SP_3DNOW,
};

#define ATTR(m, imm, acc, sz, fl, sp)                                                              \
	(A_OK | (m) | ((u32)(imm) << A_IMM_SH) | ((u32)(acc) << A_ACC_SH) |                        \
	 ((u32)(sz) << A_SZ_SH) | (fl) | ((u32)(sp) << A_SP_SH))
/* Register/implicit-operand instruction without ModRM. */
#define NOM(imm) ATTR(0, imm, 0, 0, 0, 0)
/* ModRM with load / store / read-modify-write / address-only memory form. */
#define EL(sz)		    ATTR(A_M, I_NONE, X86_ACC_LOAD, sz, 0, 0)
#define ES(sz)		    ATTR(A_M, I_NONE, X86_ACC_STORE, sz, 0, 0)
#define EM(sz)		    ATTR(A_M, I_NONE, X86_ACC_RMW, sz, 0, 0)
#define ELI(sz, imm)	    ATTR(A_M, imm, X86_ACC_LOAD, sz, 0, 0)
#define ESI(sz, imm)	    ATTR(A_M, imm, X86_ACC_STORE, sz, 0, 0)
#define EMI(sz, imm)	    ATTR(A_M, imm, X86_ACC_RMW, sz, 0, 0)
#define EADDR		    ATTR(A_M, I_NONE, X86_ACC_NONE, 0, 0, 0)
#define EREG		    ATTR(A_M, I_NONE, 0, 0, A_REGONLY, 0)
#define EREGI(imm)	    ATTR(A_M, imm, 0, 0, A_REGONLY, 0)
#define SPC(m, imm, sz, sp) ATTR(m, imm, 0, sz, 0, sp)
#define INV64		    A_INV64
#define BAD		    0

#define ALU(b)                                                                                     \
	[(b) + 0] = EM(SZ_B), [(b) + 1] = EM(SZ_V), [(b) + 2] = EL(SZ_B), [(b) + 3] = EL(SZ_V),    \
	       [(b) + 4] = NOM(I_B), [(b) + 5] = NOM(I_Z)

/* One-byte opcode map (SDM vol.2 table A-2). Prefix bytes never reach it. */
static const u32 map0[256] = {
	ALU(0x00),
	[0x06] = SPC(0, I_NONE, SZ_V, SP_PUSH) | INV64, /* push es */
	[0x07] = SPC(0, I_NONE, SZ_V, SP_POP) | INV64,	/* pop es */
	ALU(0x08),
	[0x0e] = SPC(0, I_NONE, SZ_V, SP_PUSH) | INV64, /* push cs */
	ALU(0x10),
	[0x16] = SPC(0, I_NONE, SZ_V, SP_PUSH) | INV64, /* push ss */
	[0x17] = SPC(0, I_NONE, SZ_V, SP_POP) | INV64,	/* pop ss */
	ALU(0x18),
	[0x1e] = SPC(0, I_NONE, SZ_V, SP_PUSH) | INV64, /* push ds */
	[0x1f] = SPC(0, I_NONE, SZ_V, SP_POP) | INV64,	/* pop ds */
	ALU(0x20),
	[0x27] = NOM(I_NONE) | INV64, /* daa */
	ALU(0x28),
	[0x2f] = NOM(I_NONE) | INV64, /* das */
	ALU(0x30),
	[0x37] = NOM(I_NONE) | INV64, /* aaa */
	[0x38] = EL(SZ_B),	      /* cmp: reads only */
	[0x39] = EL(SZ_V),
	[0x3a] = EL(SZ_B),
	[0x3b] = EL(SZ_V),
	[0x3c] = NOM(I_B),
	[0x3d] = NOM(I_Z),
	[0x3f] = NOM(I_NONE) | INV64,  /* aas */
	[0x40 ... 0x4f] = NOM(I_NONE), /* inc/dec r (32-bit); REX in 64-bit */
	[0x50 ... 0x57] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64,
	[0x58 ... 0x5f] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,
	[0x60] = SPC(0, I_NONE, SZ_0, SP_PUSHA) | INV64,
	[0x61] = SPC(0, I_NONE, SZ_0, SP_POPA) | INV64,
	[0x62] = SPC(A_M, I_NONE, SZ_0, SP_BOUND) | INV64,
	[0x63] = SPC(A_M, I_NONE, SZ_0, SP_63),
	[0x68] = SPC(0, I_Z, SZ_V, SP_PUSH) | A_DEF64,
	[0x69] = ELI(SZ_V, I_Z), /* imul r, r/m, imm */
	[0x6a] = SPC(0, I_B, SZ_V, SP_PUSH) | A_DEF64,
	[0x6b] = ELI(SZ_V, I_B),
	[0x6c] = SPC(0, I_NONE, SZ_B, SP_INS),
	[0x6d] = SPC(0, I_NONE, SZ_V, SP_INS), /* ins: 16/32 only, see fixup */
	[0x6e] = SPC(0, I_NONE, SZ_B, SP_OUTS),
	[0x6f] = SPC(0, I_NONE, SZ_V, SP_OUTS),
	[0x70 ... 0x7f] = NOM(I_B), /* jcc rel8 */
	[0x80] = SPC(A_M, I_B, SZ_B, SP_G1),
	[0x81] = SPC(A_M, I_Z, SZ_V, SP_G1),
	[0x82] = SPC(A_M, I_B, SZ_B, SP_G1) | INV64,
	[0x83] = SPC(A_M, I_B, SZ_V, SP_G1),
	[0x84] = EL(SZ_B), /* test */
	[0x85] = EL(SZ_V),
	[0x86] = EM(SZ_B), /* xchg */
	[0x87] = EM(SZ_V),
	[0x88] = ES(SZ_B), /* mov */
	[0x89] = ES(SZ_V),
	[0x8a] = EL(SZ_B),
	[0x8b] = EL(SZ_V),
	[0x8c] = ES(SZ_W), /* mov r/m16, sreg */
	[0x8d] = EADDR,	   /* lea */
	[0x8e] = EL(SZ_W), /* mov sreg, r/m16 */
	[0x8f] = SPC(A_M, I_NONE, SZ_V, SP_G1A) | A_DEF64,
	[0x90 ... 0x99] = NOM(I_NONE),			  /* xchg/nop/pause, cbw, cwd */
	[0x9a] = SPC(0, I_FAR, SZ_V, SP_CALL) | INV64,	  /* callf ptr */
	[0x9b] = NOM(I_NONE),				  /* fwait */
	[0x9c] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64, /* pushf */
	[0x9d] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,  /* popf */
	[0x9e ... 0x9f] = NOM(I_NONE),
	[0xa0] = SPC(0, I_MOFFS, SZ_B, SP_MOFFS_LOAD),
	[0xa1] = SPC(0, I_MOFFS, SZ_V, SP_MOFFS_LOAD),
	[0xa2] = SPC(0, I_MOFFS, SZ_B, SP_MOFFS_STORE),
	[0xa3] = SPC(0, I_MOFFS, SZ_V, SP_MOFFS_STORE),
	[0xa4] = SPC(0, I_NONE, SZ_B, SP_MOVS),
	[0xa5] = SPC(0, I_NONE, SZ_V, SP_MOVS),
	[0xa6] = SPC(0, I_NONE, SZ_B, SP_CMPS),
	[0xa7] = SPC(0, I_NONE, SZ_V, SP_CMPS),
	[0xa8] = NOM(I_B),
	[0xa9] = NOM(I_Z),
	[0xaa] = SPC(0, I_NONE, SZ_B, SP_STOS),
	[0xab] = SPC(0, I_NONE, SZ_V, SP_STOS),
	[0xac] = SPC(0, I_NONE, SZ_B, SP_LODS),
	[0xad] = SPC(0, I_NONE, SZ_V, SP_LODS),
	[0xae] = SPC(0, I_NONE, SZ_B, SP_SCAS),
	[0xaf] = SPC(0, I_NONE, SZ_V, SP_SCAS),
	[0xb0 ... 0xb7] = NOM(I_B),
	[0xb8 ... 0xbf] = NOM(I_V),
	[0xc0] = SPC(A_M, I_B, SZ_B, SP_G2),
	[0xc1] = SPC(A_M, I_B, SZ_V, SP_G2),
	[0xc2] = SPC(0, I_W, SZ_V, SP_RET) | A_F64,
	[0xc3] = SPC(0, I_NONE, SZ_V, SP_RET) | A_F64,
	[0xc4] = SPC(A_M, I_NONE, SZ_0, SP_LES) | INV64,
	[0xc5] = SPC(A_M, I_NONE, SZ_0, SP_LES) | INV64,
	[0xc6] = SPC(A_M, I_B, SZ_B, SP_G11),
	[0xc7] = SPC(A_M, I_Z, SZ_V, SP_G11),
	[0xc8] = SPC(0, I_WB, SZ_V, SP_ENTER) | A_DEF64,
	[0xc9] = SPC(0, I_NONE, SZ_V, SP_LEAVE) | A_DEF64,
	[0xca] = SPC(0, I_W, SZ_0, SP_RETF),
	[0xcb] = SPC(0, I_NONE, SZ_0, SP_RETF),
	[0xcc] = NOM(I_NONE),			/* int3 */
	[0xcd] = NOM(I_B),			/* int n */
	[0xce] = NOM(I_NONE) | INV64,		/* into */
	[0xcf] = SPC(0, I_NONE, SZ_0, SP_RETF), /* iret: pops from [SP] */
	[0xd0] = SPC(A_M, I_NONE, SZ_B, SP_G2), /* shift r/m8, 1 */
	[0xd1] = SPC(A_M, I_NONE, SZ_V, SP_G2),
	[0xd2] = SPC(A_M, I_NONE, SZ_B, SP_G2), /* shift r/m8, cl */
	[0xd3] = SPC(A_M, I_NONE, SZ_V, SP_G2),
	[0xd4 ... 0xd5] = NOM(I_B) | INV64, /* aam, aad */
	[0xd7] = SPC(0, I_NONE, SZ_B, SP_XLAT),
	[0xd8 ... 0xdf] = SPC(A_M, I_NONE, SZ_0, SP_X87),
	[0xe0 ... 0xe7] = NOM(I_B), /* loop*, jrcxz, in/out imm8 */
	[0xe8] = SPC(0, I_J, SZ_V, SP_CALL) | A_F64,
	[0xe9] = NOM(I_J),
	[0xea] = NOM(I_FAR) | INV64,
	[0xeb] = NOM(I_B),
	[0xec ... 0xef] = NOM(I_NONE),
	[0xf1] = NOM(I_NONE),
	[0xf4 ... 0xf5] = NOM(I_NONE),
	[0xf6] = SPC(A_M, I_NONE, SZ_B, SP_G3_B),
	[0xf7] = SPC(A_M, I_NONE, SZ_V, SP_G3_V),
	[0xf8 ... 0xfd] = NOM(I_NONE),
	[0xfe] = SPC(A_M, I_NONE, SZ_B, SP_G4),
	[0xff] = SPC(A_M, I_NONE, SZ_V, SP_G5),
};

/* Two-byte map 0F (SDM vol.2 table A-3). Used for VEX/EVEX map 1 too, with
 * the differences applied in vex_map1_fixup(). */
static const u32 map1[256] = {
	[0x00] = SPC(A_M, I_NONE, SZ_W, SP_G6),
	[0x01] = SPC(A_M, I_NONE, SZ_0, SP_G7),
	[0x02 ... 0x03] = EL(SZ_W),			      /* lar, lsl */
	[0x05 ... 0x09] = NOM(I_NONE),			      /* syscall clts sysret invd wbinvd */
	[0x0b] = NOM(I_NONE),				      /* ud2 */
	[0x0d] = ATTR(A_M, I_NONE, X86_ACC_LOAD, SZ_0, 0, 0), /* prefetch(w) */
	[0x0e] = NOM(I_NONE),				      /* femms */
	[0x0f] = SPC(A_M, I_B, SZ_Q, SP_3DNOW),
	[0x10] = EL(SZ_S), /* movups/movss/... */
	[0x11] = ES(SZ_S),
	[0x12] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0x13] = ES(SZ_Q),
	[0x14 ... 0x15] = EL(SZ_VL),
	[0x16] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0x17] = ES(SZ_Q),
	[0x18] = SPC(A_M, I_NONE, SZ_0, SP_G16),
	[0x19] = EADDR, /* hint nops */
	[0x1a ... 0x1b] = SPC(A_M, I_NONE, SZ_0, SP_MPX),
	[0x1c ... 0x1f] = EADDR, /* cldemote, endbr, nop r/m */
	[0x20 ... 0x23] = EREG,	 /* mov cr/dr */
	[0x28] = EL(SZ_VL),
	[0x29] = ES(SZ_VL),
	[0x2a] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0x2b] = ES(SZ_VL),
	[0x2c ... 0x2d] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0x2e ... 0x2f] = EL(SZ_SS),
	[0x30 ... 0x35] = NOM(I_NONE), /* wrmsr rdtsc rdmsr rdpmc sysenter sysexit */
	[0x37] = NOM(I_NONE),	       /* getsec */
	[0x40 ... 0x4f] = EL(SZ_V),    /* cmovcc reads even when false */
	[0x50] = EREG,
	[0x51 ... 0x59] = EL(SZ_S),
	[0x5a] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0x5b] = EL(SZ_VL),
	[0x5c ... 0x5f] = EL(SZ_S),
	[0x60 ... 0x62] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0x63 ... 0x6d] = EL(SZ_P),
	[0x6e] = EL(SZ_DQ),
	[0x6f] = EL(SZ_P),
	[0x70] = ELI(SZ_P, I_B),
	[0x71 ... 0x73] = EREGI(I_B),
	[0x74 ... 0x76] = EL(SZ_P),
	[0x77] = NOM(I_NONE),			 /* emms / vzeroupper */
	[0x78] = SPC(A_M, I_NONE, SZ_Q, SP_SSE), /* vmread / extrq */
	[0x79] = SPC(A_M, I_NONE, SZ_Q, SP_SSE), /* vmwrite / insertq */
	[0x7c ... 0x7d] = EL(SZ_VL),
	[0x7e] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0x7f] = ES(SZ_P),
	[0x80 ... 0x8f] = NOM(I_J),
	[0x90 ... 0x9f] = ES(SZ_B),			  /* setcc */
	[0xa0] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64, /* push fs */
	[0xa1] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,
	[0xa2] = NOM(I_NONE), /* cpuid */
	[0xa3] = EL(SZ_V),    /* bt */
	[0xa4] = EMI(SZ_V, I_B),
	[0xa5] = EM(SZ_V),
	[0xa8] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64, /* push gs */
	[0xa9] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,
	[0xaa] = NOM(I_NONE), /* rsm */
	[0xab] = EM(SZ_V),
	[0xac] = EMI(SZ_V, I_B),
	[0xad] = EM(SZ_V),
	[0xae] = SPC(A_M, I_NONE, SZ_0, SP_G15),
	[0xaf] = EL(SZ_V),
	[0xb0] = EM(SZ_B), /* cmpxchg */
	[0xb1] = EM(SZ_V),
	[0xb2] = EL(SZ_0), /* lss */
	[0xb3] = EM(SZ_V),
	[0xb4 ... 0xb5] = EL(SZ_0), /* lfs, lgs */
	[0xb6] = EL(SZ_B),	    /* movzx */
	[0xb7] = EL(SZ_W),
	[0xb8] = EL(SZ_V), /* popcnt */
	[0xb9] = EADDR,	   /* ud1 */
	[0xba] = SPC(A_M, I_B, SZ_V, SP_G8),
	[0xbb] = EM(SZ_V),
	[0xbc ... 0xbd] = EL(SZ_V), /* bsf/tzcnt, bsr/lzcnt */
	[0xbe] = EL(SZ_B),	    /* movsx */
	[0xbf] = EL(SZ_W),
	[0xc0] = EM(SZ_B), /* xadd */
	[0xc1] = EM(SZ_V),
	[0xc2] = ELI(SZ_S, I_B), /* cmpps */
	[0xc3] = ES(SZ_DQ),	 /* movnti */
	[0xc4] = ELI(SZ_W, I_B), /* pinsrw */
	[0xc5] = EREGI(I_B),	 /* pextrw r, mm */
	[0xc6] = ELI(SZ_VL, I_B),
	[0xc7] = SPC(A_M, I_NONE, SZ_0, SP_G9),
	[0xc8 ... 0xcf] = NOM(I_NONE), /* bswap */
	[0xd0 ... 0xd5] = EL(SZ_P),
	[0xd6] = ES(SZ_Q), /* movq xmm/m64, xmm */
	[0xd7] = EREG,	   /* pmovmskb */
	[0xd8 ... 0xe5] = EL(SZ_P),
	[0xe6] = SPC(A_M, I_NONE, SZ_0, SP_SSE),
	[0xe7] = ES(SZ_P), /* movntq/movntdq */
	[0xe8 ... 0xef] = EL(SZ_P),
	[0xf0] = EL(SZ_VL), /* lddqu */
	[0xf1 ... 0xf6] = EL(SZ_P),
	[0xf7] = SPC(A_M, I_NONE, SZ_P, SP_MASKMOV),
	[0xf8 ... 0xfe] = EL(SZ_P),
	[0xff] = EADDR, /* ud0 */
};

/* x87 memory forms (D8-DF with mod != 3), index [opcode - D8][reg]:
 * access and size (SDM vol.2 table A-7..A-22). 10 = m80. Sizes of the
 * environment/state images (14/28, 94/108 bytes) are left unknown. */
#define X87(acc, sz) (u8)((acc) << 6 | (sz))
static const u8 x87_mem[8][8] = {
	/* D8: fadd..fdivr m32fp */
	{X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4)},
	/* D9: fld, -, fst, fstp m32; fldenv, fldcw, fnstenv, fnstcw */
	{X87(1, 4), 0, X87(2, 4), X87(2, 4), X87(1, 0), X87(1, 2), X87(2, 0), X87(2, 2)},
	/* DA: fiadd..fidivr m32int */
	{X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4), X87(1, 4)},
	/* DB: fild, fisttp, fist, fistp m32int; -, fld m80, -, fstp m80 */
	{X87(1, 4), X87(2, 4), X87(2, 4), X87(2, 4), 0, X87(1, 10), 0, X87(2, 10)},
	/* DC: fadd..fdivr m64fp */
	{X87(1, 8), X87(1, 8), X87(1, 8), X87(1, 8), X87(1, 8), X87(1, 8), X87(1, 8), X87(1, 8)},
	/* DD: fld, fisttp, fst, fstp m64; frstor, -, fnsave, fnstsw */
	{X87(1, 8), X87(2, 8), X87(2, 8), X87(2, 8), X87(1, 0), 0, X87(2, 0), X87(2, 2)},
	/* DE: fiadd..fidivr m16int */
	{X87(1, 2), X87(1, 2), X87(1, 2), X87(1, 2), X87(1, 2), X87(1, 2), X87(1, 2), X87(1, 2)},
	/* DF: fild, fisttp, fist, fistp m16; fbld m80, fild m64, fbstp m80, fistp m64 */
	{X87(1, 2), X87(2, 2), X87(2, 2), X87(2, 2), X87(1, 10), X87(1, 8), X87(2, 10), X87(2, 8)},
};

/* ---------------------------------------------------------------------- */
/* Decoder state                                                           */
/* ---------------------------------------------------------------------- */
struct dctx {
	const u8 *buf;
	size_t len;
	unsigned int pos;
	bool mode64;
	u8 simd;     /* enum simd_pfx */
	bool vex_w;  /* VEX/EVEX.W */
	bool disp8n; /* EVEX: disp8 must be scaled by N */
};

static int get8(struct dctx *c, u8 *v)
{
	if (c->pos >= X86_MAX_INSN_LEN)
		return -EINVAL;
	if (c->pos >= c->len)
		return -ENODATA;
	*v = c->buf[c->pos++];
	return 0;
}

static int peek8(const struct dctx *c, u8 *v)
{
	if (c->pos >= X86_MAX_INSN_LEN)
		return -EINVAL;
	if (c->pos >= c->len)
		return -ENODATA;
	*v = c->buf[c->pos];
	return 0;
}

/* Little-endian signed/unsigned immediate of n (1, 2, 4, 8) bytes. */
static int getn(struct dctx *c, unsigned int n, u64 *v)
{
	unsigned int i;
	u64 x = 0;
	u8 b;
	int err;

	for (i = 0; i < n; i++) {
		err = get8(c, &b);
		if (err)
			return err;
		x |= (u64)b << (8 * i);
	}
	*v = x;
	return 0;
}

static s64 sext(u64 v, unsigned int bytes)
{
	unsigned int sh = 64 - 8 * bytes;

	return bytes >= 8 ? (s64)v : (s64)(v << sh) >> sh;
}

/* ---------------------------------------------------------------------- */
/* ModRM / SIB / displacement                                              */
/* ---------------------------------------------------------------------- */

static int decode_mem16(struct dctx *c, struct x86_insn *in, struct x86_mem *m)
{
	/* SDM vol.2 table 2-1: rm -> base + index. */
	static const s8 base16[8] = {PP_REG_BX, PP_REG_BX, PP_REG_BP, PP_REG_BP,
				     PP_REG_SI, PP_REG_DI, PP_REG_BP, PP_REG_BX};
	static const s8 index16[8] = {PP_REG_SI,    PP_REG_DI,	  PP_REG_SI,	PP_REG_DI,
				      X86_REG_NONE, X86_REG_NONE, X86_REG_NONE, X86_REG_NONE};
	unsigned int mod = MODRM_MOD(in->modrm), rm = MODRM_RM(in->modrm);
	unsigned int dsz = mod == 1 ? 1 : mod == 2 ? 2 : 0;
	u64 d;
	int err;

	m->base = base16[rm];
	m->index = index16[rm];
	if (mod == 0 && rm == RM16_DISP16) {
		m->base = X86_REG_NONE;
		dsz = 2;
	}
	if (dsz) {
		err = getn(c, dsz, &d);
		if (err)
			return err;
		m->disp = sext(d, dsz);
		in->disp_size = (u8)dsz;
	}
	return 0;
}

static int decode_mem(struct dctx *c, struct x86_insn *in, struct x86_mem *m, bool vsib)
{
	unsigned int mod = MODRM_MOD(in->modrm), rm = MODRM_RM(in->modrm);
	unsigned int dsz = mod == 1 ? 1 : mod == 2 ? 4 : 0;
	u64 d;
	int err;

	m->scale = 1;
	m->index = X86_REG_NONE;
	m->addr_size = in->addr_size;
	if (in->addr_size == 2)
		return decode_mem16(c, in, m);

	if (rm == RM_SIB) {
		unsigned int idx, base;

		err = get8(c, &in->sib);
		if (err)
			return err;
		in->has_sib = true;
		m->scale = (u8)(1u << MODRM_MOD(in->sib));
		idx = MODRM_REG(in->sib) | ((in->rex & REX_X) ? 8 : 0);
		base = MODRM_RM(in->sib);
		if (vsib) {
			m->index = (s8)idx; /* a vector register number */
			m->flags |= X86_MEMF_VSIB;
		} else if (idx != SIB_NO_INDEX) {
			m->index = (s8)idx;
		}
		if (base == SIB_NO_BASE && mod == 0) {
			m->base = X86_REG_NONE;
			dsz = 4;
		} else {
			m->base = (s8)(base | ((in->rex & REX_B) ? 8 : 0));
		}
	} else if (rm == RM_DISP32 && mod == 0) {
		m->base = c->mode64 ? X86_REG_RIP : X86_REG_NONE;
		dsz = 4;
	} else {
		m->base = (s8)(rm | ((in->rex & REX_B) ? 8 : 0));
	}
	if (dsz) {
		err = getn(c, dsz, &d);
		if (err)
			return err;
		m->disp = sext(d, dsz);
		in->disp_size = (u8)dsz;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Attribute helpers                                                       */
/* ---------------------------------------------------------------------- */
static inline unsigned int attr_imm(u32 a)
{
	return (a >> A_IMM_SH) & 0xf;
}
static inline unsigned int attr_acc(u32 a)
{
	return (a >> A_ACC_SH) & 3;
}
static inline unsigned int attr_sz(u32 a)
{
	return (a >> A_SZ_SH) & 0xf;
}
static inline unsigned int attr_sp(u32 a)
{
	return (a >> A_SP_SH) & 0x3f;
}
static inline u32 attr_set_acc_sz(u32 a, unsigned int acc, unsigned int sz)
{
	a &= ~((3u << A_ACC_SH) | (0xfu << A_SZ_SH));
	return a | ((u32)acc << A_ACC_SH) | ((u32)sz << A_SZ_SH);
}

static unsigned int size_of_class(const struct dctx *c, const struct x86_insn *in, unsigned int cls)
{
	switch (cls) {
	case SZ_B:
		return 1;
	case SZ_W:
		return 2;
	case SZ_D:
		return 4;
	case SZ_Q:
		return 8;
	case SZ_O:
		return 16;
	case SZ_Y:
		return 32;
	case SZ_V:
		return in->opnd_size;
	case SZ_VL:
		return in->vl;
	case SZ_S:
		return c->simd == SIMD_F3 ? 4 : c->simd == SIMD_F2 ? 8 : in->vl;
	case SZ_P:
		return (in->encoding == X86_ENC_LEGACY && c->simd == SIMD_NONE) ? 8 : in->vl;
	case SZ_DQ:
		return (c->mode64 && (in->rex & REX_W)) ? 8 : 4;
	case SZ_SS:
		return c->simd == SIMD_66 ? 8 : 4;
	case SZ_VL2:
		return in->vl / 2;
	case SZ_VL4:
		return in->vl / 4;
	case SZ_VL8:
		return in->vl / 8;
	default:
		return 0;
	}
}
PP_NOKPROBE(size_of_class);

/* 0F opcodes whose memory form depends on the SIMD prefix. */
static u32 sse_fixup(const struct dctx *c, const struct x86_insn *in, u8 op, u32 a)
{
	unsigned int acc = X86_ACC_LOAD, sz = SZ_0;

	switch (op) {
	case 0x12: /* movlps/movlpd m64; movsldup; movddup (m64 at VL 16) */
	case 0x16: /* movhps/movhpd m64; movshdup */
		if (c->simd == SIMD_F3)
			sz = SZ_VL;
		else if (c->simd == SIMD_F2)
			sz = in->vl == 16 ? SZ_Q : SZ_VL;
		else
			sz = SZ_Q;
		break;
	case 0x2a: /* cvtpi2ps/pd m64 ; cvtsi2ss/sd r/m32/64 */
		sz = (c->simd == SIMD_F3 || c->simd == SIMD_F2) ? SZ_DQ : SZ_Q;
		break;
	case 0x2c: /* cvt(t)ps2pi m64, cvt(t)pd2pi m128, cvt(t)ss2si m32, sd2si m64 */
	case 0x2d:
		sz = c->simd == SIMD_F3	  ? SZ_D
		     : c->simd == SIMD_F2 ? SZ_Q
		     : c->simd == SIMD_66 ? SZ_O
					  : SZ_Q;
		break;
	case 0x5a: /* cvtps2pd half, cvtpd2ps full, cvtss2sd m32, cvtsd2ss m64 */
		sz = c->simd == SIMD_F3	  ? SZ_D
		     : c->simd == SIMD_F2 ? SZ_Q
		     : c->simd == SIMD_66 ? SZ_VL
					  : SZ_VL2;
		break;
	case 0x60 ... 0x62: /* punpckl*: MMX reads m32 */
		sz = (in->encoding == X86_ENC_LEGACY && c->simd == SIMD_NONE) ? SZ_D : SZ_VL;
		break;
	case 0x78: /* vmread r/m64 (store); SSE4a extrq xmm, imm8, imm8 */
	case 0x79: /* vmwrite (load); SSE4a insertq */
		if (c->simd == SIMD_66 || c->simd == SIMD_F2) {
			a = (a & ~(0xfu << A_IMM_SH)) |
			    (op == 0x78 || c->simd == SIMD_F2 ? ((u32)I_BB << A_IMM_SH) : 0);
			return (a | A_REGONLY);
		}
		acc = op == 0x78 ? X86_ACC_STORE : X86_ACC_LOAD;
		sz = c->mode64 ? SZ_Q : SZ_D;
		break;
	case 0x7e: /* movd/movq r/m, mm/xmm (store); F3: movq xmm, xmm/m64 (load) */
		if (c->simd == SIMD_F3) {
			sz = SZ_Q;
		} else {
			acc = X86_ACC_STORE;
			sz = SZ_DQ;
		}
		break;
	case 0xe6: /* cvtdq2pd half; cvt(t)pd2dq full */
		sz = c->simd == SIMD_F3 ? SZ_VL2 : SZ_VL;
		break;
	default:
		break;
	}
	return attr_set_acc_sz(a, acc, sz);
}

/* VEX/EVEX map 1 opcodes that differ from the legacy 0F map. */
static u32 vex_map1_fixup(const struct dctx *c, const struct x86_insn *in, u8 op, u32 a)
{
	switch (op) {
	case 0x41 ... 0x4b: /* k-mask logic */
	case 0x92 ... 0x93: /* kmov k <-> r32/64 */
	case 0x98 ... 0x99: /* kortest, ktest */
		return EREG;
	case 0x90: /* kmov k, k/m */
	case 0x91: /* kmov m, k */
		return attr_set_acc_sz(EL(0), op == 0x90 ? X86_ACC_LOAD : X86_ACC_STORE,
				       c->simd == SIMD_66 ? (c->vex_w ? SZ_D : SZ_B)
							  : (c->vex_w ? SZ_Q : SZ_W));
	case 0x78 ... 0x7b: /* EVEX cvt to/from unsigned */
		if (in->encoding == X86_ENC_EVEX)
			return (op == 0x7a && c->simd == SIMD_F3) ? EL(SZ_VL2) : EL(SZ_VL);
		return BAD;
	default:
		return a;
	}
}

/* Map 2 (0F38), legacy/VEX/EVEX. Every opcode has ModRM. */
static u32 map2_attr(const struct dctx *c, const struct x86_insn *in, u8 op, bool *vsib)
{
	bool evex = in->encoding == X86_ENC_EVEX;
	bool legacy = in->encoding == X86_ENC_LEGACY;

	if (evex && c->simd == SIMD_F3 && (op & 0xf) <= 5 &&
	    (op >> 4 == 1 || op >> 4 == 2 || op >> 4 == 3)) {
		/* vpmov{,s,us}{wb,db,qb,dw,qw,qd}: down-converting stores */
		static const u8 dn[6] = {SZ_VL2, SZ_VL4, SZ_VL8, SZ_VL2, SZ_VL4, SZ_VL2};

		return ES(dn[op & 0xf]);
	}
	switch (op) {
	case 0x00 ... 0x0b:
	case 0x1c ... 0x1e:
		return EL(legacy && c->simd == SIMD_NONE ? SZ_Q : SZ_VL); /* SSSE3 MMX forms */
	case 0x13:							  /* vcvtph2ps */
		return EL(SZ_VL2);
	case 0x18: /* vbroadcastss */
		return EL(SZ_D);
	case 0x19: /* vbroadcastsd, vbroadcastf32x2 */
		return EL(SZ_Q);
	case 0x1a: /* vbroadcastf128 / f32x4 / f64x2 */
		return EL(SZ_O);
	case 0x1b: /* vbroadcastf32x8 / f64x4 */
		return EL(SZ_Y);
	case 0x20:
	case 0x23:
	case 0x25:
	case 0x30:
	case 0x33:
	case 0x35: /* pmovsx/zx bw, wd, dq */
		return EL(SZ_VL2);
	case 0x21:
	case 0x24:
	case 0x31:
	case 0x34: /* bd, wq */
		return EL(SZ_VL4);
	case 0x22:
	case 0x32: /* bq */
		return EL(SZ_VL8);
	case 0x2e ... 0x2f: /* vmaskmovps/pd m, v, x */
		return evex ? BAD : ES(SZ_VL);
	case 0x58: /* vpbroadcastd */
		return EL(SZ_D);
	case 0x59: /* vpbroadcastq, vbroadcasti32x2 */
		return EL(SZ_Q);
	case 0x5a: /* vbroadcasti128 / i32x4 / i64x2 */
		return EL(SZ_O);
	case 0x5b:
		return EL(SZ_Y);
	case 0x78: /* vpbroadcastb */
		return EL(SZ_B);
	case 0x79: /* vpbroadcastw */
		return EL(SZ_W);
	case 0x8e: /* vpmaskmovd/q m, v, x */
		return ES(SZ_VL);
	case 0x62: /* vpexpandb/w: variable size, disp8 N = element */
	case 0x88 ... 0x89:
		return EL(SZ_0);
	case 0x63:
	case 0x8a ... 0x8b: /* vcompress */
		return ES(SZ_0);
	case 0x90 ... 0x93: /* gathers */
		*vsib = true;
		return EL(SZ_0);
	case 0xa0 ... 0xa3: /* scatters (EVEX) */
		*vsib = true;
		return ES(SZ_0);
	case 0xc6 ... 0xc7: /* gather/scatter prefetches (AVX512PF) */
		*vsib = true;
		return ATTR(A_M, I_NONE, X86_ACC_LOAD, SZ_0, 0, 0);
	case 0x96 ... 0x9f: /* FMA: 9/B/D/F in the low nibble are scalar */
	case 0xa6 ... 0xbf:
		if ((op & 0xf) >= 9 && (op & 1))
			return EL(SZ_DQ);
		return EL(SZ_VL);
	case 0xf0: /* movbe r, m / crc32 r, r/m8 */
		if (c->simd == SIMD_F2)
			return EL(SZ_B);
		return EL(SZ_V);
	case 0xf1: /* movbe m, r / crc32 r, r/m */
		if (c->simd == SIMD_F2)
			return EL(SZ_V);
		return ES(SZ_V);
	case 0xf2 ... 0xf3:	  /* andn, blsr/blsmsk/blsi */
	case 0xf5 ... 0xf7:	  /* bzhi/pdep/pext, mulx, bextr/shlx/sarx/shrx */
		return EL(SZ_DQ); /* legacy 66/F3 0F38 F6: adcx/adox, same size */
	default:
		return EL(SZ_VL);
	}
}

/* Map 3 (0F3A): ModRM + imm8 everywhere. */
static u32 map3_attr(const struct dctx *c, const struct x86_insn *in, u8 op)
{
	bool legacy = in->encoding == X86_ENC_LEGACY;

	switch (op) {
	case 0x0a: /* roundss */
		return ELI(SZ_D, I_B);
	case 0x0b: /* roundsd */
		return ELI(SZ_Q, I_B);
	case 0x0f: /* palignr: MMX form m64 */
		return ELI(legacy && c->simd == SIMD_NONE ? SZ_Q : SZ_VL, I_B);
	case 0x14: /* pextrb */
		return ESI(SZ_B, I_B);
	case 0x15: /* pextrw */
		return ESI(SZ_W, I_B);
	case 0x16: /* pextrd/q */
		return ESI(SZ_DQ, I_B);
	case 0x17: /* extractps */
		return ESI(SZ_D, I_B);
	case 0x18:
	case 0x38: /* vinsertf128/i128, f32x4 */
		return ELI(SZ_O, I_B);
	case 0x1a:
	case 0x3a: /* f32x8/f64x4 */
		return ELI(SZ_Y, I_B);
	case 0x19:
	case 0x39: /* vextractf128/i128 */
		return ESI(SZ_O, I_B);
	case 0x1b:
	case 0x3b:
		return ESI(SZ_Y, I_B);
	case 0x1d: /* vcvtps2ph */
		return ESI(SZ_VL2, I_B);
	case 0x20: /* pinsrb */
		return ELI(SZ_B, I_B);
	case 0x21: /* insertps */
		return ELI(SZ_D, I_B);
	case 0x22: /* pinsrd/q */
	case 0xf0: /* rorx */
		return ELI(SZ_DQ, I_B);
	default:
		return ELI(SZ_VL, I_B);
	}
}

/* Group opcodes: access of the ModRM memory operand by reg field. */
static u32 group_attr(struct dctx *c, struct x86_insn *in, unsigned int sp, u32 a)
{
	unsigned int reg = MODRM_REG(in->modrm);
	bool mem = MODRM_MOD(in->modrm) != MOD_REG;
	unsigned int sz = attr_sz(a);

	switch (sp) {
	case SP_G1: /* add or adc sbb and sub xor cmp */
		return attr_set_acc_sz(a, reg == 7 ? X86_ACC_LOAD : X86_ACC_RMW, sz);
	case SP_G2: /* rol ror rcl rcr shl shr sal sar */
		return attr_set_acc_sz(a, X86_ACC_RMW, sz);
	case SP_G3_B:
	case SP_G3_V: /* test test(alias) not neg mul imul div idiv */
		if (reg <= 1)
			a |= (u32)(sp == SP_G3_B ? I_B : I_Z) << A_IMM_SH;
		return attr_set_acc_sz(a, (reg == 2 || reg == 3) ? X86_ACC_RMW : X86_ACC_LOAD, sz);
	case SP_G1A: /* pop r/m; other reg values are AMD XOP (rejected earlier) */
		return reg == 0 ? attr_set_acc_sz(a, X86_ACC_STORE, sz) : BAD;
	case SP_G5: /* inc dec call callf jmp jmpf push; sizes fixed up by the caller */
		if (reg == 7 || ((reg == 3 || reg == 5) && !mem))
			return BAD;
		return attr_set_acc_sz(a, reg <= 1 ? X86_ACC_RMW : X86_ACC_LOAD, sz);
	case SP_G4: /* inc dec */
		return reg <= 1 ? attr_set_acc_sz(a, X86_ACC_RMW, sz) : BAD;
	case SP_G11: /* mov r/m, imm; C6 F8 xabort ib; C7 F8 xbegin rel */
		if (reg == 0)
			return attr_set_acc_sz(a, X86_ACC_STORE, sz);
		if (reg == 7 && !mem && MODRM_RM(in->modrm) == 0)
			return (a & ~(0xfu << A_IMM_SH)) |
			       ((u32)(sz == SZ_B ? I_B : I_J) << A_IMM_SH) | A_REGONLY;
		return BAD;
	case SP_G6: /* sldt str lldt ltr verr verw */
		if (reg >= 6)
			return BAD;
		return attr_set_acc_sz(a, reg <= 1 ? X86_ACC_STORE : X86_ACC_LOAD, SZ_W);
	case SP_G7:
		if (!mem)
			return A_OK | A_M | A_REGONLY; /* vmcall, monitor, swapgs, rdtscp... */
		switch (reg) {
		case 0: /* sgdt */
		case 1: /* sidt */
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_0);
		case 2: /* lgdt */
		case 3: /* lidt */
			return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_0);
		case 4: /* smsw */
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_W);
		case 5: /* rstorssp (F3) */
			return c->simd == SIMD_F3 ? attr_set_acc_sz(a, X86_ACC_LOAD, SZ_Q) : BAD;
		case 6: /* lmsw */
			return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_W);
		default: /* invlpg: no access */
			return attr_set_acc_sz(a, X86_ACC_NONE, SZ_0);
		}
	case SP_G8: /* bt bts btr btc r/m, imm8 */
		if (reg < 4)
			return BAD;
		return attr_set_acc_sz(a, reg == 4 ? X86_ACC_LOAD : X86_ACC_RMW, SZ_V);
	case SP_G9:
		if (!mem)
			return (reg == 6 || reg == 7) ? (A_OK | A_M | A_REGONLY) : BAD; /* rdrand */
		switch (reg) {
		case 1: /* cmpxchg8b / cmpxchg16b */
			return attr_set_acc_sz(a, X86_ACC_RMW, (in->rex & REX_W) ? SZ_O : SZ_Q);
		case 3: /* xrstors */
			return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_0);
		case 4: /* xsavec */
		case 5: /* xsaves */
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_0);
		case 6: /* vmptrld, vmclear (66), vmxon (F3) */
			return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_Q);
		case 7: /* vmptrst */
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_Q);
		default:
			return BAD;
		}
	case SP_G15:
		if (!mem)
			return A_OK | A_M | A_REGONLY; /* fences, rd/wr fs/gs base */
		switch (reg) {
		case 0: /* fxsave */
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_0);
		case 1: /* fxrstor */
			return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_0);
		case 2: /* ldmxcsr */
			return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_D);
		case 3: /* stmxcsr */
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_D);
		case 4: /* xsave; F3: ptwrite r/m */
			if (c->simd == SIMD_F3)
				return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_DQ);
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_0);
		case 5: /* xrstor */
			return attr_set_acc_sz(a, X86_ACC_LOAD, SZ_0);
		case 6: /* xsaveopt; 66: clwb (no access) */
			if (c->simd == SIMD_66)
				return attr_set_acc_sz(a, X86_ACC_NONE, SZ_0);
			return attr_set_acc_sz(a, X86_ACC_STORE, SZ_0);
		default: /* clflush, clflushopt: no access */
			return attr_set_acc_sz(a, X86_ACC_NONE, SZ_0);
		}
	case SP_G16: /* prefetchnta/t0/t1/t2; /4-/7 hint nops */
		return attr_set_acc_sz(a, reg <= 3 ? X86_ACC_LOAD : X86_ACC_NONE, SZ_0);
	default:
		return a;
	}
}

/* ---------------------------------------------------------------------- */
/* Operand builders                                                        */
/* ---------------------------------------------------------------------- */
static struct x86_mem *new_mem(struct x86_insn *in)
{
	struct x86_mem *m = &in->mem[in->nr_mem++];

	m->base = X86_REG_NONE;
	m->index = X86_REG_NONE;
	m->scale = 1;
	m->addr_size = in->addr_size;
	return m;
}

/* Implicit stack slot [SP + disp]; the stack's address size is the mode's. */
static void add_stack(struct x86_insn *in, unsigned int acc, unsigned int size, s64 disp)
{
	struct x86_mem *m = new_mem(in);

	m->base = PP_REG_SP;
	m->disp = disp;
	m->access = (u8)acc;
	m->size = (u8)size;
	m->addr_size = in->mode == 64 ? 8 : 4;
	m->flags = X86_MEMF_STACK;
}

/* String operand: [SI] (segment overridable) or [DI] (ES, fixed). */
static void add_string(struct x86_insn *in, bool di, unsigned int acc, unsigned int size)
{
	struct x86_mem *m = new_mem(in);

	m->base = di ? PP_REG_DI : PP_REG_SI;
	m->seg = di ? X86_SEG_FLAT : in->seg;
	m->access = (u8)acc;
	m->size = (u8)size;
	m->flags = X86_MEMF_STRING;
}

/* ---------------------------------------------------------------------- */
/* Prefixes, VEX, EVEX                                                     */
/* ---------------------------------------------------------------------- */
static int decode_vex(struct dctx *c, struct x86_insn *in, u8 esc)
{
	u8 p0, p1, p2;
	int err;

	if (in->rex ||
	    (in->prefixes & (X86_PFX_LOCK | X86_PFX_REP | X86_PFX_REPNE | X86_PFX_OPSIZE)))
		return -EINVAL; /* #UD: VEX/EVEX after REX, 66, F2, F3, LOCK */
	err = get8(c, &p0);
	if (err)
		return err;
	if (esc == VEX2) {
		/* C5: R vvvv L pp */
		in->encoding = X86_ENC_VEX;
		in->map = 1;
		in->rex = REX_BASE | ((p0 & 0x80) ? 0 : REX_R);
		in->vl = (p0 & 0x04) ? 32 : 16;
		c->simd = p0 & 3;
		return 0;
	}
	err = get8(c, &p1);
	if (err)
		return err;
	/* C4: R X B m-mmmm | W vvvv L pp;  62: R X B R' 0 mmm | W vvvv 1 pp | z L'L b V' aaa */
	in->rex = REX_BASE | ((p0 & 0x80) ? 0 : REX_R) | ((p0 & 0x40) ? 0 : REX_X) |
		  ((p0 & 0x20) ? 0 : REX_B) | ((p1 & 0x80) ? REX_W : 0);
	if (!c->mode64)
		in->rex &= ~(REX_X | REX_B); /* ignored outside 64-bit mode */
	c->vex_w = (p1 & 0x80) != 0;
	c->simd = p1 & 3;
	if (esc == VEX3) {
		in->encoding = X86_ENC_VEX;
		in->map = p0 & 0x1f;
		in->vl = (p1 & 0x04) ? 32 : 16;
		if (in->map < 1 || in->map > 3)
			return -EINVAL;
		return 0;
	}
	err = get8(c, &p2);
	if (err)
		return err;
	in->encoding = X86_ENC_EVEX;
	in->map = p0 & 0x07;
	if (!(p1 & 0x04) || (p0 & 0x08))
		return -EINVAL; /* fixed bits */
	if (in->map != 1 && in->map != 2 && in->map != 3 && in->map != 5 && in->map != 6)
		return -EINVAL;
	switch ((p2 >> 5) & 3) { /* L'L */
	case 0:
		in->vl = 16;
		break;
	case 1:
		in->vl = 32;
		break;
	case 2:
		in->vl = 64;
		break;
	default:
		in->vl = 0; /* reserved unless rounding control (register form) */
		break;
	}
	in->evex_b = (p2 & 0x10) != 0;
	c->disp8n = true;
	return 0;
}

static int decode_prefixes(struct dctx *c, struct x86_insn *in, u8 *op)
{
	u8 last_rep = 0;
	int err;

	for (;;) {
		u8 b;

		err = get8(c, &b);
		if (err)
			return err;
		switch (b) {
		case PFX_LOCK:
			in->prefixes |= X86_PFX_LOCK;
			break;
		case PFX_REP:
			in->prefixes |= X86_PFX_REP;
			last_rep = b;
			break;
		case PFX_REPNE:
			in->prefixes |= X86_PFX_REPNE;
			last_rep = b;
			break;
		case PFX_OPSIZE:
			in->prefixes |= X86_PFX_OPSIZE;
			break;
		case PFX_ADSIZE:
			in->prefixes |= X86_PFX_ADSIZE;
			break;
		case PFX_FS:
			in->seg = X86_SEG_FS;
			break;
		case PFX_GS:
			in->seg = X86_SEG_GS;
			break;
		case PFX_CS:
		case PFX_SS:
		case PFX_DS:
		case PFX_ES:
			/* Last segment prefix wins; these have base 0 here. */
			in->seg = X86_SEG_FLAT;
			break;
		default:
			if (c->mode64 && (b & REX_MASK) == REX_BASE) {
				in->rex = b;
				continue; /* REX counts only directly before the opcode */
			}
			*op = b;
			/* Mandatory-prefix rule: the last F2/F3 wins over 66. */
			c->simd = last_rep == PFX_REP		    ? SIMD_F3
				  : last_rep == PFX_REPNE	    ? SIMD_F2
				  : (in->prefixes & X86_PFX_OPSIZE) ? SIMD_66
								    : SIMD_NONE;
			return 0;
		}
		in->rex = 0; /* a legacy prefix after REX cancels it */
	}
}

/* ---------------------------------------------------------------------- */
/* Main decoder                                                            */
/* ---------------------------------------------------------------------- */
static unsigned int imm_bytes(const struct dctx *c, const struct x86_insn *in, unsigned int k)
{
	switch (k) {
	case I_B:
		return 1;
	case I_W:
		return 2;
	case I_Z:
		return in->opnd_size == 2 ? 2 : 4;
	case I_V:
		return in->opnd_size;
	case I_WB:
		return 3;
	case I_MOFFS:
		return in->addr_size;
	case I_FAR:
		return (in->opnd_size == 2 ? 2 : 4) + 2;
	case I_J:
		return (!c->mode64 && in->opnd_size == 2) ? 2 : 4;
	case I_BB:
		return 2;
	default:
		return 0;
	}
}

int x86_decode(struct x86_insn *in, const u8 *buf, size_t len, bool compat)
{
	struct dctx c = {.buf = buf, .len = len, .mode64 = !compat};
	unsigned int sp, mod, acc, size, esz;
	struct x86_mem *m = NULL;
	unsigned int x87_size = 0;
	bool vsib = false;
	u8 op, b;
	u32 a;
	int err;

	memset(in, 0, sizeof(*in));
	in->mode = compat ? 32 : 64;
	in->vl = 16;

	err = decode_prefixes(&c, in, &op);
	if (err)
		return err;

	/* Escape to VEX/EVEX (in 32-bit code only if the next byte has mod=11). */
	if (op == VEX2 || op == VEX3 || op == EVEX) {
		bool is_vex = c.mode64;

		if (!is_vex) {
			err = peek8(&c, &b);
			if (err)
				return err;
			is_vex = (b & VEX_MODE32_MASK) == VEX_MODE32_MASK;
		}
		if (is_vex) {
			err = decode_vex(&c, in, op);
			if (err)
				return err;
			err = get8(&c, &op);
			if (err)
				return err;
		}
	} else if (op == XOP) {
		err = peek8(&c, &b);
		if (err)
			return err;
		if (b & XOP_MAP_MASK)
			return -EOPNOTSUPP; /* AMD XOP */
	}
	if (in->encoding == X86_ENC_LEGACY && op == ESC_0F) {
		err = get8(&c, &op);
		if (err)
			return err;
		in->map = 1;
		if (op == ESC_0F38 || op == ESC_0F3A) {
			in->map = op == ESC_0F38 ? 2 : 3;
			err = get8(&c, &op);
			if (err)
				return err;
		}
	}
	in->opcode = op;

	/* Operand and address size. */
	if (in->prefixes & X86_PFX_ADSIZE)
		in->addr_size = c.mode64 ? 4 : 2;
	else
		in->addr_size = c.mode64 ? 8 : 4;

	switch (in->map) {
	case 0:
		a = map0[op];
		break;
	case 1:
		a = map1[op];
		if (in->encoding != X86_ENC_LEGACY)
			a = vex_map1_fixup(&c, in, op, a);
		break;
	case 2:
		a = map2_attr(&c, in, op, &vsib);
		break;
	case 3:
		a = map3_attr(&c, in, op);
		break;
	default: /* EVEX maps 5/6 (FP16): ModRM, no imm, size not tabulated */
		a = EL(SZ_0);
		break;
	}
	if (!(a & A_OK) || (c.mode64 && (a & A_INV64)))
		return -EINVAL;

	if (c.mode64 && (a & A_F64))
		in->opnd_size = 8;
	else if (c.mode64 && (a & A_DEF64))
		in->opnd_size = (in->prefixes & X86_PFX_OPSIZE) ? 2 : 8;
	else if (c.mode64 && (in->rex & REX_W) && in->encoding == X86_ENC_LEGACY)
		in->opnd_size = 8;
	else
		in->opnd_size = (in->prefixes & X86_PFX_OPSIZE) ? 2 : 4;
	if (in->encoding != X86_ENC_LEGACY)
		in->opnd_size = (c.mode64 && c.vex_w) ? 8 : 4;

	sp = attr_sp(a);
	if (a & A_M) {
		err = get8(&c, &in->modrm);
		if (err)
			return err;
		in->has_modrm = true;
	}
	mod = MODRM_MOD(in->modrm);

	/* Attributes that depend on the ModRM byte or the SIMD prefix. */
	switch (sp) {
	case SP_G1 ... SP_G16:
		a = group_attr(&c, in, sp, a);
		if (!(a & A_OK))
			return -EINVAL;
		break;
	case SP_SSE:
		a = sse_fixup(&c, in, op, a);
		break;
	case SP_MPX:
		/* 0F 1A: bndldx (NP), bndmov load (66), bndcl (F3), bndcu (F2)
		 * 0F 1B: bndstx (NP), bndmov store (66), bndmk (F3), bndcn (F2) */
		if (c.simd == SIMD_66)
			a = attr_set_acc_sz(a, op == 0x1a ? X86_ACC_LOAD : X86_ACC_STORE,
					    c.mode64 ? SZ_O : SZ_Q);
		else if (c.simd == SIMD_NONE)
			a = attr_set_acc_sz(a, op == 0x1a ? X86_ACC_LOAD : X86_ACC_STORE, SZ_0);
		break;
	case SP_X87:
		if (mod != MOD_REG) {
			u8 x = x87_mem[op - 0xd8][MODRM_REG(in->modrm)];

			if (!x)
				return -EINVAL;
			a = attr_set_acc_sz(a, x >> 6, SZ_0);
			x87_size = x & 0x3f;
		}
		break;
	case SP_63: /* movsxd r, r/m32 (64); arpl r/m16, r16 (32) */
		a = c.mode64 ? attr_set_acc_sz(a, X86_ACC_LOAD, SZ_D)
			     : attr_set_acc_sz(a, X86_ACC_RMW, SZ_W);
		break;
	case SP_LES: /* les/lds m16:32 */
	case SP_BOUND:
		a = attr_set_acc_sz(a, X86_ACC_LOAD, SZ_0);
		break;
	case SP_3DNOW:
		a = attr_set_acc_sz(a, X86_ACC_LOAD, SZ_Q);
		break;
	default:
		break;
	}

	/* Explicit ModRM memory operand. */
	if ((a & A_M) && mod != MOD_REG && !(a & A_REGONLY)) {
		m = new_mem(in);
		/* LEA yields the offset: no segment base. */
		m->seg = (in->map == 0 && op == 0x8d) ? X86_SEG_FLAT : in->seg;
		err = decode_mem(&c, in, m, vsib);
		if (err)
			return err;
		acc = attr_acc(a);
		m->access = (u8)acc;
		size = sp == SP_X87 ? x87_size : size_of_class(&c, in, attr_sz(a));
		if (in->encoding == X86_ENC_EVEX && in->evex_b && !vsib) {
			/* Broadcast: one element is read. */
			size = in->map >= 5 ? 2 : c.vex_w ? 8 : 4;
		}
		m->size = (u8)size;
		if (c.disp8n && in->disp_size == 1) {
			/* EVEX compressed displacement: disp8 * N, N being the
			 * memory operand size (element size for broadcasts,
			 * gathers and compress/expand). */
			esz = size;
			if (vsib || op == 0x62 || op == 0x63 ||
			    (in->map == 2 && op >= 0x88 && op <= 0x8b)) {
				if (op == 0x62 || op == 0x63)
					esz = c.vex_w ? 2 : 1;
				else
					esz = c.vex_w ? 8 : 4;
			}
			if (esz)
				m->disp *= esz;
			else
				m->flags |= X86_MEMF_DISP8N;
		}
		if (sp == SP_MPX && c.simd == SIMD_NONE)
			m->flags |= X86_MEMF_NOADDR; /* bndldx/bndstx: bound table */
		if (sp == SP_MPX && (c.simd == SIMD_F3 || c.simd == SIMD_F2))
			m->access = X86_ACC_NONE;
		if (sp == SP_G1A && m->base == PP_REG_SP)
			/* POP m: an RSP base is the value after the pop. */
			m->disp += in->opnd_size;
	}

	/* Immediates. */
	in->imm_size = (u8)imm_bytes(&c, in, attr_imm(a));
	if (sp == SP_MOFFS_LOAD || sp == SP_MOFFS_STORE) {
		u64 off;

		err = getn(&c, in->addr_size, &off);
		if (err)
			return err;
		m = new_mem(in);
		m->disp = (s64)off;
		m->seg = in->seg;
		m->access = sp == SP_MOFFS_LOAD ? X86_ACC_LOAD : X86_ACC_STORE;
		m->size = (u8)size_of_class(&c, in, attr_sz(a));
		in->disp_size = in->addr_size;
		in->imm_size = 0;
	} else {
		unsigned int i;

		for (i = 0; i < in->imm_size; i++) {
			err = get8(&c, &b);
			if (err)
				return err;
		}
	}
	in->len = (u8)c.pos;

	/* Implicit operands. */
	size = size_of_class(&c, in, attr_sz(a));
	switch (sp) {
	case SP_PUSH:
		add_stack(in, X86_ACC_STORE, size, -(s64)size);
		break;
	case SP_POP:
		add_stack(in, X86_ACC_LOAD, size, 0);
		break;
	case SP_CALL:
		if (op == 0x9a) /* callf ptr: pushes CS then IP */
			size *= 2;
		add_stack(in, X86_ACC_STORE, size, -(s64)size);
		break;
	case SP_RET:
		add_stack(in, X86_ACC_LOAD, size, 0);
		break;
	case SP_RETF:
		add_stack(in, X86_ACC_LOAD, 0, 0);
		break;
	case SP_ENTER:
		add_stack(in, X86_ACC_STORE, size, -(s64)size);
		break;
	case SP_LEAVE:
		add_stack(in, X86_ACC_LOAD, size, 0);
		in->mem[in->nr_mem - 1].base = PP_REG_BP;
		break;
	case SP_PUSHA:
		add_stack(in, X86_ACC_STORE, 8 * in->opnd_size, -8 * (s64)in->opnd_size);
		break;
	case SP_POPA:
		add_stack(in, X86_ACC_LOAD, 8 * in->opnd_size, 0);
		break;
	case SP_LODS:
	case SP_OUTS:
		if (sp == SP_OUTS && size == 8)
			size = 4;
		add_string(in, false, X86_ACC_LOAD, size);
		break;
	case SP_STOS:
	case SP_INS:
		if (sp == SP_INS && size == 8)
			size = 4;
		add_string(in, true, X86_ACC_STORE, size);
		break;
	case SP_SCAS:
		add_string(in, true, X86_ACC_LOAD, size);
		break;
	case SP_MOVS:
		add_string(in, false, X86_ACC_LOAD, size);
		add_string(in, true, X86_ACC_STORE, size);
		break;
	case SP_CMPS:
		add_string(in, false, X86_ACC_LOAD, size);
		add_string(in, true, X86_ACC_LOAD, size);
		break;
	case SP_XLAT:
		m = new_mem(in);
		m->base = PP_REG_BX;
		m->index = PP_REG_AX;
		m->seg = in->seg;
		m->access = X86_ACC_LOAD;
		m->size = 1;
		m->flags = X86_MEMF_XLAT;
		break;
	case SP_MASKMOV:
		if (mod == MOD_REG) { /* maskmovq/maskmovdqu: store to DS:[DI] */
			add_string(in, true, X86_ACC_STORE, size);
			in->mem[in->nr_mem - 1].seg = in->seg;
		}
		break;
	case SP_G1A: /* pop r/m: the stack slot is read */
		add_stack(in, X86_ACC_LOAD, in->opnd_size, 0);
		break;
	case SP_G5:
		switch (MODRM_REG(in->modrm)) {
		case 0:
		case 1: /* inc, dec */
			break;
		case 2: /* call near r/m */
		case 4: /* jmp near r/m */
			in->opnd_size = c.mode64 ? 8 : in->opnd_size;
			if (in->nr_mem)
				in->mem[0].size = in->opnd_size;
			if (MODRM_REG(in->modrm) == 2)
				add_stack(in, X86_ACC_STORE, in->opnd_size, -(s64)in->opnd_size);
			break;
		case 3: /* call far m16:xx */
		case 5: /* jmp far */
			if (mod == MOD_REG)
				return -EINVAL;
			in->mem[0].size = 0;
			if (MODRM_REG(in->modrm) == 3)
				add_stack(in, X86_ACC_STORE, 0, 0 - 2 * (s64)in->opnd_size);
			break;
		case 6: /* push r/m */
			in->opnd_size = c.mode64 ? ((in->prefixes & X86_PFX_OPSIZE) ? 2 : 8)
						 : in->opnd_size;
			if (in->nr_mem)
				in->mem[0].size = in->opnd_size;
			add_stack(in, X86_ACC_STORE, in->opnd_size, -(s64)in->opnd_size);
			break;
		default:
			return -EINVAL;
		}
		break;
	default:
		break;
	}
	return 0;
}
PP_NOKPROBE(x86_decode);

const struct x86_mem *x86_insn_access(const struct x86_insn *insn)
{
	unsigned int i;

	for (i = 0; i < insn->nr_mem && i < PP_ARRAY_SIZE(insn->mem); i++)
		if (insn->mem[i].access != X86_ACC_NONE)
			return &insn->mem[i];
	return NULL;
}
PP_NOKPROBE(x86_insn_access);

static u64 reg_value(const struct pp_regs *regs, s8 r)
{
	if (r < 0 || r >= PP_NR_GPR)
		return 0;
	return regs->gpr[r];
}

int x86_mem_addr(const struct x86_insn *insn, const struct x86_mem *m, const struct pp_regs *regs,
		 u64 *addr)
{
	u64 ea = 0;

	if (m->flags & (X86_MEMF_VSIB | X86_MEMF_NOADDR | X86_MEMF_DISP8N))
		return -EOPNOTSUPP;
	if (m->base == X86_REG_RIP)
		ea = regs->ip + insn->len;
	else
		ea = reg_value(regs, m->base);
	if (m->flags & X86_MEMF_XLAT)
		ea += regs->gpr[PP_REG_AX] & 0xff;
	else if (m->index != X86_REG_NONE)
		ea += reg_value(regs, m->index) * m->scale;
	ea += (u64)m->disp;
	if (m->addr_size == 2)
		ea &= 0xffffull;
	else if (m->addr_size == 4)
		ea &= 0xffffffffull;
	if (m->seg == X86_SEG_FS)
		ea += regs->fs_base;
	else if (m->seg == X86_SEG_GS)
		ea += regs->gs_base;
	if (insn->mode == 32)
		ea &= 0xffffffffull;
	*addr = ea;
	return 0;
}
PP_NOKPROBE(x86_mem_addr);
