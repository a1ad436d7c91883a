// SPDX-License-Identifier: GPL-2.0
/*
 * The PEBS-vs-decoder check (kernel/nmi/pebscheck.c, issue 16): byte-exact
 * PEBS records (format 3 and adaptive, offsets typed here from the SDM's
 * tables, not from x86_pmu_regs.h) with known instruction bytes at their
 * eventing IP (assembled by binutils `as`, see each row's comment) and
 * known post-retirement GPRs, parsed by pebs__parse and classified by
 * pebs_check__record with the instruction fetched from the fake memory of
 * platform_test_mem.c: agree, disagree (a wrong address built by hand, a
 * GPR in the wrong slot, no memory operand), not applicable (clobbered
 * base or index, stack and string operands, records without GPRs, address
 * or eventing IP, segment base unknown) and undecodable. Then the per-CPU
 * counts (capture__pebs_check) and the drain calling the check once per
 * record.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "pmuprof/types.h"
#include "pmuprof/x86_paging.h"
#include "kernel/nmi/pebscheck.h"
#include "kernel/nmi/capture.h"
#include "kernel/pmu/pebs.h"
#include "platform_test_mem.h"
#include "check_main.h"

#define USER_CODE 0x0000000000401000ull
#define USER_DATA 0x00007f0040200000ull
#define KERN_TEXT 0xffffffff81000000ull
#define KERN_DATA 0xffff888000001000ull
#define UNMAPPED  0x0000000000600000ull
#define INSN_OFF  0x100
#define FS_BASE	  0x00007f1234560000ull

/* Format 3 record (SDM vol. 3B, Table 20-44 / 18-x "PEBS Record Format"):
 * 200 bytes; GPR slots RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8..R15. */
enum { S_RAX, S_RBX, S_RCX, S_RDX, S_RSI, S_RDI, S_RBP, S_RSP, S_R8, S_R9, S_R10 };
#define F3_RIP	       0x08
#define F3_GPR	       0x10
#define F3_APPLICABLE  0x90
#define F3_DLA	       0x98
#define F3_EVENTING_IP 0xb0
#define F3_SIZE	       0xc8

static void setup(void)
{
	ck_assert_int_eq(plat_test_mem_code_pages(USER_CODE, KERN_TEXT), 0);
}

static void put64(u8 *b, u32 off, u64 v)
{
	memcpy(b + off, &v, sizeof(v));
}

struct row {
	const char *name;
	u8 insn[15];
	u8 len;
	bool kernel;  /* the instruction at KERN_TEXT, else USER_CODE */
	u64 sdm[16];  /* GPRs in the record's slot order (S_*) */
	u64 dla;      /* data linear address; RIP_REL: ip + len + disp */
	s64 rip_disp; /* dla = ip + len + rip_disp when set */
	int want;     /* enum pebs_check_result */
};

static const struct row rows[] = {
	/* 48 8b 03: mov (%rbx),%rax (the destination is not an address reg) */
	{"base",
	 {0x48, 0x8b, 0x03},
	 3,
	 false,
	 {[S_RAX] = 5, [S_RBX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_AGREE},
	/* 8b 54 cb 10: mov 0x10(%rbx,%rcx,8),%edx */
	{"base+index*8+disp",
	 {0x8b, 0x54, 0xcb, 0x10},
	 4,
	 false,
	 {[S_RBX] = USER_DATA, [S_RCX] = 3},
	 USER_DATA + 3 * 8 + 0x10,
	 0,
	 PEBS_CHECK_AGREE},
	/* 48 8b 05 20 00 00 00: mov 0x20(%rip),%rax */
	{"rip-relative",
	 {0x48, 0x8b, 0x05, 0x20, 0, 0, 0},
	 7,
	 false,
	 {0},
	 0,
	 0x20,
	 PEBS_CHECK_AGREE},
	/* 48 8b 74 24 08: mov 0x8(%rsp),%rsi (explicit stack operand) */
	{"rsp base",
	 {0x48, 0x8b, 0x74, 0x24, 0x08},
	 5,
	 false,
	 {[S_RSP] = USER_DATA + 0x800},
	 USER_DATA + 0x808,
	 0,
	 PEBS_CHECK_AGREE},
	/* 47 8b 14 88: mov (%r8,%r9,4),%r10d (REX.R: r10 is not r8/r9) */
	{"r8+r9*4 -> r10",
	 {0x47, 0x8b, 0x14, 0x88},
	 4,
	 false,
	 {[S_R8] = USER_DATA, [S_R9] = 7},
	 USER_DATA + 28,
	 0,
	 PEBS_CHECK_AGREE},
	/* 03 02: add (%rdx),%eax */
	{"add load",
	 {0x03, 0x02},
	 2,
	 false,
	 {[S_RDX] = USER_DATA + 64},
	 USER_DATA + 64,
	 0,
	 PEBS_CHECK_AGREE},
	/* 48 39 00: cmp %rax,(%rax) (reg only read) */
	{"cmp reads reg",
	 {0x48, 0x39, 0x00},
	 3,
	 false,
	 {[S_RAX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_AGREE},
	/* 40 8a 20: mov (%rax),%spl (with REX, reg 4 is SPL, not AH) */
	{"spl with rex",
	 {0x40, 0x8a, 0x20},
	 3,
	 false,
	 {[S_RAX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_AGREE},
	/* 0f b6 08: movzbl (%rax),%ecx */
	{"movzx other reg",
	 {0x0f, 0xb6, 0x08},
	 3,
	 false,
	 {[S_RAX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_AGREE},
	/* c5 fe 6f 1c 58: vmovdqu (%rax,%rbx,2),%ymm3 */
	{"vex load",
	 {0xc5, 0xfe, 0x6f, 0x1c, 0x58},
	 5,
	 false,
	 {[S_RAX] = USER_DATA, [S_RBX] = 8},
	 USER_DATA + 16,
	 0,
	 PEBS_CHECK_AGREE},
	/* 48 8b 07: mov (%rdi),%rax at a kernel IP (kernel text fetch) */
	{"kernel ip",
	 {0x48, 0x8b, 0x07},
	 3,
	 true,
	 {[S_RDI] = KERN_DATA},
	 KERN_DATA,
	 0,
	 PEBS_CHECK_AGREE},

	/* 48 0f a3 02: bt %rax,(%rdx), bit 100: the qword after (%rdx), as
	 * Linux's bt at 0xffffffff8147b8c8 in emu_pmu_pebs, which disagreed
	 * by 8 before the decoder knew bit strings */
	{"bit string",
	 {0x48, 0x0f, 0xa3, 0x02},
	 4,
	 true,
	 {[S_RAX] = 100, [S_RDX] = KERN_DATA},
	 KERN_DATA + 8,
	 0,
	 PEBS_CHECK_AGREE},

	/* the same load, a data address off by one line: built by hand */
	{"wrong address",
	 {0x48, 0x8b, 0x03},
	 3,
	 false,
	 {[S_RBX] = USER_DATA},
	 USER_DATA + 64,
	 0,
	 PEBS_CHECK_DISAGREE},
	/* mov (%rbx),%rax with the base in RCX's slot: the GPR order matters */
	{"gpr in the wrong slot",
	 {0x48, 0x8b, 0x03},
	 3,
	 false,
	 {[S_RCX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_DISAGREE},
	/* 90: nop, where PEBS says a load retired */
	{"no memory operand", {0x90}, 1, false, {0}, USER_DATA, 0, PEBS_CHECK_DISAGREE},

	/* 48 8b 00: mov (%rax),%rax: RAX after retirement is the loaded
	 * value, not the base; the record's address cannot be recomputed */
	{"clobbered base",
	 {0x48, 0x8b, 0x00},
	 3,
	 false,
	 {[S_RAX] = 42},
	 USER_DATA,
	 0,
	 PEBS_CHECK_NA},
	/* 47 8b 0c 88: mov (%r8,%r9,4),%r9d: the index is the destination */
	{"clobbered index",
	 {0x47, 0x8b, 0x0c, 0x88},
	 4,
	 false,
	 {[S_R8] = USER_DATA, [S_R9] = 1},
	 USER_DATA + 28,
	 0,
	 PEBS_CHECK_NA},
	/* 8a 20: mov (%rax),%ah: AH is RAX's byte 1 */
	{"clobbered via ah",
	 {0x8a, 0x20},
	 2,
	 false,
	 {[S_RAX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_NA},
	/* f7 22: mull (%rdx): writes RDX:RAX */
	{"mul writes rdx",
	 {0xf7, 0x22},
	 2,
	 false,
	 {[S_RDX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_NA},
	/* 48 0f b1 08: cmpxchg %rcx,(%rax): may write RAX */
	{"cmpxchg writes rax",
	 {0x48, 0x0f, 0xb1, 0x08},
	 4,
	 false,
	 {[S_RAX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_NA},
	/* c4 e2 60 f2 08: andn (%rax),%ebx,%ecx: BMI, GPR destinations */
	{"bmi",
	 {0xc4, 0xe2, 0x60, 0xf2, 0x08},
	 5,
	 false,
	 {[S_RAX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_NA},
	/* 5b: pop %rbx: RSP moved */
	{"pop", {0x5b}, 1, false, {[S_RSP] = USER_DATA + 8}, USER_DATA, 0, PEBS_CHECK_NA},
	/* a4: movsb: RSI/RDI moved */
	{"movs", {0xa4}, 1, false, {[S_RSI] = USER_DATA + 1}, USER_DATA, 0, PEBS_CHECK_NA},
	/* d7: xlat: AL is index and destination */
	{"xlat", {0xd7}, 1, false, {[S_RBX] = USER_DATA}, USER_DATA, 0, PEBS_CHECK_NA},

	/* 06: push %es, invalid in 64-bit mode */
	{"invalid", {0x06}, 1, false, {0}, USER_DATA, 0, PEBS_CHECK_UNDECODABLE},
	/* c4 e2 69 90 04 88: vpgatherdd %xmm2,(%rax,%xmm1,4),%xmm0 (VSIB) */
	{"vsib",
	 {0xc4, 0xe2, 0x69, 0x90, 0x04, 0x88},
	 6,
	 false,
	 {[S_RAX] = USER_DATA},
	 USER_DATA,
	 0,
	 PEBS_CHECK_UNDECODABLE},
};

static u64 row_ip(const struct row *r)
{
	return (r->kernel ? KERN_TEXT : USER_CODE) + INSN_OFF;
}

/* A format-3 record for row r, parsed by pebs__parse. */
static void f3_record(const struct row *r, u64 ip, struct pebs_sample *rec)
{
	u8 b[F3_SIZE];

	memset(b, 0, sizeof(b));
	put64(b, F3_RIP, ip + r->len);
	for (int i = 0; i < 16; i++)
		put64(b, F3_GPR + 8 * (u32)i, r->sdm[i]);
	put64(b, F3_APPLICABLE, 1);
	put64(b, F3_DLA, r->rip_disp ? ip + r->len + (u64)r->rip_disp : r->dla);
	put64(b, F3_EVENTING_IP, ip);
	ck_assert_int_eq(pebs__parse(3, b, sizeof(b), ~0ull, rec), F3_SIZE);
	ck_assert(rec->has_gprs && rec->ip_exact && rec->has_addr);
}

static void place(const struct row *r)
{
	memcpy((r->kernel ? plat_test_kern_code : plat_test_user_code) + INSN_OFF, r->insn, r->len);
}

static const char *const names[] = {"agree", "disagree", "n/a", "undecodable"};

START_TEST(test_rows)
{
	const struct row *r = &rows[_i];
	struct pp_regs intr;
	struct pebs_sample rec;
	int got;

	memset(&intr, 0, sizeof(intr));
	intr.user = !r->kernel;
	place(r);
	f3_record(r, row_ip(r), &rec);
	got = (int)pebs_check__record(&rec, &intr, true);
	ck_assert_msg(got == r->want, "%s: got %s, want %s", r->name, names[got], names[r->want]);
}
END_TEST

/* mov %fs:0x28,%rax: the segment base comes from the PMI's registers, only
 * when the session read it and the PMI interrupted the record's mode. */
START_TEST(test_fs_segment)
{
	static const struct row r = {"fs", {0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0},
				     9,	   false,
				     {0},  FS_BASE + 0x28,
				     0,	   PEBS_CHECK_AGREE};
	struct row wrong = r;
	struct pp_regs intr;
	struct pebs_sample rec;

	place(&r);
	memset(&intr, 0, sizeof(intr));
	intr.user = true;
	intr.fs_base = FS_BASE;
	f3_record(&r, row_ip(&r), &rec);
	ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_AGREE);
	ck_assert_int_eq(pebs_check__record(&rec, &intr, false), PEBS_CHECK_NA);
	intr.user = false; /* PMI in the kernel: intr's fs/gs are not the task's */
	ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_NA);
	intr.user = true;
	wrong.dla = r.dla + 8;
	f3_record(&wrong, row_ip(&wrong), &rec);
	ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_DISAGREE);
}
END_TEST

/* Nothing to compare, or nothing to decode. */
START_TEST(test_record_kinds)
{
	const struct row *r = &rows[0]; /* mov (%rbx),%rax, agrees */
	struct pp_regs intr;
	struct pebs_sample rec;
	u8 b[0x80];

	memset(&intr, 0, sizeof(intr));
	intr.user = true;
	place(r);
	f3_record(r, row_ip(r), &rec);
	ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_AGREE);
	rec.data_addr = 0; /* an event that is not a memory access */
	ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_NA);

	/* format 1: RIP of the next instruction only */
	{
		u8 f1[0xb0];

		memset(f1, 0, sizeof(f1));
		put64(f1, F3_RIP, row_ip(r) + r->len);
		put64(f1, F3_GPR + 8 * S_RBX, USER_DATA);
		put64(f1, F3_DLA, USER_DATA);
		ck_assert_int_eq(pebs__parse(1, f1, sizeof(f1), ~0ull, &rec), 0xb0);
		ck_assert(rec.has_gprs && !rec.ip_exact);
		ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_NA);
	}

	/* adaptive (format 4): basic + memory info, then with the GPR group
	 * (SDM "Adaptive PEBS": basic 0x20, memory 0x20, GPRs RFLAGS, RIP,
	 * RAX..R15 0x90) */
	memset(b, 0, sizeof(b));
	put64(b, 0x00, 1ull | (0x40ull << 48)); /* memory info, 64 bytes */
	put64(b, 0x08, row_ip(r));
	put64(b, 0x20, USER_DATA);
	ck_assert_int_eq(pebs__parse(4, b, 0x40, ~0ull, &rec), 0x40);
	ck_assert(!rec.has_gprs);
	ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_NA);
	{
		u8 a[0xd0];

		memset(a, 0, sizeof(a));
		put64(a, 0x00, 3ull | (0xd0ull << 48)); /* memory info + GPRs */
		put64(a, 0x08, row_ip(r));
		put64(a, 0x20, USER_DATA);
		put64(a, 0x40 + 0x10 + 8 * S_RBX, USER_DATA);
		ck_assert_int_eq(pebs__parse(4, a, sizeof(a), ~0ull, &rec), 0xd0);
		ck_assert(rec.has_gprs);
		ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_AGREE);
		put64(a, 0x40 + 0x10 + 8 * S_RBX, USER_DATA + 4096);
		ck_assert_int_eq(pebs__parse(4, a, sizeof(a), ~0ull, &rec), 0xd0);
		ck_assert_int_eq(pebs_check__record(&rec, &intr, true), PEBS_CHECK_DISAGREE);
	}

	/* eventing IP on a page that is not mapped: the fetch fails */
	{
		struct pebs_sample rf;
		u8 f3[F3_SIZE];

		memset(f3, 0, sizeof(f3));
		put64(f3, F3_GPR + 8 * S_RBX, USER_DATA);
		put64(f3, F3_DLA, USER_DATA);
		put64(f3, F3_EVENTING_IP, UNMAPPED);
		ck_assert_int_eq(pebs__parse(3, f3, sizeof(f3), ~0ull, &rf), F3_SIZE);
		ck_assert_int_eq(pebs_check__record(&rf, &intr, true), PEBS_CHECK_UNDECODABLE);
	}
}
END_TEST

/* The counts: one per record, by result, summed over CPUs, zeroed at start. */
START_TEST(test_counts)
{
	static struct capture_cpu cpus[2];
	struct pp_regs intr;
	struct pebs_sample rec;
	u64 sum[PEBS_CHECK_NR] = {0};

	memset(&intr, 0, sizeof(intr));
	intr.user = true;
	capture__reset(&cpus[0]);
	capture__reset(&cpus[1]);
	for (u32 i = 0; i < PP_ARRAY_SIZE(rows); i++) {
		place(&rows[i]);
		f3_record(&rows[i], row_ip(&rows[i]), &rec);
		intr.user = !rows[i].kernel;
		capture__pebs_check(&cpus[i & 1], &intr, true, &rec);
	}
	capture__pebs_check_stats(&cpus[0], sum);
	capture__pebs_check_stats(&cpus[1], sum);
	ck_assert_uint_eq(sum[PEBS_CHECK_AGREE], 12);
	ck_assert_uint_eq(sum[PEBS_CHECK_DISAGREE], 3);
	ck_assert_uint_eq(sum[PEBS_CHECK_NA], 9);
	ck_assert_uint_eq(sum[PEBS_CHECK_UNDECODABLE], 2);
	ck_assert_uint_eq(
		cpus[0].pebs_check[PEBS_CHECK_AGREE] + cpus[1].pebs_check[PEBS_CHECK_AGREE], 12);
	capture__reset(&cpus[0]);
	memset(sum, 0, sizeof(sum));
	capture__pebs_check_stats(&cpus[0], sum);
	ck_assert_uint_eq(sum[0] + sum[1] + sum[2] + sum[3], 0);
}
END_TEST

/* The written-register table against instructions whose destinations the
 * SDM fixes (no memory involved in the answer). */
START_TEST(test_written)
{
	static const struct {
		u8 b[8];
		u8 n;
		u32 want;
	} w[] = {
		{{0x48, 0x8b, 0x03}, 3, 1u << PP_REG_AX},		  /* mov (%rbx),%rax */
		{{0x48, 0x89, 0x03}, 3, 0},				  /* mov %rax,(%rbx) */
		{{0x4c, 0x8b, 0x01}, 3, 1u << PP_REG_R8},		  /* mov (%rcx),%r8 */
		{{0x8a, 0x20}, 2, 1u << PP_REG_AX},			  /* mov (%rax),%ah */
		{{0x8a, 0x18}, 2, 1u << PP_REG_BX},			  /* mov (%rax),%bl */
		{{0xf7, 0x22}, 2, (1u << PP_REG_AX) | (1u << PP_REG_DX)}, /* mull (%rdx) */
		{{0xf7, 0x1a}, 2, 0},					  /* negl (%rdx) */
		{{0x0f, 0x10, 0x00}, 3, 0},				  /* movups (%rax),%xmm0 */
		{{0xdd, 0x00}, 2, 0},					  /* fldl (%rax) */
	};
	struct x86_insn in;

	for (u32 i = 0; i < PP_ARRAY_SIZE(w); i++) {
		ck_assert_int_eq(x86_decode(&in, w[i].b, w[i].n, false), 0);
		ck_assert_msg(pebs_check__written(&in) == w[i].want, "row %u: %#x, want %#x", i,
			      pebs_check__written(&in), w[i].want);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pebscheck");
	TCase *tc =
		pp_tcase(s, "pebscheck", setup, NULL,
			 PP_TESTS(test_fs_segment, test_record_kinds, test_counts, test_written));

	tcase_add_loop_test(tc, test_rows, 0, (int)PP_ARRAY_SIZE(rows));
	return pp_check_run(s);
}
