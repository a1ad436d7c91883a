// SPDX-License-Identifier: GPL-2.0
/*
 * x86 memory-operand decoder; see x86_decode.h. The encoding facts of the
 * SDM vol.2 ch.2 ("Instruction format") are the constants below; the
 * opcode maps of its appendix A are data (x86_opcode_map.c), which this
 * file interprets: prefixes -> opcode -> attributes -> ModRM/SIB ->
 * immediates -> implicit operands. Every loop is bounded by the 15-byte
 * limit or a table's size.
 */
#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "x86_decode.h"
#include "x86_opcode_map.h"

/* ---------------------------------------------------------------------- */
/* Encoding constants (SDM vol.2 ch.2)                                     */
/* ---------------------------------------------------------------------- */
#define REX_MASK 0xf0
#define REX_BASE 0x40
#define REX_W	 X86_INSN_REX_W
#define REX_R	 X86_INSN_REX_R
#define REX_X	 X86_INSN_REX_X
#define REX_B	 X86_INSN_REX_B
#define ESC_0F	 0x0f
#define ESC_0F38 0x38
#define ESC_0F3A 0x3a
#define VEX3	 0xc4
#define VEX2	 0xc5
#define EVEX	 0x62
#define XOP	 0x8f
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

/* ---------------------------------------------------------------------- */
/* Decoder state                                                           */
/* ---------------------------------------------------------------------- */
struct dctx {
	const u8 *buf;
	size_t len;
	unsigned int pos;
	bool mode64;
	u8 simd;     /* enum x86_simd */
	bool vex_w;  /* VEX/EVEX.W */
	bool disp8n; /* EVEX: disp8 must be scaled by N */
};

static int peek8(const struct dctx *c, u8 *v)
{
	if (c->pos >= X86_MAX_INSN_LEN)
		return -EINVAL;
	if (c->pos >= c->len)
		return -ENODATA;
	*v = c->buf[c->pos];
	return 0;
}

static int get8(struct dctx *c, u8 *v)
{
	int err = peek8(c, v);

	c->pos += !err;
	return err;
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

/* Displacement of dsz bytes (0: none), sign-extended. */
static int get_disp(struct dctx *c, struct x86_insn *in, struct x86_mem *m, unsigned int dsz)
{
	u64 d;
	int err;

	if (!dsz)
		return 0;
	err = getn(c, dsz, &d);
	if (err)
		return err;
	m->disp = sext(d, dsz);
	in->disp_size = (u8)dsz;
	return 0;
}

static int decode_mem16(struct dctx *c, struct x86_insn *in, struct x86_mem *m)
{
	/* SDM vol.2 table 2-1: rm -> base + index. */
	static const s8 base16[8] = {PP_REG_BX, PP_REG_BX, PP_REG_BP, PP_REG_BP,
				     PP_REG_SI, PP_REG_DI, PP_REG_BP, PP_REG_BX};
	static const s8 index16[8] = {PP_REG_SI,    PP_REG_DI,	  PP_REG_SI,	PP_REG_DI,
				      X86_REG_NONE, X86_REG_NONE, X86_REG_NONE, X86_REG_NONE};
	unsigned int mod = MODRM_MOD(in->modrm), rm = MODRM_RM(in->modrm);
	unsigned int dsz = mod == 1 ? 1 : mod == 2 ? 2 : 0;

	m->base = base16[rm];
	m->index = index16[rm];
	if (mod == 0 && rm == RM16_DISP16) {
		m->base = X86_REG_NONE;
		dsz = 2;
	}
	return get_disp(c, in, m, dsz);
}

static int decode_mem(struct dctx *c, struct x86_insn *in, struct x86_mem *m, bool vsib)
{
	unsigned int mod = MODRM_MOD(in->modrm), rm = MODRM_RM(in->modrm);
	unsigned int dsz = mod == 1 ? 1 : mod == 2 ? 4 : 0;
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
	return get_disp(c, in, m, dsz);
}

static unsigned int size_of_class(const struct dctx *c, const struct x86_insn *in, unsigned int cls)
{
	static const u8 fixed[] = {
		[SZ_B] = 1, [SZ_W] = 2, [SZ_D] = 4, [SZ_Q] = 8, [SZ_O] = 16, [SZ_Y] = 32};

	switch (cls) {
	case SZ_V:
		return in->opnd_size;
	case SZ_VL:
		return in->vl;
	case SZ_S:
		return c->simd == X86_SIMD_F3 ? 4 : c->simd == X86_SIMD_F2 ? 8 : in->vl;
	case SZ_P:
		return (in->encoding == X86_ENC_LEGACY && c->simd == X86_SIMD_NONE) ? 8 : in->vl;
	case SZ_DQ:
		return (c->mode64 && (in->rex & REX_W)) ? 8 : 4;
	case SZ_SS:
		return c->simd == X86_SIMD_66 ? 8 : 4;
	case SZ_VL2:
		return in->vl / 2;
	case SZ_VL4:
		return in->vl / 4;
	case SZ_VL8:
		return in->vl / 8;
	case SZ_MMXD:
		return (in->encoding == X86_ENC_LEGACY && c->simd == X86_SIMD_NONE) ? 4 : in->vl;
	case SZ_DDUP:
		return in->vl == 16 ? 8 : in->vl;
	case SZ_MODE:
		return c->mode64 ? 8 : 4;
	case SZ_BND:
		return c->mode64 ? 16 : 8;
	case SZ_CX8:
		return (in->rex & REX_W) ? 16 : 8;
	case SZ_KMOV:
		return c->simd == X86_SIMD_66 ? (c->vex_w ? 4 : 1) : (c->vex_w ? 8 : 2);
	default:
		return cls < PP_ARRAY_SIZE(fixed) ? fixed[cls] : 0;
	}
}
PP_NOKPROBE(size_of_class);

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

/* ---------------------------------------------------------------------- */
/* Prefixes, VEX, EVEX                                                     */
/* ---------------------------------------------------------------------- */
/* EVEX.L'L -> vector length; 3 is reserved unless rounding control
 * (register form). */
static const u8 evex_vl[4] = {16, 32, 64, 0};

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
	in->vl = evex_vl[(p2 >> 5) & 3]; /* L'L */
	in->evex_b = (p2 & 0x10) != 0;
	c->disp8n = true;
	return 0;
}

/* Legacy prefixes (SDM vol.2 2.1.1): the X86_PFX_* bit each sets, or the
 * segment it selects + 1 (PFX_SEG); the last segment prefix wins. */
#define PFX_SEG(s) (u8)(((s) + 1) << 5)
static const u8 legacy_prefixes[256] = {
	[0xf0] = X86_PFX_LOCK,		/* lock */
	[0xf2] = X86_PFX_REPNE,		/* repne, mandatory F2 */
	[0xf3] = X86_PFX_REP,		/* rep / repe, mandatory F3 */
	[0x66] = X86_PFX_OPSIZE,	/* operand size, mandatory 66 */
	[0x67] = X86_PFX_ADSIZE,	/* address size */
	[0x64] = PFX_SEG(X86_SEG_FS),	/* fs: base regs->fs_base */
	[0x65] = PFX_SEG(X86_SEG_GS),	/* gs: base regs->gs_base */
	[0x2e] = PFX_SEG(X86_SEG_FLAT), /* cs: base 0 here */
	[0x36] = PFX_SEG(X86_SEG_FLAT), /* ss: base 0 here */
	[0x3e] = PFX_SEG(X86_SEG_FLAT), /* ds: base 0 here */
	[0x26] = PFX_SEG(X86_SEG_FLAT), /* es: base 0 here */
};

static int decode_prefixes(struct dctx *c, struct x86_insn *in, u8 *op)
{
	u8 last_rep = 0, b, p;
	int err;

	for (;;) {
		err = get8(c, &b);
		if (err)
			return err;
		p = legacy_prefixes[b];
		if (p >= PFX_SEG(0)) {
			in->seg = (u8)((p >> 5) - 1);
		} else if (p) {
			in->prefixes |= p;
			last_rep = (p & (X86_PFX_REP | X86_PFX_REPNE)) ? p : last_rep;
		} else if (c->mode64 && (b & REX_MASK) == REX_BASE) {
			in->rex = b;
			continue; /* REX counts only directly before the opcode */
		} else {
			*op = b;
			/* Mandatory-prefix rule: the last F2/F3 wins over 66. */
			c->simd = last_rep == X86_PFX_REP	    ? X86_SIMD_F3
				  : last_rep == X86_PFX_REPNE	    ? X86_SIMD_F2
				  : (in->prefixes & X86_PFX_OPSIZE) ? X86_SIMD_66
								    : X86_SIMD_NONE;
			return 0;
		}
		in->rex = 0; /* a legacy prefix after REX cancels it */
	}
}

/* ---------------------------------------------------------------------- */
/* Opcode attributes: map, overlays, group rows (x86_opcode_map.h)          */
/* ---------------------------------------------------------------------- */
static u32 opcode_attr(const struct dctx *c, const struct x86_insn *in, u8 op)
{
	const struct x86_opmap *map = &x86_opmaps[in->map];
	u32 a = map->attr && map->attr[op] ? map->attr[op] : map->dflt;
	u8 enc = (u8)(1u << in->encoding);

	/* bounded by the table: later rows win */
	for (unsigned int i = 0; i < x86_nr_overlays; i++) {
		const struct x86_overlay *o = &x86_overlays[i];

		if (o->map == in->map && (o->enc & enc) && op >= o->lo && op <= o->hi &&
		    (o->simd == X86_OV_ANY || o->simd == c->simd) &&
		    (!o->mode || o->mode == in->mode))
			a = o->attr;
	}
	if (!(a & A_OK) || (c->mode64 && (a & A_INV64)) ||
	    (in->encoding == X86_ENC_EVEX && (a & A_NOEVEX)) ||
	    (in->encoding == X86_ENC_VEX && (a & A_EVEXONLY)))
		return 0;
	return a;
}

/* Attributes that depend on the ModRM byte: a group's row for ModRM.reg
 * (its access, size, immediate and implicit operands replace the opcode's),
 * an x87 memory form. 0 if the form is undefined. */
static u32 modrm_attr(const struct dctx *c, const struct x86_insn *in, u32 a,
		      unsigned int *x87_size)
{
	unsigned int sp = x86_attr_sp(a), reg = MODRM_REG(in->modrm);
	bool mem = MODRM_MOD(in->modrm) != MOD_REG;
	u32 row;

	if (sp == SP_X87) {
		u8 x = mem ? x86_x87_mem[in->opcode - X86_X87_FIRST][reg] : 0;

		if (mem && !x)
			return 0;
		*x87_size = X86_X87_SIZE(x);
		return mem ? (a & ~A_ACC_MASK) | ((u32)X86_X87_ACC(x) << A_ACC_SH) : a;
	}
	if (sp < X86_GRP_FIRST || sp >= X86_GRP_END)
		return a;
	row = mem ? x86_groups[sp - X86_GRP_FIRST][reg].mem
		  : x86_groups[sp - X86_GRP_FIRST][reg].reg;
	for (unsigned int i = 0; mem && i < x86_nr_group_overlays; i++)
		if (x86_group_overlays[i].group == sp && x86_group_overlays[i].reg == reg &&
		    x86_group_overlays[i].simd == c->simd)
			row = x86_group_overlays[i].mem;
	if (!(row & A_OK) || ((row & A_RM0) && MODRM_RM(in->modrm)))
		return 0;
	a = (a & ~(A_ACC_MASK | A_SP_MASK)) | (row & (A_ACC_MASK | A_SP_MASK | A_REGONLY | A_RM0));
	if (row & A_SZ_MASK)
		a = (a & ~A_SZ_MASK) | (row & A_SZ_MASK);
	if (row & A_IMM_MASK)
		a = (a & ~A_IMM_MASK) | (row & A_IMM_MASK);
	return a;
}

/* ---------------------------------------------------------------------- */
/* Main decoder                                                            */
/* ---------------------------------------------------------------------- */
static unsigned int imm_bytes(const struct dctx *c, const struct x86_insn *in, unsigned int k)
{
	static const u8 fixed[] = {[I_B] = 1, [I_W] = 2, [I_WB] = 3, [I_BB] = 2};

	switch (k) {
	case I_Z:
		return in->opnd_size == 2 ? 2 : 4;
	case I_V:
		return in->opnd_size;
	case I_MOFFS:
		return in->addr_size;
	case I_FAR:
		return (in->opnd_size == 2 ? 2 : 4) + 2;
	case I_J:
		return (!c->mode64 && in->opnd_size == 2) ? 2 : 4;
	default:
		return k < PP_ARRAY_SIZE(fixed) ? fixed[k] : 0;
	}
}

/* Prefixes, VEX/EVEX, the 0F/0F38/0F3A escapes: in->map and *op. */
static int decode_opcode(struct dctx *c, struct x86_insn *in, u8 *op)
{
	u8 b;
	int err;

	err = decode_prefixes(c, in, op);
	if (err)
		return err;
	/* Escape to VEX/EVEX (in 32-bit code only if the next byte has mod=11). */
	if (*op == VEX2 || *op == VEX3 || *op == EVEX) {
		bool is_vex = c->mode64;

		if (!is_vex) {
			err = peek8(c, &b);
			if (err)
				return err;
			is_vex = (b & VEX_MODE32_MASK) == VEX_MODE32_MASK;
		}
		if (is_vex) {
			err = decode_vex(c, in, *op);
			if (!err)
				err = get8(c, op);
			if (err)
				return err;
		}
	} else if (*op == XOP) {
		err = peek8(c, &b);
		if (err)
			return err;
		if (b & XOP_MAP_MASK)
			return -EOPNOTSUPP; /* AMD XOP */
	}
	if (in->encoding == X86_ENC_LEGACY && *op == ESC_0F) {
		err = get8(c, op);
		if (err)
			return err;
		in->map = 1;
		if (*op == ESC_0F38 || *op == ESC_0F3A) {
			in->map = *op == ESC_0F38 ? 2 : 3;
			err = get8(c, op);
			if (err)
				return err;
		}
	}
	in->opcode = *op;
	in->simd = c->simd;
	return 0;
}

static void set_sizes(const struct dctx *c, struct x86_insn *in, u32 a)
{
	if (in->prefixes & X86_PFX_ADSIZE)
		in->addr_size = c->mode64 ? 4 : 2;
	else
		in->addr_size = c->mode64 ? 8 : 4;
	if (c->mode64 && (a & A_F64))
		in->opnd_size = 8;
	else if (c->mode64 && (a & A_DEF64))
		in->opnd_size = (in->prefixes & X86_PFX_OPSIZE) ? 2 : 8;
	else if (c->mode64 && (in->rex & REX_W) && in->encoding == X86_ENC_LEGACY)
		in->opnd_size = 8;
	else
		in->opnd_size = (in->prefixes & X86_PFX_OPSIZE) ? 2 : 4;
	if (in->encoding != X86_ENC_LEGACY)
		in->opnd_size = (c->mode64 && c->vex_w) ? 8 : 4;
}

/* The explicit ModRM memory operand. */
static int modrm_operand(struct dctx *c, struct x86_insn *in, u32 a, unsigned int x87_size)
{
	struct x86_mem *m = new_mem(in);
	unsigned int size, esz;
	int err;

	m->seg = (a & A_NOSEG) ? X86_SEG_FLAT : in->seg;
	err = decode_mem(c, in, m, a & A_VSIB);
	if (err)
		return err;
	m->access = (u8)x86_attr_acc(a);
	size = x86_attr_sp(a) == SP_X87 ? x87_size : size_of_class(c, in, x86_attr_sz(a));
	if (in->encoding == X86_ENC_EVEX && in->evex_b && !(a & A_VSIB)) {
		/* Broadcast: one element is read. */
		size = x86_opmaps[in->map].bcst ? x86_opmaps[in->map].bcst : c->vex_w ? 8 : 4;
	}
	m->size = (u8)size;
	if (c->disp8n && in->disp_size == 1) {
		/* EVEX compressed displacement: disp8 * N, N being the memory
		 * operand size (element size for broadcasts, gathers and
		 * compress/expand). */
		esz = size;
		if (a & A_D8_BW)
			esz = c->vex_w ? 2 : 1;
		else if (a & (A_D8_DQ | A_VSIB))
			esz = c->vex_w ? 8 : 4;
		if (esz)
			m->disp *= esz;
		else
			m->flags |= X86_MEMF_DISP8N;
	}
	if (a & A_NOADDR)
		m->flags |= X86_MEMF_NOADDR; /* bndldx/bndstx: bound table */
	if ((a & A_BITSTR) && in->encoding == X86_ENC_LEGACY) {
		/* BT/BTS/BTR/BTC m, r: the register is a signed bit offset
		 * into the bit string at the operand (x86_mem_addr) */
		m->flags |= X86_MEMF_BITSTR;
		m->bit_reg = (s8)(MODRM_REG(in->modrm) | ((in->rex & REX_R) ? 8 : 0));
	}
	if (x86_attr_sp(a) == SP_POP_RM && m->base == PP_REG_SP)
		m->disp += in->opnd_size; /* POP m: an RSP base is the value after the pop */
	return 0;
}

/* Immediates, or the moffs operand. */
static int immediates(struct dctx *c, struct x86_insn *in, u32 a)
{
	unsigned int sp = x86_attr_sp(a);
	struct x86_mem *m;
	u64 off;
	u8 b;
	int err;

	in->imm_size = (u8)imm_bytes(c, in, x86_attr_imm(a));
	if (sp != SP_MOFFS_LOAD && sp != SP_MOFFS_STORE) {
		for (unsigned int i = 0; i < in->imm_size; i++) {
			err = get8(c, &b);
			if (err)
				return err;
		}
		return 0;
	}
	err = getn(c, in->addr_size, &off);
	if (err)
		return err;
	m = new_mem(in);
	m->disp = (s64)off;
	m->seg = in->seg;
	m->access = sp == SP_MOFFS_LOAD ? X86_ACC_LOAD : X86_ACC_STORE;
	m->size = (u8)size_of_class(c, in, x86_attr_sz(a));
	in->disp_size = in->addr_size;
	in->imm_size = 0;
	return 0;
}

/* Implicit operands (SDM vol.2 "Operand Encoding" columns): up to two per
 * special, each where it is, its access, and its size and displacement in
 * units of the opcode's operand size (from its size class). */
enum implicit_where { IM_NONE, IM_SP, IM_BP, IM_SI, IM_DI, IM_DI_SEG, IM_XLAT };
struct implicit_op {
	u8 where, acc;
	s8 size, disp; /* x unit */
	bool cap4;     /* INS/OUTS: at most 4 bytes */
};
#define LD X86_ACC_LOAD
#define ST X86_ACC_STORE
static const struct implicit_op implicit_ops[][2] = {
	[SP_PUSH] = {{IM_SP, ST, 1, -1}},		    /* push */
	[SP_POP] = {{IM_SP, LD, 1, 0}},			    /* pop */
	[SP_CALL] = {{IM_SP, ST, 1, -1}},		    /* call rel: return address */
	[SP_CALLF] = {{IM_SP, ST, 2, -2}},		    /* callf ptr: CS and IP */
	[SP_RET] = {{IM_SP, LD, 1, 0}},			    /* ret */
	[SP_RETF] = {{IM_SP, LD, 0, 0}},		    /* retf, iret: size unknown */
	[SP_ENTER] = {{IM_SP, ST, 1, -1}},		    /* enter: push BP */
	[SP_LEAVE] = {{IM_BP, LD, 1, 0}},		    /* leave: pop BP after SP := BP */
	[SP_PUSHA] = {{IM_SP, ST, 8, -8}},		    /* pusha */
	[SP_POPA] = {{IM_SP, LD, 8, 0}},		    /* popa */
	[SP_LODS] = {{IM_SI, LD, 1, 0}},		    /* lods */
	[SP_STOS] = {{IM_DI, ST, 1, 0}},		    /* stos */
	[SP_MOVS] = {{IM_SI, LD, 1, 0}, {IM_DI, ST, 1, 0}}, /* movs */
	[SP_CMPS] = {{IM_SI, LD, 1, 0}, {IM_DI, LD, 1, 0}}, /* cmps */
	[SP_SCAS] = {{IM_DI, LD, 1, 0}},		    /* scas */
	[SP_INS] = {{IM_DI, ST, 1, 0, true}},		    /* ins */
	[SP_OUTS] = {{IM_SI, LD, 1, 0, true}},		    /* outs */
	[SP_XLAT] = {{IM_XLAT, LD, 1, 0}},		    /* xlat: [BX + AL] */
	[SP_MASKMOV] = {{IM_DI_SEG, ST, 1, 0}},		    /* maskmovq: DS:[DI] */
	[SP_POP_RM] = {{IM_SP, LD, 1, 0}},		    /* pop r/m */
	[SP_CALL_RM] = {{IM_SP, ST, 1, -1}},		    /* call r/m */
	[SP_CALLF_M] = {{IM_SP, ST, 0, -2}},		    /* callf m16:xx */
	[SP_PUSH_RM] = {{IM_SP, ST, 1, -1}},		    /* push r/m */
};
#undef LD
#undef ST

static void implicit_operands(const struct dctx *c, struct x86_insn *in, u32 a)
{
	unsigned int sp = x86_attr_sp(a), unit;

	if (sp == SP_CALL_RM || sp == SP_JMP_RM || sp == SP_PUSH_RM) {
		/* near branch targets and pushes are 64-bit in 64-bit mode */
		if (c->mode64)
			in->opnd_size =
				sp != SP_PUSH_RM || !(in->prefixes & X86_PFX_OPSIZE) ? 8 : 2;
		if (in->nr_mem)
			in->mem[0].size = in->opnd_size;
	}
	if (sp == SP_CALLF_M || sp == SP_JMPF_M)
		in->mem[0].size = 0; /* m16:16/32/64 */
	if ((sp == SP_MASKMOV && MODRM_MOD(in->modrm) != MOD_REG) ||
	    sp >= PP_ARRAY_SIZE(implicit_ops))
		return;
	unit = size_of_class(c, in, x86_attr_sz(a));
	for (unsigned int i = 0; i < 2 && implicit_ops[sp][i].where; i++) {
		const struct implicit_op *o = &implicit_ops[sp][i];
		struct x86_mem *m = new_mem(in);

		m->access = o->acc;
		m->size = (u8)(o->cap4 && unit == 8 ? 4 : o->size * unit);
		m->disp = o->disp * (s64)unit;
		if (o->where == IM_SP || o->where == IM_BP) {
			m->base = o->where == IM_SP ? PP_REG_SP : PP_REG_BP;
			m->addr_size = in->mode == 64 ? 8 : 4; /* the stack's: the mode's */
			m->flags = X86_MEMF_STACK;
		} else if (o->where == IM_XLAT) {
			m->base = PP_REG_BX;
			m->index = PP_REG_AX;
			m->seg = in->seg;
			m->flags = X86_MEMF_XLAT;
		} else { /* [SI] (segment overridable), [DI] (ES, fixed; MASKMOV: DS) */
			m->base = o->where == IM_SI ? PP_REG_SI : PP_REG_DI;
			m->seg = o->where == IM_DI ? X86_SEG_FLAT : in->seg;
			m->flags = X86_MEMF_STRING;
		}
	}
}

int x86_decode(struct x86_insn *in, const u8 *buf, size_t len, bool compat)
{
	struct dctx c = {.buf = buf, .len = len, .mode64 = !compat};
	unsigned int x87_size = 0;
	u8 op;
	u32 a;
	int err;

	memset(in, 0, sizeof(*in));
	in->mode = compat ? 32 : 64;
	in->vl = 16;

	err = decode_opcode(&c, in, &op);
	if (err)
		return err;
	a = opcode_attr(&c, in, op);
	if (!a)
		return -EINVAL;
	set_sizes(&c, in, a);
	if (a & A_M) {
		err = get8(&c, &in->modrm);
		if (err)
			return err;
		in->has_modrm = true;
		a = modrm_attr(&c, in, a, &x87_size);
		if (!a)
			return -EINVAL;
		if (MODRM_MOD(in->modrm) != MOD_REG && !(a & A_REGONLY)) {
			err = modrm_operand(&c, in, a, x87_size);
			if (err)
				return err;
		}
	}
	err = immediates(&c, in, a);
	if (err)
		return err;
	in->len = (u8)c.pos;
	implicit_operands(&c, in, a);
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

/*
 * BT/BTS/BTR/BTC with a memory operand and a register bit offset address a
 * bit string (SDM vol. 2, BT): the offset, signed at the operand size, may
 * reach outside the operand, and the operand accessed is the one holding
 * the bit: EA + size * floor(offset / (8 * size)).
 */
static u64 bit_string_offset(const struct pp_regs *regs, const struct x86_mem *m)
{
	u64 v = regs->gpr[m->bit_reg & 15];
	s64 off;

	switch (m->size) {
	case 2:
		off = (s16)v >> 4;
		break;
	case 4:
		off = (s32)v >> 5;
		break;
	default:
		off = (s64)v >> 6;
		break;
	}
	return (u64)off * m->size;
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
	if (m->flags & X86_MEMF_BITSTR)
		ea += bit_string_offset(regs, m);
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
