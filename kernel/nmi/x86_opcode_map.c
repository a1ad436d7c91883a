// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 opcode maps (SDM vol.2 appendix A, tables A-2..A-7 and the group
 * and x87 tables ..A-22), as far as data-address sampling needs
 * them; layout and lookup order in x86_opcode_map.h. One row a line, the
 * mnemonic in its comment; ranges share one row. Read-only, NMI-safe.
 */
#include "x86_decode.h"
#include "x86_opcode_map.h"

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
#define GRP(imm, sz, g)	    ATTR(A_M, imm, 0, sz, 0, g)
#define ALU(b)                                                                                     \
	[(b) + 0] = EM(SZ_B), [(b) + 1] = EM(SZ_V), [(b) + 2] = EL(SZ_B), [(b) + 3] = EL(SZ_V),    \
	       [(b) + 4] = NOM(I_B), [(b) + 5] = NOM(I_Z)

/* One-byte opcode map (table A-2). Prefix bytes never reach it. */
static const u32 map_onebyte[256] = {
	ALU(0x00), /* add Eb,Gb Ev,Gv Gb,Eb Gv,Ev AL,Ib rAX,Iz */
	[0x06] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_INV64, /* push es */
	[0x07] = SPC(0, I_NONE, SZ_V, SP_POP) | A_INV64,  /* pop es */
	ALU(0x08),					  /* or */
	[0x0e] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_INV64, /* push cs */
	ALU(0x10),					  /* adc */
	[0x16] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_INV64, /* push ss */
	[0x17] = SPC(0, I_NONE, SZ_V, SP_POP) | A_INV64,  /* pop ss */
	ALU(0x18),					  /* sbb */
	[0x1e] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_INV64, /* push ds */
	[0x1f] = SPC(0, I_NONE, SZ_V, SP_POP) | A_INV64,  /* pop ds */
	ALU(0x20),					  /* and */
	[0x27] = NOM(I_NONE) | A_INV64,			  /* daa */
	ALU(0x28),					  /* sub */
	[0x2f] = NOM(I_NONE) | A_INV64,			  /* das */
	ALU(0x30),					  /* xor */
	[0x37] = NOM(I_NONE) | A_INV64,			  /* aaa */
	[0x38] = EL(SZ_B),				  /* cmp Eb, Gb: reads only */
	[0x39] = EL(SZ_V),				  /* cmp Ev, Gv */
	[0x3a] = EL(SZ_B),				  /* cmp Gb, Eb */
	[0x3b] = EL(SZ_V),				  /* cmp Gv, Ev */
	[0x3c] = NOM(I_B),				  /* cmp al, ib */
	[0x3d] = NOM(I_Z),				  /* cmp rax, iz */
	[0x3f] = NOM(I_NONE) | A_INV64,			  /* aas */
	[0x40 ... 0x4f] = NOM(I_NONE),			  /* inc/dec r (32-bit); REX in 64-bit */
	[0x50 ... 0x57] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64, /* push r */
	[0x58 ... 0x5f] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,  /* pop r */
	[0x60] = SPC(0, I_NONE, SZ_V, SP_PUSHA) | A_INV64,	   /* pusha */
	[0x61] = SPC(0, I_NONE, SZ_V, SP_POPA) | A_INV64,	   /* popa */
	[0x62] = EL(SZ_0) | A_INV64,				   /* bound Gv, Ma */
	[0x63] = EL(SZ_D),			       /* movsxd Gv, Ed (32-bit: arpl, overlay) */
	[0x68] = SPC(0, I_Z, SZ_V, SP_PUSH) | A_DEF64, /* push iz */
	[0x69] = ELI(SZ_V, I_Z),		       /* imul Gv, Ev, iz */
	[0x6a] = SPC(0, I_B, SZ_V, SP_PUSH) | A_DEF64, /* push ib */
	[0x6b] = ELI(SZ_V, I_B),		       /* imul Gv, Ev, ib */
	[0x6c] = SPC(0, I_NONE, SZ_B, SP_INS),	       /* insb */
	[0x6d] = SPC(0, I_NONE, SZ_V, SP_INS),	       /* insw/insd (at most 4 bytes) */
	[0x6e] = SPC(0, I_NONE, SZ_B, SP_OUTS),	       /* outsb */
	[0x6f] = SPC(0, I_NONE, SZ_V, SP_OUTS),	       /* outsw/outsd */
	[0x70 ... 0x7f] = NOM(I_B),		       /* jcc rel8 */
	[0x80] = GRP(I_B, SZ_B, X86_GRP_1),	       /* grp1 Eb, ib */
	[0x81] = GRP(I_Z, SZ_V, X86_GRP_1),	       /* grp1 Ev, iz */
	[0x82] = GRP(I_B, SZ_B, X86_GRP_1) | A_INV64,  /* grp1 Eb, ib (alias) */
	[0x83] = GRP(I_B, SZ_V, X86_GRP_1),	       /* grp1 Ev, ib */
	[0x84] = EL(SZ_B),			       /* test Eb, Gb */
	[0x85] = EL(SZ_V),			       /* test Ev, Gv */
	[0x86] = EM(SZ_B),			       /* xchg Eb, Gb */
	[0x87] = EM(SZ_V),			       /* xchg Ev, Gv */
	[0x88] = ES(SZ_B),			       /* mov Eb, Gb */
	[0x89] = ES(SZ_V),			       /* mov Ev, Gv */
	[0x8a] = EL(SZ_B),			       /* mov Gb, Eb */
	[0x8b] = EL(SZ_V),			       /* mov Gv, Ev */
	[0x8c] = ES(SZ_W),			       /* mov Ew, sreg */
	[0x8d] = EADDR | A_NOSEG,		       /* lea Gv, M */
	[0x8e] = EL(SZ_W),			       /* mov sreg, Ew */
	[0x8f] = GRP(I_NONE, SZ_V, X86_GRP_1A) | A_DEF64,  /* grp1a: pop Ev */
	[0x90 ... 0x99] = NOM(I_NONE),			   /* xchg/nop/pause, cbw, cwd */
	[0x9a] = SPC(0, I_FAR, SZ_V, SP_CALLF) | A_INV64,  /* callf ptr */
	[0x9b] = NOM(I_NONE),				   /* fwait */
	[0x9c] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64,  /* pushf */
	[0x9d] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,   /* popf */
	[0x9e ... 0x9f] = NOM(I_NONE),			   /* sahf, lahf */
	[0xa0] = SPC(0, I_MOFFS, SZ_B, SP_MOFFS_LOAD),	   /* mov al, moffs */
	[0xa1] = SPC(0, I_MOFFS, SZ_V, SP_MOFFS_LOAD),	   /* mov rax, moffs */
	[0xa2] = SPC(0, I_MOFFS, SZ_B, SP_MOFFS_STORE),	   /* mov moffs, al */
	[0xa3] = SPC(0, I_MOFFS, SZ_V, SP_MOFFS_STORE),	   /* mov moffs, rax */
	[0xa4] = SPC(0, I_NONE, SZ_B, SP_MOVS),		   /* movsb */
	[0xa5] = SPC(0, I_NONE, SZ_V, SP_MOVS),		   /* movsw/d/q */
	[0xa6] = SPC(0, I_NONE, SZ_B, SP_CMPS),		   /* cmpsb */
	[0xa7] = SPC(0, I_NONE, SZ_V, SP_CMPS),		   /* cmpsw/d/q */
	[0xa8] = NOM(I_B),				   /* test al, ib */
	[0xa9] = NOM(I_Z),				   /* test rax, iz */
	[0xaa] = SPC(0, I_NONE, SZ_B, SP_STOS),		   /* stosb */
	[0xab] = SPC(0, I_NONE, SZ_V, SP_STOS),		   /* stosw/d/q */
	[0xac] = SPC(0, I_NONE, SZ_B, SP_LODS),		   /* lodsb */
	[0xad] = SPC(0, I_NONE, SZ_V, SP_LODS),		   /* lodsw/d/q */
	[0xae] = SPC(0, I_NONE, SZ_B, SP_SCAS),		   /* scasb */
	[0xaf] = SPC(0, I_NONE, SZ_V, SP_SCAS),		   /* scasw/d/q */
	[0xb0 ... 0xb7] = NOM(I_B),			   /* mov r8, ib */
	[0xb8 ... 0xbf] = NOM(I_V),			   /* mov r, iv */
	[0xc0] = GRP(I_B, SZ_B, X86_GRP_2),		   /* grp2 Eb, ib */
	[0xc1] = GRP(I_B, SZ_V, X86_GRP_2),		   /* grp2 Ev, ib */
	[0xc2] = SPC(0, I_W, SZ_V, SP_RET) | A_F64,	   /* ret iw */
	[0xc3] = SPC(0, I_NONE, SZ_V, SP_RET) | A_F64,	   /* ret */
	[0xc4] = EL(SZ_0) | A_INV64,			   /* les Gz, Mp (VEX3 in 64-bit) */
	[0xc5] = EL(SZ_0) | A_INV64,			   /* lds Gz, Mp (VEX2 in 64-bit) */
	[0xc6] = GRP(I_B, SZ_B, X86_GRP_11B),		   /* grp11 Eb, ib */
	[0xc7] = GRP(I_Z, SZ_V, X86_GRP_11V),		   /* grp11 Ev, iz */
	[0xc8] = SPC(0, I_WB, SZ_V, SP_ENTER) | A_DEF64,   /* enter iw, ib */
	[0xc9] = SPC(0, I_NONE, SZ_V, SP_LEAVE) | A_DEF64, /* leave */
	[0xca] = SPC(0, I_W, SZ_0, SP_RETF),		   /* retf iw */
	[0xcb] = SPC(0, I_NONE, SZ_0, SP_RETF),		   /* retf */
	[0xcc] = NOM(I_NONE),				   /* int3 */
	[0xcd] = NOM(I_B),				   /* int ib */
	[0xce] = NOM(I_NONE) | A_INV64,			   /* into */
	[0xcf] = SPC(0, I_NONE, SZ_0, SP_RETF),		   /* iret: pops from [SP] */
	[0xd0] = GRP(I_NONE, SZ_B, X86_GRP_2),		   /* grp2 Eb, 1 */
	[0xd1] = GRP(I_NONE, SZ_V, X86_GRP_2),		   /* grp2 Ev, 1 */
	[0xd2] = GRP(I_NONE, SZ_B, X86_GRP_2),		   /* grp2 Eb, cl */
	[0xd3] = GRP(I_NONE, SZ_V, X86_GRP_2),		   /* grp2 Ev, cl */
	[0xd4 ... 0xd5] = NOM(I_B) | A_INV64,		   /* aam, aad */
	[0xd7] = SPC(0, I_NONE, SZ_B, SP_XLAT),		   /* xlat */
	[0xd8 ... 0xdf] = SPC(A_M, I_NONE, SZ_0, SP_X87),  /* x87 escape */
	[0xe0 ... 0xe7] = NOM(I_B),			   /* loop*, jrcxz, in/out ib */
	[0xe8] = SPC(0, I_J, SZ_V, SP_CALL) | A_F64,	   /* call rel */
	[0xe9] = NOM(I_J),				   /* jmp rel */
	[0xea] = NOM(I_FAR) | A_INV64,			   /* jmpf ptr */
	[0xeb] = NOM(I_B),				   /* jmp rel8 */
	[0xec ... 0xef] = NOM(I_NONE),			   /* in/out dx */
	[0xf1] = NOM(I_NONE),				   /* int1 */
	[0xf4 ... 0xf5] = NOM(I_NONE),			   /* hlt, cmc */
	[0xf6] = GRP(I_NONE, SZ_B, X86_GRP_3B),		   /* grp3 Eb */
	[0xf7] = GRP(I_NONE, SZ_V, X86_GRP_3V),		   /* grp3 Ev */
	[0xf8 ... 0xfd] = NOM(I_NONE),			   /* clc stc cli sti cld std */
	[0xfe] = GRP(I_NONE, SZ_B, X86_GRP_4),		   /* grp4 Eb */
	[0xff] = GRP(I_NONE, SZ_V, X86_GRP_5),		   /* grp5 Ev */
};

/* Two-byte map 0F (table A-3), no-prefix forms; prefixed forms and the
 * VEX/EVEX differences are overlays. Used for VEX/EVEX map 1 too. */
static const u32 map_0f[256] = {
	[0x00] = GRP(I_NONE, SZ_W, X86_GRP_6),	/* grp6 */
	[0x01] = GRP(I_NONE, SZ_0, X86_GRP_7),	/* grp7 */
	[0x02 ... 0x03] = EL(SZ_W),		/* lar, lsl */
	[0x05 ... 0x09] = NOM(I_NONE),		/* syscall clts sysret invd wbinvd */
	[0x0b] = NOM(I_NONE),			/* ud2 */
	[0x0d] = EL(SZ_0),			/* prefetch(w) */
	[0x0e] = NOM(I_NONE),			/* femms */
	[0x0f] = ELI(SZ_Q, I_B),		/* 3DNow! (imm8 opcode suffix) */
	[0x10] = EL(SZ_S),			/* movups/movupd/movss/movsd load */
	[0x11] = ES(SZ_S),			/* movups/... store */
	[0x12] = EL(SZ_Q),			/* movlps/movlpd m64 */
	[0x13] = ES(SZ_Q),			/* movlps/movlpd store */
	[0x14 ... 0x15] = EL(SZ_VL),		/* unpcklps, unpckhps */
	[0x16] = EL(SZ_Q),			/* movhps/movhpd m64 */
	[0x17] = ES(SZ_Q),			/* movhps/movhpd store */
	[0x18] = GRP(I_NONE, SZ_0, X86_GRP_16), /* grp16: prefetch / hint nop */
	[0x19] = EADDR,				/* hint nop */
	[0x1a] = EL(SZ_0) | A_NOADDR,		/* bndldx */
	[0x1b] = ES(SZ_0) | A_NOADDR,		/* bndstx */
	[0x1c ... 0x1f] = EADDR,		/* cldemote, endbr, nop r/m */
	[0x20 ... 0x23] = EREG,			/* mov cr/dr */
	[0x28] = EL(SZ_VL),			/* movaps load */
	[0x29] = ES(SZ_VL),			/* movaps store */
	[0x2a] = EL(SZ_Q),			/* cvtpi2ps/pd m64 */
	[0x2b] = ES(SZ_VL),			/* movntps */
	[0x2c ... 0x2d] = EL(SZ_Q),		/* cvt(t)ps2pi m64 */
	[0x2e ... 0x2f] = EL(SZ_SS),		/* ucomiss, comiss */
	[0x30 ... 0x35] = NOM(I_NONE),		/* wrmsr rdtsc rdmsr rdpmc sysenter sysexit */
	[0x37] = NOM(I_NONE),			/* getsec */
	[0x40 ... 0x4f] = EL(SZ_V),		/* cmovcc: reads even when false */
	[0x50] = EREG,				/* movmskps */
	[0x51 ... 0x59] = EL(SZ_S),		/* sqrt rsqrt rcp and andn or xor add mul */
	[0x5a] = EL(SZ_VL2),			/* cvtps2pd: half vector */
	[0x5b] = EL(SZ_VL),			/* cvtdq2ps */
	[0x5c ... 0x5f] = EL(SZ_S),		/* sub min div max */
	[0x60 ... 0x61] = EL(SZ_MMXD),		/* punpcklbw, punpcklwd */
	[0x62] = EL(SZ_MMXD) | A_D8_BW,		/* punpckldq (EVEX disp8: see 0F38 62) */
	[0x63] = EL(SZ_P) | A_D8_BW,		/* packsswb (EVEX disp8: see 0F38 62) */
	[0x64 ... 0x6d] = EL(SZ_P),		/* pcmpgt* packus* punpckh* */
	[0x6e] = EL(SZ_DQ),			/* movd/movq mm, r/m */
	[0x6f] = EL(SZ_P),			/* movq/movdqa load */
	[0x70] = ELI(SZ_P, I_B),		/* pshuf* */
	[0x71 ... 0x73] = EREGI(I_B),		/* grp12-14: shifts by imm */
	[0x74 ... 0x76] = EL(SZ_P),		/* pcmpeq* */
	[0x77] = NOM(I_NONE),			/* emms / vzeroupper */
	[0x78] = ES(SZ_MODE),			/* vmread Ey, Gy */
	[0x79] = EL(SZ_MODE),			/* vmwrite Gy, Ey */
	[0x7c ... 0x7d] = EL(SZ_VL),		/* haddpd, hsubpd */
	[0x7e] = ES(SZ_DQ),			/* movd/movq r/m, mm/xmm */
	[0x7f] = ES(SZ_P),			/* movq/movdqa store */
	[0x80 ... 0x8f] = NOM(I_J),		/* jcc rel */
	[0x90 ... 0x9f] = ES(SZ_B),		/* setcc */
	[0xa0] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64, /* push fs */
	[0xa1] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,  /* pop fs */
	[0xa2] = NOM(I_NONE),				  /* cpuid */
	[0xa3] = EL(SZ_V) | A_BITSTR,			  /* bt Ev, Gv */
	[0xa4] = EMI(SZ_V, I_B),			  /* shld Ev, Gv, ib */
	[0xa5] = EM(SZ_V),				  /* shld Ev, Gv, cl */
	[0xa8] = SPC(0, I_NONE, SZ_V, SP_PUSH) | A_DEF64, /* push gs */
	[0xa9] = SPC(0, I_NONE, SZ_V, SP_POP) | A_DEF64,  /* pop gs */
	[0xaa] = NOM(I_NONE),				  /* rsm */
	[0xab] = EM(SZ_V) | A_BITSTR,			  /* bts Ev, Gv */
	[0xac] = EMI(SZ_V, I_B),			  /* shrd Ev, Gv, ib */
	[0xad] = EM(SZ_V),				  /* shrd Ev, Gv, cl */
	[0xae] = GRP(I_NONE, SZ_0, X86_GRP_15),		  /* grp15 */
	[0xaf] = EL(SZ_V),				  /* imul Gv, Ev */
	[0xb0] = EM(SZ_B),				  /* cmpxchg Eb, Gb */
	[0xb1] = EM(SZ_V),				  /* cmpxchg Ev, Gv */
	[0xb2] = EL(SZ_0),				  /* lss Gv, Mp */
	[0xb3] = EM(SZ_V) | A_BITSTR,			  /* btr Ev, Gv */
	[0xb4 ... 0xb5] = EL(SZ_0),			  /* lfs, lgs Gv, Mp */
	[0xb6] = EL(SZ_B),				  /* movzx Gv, Eb */
	[0xb7] = EL(SZ_W),				  /* movzx Gv, Ew */
	[0xb8] = EL(SZ_V),				  /* popcnt */
	[0xb9] = EADDR,					  /* ud1 */
	[0xba] = GRP(I_B, SZ_V, X86_GRP_8),		  /* grp8 Ev, ib */
	[0xbb] = EM(SZ_V) | A_BITSTR,			  /* btc Ev, Gv */
	[0xbc ... 0xbd] = EL(SZ_V),			  /* bsf/tzcnt, bsr/lzcnt */
	[0xbe] = EL(SZ_B),				  /* movsx Gv, Eb */
	[0xbf] = EL(SZ_W),				  /* movsx Gv, Ew */
	[0xc0] = EM(SZ_B),				  /* xadd Eb, Gb */
	[0xc1] = EM(SZ_V),				  /* xadd Ev, Gv */
	[0xc2] = ELI(SZ_S, I_B),			  /* cmpps/pd/ss/sd */
	[0xc3] = ES(SZ_DQ),				  /* movnti */
	[0xc4] = ELI(SZ_W, I_B),			  /* pinsrw */
	[0xc5] = EREGI(I_B),				  /* pextrw r, mm */
	[0xc6] = ELI(SZ_VL, I_B),			  /* shufps/pd */
	[0xc7] = GRP(I_NONE, SZ_0, X86_GRP_9),		  /* grp9 */
	[0xc8 ... 0xcf] = NOM(I_NONE),			  /* bswap */
	[0xd0 ... 0xd5] = EL(SZ_P),			  /* addsub psrl* paddq pmullw */
	[0xd6] = ES(SZ_Q),				  /* movq xmm/m64, xmm */
	[0xd7] = EREG,					  /* pmovmskb */
	[0xd8 ... 0xe5] = EL(SZ_P),			  /* psubus* pmin/max pand* pavg* pmulh* */
	[0xe6] = EL(SZ_VL),				  /* cvttpd2dq, cvtpd2dq */
	[0xe7] = ES(SZ_P),				  /* movntq/movntdq */
	[0xe8 ... 0xef] = EL(SZ_P),			  /* psubs* pmins* por padds* pmaxs* pxor */
	[0xf0] = EL(SZ_VL),				  /* lddqu */
	[0xf1 ... 0xf6] = EL(SZ_P),			  /* psll* pmuludq pmaddwd psadbw */
	[0xf7] = SPC(A_M, I_NONE, SZ_P, SP_MASKMOV),	  /* maskmovq/maskmovdqu */
	[0xf8 ... 0xfe] = EL(SZ_P),			  /* psub* padd* */
	[0xff] = EADDR,					  /* ud0 */
};

/* Three-byte map 0F38 (table A-4), legacy/VEX/EVEX; every opcode has ModRM.
 * Unlisted: vector-length load. */
static const u32 map_0f38[256] = {
	[0x00 ... 0x0b] = EL(SZ_P),		/* pshufb phadd* pmaddubsw phsub* psign* pmulhrsw */
	[0x13] = EL(SZ_VL2),			/* vcvtph2ps */
	[0x18] = EL(SZ_D),			/* vbroadcastss */
	[0x19] = EL(SZ_Q),			/* vbroadcastsd, vbroadcastf32x2 */
	[0x1a] = EL(SZ_O),			/* vbroadcastf128 / f32x4 / f64x2 */
	[0x1b] = EL(SZ_Y),			/* vbroadcastf32x8 / f64x4 */
	[0x1c ... 0x1e] = EL(SZ_P),		/* pabsb, pabsw, pabsd */
	[0x20] = EL(SZ_VL2),			/* pmovsxbw */
	[0x21] = EL(SZ_VL4),			/* pmovsxbd */
	[0x22] = EL(SZ_VL8),			/* pmovsxbq */
	[0x23] = EL(SZ_VL2),			/* pmovsxwd */
	[0x24] = EL(SZ_VL4),			/* pmovsxwq */
	[0x25] = EL(SZ_VL2),			/* pmovsxdq */
	[0x2e ... 0x2f] = ES(SZ_VL) | A_NOEVEX, /* vmaskmovps/pd m, v, x */
	[0x30] = EL(SZ_VL2),			/* pmovzxbw */
	[0x31] = EL(SZ_VL4),			/* pmovzxbd */
	[0x32] = EL(SZ_VL8),			/* pmovzxbq */
	[0x33] = EL(SZ_VL2),			/* pmovzxwd */
	[0x34] = EL(SZ_VL4),			/* pmovzxwq */
	[0x35] = EL(SZ_VL2),			/* pmovzxdq */
	[0x58] = EL(SZ_D),			/* vpbroadcastd */
	[0x59] = EL(SZ_Q),			/* vpbroadcastq, vbroadcasti32x2 */
	[0x5a] = EL(SZ_O),			/* vbroadcasti128 / i32x4 / i64x2 */
	[0x5b] = EL(SZ_Y),			/* vbroadcasti32x8 / i64x4 */
	/* vpexpandb/w, vpcompressb/w: variable size; EVEX disp8 N = element */
	[0x62] = EL(SZ_0) | A_D8_BW,	      /* vpexpandb/w */
	[0x63] = ES(SZ_0) | A_D8_BW,	      /* vpcompressb/w */
	[0x78] = EL(SZ_B),		      /* vpbroadcastb */
	[0x79] = EL(SZ_W),		      /* vpbroadcastw */
	[0x88 ... 0x89] = EL(SZ_0) | A_D8_DQ, /* vexpandps/pd, vpexpandd/q */
	[0x8a ... 0x8b] = ES(SZ_0) | A_D8_DQ, /* vcompressps/pd, vpcompressd/q */
	[0x8e] = ES(SZ_VL),		      /* vpmaskmovd/q m, v, x */
	[0x90 ... 0x93] = EL(SZ_0) | A_VSIB,  /* vpgatherd*, vpgatherq*, vgather* */
	[0x99] = EL(SZ_DQ),		      /* vfmadd132ss/sd */
	[0x9b] = EL(SZ_DQ),		      /* vfmsub132ss/sd */
	[0x9d] = EL(SZ_DQ),		      /* vfnmadd132ss/sd */
	[0x9f] = EL(SZ_DQ),		      /* vfnmsub132ss/sd */
	[0xa0 ... 0xa3] = ES(SZ_0) | A_VSIB,  /* vpscatter*, vscatter* (EVEX) */
	[0xa9] = EL(SZ_DQ),		      /* vfmadd213ss/sd */
	[0xab] = EL(SZ_DQ),		      /* vfmsub213ss/sd */
	[0xad] = EL(SZ_DQ),		      /* vfnmadd213ss/sd */
	[0xaf] = EL(SZ_DQ),		      /* vfnmsub213ss/sd */
	[0xb9] = EL(SZ_DQ),		      /* vfmadd231ss/sd */
	[0xbb] = EL(SZ_DQ),		      /* vfmsub231ss/sd */
	[0xbd] = EL(SZ_DQ),		      /* vfnmadd231ss/sd */
	[0xbf] = EL(SZ_DQ),		      /* vfnmsub231ss/sd */
	[0xc6 ... 0xc7] = EL(SZ_0) | A_VSIB,  /* gather/scatter prefetches (AVX512PF) */
	[0xf0] = EL(SZ_V),		      /* movbe Gv, Mv */
	[0xf1] = ES(SZ_V),		      /* movbe Mv, Gv */
	[0xf2 ... 0xf3] = EL(SZ_DQ),	      /* andn, grp17 blsr/blsmsk/blsi */
	[0xf5 ... 0xf7] = EL(SZ_DQ), /* bzhi/pdep/pext, mulx/adcx/adox, bextr/shlx/sarx/shrx */
};

/* Three-byte map 0F3A (table A-5): ModRM + imm8 everywhere. Unlisted:
 * vector-length load. */
static const u32 map_0f3a[256] = {
	[0x0a] = ELI(SZ_D, I_B),		     /* roundss */
	[0x0b] = ELI(SZ_Q, I_B),		     /* roundsd */
	[0x0f] = ELI(SZ_P, I_B),		     /* palignr (MMX form m64) */
	[0x14] = ESI(SZ_B, I_B),		     /* pextrb */
	[0x15] = ESI(SZ_W, I_B),		     /* pextrw */
	[0x16] = ESI(SZ_DQ, I_B),		     /* pextrd/q */
	[0x17] = ESI(SZ_D, I_B),		     /* extractps */
	[0x18] = ELI(SZ_O, I_B),		     /* vinsertf128, vinsertf32x4 */
	[0x19] = ESI(SZ_O, I_B),		     /* vextractf128, vextractf32x4 */
	[0x1a] = ELI(SZ_Y, I_B),		     /* vinsertf32x8/f64x4 */
	[0x1b] = ESI(SZ_Y, I_B),		     /* vextractf32x8/f64x4 */
	[0x1d] = ESI(SZ_VL2, I_B),		     /* vcvtps2ph */
	[0x20] = ELI(SZ_B, I_B),		     /* pinsrb */
	[0x21] = ELI(SZ_D, I_B),		     /* insertps */
	[0x22] = ELI(SZ_DQ, I_B),		     /* pinsrd/q */
	[0x38] = ELI(SZ_O, I_B),		     /* vinserti128, vinserti32x4 */
	[0x39] = ESI(SZ_O, I_B),		     /* vextracti128, vextracti32x4 */
	[0x3a] = ELI(SZ_Y, I_B),		     /* vinserti32x8/i64x4 */
	[0x3b] = ESI(SZ_Y, I_B),		     /* vextracti32x8/i64x4 */
	[0x62 ... 0x63] = ELI(SZ_VL, I_B) | A_D8_BW, /* pcmpistrm/i (EVEX disp8: see 0F38 62) */
	[0xf0] = ELI(SZ_DQ, I_B),		     /* rorx */
};

/* EVEX maps 5 and 6 (FP16): ModRM, no immediate, sizes not tabulated. */
static const u32 map_evex_fp16[256] = {
	[0x62 ... 0x63] = EL(SZ_0) | A_D8_BW, /* (EVEX disp8: see 0F38 62) */
};

const struct x86_opmap x86_opmaps[X86_NR_MAPS] = {
	[0] = {map_onebyte, 0, 0},	    [1] = {map_0f, 0, 0},
	[2] = {map_0f38, EL(SZ_VL), 0},	    [3] = {map_0f3a, ELI(SZ_VL, I_B), 0},
	[5] = {map_evex_fp16, EL(SZ_0), 2}, [6] = {map_evex_fp16, EL(SZ_0), 2},
};

#define LEG X86_OV_LEGACY
#define VEX (X86_OV_VEX | X86_OV_EVEX)
#define EVX X86_OV_EVEX
#define ALL X86_OV_ALL
#define ANY X86_OV_ANY
#define P66 X86_SIMD_66
#define PF3 X86_SIMD_F3
#define PF2 X86_SIMD_F2
#define OV(enc, map, simd, lo, hi, attr)                                                           \
	{                                                                                          \
		enc, map, simd, 0, lo, hi, attr                                                    \
	}
/* Rows in lookup order: later rows win. */
const struct x86_overlay x86_overlays[] = {
	{LEG, 0, ANY, 32, 0x63, 0x63, EM(SZ_W)},  /* arpl Ew, Gw (32-bit code) */
	OV(ALL, 1, PF3, 0x12, 0x12, EL(SZ_VL)),	  /* movsldup */
	OV(ALL, 1, PF2, 0x12, 0x12, EL(SZ_DDUP)), /* movddup */
	OV(ALL, 1, PF3, 0x16, 0x16, EL(SZ_VL)),	  /* movshdup */
	OV(ALL, 1, PF2, 0x16, 0x16, EL(SZ_DDUP)), /* (F2 0F 16, as movddup) */
	OV(ALL, 1, P66, 0x1a, 0x1a, EL(SZ_BND)),  /* bndmov bnd, m */
	OV(ALL, 1, PF3, 0x1a, 0x1a, EADDR),	  /* bndcl */
	OV(ALL, 1, PF2, 0x1a, 0x1a, EADDR),	  /* bndcu */
	OV(ALL, 1, P66, 0x1b, 0x1b, ES(SZ_BND)),  /* bndmov m, bnd */
	OV(ALL, 1, PF3, 0x1b, 0x1b, EADDR),	  /* bndmk */
	OV(ALL, 1, PF2, 0x1b, 0x1b, EADDR),	  /* bndcn */
	OV(ALL, 1, PF3, 0x2a, 0x2a, EL(SZ_DQ)),	  /* cvtsi2ss r/m32/64 */
	OV(ALL, 1, PF2, 0x2a, 0x2a, EL(SZ_DQ)),	  /* cvtsi2sd r/m32/64 */
	OV(ALL, 1, P66, 0x2c, 0x2d, EL(SZ_O)),	  /* cvt(t)pd2pi m128 */
	OV(ALL, 1, PF3, 0x2c, 0x2d, EL(SZ_D)),	  /* cvt(t)ss2si m32 */
	OV(ALL, 1, P66, 0x5a, 0x5a, EL(SZ_VL)),	  /* cvtpd2ps */
	OV(ALL, 1, PF3, 0x5a, 0x5a, EL(SZ_D)),	  /* cvtss2sd m32 */
	OV(ALL, 1, PF2, 0x5a, 0x5a, EL(SZ_Q)),	  /* cvtsd2ss m64 */
	OV(ALL, 1, P66, 0x78, 0x78, EREGI(I_BB)), /* extrq xmm, ib, ib */
	OV(ALL, 1, PF2, 0x78, 0x78, EREGI(I_BB)), /* insertq xmm, xmm, ib, ib */
	OV(ALL, 1, P66, 0x79, 0x79, EREG),	  /* extrq xmm, xmm */
	OV(ALL, 1, PF2, 0x79, 0x79, EREGI(I_BB)), /* insertq xmm, xmm (imm8 x2 kept as before) */
	OV(ALL, 1, PF3, 0x7e, 0x7e, EL(SZ_Q)),	  /* movq xmm, m64 */
	OV(ALL, 1, PF3, 0xe6, 0xe6, EL(SZ_VL2)),  /* cvtdq2pd: half vector */
	OV(ALL, 2, PF2, 0xf0, 0xf0, EL(SZ_B)),	  /* crc32 Gd, Eb */
	OV(ALL, 2, PF2, 0xf1, 0xf1, EL(SZ_V)),	  /* crc32 Gd, Ev */
	OV(VEX, 1, ANY, 0x41, 0x4b, EREG),	  /* k-mask logic */
	OV(VEX, 1, ANY, 0x78, 0x7b, EL(SZ_VL) | A_EVEXONLY),  /* EVEX cvt to/from unsigned */
	OV(VEX, 1, ANY, 0x90, 0x90, EL(SZ_KMOV)),	      /* kmov k, k/m */
	OV(VEX, 1, ANY, 0x91, 0x91, ES(SZ_KMOV)),	      /* kmov m, k */
	OV(VEX, 1, ANY, 0x92, 0x93, EREG),		      /* kmov k <-> r32/64 */
	OV(VEX, 1, ANY, 0x98, 0x99, EREG),		      /* kortest, ktest */
	OV(EVX, 1, PF3, 0x7a, 0x7a, EL(SZ_VL2) | A_EVEXONLY), /* vcvtudq2pd: half vector */
	/* EVEX F3 0F38 1x-3x: down-converting stores */
	OV(EVX, 2, PF3, 0x10, 0x10, ES(SZ_VL2)), /* vpmovuswb */
	OV(EVX, 2, PF3, 0x11, 0x11, ES(SZ_VL4)), /* vpmovusdb */
	OV(EVX, 2, PF3, 0x12, 0x12, ES(SZ_VL8)), /* vpmovusqb */
	OV(EVX, 2, PF3, 0x13, 0x13, ES(SZ_VL2)), /* vpmovusdw */
	OV(EVX, 2, PF3, 0x14, 0x14, ES(SZ_VL4)), /* vpmovusqw */
	OV(EVX, 2, PF3, 0x15, 0x15, ES(SZ_VL2)), /* vpmovusqd */
	OV(EVX, 2, PF3, 0x20, 0x20, ES(SZ_VL2)), /* vpmovswb */
	OV(EVX, 2, PF3, 0x21, 0x21, ES(SZ_VL4)), /* vpmovsdb */
	OV(EVX, 2, PF3, 0x22, 0x22, ES(SZ_VL8)), /* vpmovsqb */
	OV(EVX, 2, PF3, 0x23, 0x23, ES(SZ_VL2)), /* vpmovsdw */
	OV(EVX, 2, PF3, 0x24, 0x24, ES(SZ_VL4)), /* vpmovsqw */
	OV(EVX, 2, PF3, 0x25, 0x25, ES(SZ_VL2)), /* vpmovsqd */
	OV(EVX, 2, PF3, 0x30, 0x30, ES(SZ_VL2)), /* vpmovwb */
	OV(EVX, 2, PF3, 0x31, 0x31, ES(SZ_VL4)), /* vpmovdb */
	OV(EVX, 2, PF3, 0x32, 0x32, ES(SZ_VL8)), /* vpmovqb */
	OV(EVX, 2, PF3, 0x33, 0x33, ES(SZ_VL2)), /* vpmovdw */
	OV(EVX, 2, PF3, 0x34, 0x34, ES(SZ_VL4)), /* vpmovqw */
	OV(EVX, 2, PF3, 0x35, 0x35, ES(SZ_VL2)), /* vpmovqd */
};
const unsigned int x86_nr_overlays = PP_ARRAY_SIZE(x86_overlays);

/* Group rows (table A-6), {memory form, register form}. */
#define G_UD	    0
#define G_OK	    A_OK
#define G_REGONLY   (A_OK | A_REGONLY)
#define G_ADDR	    (A_OK | ((u32)X86_ACC_NONE << A_ACC_SH))
#define G_(acc, sz) (A_OK | ((u32)(acc) << A_ACC_SH) | ((u32)(sz) << A_SZ_SH))
#define G_LD(sz)    G_(X86_ACC_LOAD, sz)
#define G_ST(sz)    G_(X86_ACC_STORE, sz)
#define G_RMW	    G_(X86_ACC_RMW, SZ_0)
#define G_SP(sp)    ((u32)(sp) << A_SP_SH)
#define G_IMM(imm)  ((u32)(imm) << A_IMM_SH)
#define G_GRP(g)    [(g)-X86_GRP_FIRST]
const struct x86_group_row x86_groups[X86_NR_GROUPS][8] = {
	G_GRP(X86_GRP_1) =
		{
			[0 ... 6] = {G_RMW, G_OK}, /* add or adc sbb and sub xor */
			[7] = {G_LD(SZ_0), G_OK},  /* cmp: reads only */
		},
	G_GRP(X86_GRP_1A) =
		{
			/* /1-/7: AMD XOP, rejected before the map */
			[0] = {G_ST(SZ_0) | G_SP(SP_POP_RM), G_OK | G_SP(SP_POP_RM)}, /* pop Ev */
		},
	G_GRP(X86_GRP_2) =
		{
			[0 ... 7] = {G_RMW, G_OK}, /* rol ror rcl rcr shl shr sal sar */
		},
	G_GRP(X86_GRP_3B) =
		{
			[0 ... 1] = {G_LD(SZ_0) | G_IMM(I_B),
				     G_OK | G_IMM(I_B)}, /* test Eb, ib (/1 alias) */
			[2 ... 3] = {G_RMW, G_OK},	 /* not, neg */
			[4 ... 7] = {G_LD(SZ_0), G_OK},	 /* mul imul div idiv */
		},
	G_GRP(X86_GRP_3V) =
		{
			[0 ... 1] = {G_LD(SZ_0) | G_IMM(I_Z),
				     G_OK | G_IMM(I_Z)}, /* test Ev, iz (/1 alias) */
			[2 ... 3] = {G_RMW, G_OK},	 /* not, neg */
			[4 ... 7] = {G_LD(SZ_0), G_OK},	 /* mul imul div idiv */
		},
	G_GRP(X86_GRP_4) =
		{
			[0 ... 1] = {G_RMW, G_OK}, /* inc Eb, dec Eb */
		},
	G_GRP(X86_GRP_5) =
		{
			[0 ... 1] = {G_RMW, G_OK}, /* inc Ev, dec Ev */
			[2] = {G_LD(SZ_0) | G_SP(SP_CALL_RM),
			       G_OK | G_SP(SP_CALL_RM)},			      /* call Ev */
			[3] = {G_LD(SZ_0) | G_SP(SP_CALLF_M), G_UD},		      /* callf Mp */
			[4] = {G_LD(SZ_0) | G_SP(SP_JMP_RM), G_OK | G_SP(SP_JMP_RM)}, /* jmp Ev */
			[5] = {G_LD(SZ_0) | G_SP(SP_JMPF_M), G_UD},		      /* jmpf Mp */
			[6] = {G_LD(SZ_0) | G_SP(SP_PUSH_RM),
			       G_OK | G_SP(SP_PUSH_RM)}, /* push Ev */
		},
	G_GRP(X86_GRP_11B) =
		{
			[0] = {G_ST(SZ_0), G_OK},		      /* mov Eb, ib */
			[7] = {G_UD, G_REGONLY | A_RM0 | G_IMM(I_B)}, /* xabort ib (C6 F8) */
		},
	G_GRP(X86_GRP_11V) =
		{
			[0] = {G_ST(SZ_0), G_OK},		      /* mov Ev, iz */
			[7] = {G_UD, G_REGONLY | A_RM0 | G_IMM(I_J)}, /* xbegin rel (C7 F8) */
		},
	G_GRP(X86_GRP_6) =
		{
			[0 ... 1] = {G_ST(SZ_W), G_OK}, /* sldt, str */
			[2 ... 5] = {G_LD(SZ_W), G_OK}, /* lldt, ltr, verr, verw */
		},
	G_GRP(X86_GRP_7) =
		{
			/* register forms: vmcall, monitor, xgetbv, swapgs, ... */
			[0 ... 1] = {G_ST(SZ_0), G_REGONLY}, /* sgdt, sidt */
			[2 ... 3] = {G_LD(SZ_0), G_REGONLY}, /* lgdt, lidt */
			[4] = {G_ST(SZ_W), G_REGONLY},	     /* smsw */
			[5] = {G_UD, G_REGONLY},	     /* rstorssp (F3: group overlay) */
			[6] = {G_LD(SZ_W), G_REGONLY},	     /* lmsw */
			[7] = {G_ADDR, G_REGONLY},	     /* invlpg: no access */
		},
	G_GRP(X86_GRP_8) =
		{
			[4] = {G_LD(SZ_V), G_OK},  /* bt Ev, ib */
			[5 ... 7] = {G_RMW, G_OK}, /* bts, btr, btc Ev, ib */
		},
	G_GRP(X86_GRP_9) =
		{
			[1] = {G_(X86_ACC_RMW, SZ_CX8), G_UD}, /* cmpxchg8b/16b */
			[3] = {G_LD(SZ_0), G_UD},	       /* xrstors */
			[4 ... 5] = {G_ST(SZ_0), G_UD},	       /* xsavec, xsaves */
			[6] = {G_LD(SZ_Q), G_REGONLY},	       /* vmptrld/vmclear/vmxon; rdrand */
			[7] = {G_ST(SZ_Q), G_REGONLY},	       /* vmptrst; rdseed/rdpid */
		},
	G_GRP(X86_GRP_15) =
		{
			/* register forms: rd/wr fs/gs base, fences */
			[0] = {G_ST(SZ_0), G_REGONLY}, /* fxsave */
			[1] = {G_LD(SZ_0), G_REGONLY}, /* fxrstor */
			[2] = {G_LD(SZ_D), G_REGONLY}, /* ldmxcsr */
			[3] = {G_ST(SZ_D), G_REGONLY}, /* stmxcsr */
			[4] = {G_ST(SZ_0), G_REGONLY}, /* xsave (F3: ptwrite, group overlay) */
			[5] = {G_LD(SZ_0), G_REGONLY}, /* xrstor */
			[6] = {G_ST(SZ_0), G_REGONLY}, /* xsaveopt (66: clwb, group overlay) */
			[7] = {G_ADDR, G_REGONLY},     /* clflush(opt): no access */
		},
	G_GRP(X86_GRP_16) =
		{
			[0 ... 3] = {G_LD(SZ_0), G_OK}, /* prefetchnta, prefetcht0/1/2 */
			[4 ... 7] = {G_ADDR, G_OK},	/* hint nops */
		},
};

const struct x86_group_overlay x86_group_overlays[] = {
	{X86_GRP_7, 5, PF3, G_LD(SZ_Q)},   /* rstorssp m64 */
	{X86_GRP_15, 4, PF3, G_LD(SZ_DQ)}, /* ptwrite r/m32/64 */
	{X86_GRP_15, 6, P66, G_ADDR},	   /* clwb: no access */
};
const unsigned int x86_nr_group_overlays = PP_ARRAY_SIZE(x86_group_overlays);

/* x87 memory forms (tables A-7..A-22). */
#define LD(sz) X86_X87(X86_ACC_LOAD, sz)
#define ST(sz) X86_X87(X86_ACC_STORE, sz)
const u8 x86_x87_mem[8][8] = {
	{LD(4), LD(4), LD(4), LD(4), LD(4), LD(4), LD(4), LD(4)}, /* D8: fadd..fdivr m32fp */
	{LD(4), 0, ST(4), ST(4), LD(0), LD(2), ST(0),
	 ST(2)}, /* D9: fld - fst fstp fldenv fldcw fnstenv fnstcw */
	{LD(4), LD(4), LD(4), LD(4), LD(4), LD(4), LD(4), LD(4)}, /* DA: fiadd..fidivr m32int */
	{LD(4), ST(4), ST(4), ST(4), 0, LD(10), 0,
	 ST(10)}, /* DB: fild fisttp fist fistp - fld m80 - fstp m80 */
	{LD(8), LD(8), LD(8), LD(8), LD(8), LD(8), LD(8), LD(8)}, /* DC: fadd..fdivr m64fp */
	{LD(8), ST(8), ST(8), ST(8), LD(0), 0, ST(0),
	 ST(2)}, /* DD: fld fisttp fst fstp frstor - fnsave fnstsw */
	{LD(2), LD(2), LD(2), LD(2), LD(2), LD(2), LD(2), LD(2)}, /* DE: fiadd..fidivr m16int */
	{LD(2), ST(2), ST(2), ST(2), LD(10), LD(8), ST(10),
	 ST(8)}, /* DF: fild fisttp fist fistp fbld fild64 fbstp fistp64 */
};
