// SPDX-License-Identifier: GPL-2.0
/*
 * x86 decoder tests.
 *
 * 1. The corpus (tests/data/decode/corpus.s, assembled by binutils at build
 *    time into pp_corpus_*): every instruction's decoded length must equal
 *    the assembled length, its memory operands must match the expectation
 *    written next to it field by field, and the effective address computed
 *    by x86_mem_addr() must match one computed here from those expected
 *    fields and a fixed register file.
 * 2. Every strict prefix of every valid corpus instruction must give
 *    -ENODATA (the decoder never guesses past the buffer), and the same
 *    bytes followed by junk must decode identically.
 * 3. Hand-computed effective addresses for the tricky rules (RIP-relative,
 *    32-bit wrap, 16-bit addressing, XLAT, POP with RSP base, segments).
 * 4. Random byte strings: never a length beyond the buffer or 15.
 * 5. Every row of the opcode tables (kernel/nmi/x86_opcode_map.c: map
 *    runs, overlays, group rows, x87 forms) is reached by a corpus case.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuprof/types.h"
#include "kernel/nmi/x86_decode.h"
#include "kernel/nmi/x86_opcode_map.h"
#include "check_main.h"

struct corpus_case {
	u32 code_off;
	u32 len;
	u32 line;
	u32 mode;
	u32 insn_off;
	u32 expect_off;
};

extern const u8 pp_corpus_code[];
extern const struct corpus_case pp_corpus_tab[];
extern const char pp_corpus_str[];
extern const u32 pp_corpus_count;

#define IP_64 0x0000555555401000ull
#define IP_32 0x08049000ull

static void fill_regs(struct pp_regs *r, bool compat)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < PP_NR_GPR; i++)
		r->gpr[i] = 0x00007f1000000000ull + ((u64)(i + 1) << 32) + 0x01010101ull * (i + 1) +
			    0x80000000ull;
	r->ip = compat ? IP_32 : IP_64;
	r->fs_base = 0x00007ff012340000ull;
	r->gs_base = 0xffff888012345000ull;
	r->user = true;
	r->compat = compat;
}

/* ---- expectation parsing ------------------------------------------------ */
enum exp_kind { EK_NONE, EK_BAD, EK_NOSUP, EK_MEM };

struct exp_mem {
	int access; /* X86_ACC_* */
	int size;
	int base, index, scale, seg, asize, bitreg;
	s64 disp;
	unsigned int flags;
};

struct expect {
	enum exp_kind kind;
	int nr;
	struct exp_mem m[2];
};

static int parse_reg(const char *s)
{
	static const char *const names[] = {"ax", "cx", "dx",  "bx",  "sp",  "bp",  "si",  "di",
					    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"};
	unsigned int i;

	if (!strcmp(s, "rip"))
		return X86_REG_RIP;
	for (i = 0; i < PP_ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -100;
}

/* Returns NULL or an error message. */
static const char *parse_expect(const char *text, unsigned int mode, struct expect *e)
{
	char buf[256], *save = NULL, *tok;
	struct exp_mem *m = NULL;
	bool want_size = false;

	memset(e, 0, sizeof(*e));
	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (want_size) {
			m->size = atoi(tok);
			want_size = false;
			continue;
		}
		if (!strcmp(tok, "none") && !m) {
			e->kind = EK_NONE;
			return NULL;
		}
		if (!strcmp(tok, "bad")) {
			e->kind = EK_BAD;
			return NULL;
		}
		if (!strcmp(tok, "nosup")) {
			e->kind = EK_NOSUP;
			return NULL;
		}
		if (!strcmp(tok, "|")) {
			m = NULL;
			continue;
		}
		if (!strcmp(tok, "load") || !strcmp(tok, "store") || !strcmp(tok, "rmw") ||
		    !strcmp(tok, "addr")) {
			if (e->nr >= 2)
				return "more than two operands";
			m = &e->m[e->nr++];
			e->kind = EK_MEM;
			m->base = X86_REG_NONE;
			m->index = X86_REG_NONE;
			m->bitreg = X86_REG_NONE;
			m->scale = 1;
			m->asize = mode == 64 ? 8 : 4;
			m->access = tok[0] == 'l'   ? X86_ACC_LOAD
				    : tok[0] == 's' ? X86_ACC_STORE
				    : tok[0] == 'r' ? X86_ACC_RMW
						    : X86_ACC_NONE;
			want_size = m->access != X86_ACC_NONE;
			continue;
		}
		if (!m)
			return "field before operand kind";
		if (!strncmp(tok, "base=", 5))
			m->base = parse_reg(tok + 5);
		else if (!strncmp(tok, "index=", 6))
			m->index = parse_reg(tok + 6);
		else if (!strncmp(tok, "bit=", 4)) {
			m->bitreg = parse_reg(tok + 4);
			m->flags |= X86_MEMF_BITSTR;
		} else if (!strncmp(tok, "scale=", 6))
			m->scale = atoi(tok + 6);
		else if (!strncmp(tok, "disp=", 5))
			m->disp = (s64)strtoull(tok + 5 + (tok[5] == '-'), NULL, 0) *
				  (tok[5] == '-' ? -1 : 1);
		else if (!strcmp(tok, "seg=fs"))
			m->seg = X86_SEG_FS;
		else if (!strcmp(tok, "seg=gs"))
			m->seg = X86_SEG_GS;
		else if (!strncmp(tok, "asize=", 6))
			m->asize = atoi(tok + 6);
		else if (!strcmp(tok, "vsib"))
			m->flags |= X86_MEMF_VSIB;
		else if (!strcmp(tok, "noaddr"))
			m->flags |= X86_MEMF_NOADDR;
		else if (!strcmp(tok, "disp8n"))
			m->flags |= X86_MEMF_DISP8N;
		else if (!strcmp(tok, "xlat"))
			m->flags |= X86_MEMF_XLAT;
		else
			return "unknown token";
		if (m->base == -100 || m->index == -100 || m->bitreg == -100)
			return "unknown register";
	}
	if (want_size)
		return "missing size";
	if (e->kind == EK_NONE && !e->nr)
		return "empty expectation";
	return NULL;
}

/* Reference effective address from the expected fields. */
static u64 ref_ea(const struct exp_mem *m, const struct pp_regs *r, unsigned int len, bool compat)
{
	u64 ea;

	if (m->base == X86_REG_RIP)
		ea = r->ip + len;
	else if (m->base >= 0)
		ea = r->gpr[m->base];
	else
		ea = 0;
	if (m->flags & X86_MEMF_XLAT)
		ea += r->gpr[PP_REG_AX] & 0xff;
	else if (m->index >= 0)
		ea += r->gpr[m->index] * (u64)m->scale;
	ea += (u64)m->disp;
	if (m->bitreg >= 0) { /* bit string: floor(offset / bits) operands on */
		s64 off = m->size == 2	 ? (s16)r->gpr[m->bitreg]
			  : m->size == 4 ? (s32)r->gpr[m->bitreg]
					 : (s64)r->gpr[m->bitreg];
		s64 bits = 8 * m->size, q = off / bits;

		if (off % bits < 0)
			q--;
		ea += (u64)(q * m->size);
	}
	if (m->asize == 4)
		ea = (u32)ea;
	else if (m->asize == 2)
		ea = (u16)ea;
	if (m->seg == X86_SEG_FS)
		ea += r->fs_base;
	else if (m->seg == X86_SEG_GS)
		ea += r->gs_base;
	if (compat)
		ea = (u32)ea;
	return ea;
}

/* ---- corpus checks ------------------------------------------------------- */
#define CHECKF(cond, ...)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "corpus.s:%u: %s: ", c->line, insn_text);                  \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

static struct {
	unsigned int cases, mem, none, bad, vsib, rip, sib, fsgs, compat, evex, vex, asize16,
		asize32, stack, string, two;
} cov;

static int check_case(const struct corpus_case *c)
{
	const char *insn_text = pp_corpus_str + c->insn_off;
	const char *exp_text = pp_corpus_str + c->expect_off;
	const u8 *code = pp_corpus_code + c->code_off;
	bool compat = c->mode == 32;
	struct x86_insn in;
	struct expect e;
	struct pp_regs regs;
	const char *perr;
	int err, i;

	perr = parse_expect(exp_text, c->mode, &e);
	CHECKF(!perr, "bad expectation \"%s\": %s", exp_text, perr);
	fill_regs(&regs, compat);
	cov.cases++;
	cov.compat += compat;

	err = x86_decode(&in, code, c->len, compat);
	if (e.kind == EK_BAD) {
		cov.bad++;
		CHECKF(err == -EINVAL, "expected -EINVAL, got %d (len %u)", err, in.len);
		return 0;
	}
	if (e.kind == EK_NOSUP) {
		cov.bad++;
		CHECKF(err == -EOPNOTSUPP, "expected -EOPNOTSUPP, got %d", err);
		return 0;
	}
	CHECKF(err == 0, "decode failed: %d", err);
	CHECKF(in.len == c->len, "length %u, assembled %u", in.len, c->len);
	cov.evex += in.encoding == X86_ENC_EVEX;
	cov.vex += in.encoding == X86_ENC_VEX;
	if (e.kind == EK_NONE) {
		cov.none++;
		CHECKF(in.nr_mem == 0, "expected no memory operand, got %u (base %d access %u)",
		       in.nr_mem, in.mem[0].base, in.mem[0].access);
		CHECKF(x86_insn_access(&in) == NULL, "x86_insn_access not NULL");
		return 0;
	}
	cov.mem++;
	cov.two += e.nr == 2;
	CHECKF(in.nr_mem == e.nr, "%u memory operands, expected %d", in.nr_mem, e.nr);
	for (i = 0; i < e.nr; i++) {
		const struct x86_mem *m = &in.mem[i];
		const struct exp_mem *x = &e.m[i];
		u64 ea = 0;

		CHECKF(m->access == x->access, "op%d access %u, expected %d", i, m->access,
		       x->access);
		CHECKF(m->size == x->size, "op%d size %u, expected %d", i, m->size, x->size);
		CHECKF(m->base == x->base, "op%d base %d, expected %d", i, m->base, x->base);
		CHECKF(m->seg == x->seg, "op%d seg %u, expected %d", i, m->seg, x->seg);
		CHECKF(m->addr_size == x->asize, "op%d asize %u, expected %d", i, m->addr_size,
		       x->asize);
		CHECKF((m->flags & (X86_MEMF_VSIB | X86_MEMF_NOADDR | X86_MEMF_DISP8N |
				    X86_MEMF_XLAT | X86_MEMF_BITSTR)) == x->flags,
		       "op%d flags %#x, expected %#x", i, m->flags, x->flags);
		if (!(x->flags & X86_MEMF_XLAT)) {
			CHECKF(m->index == x->index, "op%d index %d, expected %d", i, m->index,
			       x->index);
			if (x->index != X86_REG_NONE)
				CHECKF(m->scale == x->scale, "op%d scale %u, expected %d", i,
				       m->scale, x->scale);
		}
		if (x->flags & X86_MEMF_BITSTR)
			CHECKF(m->bit_reg == x->bitreg, "op%d bit offset register %d, expected %d",
			       i, m->bit_reg, x->bitreg);
		if (!(x->flags & X86_MEMF_DISP8N))
			CHECKF(m->disp == x->disp, "op%d disp %#llx, expected %#llx", i,
			       (unsigned long long)m->disp, (unsigned long long)x->disp);
		err = x86_mem_addr(&in, m, &regs, &ea);
		if (x->flags & (X86_MEMF_VSIB | X86_MEMF_NOADDR | X86_MEMF_DISP8N)) {
			CHECKF(err == -EOPNOTSUPP, "op%d address should not be computable", i);
		} else {
			u64 want = ref_ea(x, &regs, c->len, compat);

			CHECKF(err == 0, "op%d x86_mem_addr failed %d", i, err);
			CHECKF(ea == want, "op%d EA %#llx, expected %#llx", i,
			       (unsigned long long)ea, (unsigned long long)want);
		}
		cov.vsib += !!(x->flags & X86_MEMF_VSIB);
		cov.rip += x->base == X86_REG_RIP;
		cov.fsgs += x->seg != X86_SEG_FLAT;
		cov.asize16 += x->asize == 2;
		cov.asize32 += x->asize == 4 && !compat;
		cov.stack += !!(m->flags & X86_MEMF_STACK);
		cov.string += !!(m->flags & X86_MEMF_STRING);
		cov.sib += i == 0 && in.has_sib;
	}
	/* The sample reports the first accessing operand. */
	if (e.m[0].access != X86_ACC_NONE)
		CHECKF(x86_insn_access(&in) == &in.mem[0], "x86_insn_access is not mem[0]");
	else
		CHECKF(x86_insn_access(&in) == NULL, "address-only operand reported as access");
	return 0;
}

START_TEST(test_corpus)
{
	unsigned int i, failed = 0;

	memset(&cov, 0, sizeof(cov));
	ck_assert_uint_ge(pp_corpus_count, 300);
	for (i = 0; i < pp_corpus_count; i++)
		failed += check_case(&pp_corpus_tab[i]);
	printf("decode corpus: %u cases (%u 32-bit): %u with memory operands (%u with two), "
	       "%u without, %u rejected; %u SIB, %u RIP-relative, %u FS/GS, %u 0x67 in 64-bit, "
	       "%u 16-bit, %u stack, %u string, %u VSIB, %u VEX, %u EVEX\n",
	       cov.cases, cov.compat, cov.mem, cov.two, cov.none, cov.bad, cov.sib, cov.rip,
	       cov.fsgs, cov.asize32, cov.asize16, cov.stack, cov.string, cov.vsib, cov.vex,
	       cov.evex);
	ck_assert_msg(failed == 0, "%u of %u corpus cases failed (see stderr)", failed,
		      pp_corpus_count);
}
END_TEST

/* ---- every table row is reached by the corpus ---------------------------- */
static struct x86_insn row_seen[4096];
static unsigned int nr_row_seen, rows_missed;

static u32 base_attr(const struct x86_insn *in)
{
	const struct x86_opmap *m = &x86_opmaps[in->map];

	return m->attr && m->attr[in->opcode] ? m->attr[in->opcode] : m->dflt;
}

/* A case of `group`, ModRM.reg in [lo, hi], SIMD prefix simd (or any if < 0),
 * memory form if mem. */
static bool group_seen(unsigned int group, unsigned int lo, unsigned int hi, int simd, bool mem)
{
	for (unsigned int i = 0; i < nr_row_seen; i++) {
		const struct x86_insn *in = &row_seen[i];
		unsigned int reg = (in->modrm >> 3) & 7;

		if (in->has_modrm && x86_attr_sp(base_attr(in)) == group && reg >= lo &&
		    reg <= hi && (simd < 0 || in->simd == simd) && (!mem || in->modrm >> 6 != 3))
			return true;
	}
	return false;
}

static void row_missed(const char *what, unsigned int a, unsigned int b, unsigned int c)
{
	fprintf(stderr, "decode corpus reaches no instruction of %s %#x %#x-%#x\n", what, a, b, c);
	rows_missed++;
}

START_TEST(test_every_row)
{
	unsigned int i, op, lo, g, r;

	nr_row_seen = rows_missed = 0;
	for (i = 0; i < pp_corpus_count && nr_row_seen < PP_ARRAY_SIZE(row_seen); i++) {
		const struct corpus_case *c = &pp_corpus_tab[i];

		if (!x86_decode(&row_seen[nr_row_seen], pp_corpus_code + c->code_off, c->len,
				c->mode == 32))
			nr_row_seen++;
	}
	/* map rows: runs of one listed attribute (a range row), and each map's
	 * default (unlisted opcodes); maps sharing a table share its rows */
	for (unsigned int map = 0; map < X86_NR_MAPS; map++) {
		const u32 *t = x86_opmaps[map].attr;
		bool dflt = false;

		for (i = 0; i < nr_row_seen; i++)
			dflt |= row_seen[i].map == map && t && !t[row_seen[i].opcode];
		if (!dflt && x86_opmaps[map].dflt)
			row_missed("map default", map, 0, 0xff);
		for (lo = 0, op = 0; t && (!map || t != x86_opmaps[map - 1].attr) && op < 256;
		     op++) {
			bool hit = false;

			if (op < 255 && t[op + 1] == t[op])
				continue;
			for (i = 0; i < nr_row_seen && t[op]; i++)
				hit |= x86_opmaps[row_seen[i].map].attr == t &&
				       row_seen[i].opcode >= lo && row_seen[i].opcode <= op;
			if (!hit && t[op])
				row_missed("map", map, lo, op);
			lo = op + 1;
		}
	}
	for (r = 0; r < x86_nr_overlays; r++) {
		const struct x86_overlay *o = &x86_overlays[r];
		bool hit = false;

		for (i = 0; i < nr_row_seen; i++) {
			const struct x86_insn *in = &row_seen[i];

			hit |= in->map == o->map && ((1u << in->encoding) & o->enc) &&
			       in->opcode >= o->lo && in->opcode <= o->hi &&
			       (o->simd == X86_OV_ANY || o->simd == in->simd) &&
			       (!o->mode || o->mode == in->mode);
		}
		if (!hit)
			row_missed("overlay (map, lo, hi)", o->map, o->lo, o->hi);
	}
	for (g = 0; g < X86_NR_GROUPS; g++)
		for (lo = 0, r = 0; r < 8; r++) {
			const struct x86_group_row *row = &x86_groups[g][r];

			if (r < 7 && !memcmp(row, row + 1, sizeof(*row)))
				continue;
			if ((row->mem || row->reg) &&
			    !group_seen(g + X86_GRP_FIRST, lo, r, -1, row->mem != 0))
				row_missed("group (index, reg)", g, lo, r);
			lo = r + 1;
		}
	for (r = 0; r < x86_nr_group_overlays; r++) {
		const struct x86_group_overlay *o = &x86_group_overlays[r];

		if (!group_seen(o->group, o->reg, o->reg, o->simd, true))
			row_missed("group overlay (group, reg)", o->group, o->reg, o->reg);
	}
	for (op = 0; op < 8; op++) /* x87: every memory form */
		for (r = 0; r < 8; r++) {
			bool hit = false;

			for (i = 0; i < nr_row_seen && x86_x87_mem[op][r]; i++)
				hit |= row_seen[i].map == 0 &&
				       row_seen[i].opcode == X86_X87_FIRST + op &&
				       ((row_seen[i].modrm >> 3) & 7) == r &&
				       row_seen[i].modrm >> 6 != 3;
			if (!hit && x86_x87_mem[op][r])
				row_missed("x87 (opcode, reg)", X86_X87_FIRST + op, r, r);
		}
	ck_assert_msg(rows_missed == 0, "%u table rows without a corpus case (see stderr)",
		      rows_missed);
}
END_TEST

START_TEST(test_truncated_and_padded)
{
	unsigned int i, k, bad = 0;

	for (i = 0; i < pp_corpus_count; i++) {
		const struct corpus_case *c = &pp_corpus_tab[i];
		const u8 *code = pp_corpus_code + c->code_off;
		bool compat = c->mode == 32;
		struct x86_insn ref, in;
		u8 buf[X86_MAX_INSN_LEN];
		int err;

		if (x86_decode(&ref, code, c->len, compat))
			continue; /* rejected on purpose */
		for (k = 0; k < c->len; k++) {
			err = x86_decode(&in, code, k, compat);
			if (err != -ENODATA) {
				fprintf(stderr,
					"corpus.s:%u: %u of %u bytes: got %d, not -ENODATA\n",
					c->line, k, c->len, err);
				bad++;
				break;
			}
		}
		/* Junk after the instruction must not change anything. */
		memset(buf, 0xc4, sizeof(buf));
		memcpy(buf, code, c->len);
		err = x86_decode(&in, buf, sizeof(buf), compat);
		if (err || in.len != ref.len || in.nr_mem != ref.nr_mem ||
		    memcmp(in.mem, ref.mem, sizeof(in.mem))) {
			fprintf(stderr, "corpus.s:%u: decode changed with trailing bytes\n",
				c->line);
			bad++;
		}
	}
	ck_assert_uint_eq(bad, 0);
}
END_TEST

/* ---- hand-computed addresses --------------------------------------------- */
static u64 ea_of(const u8 *bytes, size_t n, const struct pp_regs *r, unsigned int op)
{
	struct x86_insn in;
	u64 ea = 0;

	ck_assert_int_eq(x86_decode(&in, bytes, n, r->compat), 0);
	ck_assert_uint_eq(in.len, n);
	ck_assert_uint_gt(in.nr_mem, op);
	ck_assert_int_eq(x86_mem_addr(&in, &in.mem[op], r, &ea), 0);
	return ea;
}

START_TEST(test_hand_addresses)
{
	struct pp_regs r;

	memset(&r, 0, sizeof(r));
	r.ip = 0x401000;
	r.gpr[PP_REG_AX] = 0x1000;
	r.gpr[PP_REG_BX] = 2;
	{ /* mov rcx, [rax + rbx*8 + 0x10] */
		static const u8 b[] = {0x48, 0x8b, 0x4c, 0xd8, 0x10};
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x1020);
	}
	{ /* mov rax, [rip + 0x100]: next ip 0x401007 */
		static const u8 b[] = {0x48, 0x8b, 0x05, 0x00, 0x01, 0x00, 0x00};
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x401107);
	}
	{ /* mov dword [rip - 0x10], 0x12345678: the immediate counts, next ip 0x40100a */
		static const u8 b[] = {0xc7, 0x05, 0xf0, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12};
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x400ffa);
	}
	{ /* 67: mov eax, [eax - 0x20] with rax = 0x1_0000_0010 wraps to 0xfffffff0 */
		static const u8 b[] = {0x67, 0x8b, 0x40, 0xe0};
		r.gpr[PP_REG_AX] = 0x100000010ull;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0xfffffff0ull);
		r.gpr[PP_REG_AX] = 0x1000;
	}
	{ /* fs: mov rax, [0x28] */
		static const u8 b[] = {0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00};
		r.fs_base = 0x7f0000007000ull;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x7f0000007028ull);
	}
	{ /* gs: 67 mov eax, [ebx]: offset truncated, base added in full */
		static const u8 b[] = {0x65, 0x67, 0x8b, 0x03};
		r.gs_base = 0xffff888000000000ull;
		r.gpr[PP_REG_BX] = 0xdead00000100ull;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0xffff888000000100ull);
		r.gpr[PP_REG_BX] = 2;
	}
	{ /* xlat: [rbx + al] */
		static const u8 b[] = {0xd7};
		r.gpr[PP_REG_AX] = 0x12345;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 2 + 0x45);
		r.gpr[PP_REG_AX] = 0x1000;
	}
	{ /* push rax: [rsp - 8]; pop qword [rsp + 8]: rsp after the pop */
		static const u8 push[] = {0x50};
		static const u8 pop[] = {0x8f, 0x44, 0x24, 0x08};
		r.gpr[PP_REG_SP] = 0x7ffe0000;
		ck_assert_uint_eq(ea_of(push, sizeof(push), &r, 0), 0x7ffe0000 - 8);
		ck_assert_uint_eq(ea_of(pop, sizeof(pop), &r, 0), 0x7ffe0000 + 16);
		ck_assert_uint_eq(ea_of(pop, sizeof(pop), &r, 1), 0x7ffe0000);
	}
	{ /* bt [rdx], rax: a bit string, the qword holding bit rax (issue 16:
	   * a PEBS record of Linux's bt at 0xffffffff8147b8c8 disagreed by 8) */
		static const u8 b[] = {0x48, 0x0f, 0xa3, 0x02};
		r.gpr[PP_REG_DX] = 0xffffffff8406a190ull;
		r.gpr[PP_REG_AX] = 100; /* bit 36 of the next qword */
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0xffffffff8406a198ull);
		r.gpr[PP_REG_AX] = (u64)-1; /* bit 63 of the qword before */
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0xffffffff8406a188ull);
		r.gpr[PP_REG_AX] = 63;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0xffffffff8406a190ull);
	}
	{ /* btr dword [rdx], eax with eax = -33: the dword two before; the
	   * upper half of rax is not part of the offset */
		static const u8 b[] = {0x0f, 0xb3, 0x02};
		r.gpr[PP_REG_DX] = 0x10000;
		r.gpr[PP_REG_AX] = 0x12345678ffffffdfull;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x10000 - 8);
	}
	{ /* bts word [rdx], r9w with r9w = 0x20: two words on (REX.R) */
		static const u8 b[] = {0x66, 0x44, 0x0f, 0xab, 0x0a};
		r.gpr[PP_REG_R9] = 0xffff0020;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x10000 + 4);
	}
	{ /* bt dword [rdx], 40 (immediate): the offset is taken modulo 32 */
		static const u8 b[] = {0x0f, 0xba, 0x22, 0x28};
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x10000);
		r.gpr[PP_REG_AX] = 0x1000;
		r.gpr[PP_REG_DX] = 0;
	}
	{ /* leave reads [rbp] */
		static const u8 b[] = {0xc9};
		r.gpr[PP_REG_BP] = 0x7ffe1000;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x7ffe1000);
	}
	{ /* movsq: source rsi, destination rdi */
		static const u8 b[] = {0x48, 0xa5};
		r.gpr[PP_REG_SI] = 0x5000;
		r.gpr[PP_REG_DI] = 0x6000;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x5000);
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 1), 0x6000);
	}
	{ /* EVEX vmovups zmm0, [rax + 0x40] encoded as disp8 = 1, N = 64 */
		static const u8 b[] = {0x62, 0xf1, 0x7c, 0x48, 0x10, 0x40, 0x01};
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x1040);
	}
	{ /* EVEX vaddps zmm0, zmm1, dword [rax + 4]{1to16}: disp8 = 1, N = 4 */
		static const u8 b[] = {0x62, 0xf1, 0x74, 0x58, 0x58, 0x40, 0x01};
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x1004);
	}
	/* 32-bit code */
	r.compat = true;
	r.ip = 0x8049000;
	{ /* mov eax, [ebp - 4] with ebp = 2 wraps to 0xfffffffe */
		static const u8 b[] = {0x8b, 0x45, 0xfc};
		r.gpr[PP_REG_BP] = 2;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0xfffffffeull);
	}
	{ /* 16-bit: mov eax, [bx + si + 0x10], bx = 0xfff0, si = 0x20 -> 0x20 (wraps at 64K) */
		static const u8 b[] = {0x67, 0x8b, 0x40, 0x10};
		r.gpr[PP_REG_BX] = 0xfff0;
		r.gpr[PP_REG_SI] = 0x20;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x20);
	}
	{ /* mov ecx, [0x1000] is absolute in 32-bit code, not RIP-relative */
		static const u8 b[] = {0x8b, 0x0d, 0x00, 0x10, 0x00, 0x00};
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x1000);
	}
	{ /* gs: mov eax, [eax]; gs base + offset wraps at 4G */
		static const u8 b[] = {0x65, 0x8b, 0x00};
		r.gs_base = 0xfffff000;
		r.gpr[PP_REG_AX] = 0x2000;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0x1000);
	}
	{ /* push eax: [esp - 4] */
		static const u8 b[] = {0x50};
		r.gpr[PP_REG_SP] = 0xffffd000;
		ck_assert_uint_eq(ea_of(b, sizeof(b), &r, 0), 0xffffcffc);
	}
}
END_TEST

START_TEST(test_rejects_unsafe)
{
	struct x86_insn in;
	u8 b[16];

	/* 15 prefixes then an opcode: 16 bytes, over the architectural limit */
	memset(b, 0x66, sizeof(b));
	b[15] = 0x90;
	ck_assert_int_eq(x86_decode(&in, b, sizeof(b), false), -EINVAL);
	/* a 15-byte buffer of prefixes: the instruction cannot end in it */
	ck_assert_int_eq(x86_decode(&in, b, 15, false), -EINVAL);
	/* empty buffer */
	ck_assert_int_eq(x86_decode(&in, b, 0, false), -ENODATA);
	/* VSIB operand: decoded, address refused */
	{
		static const u8 g[] = {0xc4, 0xe2, 0x6d, 0x90, 0x04, 0x88};
		struct pp_regs r;
		u64 ea;

		memset(&r, 0, sizeof(r));
		ck_assert_int_eq(x86_decode(&in, g, sizeof(g), false), 0);
		ck_assert(in.mem[0].flags & X86_MEMF_VSIB);
		ck_assert_int_eq(x86_mem_addr(&in, &in.mem[0], &r, &ea), -EOPNOTSUPP);
	}
}
END_TEST

START_TEST(test_random_bytes)
{
	unsigned int i, j, ok = 0;
	u64 x = 0x9e3779b97f4a7c15ull;

	for (i = 0; i < 200000; i++) {
		u8 buf[X86_MAX_INSN_LEN];
		size_t n;
		struct x86_insn in;
		struct pp_regs r;
		u64 ea;
		int err;

		for (j = 0; j < sizeof(buf); j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[j] = (u8)x;
		}
		n = 1 + (x >> 40) % X86_MAX_INSN_LEN;
		err = x86_decode(&in, buf, n, (i & 7) == 0);
		if (err)
			continue;
		ok++;
		ck_assert_uint_le(in.len, n);
		ck_assert_uint_ge(in.len, 1);
		ck_assert_uint_le(in.nr_mem, 2);
		memset(&r, 0, sizeof(r));
		for (j = 0; j < in.nr_mem; j++) {
			ck_assert(in.mem[j].base >= X86_REG_RIP && in.mem[j].base < PP_NR_GPR);
			ck_assert(in.mem[j].index >= X86_REG_NONE && in.mem[j].index < 32);
			x86_mem_addr(&in, &in.mem[j], &r, &ea);
		}
	}
	ck_assert_uint_gt(ok, 1000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("decode");
	TCase *tc = pp_tcase(s, "decode", NULL, NULL,
			     PP_TESTS(test_corpus, test_truncated_and_padded, test_hand_addresses,
				      test_rejects_unsafe, test_random_bytes, test_every_row));
	tcase_set_timeout(tc, 60);
	return pp_check_run(s);
}
