// SPDX-License-Identifier: GPL-2.0
/*
 * dataaddr__fill(): instruction fetch (user/kernel, short copies at page
 * ends), decode, address, page walks, and every addr_status path, on the
 * fake memory and page tables of tests/unit/platform_test_mem.c.
 */
#include <check.h>
#include <stdio.h>

#include "pmuprof/types.h"
#include "pmuprof/x86_paging.h"
#include "include/uapi/pmuprof.h"
#include "kernel/nmi/dataaddr.h"
#include "kernel/nmi/x86_decode.h"
#include "platform_test_mem.h"
#include "check_main.h"

#define USER_CODE    0x0000000000401000ull /* 4K page */
#define USER_CODE_PA 0x0000000011111000ull
#define USER_DATA    0x00007f0040200000ull /* 2M page */
#define USER_DATA_PA 0x0000000080000000ull
#define USER_BIG     0x00007f0080000000ull /* 1G page */
#define USER_BIG_PA  0x0000004000000000ull
#define KERN_TEXT    0xffffffff81000000ull /* 2M page */
#define KERN_TEXT_PA 0x0000000001000000ull
#define KERN_DATA    0xffff888000001000ull /* 4K page */
#define KERN_DATA_PA 0x0000000000001000ull

#define ALL_FLAGS (PMUPROF_CF_DATA_ADDR | PMUPROF_CF_PHYS_ADDR | PMUPROF_CF_CODE_PAGE)

static void setup(void)
{
	ck_assert_int_eq(plat_test_mem_code_pages(USER_CODE, KERN_TEXT), 0);
	ck_assert_int_eq(plat_test_pt_map(USER_CODE, USER_CODE_PA, PMUPROF_PAGE_4K), 0);
	ck_assert_int_eq(plat_test_pt_map(USER_DATA, USER_DATA_PA, PMUPROF_PAGE_2M), 0);
	ck_assert_int_eq(plat_test_pt_map(USER_BIG, USER_BIG_PA, PMUPROF_PAGE_1G), 0);
	ck_assert_int_eq(plat_test_pt_map(KERN_TEXT, KERN_TEXT_PA, PMUPROF_PAGE_2M), 0);
	ck_assert_int_eq(plat_test_pt_map(KERN_DATA, KERN_DATA_PA, PMUPROF_PAGE_4K), 0);
}

static void user_regs(struct pp_regs *r, unsigned int off, const u8 *insn, size_t n)
{
	memset(r, 0, sizeof(*r));
	memcpy(plat_test_user_code + off, insn, n);
	r->ip = USER_CODE + off;
	r->user = true;
}

static void kern_regs(struct pp_regs *r, unsigned int off, const u8 *insn, size_t n)
{
	memset(r, 0, sizeof(*r));
	memcpy(plat_test_kern_code + off, insn, n);
	r->ip = KERN_TEXT + off;
	r->user = false;
}

/* mov rax, [rbx + 8] */
static const u8 MOV_LOAD[] = {0x48, 0x8b, 0x43, 0x08};

START_TEST(test_user_load_full)
{
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	user_regs(&r, 0x100, MOV_LOAD, sizeof(MOV_LOAD));
	r.gpr[PP_REG_BX] = USER_DATA + 0x12340;
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a.data_addr, USER_DATA + 0x12348);
	ck_assert_uint_eq(a.data_phys, USER_DATA_PA + 0x12348);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_2M);
	ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_4K);
	ck_assert_uint_eq(a.code_phys, USER_CODE_PA + 0x100);
	ck_assert_uint_eq(a.addr_source, PMUPROF_ADDR_SRC_DECODE);
	ck_assert_uint_eq(a.precision, PMUPROF_ADDR_PREC_EXACT);
	ck_assert_uint_eq(a.access, X86_ACC_LOAD);
	ck_assert_uint_eq(a.access_size, 8);

	/* PMU overflow sample: same address, marked as skid-affected */
	dataaddr__fill(&a, &r, ALL_FLAGS, true, true);
	ck_assert_uint_eq(a.precision, PMUPROF_ADDR_PREC_SKID);
	ck_assert_uint_eq(a.data_addr, USER_DATA + 0x12348);
}
END_TEST

START_TEST(test_store_1g_and_unprivileged)
{
	/* mov [rdi + rcx*4 - 4], eax */
	static const u8 st[] = {0x89, 0x44, 0x8f, 0xfc};
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	user_regs(&r, 0x200, st, sizeof(st));
	r.gpr[PP_REG_DI] = USER_BIG + 0x10000000;
	r.gpr[PP_REG_CX] = 3;
	dataaddr__fill(&a, &r, ALL_FLAGS, false, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a.data_addr, USER_BIG + 0x10000008);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_1G);
	ck_assert_uint_eq(a.access, X86_ACC_STORE);
	ck_assert_uint_eq(a.access_size, 4);
	/* not privileged: no physical addresses even though PHYS_ADDR was asked */
	ck_assert_uint_eq(a.data_phys, 0);
	ck_assert_uint_eq(a.code_phys, 0);
	ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_4K);

	/* privileged but PHYS_ADDR not asked */
	dataaddr__fill(&a, &r, PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE, true, false);
	ck_assert_uint_eq(a.data_phys, 0);
	ck_assert_uint_eq(a.code_phys, 0);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_1G);

	/* privileged and asked */
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.data_phys, USER_BIG_PA + 0x10000008);
	ck_assert_uint_eq(a.data_node1, 0); /* the platform knows no node there */
}
END_TEST

/* The data page's NUMA node goes to every opener (a node, not an address):
 * the unprivileged one gets it without data_phys (issue 20). */
START_TEST(test_data_node_without_phys)
{
	static const u8 st[] = {0x89, 0x44, 0x8f, 0xfc}; /* mov [rdi + rcx*4 - 4], eax */
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	ck_assert_int_eq(plat_test_phys_node(0, USER_BIG_PA, 0), 0);
	ck_assert_int_eq(plat_test_phys_node(USER_BIG_PA, USER_BIG_PA + 0x40000000ull, 3), 0);
	user_regs(&r, 0x200, st, sizeof(st));
	r.gpr[PP_REG_DI] = USER_BIG + 0x10000000;
	r.gpr[PP_REG_CX] = 3;
	dataaddr__fill(&a, &r, ALL_FLAGS, false, false);
	ck_assert_uint_eq(a.data_phys, 0);
	ck_assert_uint_eq(a.data_node1, 3 + 1);
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.data_phys, USER_BIG_PA + 0x10000008);
	ck_assert_uint_eq(a.data_node1, 3 + 1);
	/* the same through the PEBS path (address known) */
	dataaddr__fill_known(&a, &r, ALL_FLAGS, false, true, USER_DATA + 8, PMUPROF_ADDR_SRC_PEBS,
			     PMUPROF_ADDR_PREC_EXACT);
	ck_assert_uint_eq(a.data_node1, 0 + 1);
	/* no data access: no node */
	dataaddr__fill_known(&a, &r, ALL_FLAGS, false, false, 0, PMUPROF_ADDR_SRC_PEBS,
			     PMUPROF_ADDR_PREC_EXACT);
	ck_assert_uint_eq(a.data_node1, 0);
}
END_TEST

START_TEST(test_kernel_sample_hidden)
{
	/* mov rax, gs:[0x10] */
	static const u8 gs[] = {0x65, 0x48, 0x8b, 0x04, 0x25, 0x10, 0x00, 0x00, 0x00};
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	kern_regs(&r, 0x40, gs, sizeof(gs));
	r.gs_base = KERN_DATA;
	dataaddr__fill(&a, &r, ALL_FLAGS, false, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_HIDDEN);
	ck_assert_uint_eq(a.data_addr, 0);
	ck_assert_uint_eq(a.data_phys, 0);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_UNKNOWN);
	ck_assert_uint_eq(a.addr_source, PMUPROF_ADDR_SRC_NONE);
	ck_assert_uint_eq(a.precision, PMUPROF_ADDR_PREC_NONE);
	ck_assert_uint_eq(a.access, X86_ACC_LOAD);
	ck_assert_uint_eq(a.access_size, 8);
	ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_2M);

	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a.data_addr, KERN_DATA + 0x10);
	ck_assert_uint_eq(a.data_phys, KERN_DATA_PA + 0x10);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_4K);
	ck_assert_uint_eq(a.code_phys, KERN_TEXT_PA + 0x40);
	ck_assert_uint_eq(plat_test_mem_user_copies(), 0); /* kernel ip: nofault copy only */
	ck_assert_uint_ge(plat_test_mem_kernel_copies(), 1);
}
END_TEST

START_TEST(test_kernel_sample_user_address)
{
	/* copy_from_user-style load from a user address in kernel mode is shown */
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	kern_regs(&r, 0x80, MOV_LOAD, sizeof(MOV_LOAD));
	r.gpr[PP_REG_BX] = USER_DATA;
	dataaddr__fill(&a, &r, ALL_FLAGS, false, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a.data_addr, USER_DATA + 8);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_2M);
}
END_TEST

START_TEST(test_no_mem_operand)
{
	static const u8 nop[] = {0x90};
	static const u8 lea[] = {0x48, 0x8d, 0x43, 0x08};  /* lea rax, [rbx + 8] */
	static const u8 nopl[] = {0x0f, 0x1f, 0x40, 0x00}; /* nopl 0(%rax) */
	static const u8 clflush[] = {0x0f, 0xae, 0x38};	   /* clflush (%rax) */
	const u8 *cases[] = {nop, lea, nopl, clflush};
	const size_t lens[] = {sizeof(nop), sizeof(lea), sizeof(nopl), sizeof(clflush)};
	unsigned int i;

	for (i = 0; i < PP_ARRAY_SIZE(cases); i++) {
		struct pmuprof_sample_addr a;
		struct pp_regs r;

		user_regs(&r, 0x300, cases[i], lens[i]);
		r.gpr[PP_REG_BX] = USER_DATA;
		r.gpr[PP_REG_AX] = USER_DATA;
		dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
		ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_NO_MEM_OPERAND);
		ck_assert_uint_eq(a.data_addr, 0);
		ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_UNKNOWN);
		ck_assert_uint_eq(a.addr_source, PMUPROF_ADDR_SRC_NONE);
		ck_assert_uint_eq(a.access, 0);
		ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_4K);
	}
}
END_TEST

START_TEST(test_fetch_fault)
{
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	memset(&r, 0, sizeof(r));
	r.user = true;
	r.ip = 0x0000000000900000ull; /* nothing mapped there */
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_FETCH_FAULT);
	ck_assert_uint_eq(a.data_addr, 0);
	ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_UNKNOWN);
	ck_assert_uint_eq(a.code_phys, 0);

	r.user = false;
	r.ip = 0xffffffffa0000000ull;
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_FETCH_FAULT);
}
END_TEST

/* Instruction in the last bytes of a page whose successor is unmapped. */
START_TEST(test_fetch_at_page_end)
{
	unsigned int mode;

	for (mode = 0; mode < 2; mode++) {
		struct pmuprof_sample_addr a;
		struct pp_regs r;
		unsigned int before;

		plat_test_mem_user_all_or_nothing(mode == 1);
		/* fits: 4 bytes ending exactly at the page end */
		user_regs(&r, 4096 - sizeof(MOV_LOAD), MOV_LOAD, sizeof(MOV_LOAD));
		r.gpr[PP_REG_BX] = USER_DATA;
		before = plat_test_mem_user_copies();
		dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
		ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
		ck_assert_uint_eq(a.data_addr, USER_DATA + 8);
		ck_assert_uint_le(plat_test_mem_user_copies() - before, 2);

		/* does not fit: mov rax, [rbx + 0x1000] (7 bytes) with 3 on the page */
		{
			static const u8 longer[] = {0x48, 0x8b, 0x83, 0x00, 0x10, 0x00, 0x00};

			user_regs(&r, 4096 - 3, longer, 3);
			dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
			ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_FETCH_FAULT);
			ck_assert_uint_eq(a.data_addr, 0);
		}
	}

	/* kernel: nofault copy is all or nothing, the retry must still work */
	{
		struct pmuprof_sample_addr a;
		struct pp_regs r;
		unsigned int before = plat_test_mem_kernel_copies();

		kern_regs(&r, 4096 - sizeof(MOV_LOAD), MOV_LOAD, sizeof(MOV_LOAD));
		r.gpr[PP_REG_BX] = USER_DATA;
		dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
		ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
		ck_assert_uint_eq(a.data_addr, USER_DATA + 8);
		ck_assert_uint_eq(plat_test_mem_kernel_copies() - before, 2);
	}
}
END_TEST

START_TEST(test_fetch_direct)
{
	u8 buf[X86_MAX_INSN_LEN];
	struct pp_regs r;

	user_regs(&r, 0x10, MOV_LOAD, sizeof(MOV_LOAD));
	ck_assert_uint_eq(dataaddr__fetch(&r, buf), X86_MAX_INSN_LEN);
	ck_assert_mem_eq(buf, MOV_LOAD, sizeof(MOV_LOAD));
	r.ip = USER_CODE + 4096 - 5;
	ck_assert_uint_eq(dataaddr__fetch(&r, buf), 5);
	plat_test_mem_user_all_or_nothing(true);
	ck_assert_uint_eq(dataaddr__fetch(&r, buf), 5);
}
END_TEST

START_TEST(test_undecodable)
{
	static const u8 invalid[] = {0x06};				 /* push es in 64-bit */
	static const u8 gather[] = {0xc4, 0xe2, 0x6d, 0x90, 0x04, 0x88}; /* vpgatherdd */
	static const u8 bndldx[] = {0x0f, 0x1a, 0x04, 0x18};
	const u8 *cases[] = {invalid, gather, bndldx};
	const size_t lens[] = {sizeof(invalid), sizeof(gather), sizeof(bndldx)};
	const u8 access[] = {0, X86_ACC_LOAD, X86_ACC_LOAD};
	unsigned int i;

	for (i = 0; i < PP_ARRAY_SIZE(cases); i++) {
		struct pmuprof_sample_addr a;
		struct pp_regs r;

		user_regs(&r, 0x400, cases[i], lens[i]);
		dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
		ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_UNDECODABLE);
		ck_assert_uint_eq(a.data_addr, 0);
		ck_assert_uint_eq(a.addr_source, PMUPROF_ADDR_SRC_NONE);
		ck_assert_uint_eq(a.access, access[i]);
	}
}
END_TEST

START_TEST(test_unmapped_data_and_stack)
{
	/* push rax: store to [rsp - 8], rsp in an unmapped page */
	static const u8 push[] = {0x50};
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	user_regs(&r, 0x500, push, sizeof(push));
	r.gpr[PP_REG_SP] = 0x00007ffd00001000ull;
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a.data_addr, 0x00007ffd00000ff8ull);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_UNKNOWN);
	ck_assert_uint_eq(a.data_phys, 0);
	ck_assert_uint_eq(a.access, X86_ACC_STORE);
	ck_assert_uint_eq(a.access_size, 8);
}
END_TEST

START_TEST(test_flags_select_work)
{
	struct pmuprof_sample_addr a;
	struct pp_regs r;
	unsigned int reads;

	user_regs(&r, 0x600, MOV_LOAD, sizeof(MOV_LOAD));
	r.gpr[PP_REG_BX] = USER_DATA;

	/* code page only: nothing fetched, one walk */
	reads = plat_test_pt_reads();
	dataaddr__fill(&a, &r, PMUPROF_CF_CODE_PAGE, true, false);
	ck_assert_uint_eq(plat_test_mem_user_copies(), 0);
	ck_assert_uint_eq(plat_test_pt_reads() - reads, 4);
	ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_4K);
	ck_assert_uint_eq(a.data_addr, 0);
	ck_assert_uint_eq(a.addr_source, PMUPROF_ADDR_SRC_NONE);

	/* data only: one walk for the 2M data page (3 reads), no code walk */
	reads = plat_test_pt_reads();
	dataaddr__fill(&a, &r, PMUPROF_CF_DATA_ADDR, true, false);
	ck_assert_uint_eq(plat_test_pt_reads() - reads, 3);
	ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_UNKNOWN);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_2M);

	/* everything: bounded by 2 walks of at most 5 reads */
	reads = plat_test_pt_reads();
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_le(plat_test_pt_reads() - reads, 10);
}
END_TEST

START_TEST(test_compat_mode)
{
	/* 32-bit: mov eax, [ebx + esi*4 + 0x10] */
	static const u8 ld[] = {0x8b, 0x44, 0xb3, 0x10};
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	plat_test_pt_map(0x08000000ull, 0x22200000ull, PMUPROF_PAGE_2M);
	user_regs(&r, 0x700, ld, sizeof(ld));
	r.compat = true;
	r.gpr[PP_REG_BX] = 0x08000000;
	r.gpr[PP_REG_SI] = 0x10;
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a.data_addr, 0x08000050);
	ck_assert_uint_eq(a.data_phys, 0x22200050);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_2M);
	ck_assert_uint_eq(a.access_size, 4);
}
END_TEST

START_TEST(test_5level_paging)
{
	struct pmuprof_sample_addr a;
	struct pp_regs r;

	plat_test_pt_init(5);
	plat_test_pt_map(USER_CODE, USER_CODE_PA, PMUPROF_PAGE_4K);
	plat_test_pt_map(0x00ff7f0000000000ull, 0x0000000180000000ull, PMUPROF_PAGE_1G);
	user_regs(&r, 0x800, MOV_LOAD, sizeof(MOV_LOAD));
	r.gpr[PP_REG_BX] = 0x00ff7f0000000000ull + 0x1000;
	dataaddr__fill(&a, &r, ALL_FLAGS, true, false);
	ck_assert_uint_eq(a.addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a.data_page, PMUPROF_PAGE_1G);
	ck_assert_uint_eq(a.data_phys, 0x0000000180001008ull);
	ck_assert_uint_eq(a.code_page, PMUPROF_PAGE_4K);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dataaddr");
	pp_tcase(s, "dataaddr", setup, NULL,
		 PP_TESTS(test_user_load_full, test_store_1g_and_unprivileged,
			  test_data_node_without_phys, test_kernel_sample_hidden,
			  test_kernel_sample_user_address, test_no_mem_operand, test_fetch_fault,
			  test_fetch_at_page_end, test_fetch_direct, test_undecodable,
			  test_unmapped_data_and_stack, test_flags_select_work, test_compat_mode,
			  test_5level_paging));
	return pp_check_run(s);
}
