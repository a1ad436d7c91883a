// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS data address vs the decoder's, one record at a time; see
 * pebscheck.h. The tables below say which GPRs an instruction with a
 * memory operand may write, from the SDM vol. 2 instruction pages: per
 * opcode of the legacy maps, what its ModRM.reg field is (a written GPR,
 * a read GPR, an opcode extension, a vector register) and its implicit
 * GPR destinations.
 */
#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "pebscheck.h"
#include "dataaddr.h"

/* What an opcode writes among the GPRs (for its memory forms). */
enum {
	WR_REG = 0,  /* the ModRM.reg GPR (the default: unknown means written) */
	WR_REG_BYTE, /* the ModRM.reg GPR, byte-sized: AH..BH without REX */
	WR_NONE,     /* none: reg is read, an extension or a vector register */
	WR_RAX,	     /* RAX (implicit), reg only read */
	WR_RSP,	     /* RSP (stack operations) */
	WR_ALL,	     /* unknown or many */
	WR_GRP3,     /* F6/F7: /4../7 (MUL, IMUL, DIV, IDIV) write RAX, RDX */
	WR_GRP5,     /* FF: /2, /3 CALL, /6 PUSH write RSP */
	WR_GRP9,     /* 0F C7: /1 CMPXCHG8B/16B writes RAX, RDX */
};

#define GPR_BIT(r) (1u << (r))
#define ALL_GPRS   ((1u << PP_NR_GPR) - 1)
#define HIGH_BYTE  4 /* ModRM.reg 4..7 without REX: AH, CH, DH, BH = reg - 4 */

/* One-byte map (SDM vol. 2 A.3, Table A-2). */
static const u8 wr_map0[256] = {
	[0x00] = WR_NONE,	   [0x01] = WR_NONE, /* ADD r/m, r */
	[0x02] = WR_REG_BYTE,			     /* ADD r8, r/m8 */
	[0x08] = WR_NONE,	   [0x09] = WR_NONE, /* OR r/m, r */
	[0x0a] = WR_REG_BYTE,			     /* OR r8, r/m8 */
	[0x10] = WR_NONE,	   [0x11] = WR_NONE, /* ADC r/m, r */
	[0x12] = WR_REG_BYTE,			     /* ADC r8, r/m8 */
	[0x18] = WR_NONE,	   [0x19] = WR_NONE, /* SBB r/m, r */
	[0x1a] = WR_REG_BYTE,			     /* SBB r8, r/m8 */
	[0x20] = WR_NONE,	   [0x21] = WR_NONE, /* AND r/m, r */
	[0x22] = WR_REG_BYTE,			     /* AND r8, r/m8 */
	[0x28] = WR_NONE,	   [0x29] = WR_NONE, /* SUB r/m, r */
	[0x2a] = WR_REG_BYTE,			     /* SUB r8, r/m8 */
	[0x30] = WR_NONE,	   [0x31] = WR_NONE, /* XOR r/m, r */
	[0x32] = WR_REG_BYTE,			     /* XOR r8, r/m8 */
	[0x38 ... 0x3b] = WR_NONE,		     /* CMP */
	[0x50 ... 0x61] = WR_RSP,		     /* PUSH, POP, PUSHA, POPA */
	[0x62] = WR_NONE,			     /* BOUND (32-bit) */
	[0x68] = WR_RSP,	   [0x6a] = WR_RSP,  /* PUSH imm */
	[0x6c ... 0x6f] = WR_ALL,		     /* INS, OUTS */
	[0x80 ... 0x83] = WR_NONE,		     /* group 1: ALU r/m, imm */
	[0x84] = WR_NONE,	   [0x85] = WR_NONE, /* TEST r/m, r */
	[0x86] = WR_REG_BYTE,			     /* XCHG r/m8, r8 */
	[0x88] = WR_NONE,	   [0x89] = WR_NONE, /* MOV r/m, r */
	[0x8a] = WR_REG_BYTE,			     /* MOV r8, r/m8 */
	[0x8c] = WR_NONE,	   [0x8e] = WR_NONE, /* MOV r/m, Sreg; MOV Sreg, r/m */
	[0x8f] = WR_RSP,			     /* POP r/m */
	[0x9c] = WR_RSP,	   [0x9d] = WR_RSP,  /* PUSHF, POPF */
	[0xa0] = WR_RAX,	   [0xa1] = WR_RAX,  /* MOV AL/rAX, moffs */
	[0xa2] = WR_NONE,	   [0xa3] = WR_NONE, /* MOV moffs, AL/rAX */
	[0xa4 ... 0xa7] = WR_ALL,		     /* MOVS, CMPS */
	[0xaa ... 0xaf] = WR_ALL,		     /* STOS, LODS, SCAS */
	[0xc0] = WR_NONE,	   [0xc1] = WR_NONE, /* group 2: shifts r/m, imm8 */
	[0xc2] = WR_RSP,	   [0xc3] = WR_RSP,  /* RET */
	[0xc6] = WR_NONE,	   [0xc7] = WR_NONE, /* MOV r/m, imm */
	[0xc8 ... 0xcf] = WR_RSP,		     /* ENTER, LEAVE, RETF, INT, IRET */
	[0xd0 ... 0xd3] = WR_NONE,		     /* group 2: shifts r/m, 1/CL */
	[0xd7] = WR_RAX,			     /* XLAT: AL */
	[0xd8 ... 0xdf] = WR_NONE,		     /* x87 (memory forms) */
	[0xe8] = WR_RSP,			     /* CALL rel */
	[0xf6] = WR_GRP3,	   [0xf7] = WR_GRP3, /* group 3 */
	[0xfe] = WR_NONE,			     /* group 4: INC/DEC r/m8 */
	[0xff] = WR_GRP5,			     /* group 5 */
};

/* Two-byte map 0F (SDM vol. 2 A.3, Table A-3). */
static const u8 wr_map1[256] = {
	[0x00] = WR_NONE,	   [0x01] = WR_NONE, /* groups 6, 7 (SLDT, SGDT, ...) */
	[0x0d] = WR_NONE,			     /* PREFETCHW */
	[0x10 ... 0x1f] = WR_NONE,		     /* SSE moves, prefetch, hint NOPs */
	[0x28 ... 0x2b] = WR_NONE,		     /* MOVAPS, CVTPI2PS, MOVNTPS */
	[0x2e] = WR_NONE,	   [0x2f] = WR_NONE, /* UCOMISS, COMISS */
	[0x50 ... 0x7f] = WR_NONE,		     /* SSE/MMX: reg is a vector register */
	[0x90 ... 0x9f] = WR_NONE,		     /* SETcc r/m8 */
	[0xa0] = WR_RSP,	   [0xa1] = WR_RSP,  /* PUSH/POP FS */
	[0xa2] = WR_ALL,			     /* CPUID */
	[0xa3] = WR_NONE,			     /* BT r/m, r */
	[0xa4] = WR_NONE,	   [0xa5] = WR_NONE, /* SHLD r/m, r */
	[0xa8] = WR_RSP,	   [0xa9] = WR_RSP,  /* PUSH/POP GS */
	[0xab ... 0xae] = WR_NONE,		     /* BTS, SHRD, group 15 */
	[0xb0] = WR_RAX,	   [0xb1] = WR_RAX,  /* CMPXCHG r/m, r: rAX */
	[0xb3] = WR_NONE,			     /* BTR */
	[0xba] = WR_NONE,	   [0xbb] = WR_NONE, /* group 8 (BT* imm), BTC */
	[0xc0] = WR_REG_BYTE,			     /* XADD r/m8, r8 */
	[0xc2 ... 0xc6] = WR_NONE,		     /* CMPPS, MOVNTI, PINSRW, PEXTRW, SHUFPS */
	[0xc7] = WR_GRP9,			     /* group 9 */
	[0xd0 ... 0xff] = WR_NONE,		     /* SSE/MMX */
};

/* GPRs a legacy-encoded (no VEX/EVEX) instruction may write. */
static u32 written_legacy(const struct x86_insn *in, u8 cls, u32 reg)
{
	u32 ext = (in->modrm >> 3) & 7;

	switch (cls) {
	case WR_REG:
		return in->has_modrm ? GPR_BIT(reg) : ALL_GPRS;
	case WR_REG_BYTE:
		if (!in->has_modrm)
			return ALL_GPRS;
		return (!in->rex && reg >= HIGH_BYTE) ? GPR_BIT(reg - HIGH_BYTE) : GPR_BIT(reg);
	case WR_NONE:
		return 0;
	case WR_RAX:
		return GPR_BIT(PP_REG_AX);
	case WR_RSP:
		return GPR_BIT(PP_REG_SP);
	case WR_GRP3:
		return ext >= 4 ? GPR_BIT(PP_REG_AX) | GPR_BIT(PP_REG_DX) : 0;
	case WR_GRP5:
		return (ext == 2 || ext == 3 || ext == 6) ? GPR_BIT(PP_REG_SP) : 0;
	case WR_GRP9:
		return ext == 1 ? GPR_BIT(PP_REG_AX) | GPR_BIT(PP_REG_DX) : 0;
	default:
		return ALL_GPRS;
	}
}
PP_NOKPROBE(written_legacy);

/* VEX/EVEX: GPR destinations are few (SDM vol. 2: VCVT*2SI, BMI1/BMI2,
 * RORX, the FP16 VCVT*2SI of EVEX map 5); map 0F38 F0..F7 may also write
 * VEX.vvvv (MULX, BLSR...), which the decoder does not keep: all. */
static u32 written_vex(const struct x86_insn *in, u32 reg)
{
	switch (in->map) {
	case 1:
	case 5:
		return (in->opcode == 0x2c || in->opcode == 0x2d) ? GPR_BIT(reg) : 0;
	case 2:
		return (in->opcode >= 0xf0 && in->opcode <= 0xf7) ? ALL_GPRS : 0;
	case 3:
		return in->opcode == 0xf0 ? GPR_BIT(reg) : 0;
	default:
		return ALL_GPRS;
	}
}
PP_NOKPROBE(written_vex);

u32 pebs_check__written(const struct x86_insn *in)
{
	u32 reg = ((in->modrm >> 3) & 7) | ((in->rex & X86_INSN_REX_R) ? 8 : 0);

	if (in->encoding != X86_ENC_LEGACY)
		return written_vex(in, reg);
	switch (in->map) {
	case 0:
		return written_legacy(in, wr_map0[in->opcode], reg);
	case 1:
		return written_legacy(in, wr_map1[in->opcode], reg);
	case 2: /* 0F38: SSE, except MOVBE/CRC32/ADCX/ADOX (F0..F7) */
		return (in->opcode >= 0xf0 && in->opcode <= 0xf7) ? GPR_BIT(reg) : 0;
	case 3: /* 0F3A: SSE; PEXTR*, EXTRACTPS store to memory */
		return 0;
	default:
		return ALL_GPRS;
	}
}
PP_NOKPROBE(pebs_check__written);

/* Address registers of m, bit PP_REG_* each. */
static u32 addr_regs(const struct x86_mem *m)
{
	u32 r = 0;

	if (m->base >= 0)
		r |= GPR_BIT((u32)m->base);
	if (m->index >= 0)
		r |= GPR_BIT((u32)m->index);
	if (m->flags & X86_MEMF_XLAT)
		r |= GPR_BIT(PP_REG_AX);
	if (m->flags & X86_MEMF_BITSTR)
		r |= GPR_BIT((u32)m->bit_reg);
	return r;
}

enum pebs_check_result pebs_check__classify(const struct pebs_sample *rec, const u8 *bytes,
					    unsigned int n, const struct pp_regs *intr,
					    bool segs_valid, u64 *decoded)
{
	bool user = (s64)rec->ip >= 0, compat;
	const struct x86_mem *m;
	struct x86_insn insn;
	struct pp_regs r;
	u64 addr;

	*decoded = 0;
	if (!rec->has_gprs || !rec->has_addr || !rec->data_addr || !rec->ip_exact)
		return PEBS_CHECK_NA;
	if (!n)
		return PEBS_CHECK_UNDECODABLE;
	compat = user && intr->user && intr->compat; /* the PMI hit the record's task */
	if (x86_decode(&insn, bytes, n, compat))
		return PEBS_CHECK_UNDECODABLE;
	m = x86_insn_access(&insn);
	if (!m)
		return PEBS_CHECK_DISAGREE; /* PEBS saw an access the decoder cannot */
	for (u32 i = 0; i < insn.nr_mem; i++)
		if (insn.mem[i].flags & (X86_MEMF_STACK | X86_MEMF_STRING))
			return PEBS_CHECK_NA; /* RSP / RSI, RDI moved */
	if (addr_regs(m) & pebs_check__written(&insn))
		return PEBS_CHECK_NA;
	if (m->seg != X86_SEG_FLAT && !segs_valid)
		return PEBS_CHECK_NA;
	memcpy(r.gpr, rec->gpr, sizeof(r.gpr));
	r.ip = rec->ip;
	r.flags = 0;
	r.fs_base = segs_valid ? intr->fs_base : 0;
	r.gs_base = segs_valid ? intr->gs_base : 0;
	r.user = user;
	r.compat = compat;
	if (x86_mem_addr(&insn, m, &r, &addr))
		return PEBS_CHECK_UNDECODABLE;
	*decoded = addr;
	return addr == rec->data_addr ? PEBS_CHECK_AGREE : PEBS_CHECK_DISAGREE;
}
PP_NOKPROBE(pebs_check__classify);

enum pebs_check_result pebs_check__record(const struct pebs_sample *rec, const struct pp_regs *intr,
					  bool have_segs)
{
	u8 buf[X86_MAX_INSN_LEN];
	struct pp_regs at;
	unsigned int n = 0;
	u64 decoded;

	if (!rec->has_gprs || !rec->has_addr || !rec->data_addr || !rec->ip_exact)
		return PEBS_CHECK_NA; /* nothing to compare: no fetch */
	at.ip = rec->ip;
	at.user = (s64)rec->ip >= 0;
	n = dataaddr__fetch(&at, buf);
	return pebs_check__classify(rec, buf, n, intr, have_segs && intr->user == at.user,
				    &decoded);
}
PP_NOKPROBE(pebs_check__record);
