/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86 opcode maps as data (SDM vol.2 appendix A): for every opcode, the
 * form of its operands as far as data-address sampling needs it (ModRM,
 * immediate, memory access and size, 64-bit mode rules, implicit operands).
 * The tables are in x86_opcode_map.c, one per opcode map; x86_decode.c
 * only interprets them. Shared with tests/unit/test_decode.c, which checks
 * that the decode corpus reaches every row.
 *
 * An attribute is a u32: A_OK (defined) | A_M (ModRM follows) | fields.
 * Lookup of (encoding, map, SIMD prefix, opcode), in order, later wins:
 *   1. x86_opmaps[map]: 256 entries, 0 = the map's default attribute;
 *   2. x86_overlays[]: rows {encodings, map, SIMD prefix, mode, opcode
 *      range} for opcodes whose form depends on the mandatory prefix, the
 *      VEX/EVEX encoding or the mode;
 *   3. after ModRM, a group opcode (A_SP = X86_GRP_*) takes its row
 *      x86_groups[group][ModRM.reg] (memory or register form), then
 *      x86_group_overlays[] (prefix-dependent rows); x87 memory forms take
 *      x86_x87_mem[opcode - D8][ModRM.reg].
 */
#ifndef PMUPROF_X86_OPCODE_MAP_H
#define PMUPROF_X86_OPCODE_MAP_H

#include "pmuprof/types.h"

/* SIMD (mandatory) prefix as VEX.pp numbers it. */
enum x86_simd { X86_SIMD_NONE = 0, X86_SIMD_66 = 1, X86_SIMD_F3 = 2, X86_SIMD_F2 = 3 };

/* Attribute bits and fields. */
#define A_OK	   (1u << 0)  /* defined opcode */
#define A_M	   (1u << 1)  /* ModRM follows */
#define A_IMM_SH   2	      /* 4 bits: enum x86_imm */
#define A_ACC_SH   6	      /* 2 bits: X86_ACC_* of the ModRM memory operand */
#define A_SZ_SH	   8	      /* 5 bits: enum x86_size */
#define A_INV64	   (1u << 13) /* invalid in 64-bit mode */
#define A_DEF64	   (1u << 14) /* operand size defaults to 64 in 64-bit mode */
#define A_F64	   (1u << 15) /* operand size is 64 in 64-bit mode, 66 ignored */
#define A_REGONLY  (1u << 16) /* ModRM.mod ignored: always a register */
#define A_SP_SH	   17	      /* 6 bits: enum x86_special */
#define A_VSIB	   (1u << 23) /* SIB index is a vector register */
#define A_NOEVEX   (1u << 24) /* #UD with EVEX */
#define A_EVEXONLY (1u << 25) /* #UD with VEX */
#define A_NOADDR   (1u << 26) /* memory operand not computable (MPX bound table) */
#define A_RM0	   (1u << 27) /* register form only with ModRM.rm = 000 */
#define A_NOSEG	   (1u << 28) /* address only, no segment base (LEA) */
#define A_D8_BW	   (1u << 29) /* EVEX disp8*N: N = 2 if W else 1 */
#define A_D8_DQ	   (1u << 30) /* EVEX disp8*N: N = 8 if W else 4 (also VSIB) */
#define A_BITSTR   (1u << 31) /* bit string: ModRM.reg is a signed bit offset (BT Ev, Gv) */
#define A_IMM_MASK (0xfu << A_IMM_SH)
#define A_ACC_MASK (3u << A_ACC_SH)
#define A_SZ_MASK  (0x1fu << A_SZ_SH)
#define A_SP_MASK  (0x3fu << A_SP_SH)

enum x86_imm {
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

/* Size of the memory operand, bytes. */
enum x86_size {
	SZ_0 = 0, /* unknown (or, in a group row: the opcode's) */
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
	SZ_MMXD,  /* MMX (legacy, no prefix) 4, else vector length */
	SZ_DDUP,  /* MOVDDUP: 8 at vector length 16, else vector length */
	SZ_MODE,  /* 8 in 64-bit mode, else 4 (VMREAD/VMWRITE) */
	SZ_BND,	  /* MPX bound pair: 16 in 64-bit mode, else 8 */
	SZ_CX8,	  /* CMPXCHG8B/16B: 16 with REX.W, else 8 */
	SZ_KMOV,  /* KMOV: 66 W1 4, 66 W0 1, else W1 8, W0 2 */
};

/* Implicit operands and indirections (the A_SP field). */
enum x86_special {
	SP_NONE = 0,
	SP_PUSH,       /* store [SP - opsize] */
	SP_POP,	       /* load [SP] */
	SP_CALL,       /* store return address at [SP - opsize] */
	SP_CALLF,      /* CALLF ptr: store CS:IP at [SP - 2 * opsize] */
	SP_RET,	       /* load [SP] */
	SP_RETF,       /* load [SP], size unknown */
	SP_ENTER,      /* store [SP - opsize] (push BP) */
	SP_LEAVE,      /* load [BP] (pop BP after SP := BP) */
	SP_PUSHA,      /* store [SP - 8 * opsize] */
	SP_POPA,       /* load [SP] */
	SP_LODS,       /* load [SI] */
	SP_STOS,       /* store [DI] */
	SP_MOVS,       /* load [SI], store [DI] */
	SP_CMPS,       /* load [SI], load [DI] */
	SP_SCAS,       /* load [DI] */
	SP_INS,	       /* store [DI], at most 4 bytes */
	SP_OUTS,       /* load [SI], at most 4 bytes */
	SP_XLAT,       /* load [BX + AL] */
	SP_MOFFS_LOAD, /* load [moffs] */
	SP_MOFFS_STORE,
	SP_MASKMOV,    /* register form: store DS:[DI] */
	SP_X87,	       /* memory form from x86_x87_mem */
	SP_POP_RM,     /* POP r/m: load [SP]; an SP base is the value after the pop */
	SP_CALL_RM,    /* CALL r/m: 64-bit target in 64-bit mode, store [SP - opsize] */
	SP_JMP_RM,     /* JMP r/m: 64-bit target in 64-bit mode */
	SP_CALLF_M,    /* CALLF m16:xx: store [SP - 2 * opsize], size unknown */
	SP_JMPF_M,     /* JMPF m16:xx */
	SP_PUSH_RM,    /* PUSH r/m: 64 (or 16 with 66) in 64-bit mode, store [SP - opsize] */
	X86_GRP_FIRST, /* group opcodes: the row of x86_groups by ModRM.reg */
	X86_GRP_1 = X86_GRP_FIRST, /* 80-83 */
	X86_GRP_1A,		   /* 8F */
	X86_GRP_2,		   /* C0 C1 D0-D3 */
	X86_GRP_3B,		   /* F6 */
	X86_GRP_3V,		   /* F7 */
	X86_GRP_4,		   /* FE */
	X86_GRP_5,		   /* FF */
	X86_GRP_11B,		   /* C6 */
	X86_GRP_11V,		   /* C7 */
	X86_GRP_6,		   /* 0F 00 */
	X86_GRP_7,		   /* 0F 01 */
	X86_GRP_8,		   /* 0F BA */
	X86_GRP_9,		   /* 0F C7 */
	X86_GRP_15,		   /* 0F AE */
	X86_GRP_16,		   /* 0F 18 */
	X86_GRP_END,
};
#define X86_NR_GROUPS (X86_GRP_END - X86_GRP_FIRST)

#define x86_attr_imm(a) (((a)&A_IMM_MASK) >> A_IMM_SH)
#define x86_attr_acc(a) (((a)&A_ACC_MASK) >> A_ACC_SH)
#define x86_attr_sz(a)	(((a)&A_SZ_MASK) >> A_SZ_SH)
#define x86_attr_sp(a)	(((a)&A_SP_MASK) >> A_SP_SH)

/* One opcode map: 256 attributes (NULL: none listed) and the attribute of
 * opcodes the table leaves 0. */
struct x86_opmap {
	const u32 *attr;
	u32 dflt;
	u8 bcst; /* EVEX broadcast element bytes; 0: by EVEX.W, 8 or 4 */
};
#define X86_NR_MAPS 7 /* 0 one-byte, 1 0F, 2 0F38, 3 0F3A, 5/6 EVEX (FP16) */
extern const struct x86_opmap x86_opmaps[X86_NR_MAPS];

/* x86_overlay.enc: encodings a row applies to. */
#define X86_OV_LEGACY (1u << 0) /* 1 << X86_ENC_LEGACY */
#define X86_OV_VEX    (1u << 1) /* 1 << X86_ENC_VEX */
#define X86_OV_EVEX   (1u << 2) /* 1 << X86_ENC_EVEX */
#define X86_OV_ALL    (X86_OV_LEGACY | X86_OV_VEX | X86_OV_EVEX)
#define X86_OV_ANY    0xff /* x86_overlay.simd: any prefix */
struct x86_overlay {
	u8 enc;	 /* X86_OV_* */
	u8 map;	 /* 0..6 */
	u8 simd; /* enum x86_simd or X86_OV_ANY */
	u8 mode; /* 0 any, 32: 32-bit code only */
	u8 lo, hi;
	u32 attr; /* replaces the map's attribute */
};
extern const struct x86_overlay x86_overlays[];
extern const unsigned int x86_nr_overlays;

/* Group rows: attribute of the memory and the register form. A row sets
 * A_OK, the access, A_REGONLY/A_RM0 and the special; its size and immediate
 * replace the opcode's when not 0. No A_OK: #UD. */
struct x86_group_row {
	u32 mem, reg;
};
extern const struct x86_group_row x86_groups[X86_NR_GROUPS][8];
struct x86_group_overlay {
	u8 group; /* X86_GRP_* */
	u8 reg;	  /* ModRM.reg */
	u8 simd;  /* enum x86_simd */
	u32 mem;  /* replaces the row's memory form */
};
extern const struct x86_group_overlay x86_group_overlays[];
extern const unsigned int x86_nr_group_overlays;

/* x87 memory forms, [opcode - D8][ModRM.reg]: access << 6 | size (10 =
 * m80; 0 = environment/state images of unknown size); 0 = #UD. */
#define X86_X87_FIRST	 0xd8 /* D8..DF: x87 escape opcodes */
#define X86_X87(acc, sz) (u8)((acc) << 6 | (sz))
#define X86_X87_ACC(x)	 ((x) >> 6)
#define X86_X87_SIZE(x)	 ((x)&0x3f)
extern const u8 x86_x87_mem[8][8];

#endif /* PMUPROF_X86_OPCODE_MAP_H */
