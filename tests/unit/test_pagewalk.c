// SPDX-License-Identifier: GPL-2.0
/*
 * Page walker against synthetic page tables (tests/unit/platform_test_mem.c):
 * 4K/2M/1G leaves in 4- and 5-level mode, not-present at every level, PS
 * where it is reserved, read faults, non-canonical addresses, stray bits in
 * entries, and the 5-read bound.
 */
#include <check.h>
#include <stdio.h>

#include "pmuprof/types.h"
#include "pmuprof/x86_paging.h"
#include "include/uapi/pmuprof.h"
#include "kernel/nmi/pagewalk.h"
#include "platform_test_mem.h"
#include "check_main.h"

#define VA_4K	0x00007f0000401000ull
#define PA_4K	0x0000000123456000ull
#define VA_2M	0x00007f0040200000ull
#define PA_2M	0x0000000080000000ull
#define VA_1G	0x00007f0080000000ull
#define PA_1G	0x0000004000000000ull
#define VA_KERN 0xffff888000200000ull
#define VA_5L	0x00a0001234567000ull /* needs LA57: bits 55..48 non-zero */

static void setup(void)
{
	plat_test_mem_reset();
}

static void map_all(void)
{
	ck_assert_int_eq(plat_test_pt_map(VA_4K, PA_4K, PMUPROF_PAGE_4K), 0);
	ck_assert_int_eq(plat_test_pt_map(VA_2M, PA_2M, PMUPROF_PAGE_2M), 0);
	ck_assert_int_eq(plat_test_pt_map(VA_1G, PA_1G, PMUPROF_PAGE_1G), 0);
	ck_assert_int_eq(plat_test_pt_map(VA_KERN, PA_2M + (2ull << 20), PMUPROF_PAGE_2M), 0);
}

START_TEST(test_leaf_sizes_4level)
{
	struct pagewalk_result r;

	map_all();
	ck_assert_int_eq(pagewalk__translate(VA_4K + 0x123, &r), 0);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_4K);
	ck_assert_uint_eq(r.phys, PA_4K + 0x123);
	ck_assert_uint_eq(r.reads, 4);
	ck_assert_uint_eq(r.level, 1);

	ck_assert_int_eq(pagewalk__translate(VA_2M + 0x12345, &r), 0);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_2M);
	ck_assert_uint_eq(r.phys, PA_2M + 0x12345);
	ck_assert_uint_eq(r.reads, 3);
	ck_assert_uint_eq(r.level, 2);

	/* last byte of the 2M page */
	ck_assert_int_eq(pagewalk__translate(VA_2M + 0x1fffff, &r), 0);
	ck_assert_uint_eq(r.phys, PA_2M + 0x1fffff);

	ck_assert_int_eq(pagewalk__translate(VA_1G + 0x3456789, &r), 0);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_1G);
	ck_assert_uint_eq(r.phys, PA_1G + 0x3456789);
	ck_assert_uint_eq(r.reads, 2);
	ck_assert_uint_eq(r.level, 3);

	/* kernel half of the address space, same root */
	ck_assert_int_eq(pagewalk__translate(VA_KERN + 0x10, &r), 0);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_2M);
	ck_assert_uint_eq(r.phys, PA_2M + (2ull << 20) + 0x10);

	/* the 4K page next to a mapped one is not mapped */
	ck_assert_int_eq(pagewalk__translate(VA_4K + 0x1000, &r), -ENOENT);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_UNKNOWN);
	ck_assert_uint_eq(r.phys, 0);
}
END_TEST

/* Clearing P at each level on the way to a 4K page stops the walk there. */
START_TEST(test_not_present_each_level)
{
	unsigned int levels = (unsigned int)_i ? 5 : 4;
	unsigned int level;

	for (level = levels; level >= 1; level--) {
		struct pagewalk_result r;
		u64 *e;

		plat_test_pt_init(levels);
		ck_assert_int_eq(plat_test_pt_map(VA_4K, PA_4K, PMUPROF_PAGE_4K), 0);
		ck_assert_int_eq(pagewalk__translate(VA_4K, &r), 0);
		e = plat_test_pt_entry(VA_4K, level);
		ck_assert_ptr_nonnull(e);
		*e &= ~X86_PTE_PRESENT;
		ck_assert_int_eq(pagewalk__translate(VA_4K + 8, &r), -ENOENT);
		ck_assert_uint_eq(r.level, level);
		ck_assert_uint_eq(r.reads, levels - level + 1);
		ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_UNKNOWN);
		ck_assert_uint_eq(r.phys, 0);
	}
}
END_TEST

/* Not present at the leaf of 2M and 1G mappings. */
START_TEST(test_not_present_huge)
{
	struct pagewalk_result r;
	u64 *e;

	map_all();
	e = plat_test_pt_entry(VA_2M, X86_PT_LEVEL_PD);
	ck_assert(*e & X86_PTE_PS);
	*e &= ~X86_PTE_PRESENT;
	ck_assert_int_eq(pagewalk__translate(VA_2M, &r), -ENOENT);
	ck_assert_uint_eq(r.level, 2);
	e = plat_test_pt_entry(VA_1G, X86_PT_LEVEL_PDPT);
	ck_assert(*e & X86_PTE_PS);
	*e &= ~X86_PTE_PRESENT;
	ck_assert_int_eq(pagewalk__translate(VA_1G, &r), -ENOENT);
	ck_assert_uint_eq(r.level, 3);
}
END_TEST

START_TEST(test_5level)
{
	struct pagewalk_result r;

	plat_test_pt_init(5);
	ck_assert_uint_eq(plat_paging_levels(), 5);
	ck_assert_int_eq(plat_test_pt_map(VA_5L, PA_4K, PMUPROF_PAGE_4K), 0);
	ck_assert_int_eq(plat_test_pt_map(VA_2M, PA_2M, PMUPROF_PAGE_2M), 0);
	ck_assert_int_eq(plat_test_pt_map(VA_1G, PA_1G, PMUPROF_PAGE_1G), 0);
	ck_assert_int_eq(plat_test_pt_map(0xff00000000000000ull, PA_1G, PMUPROF_PAGE_1G), 0);

	ck_assert_int_eq(pagewalk__translate(VA_5L + 0xabc, &r), 0);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_4K);
	ck_assert_uint_eq(r.phys, PA_4K + 0xabc);
	ck_assert_uint_eq(r.reads, 5);

	ck_assert_int_eq(pagewalk__translate(VA_2M + 0x54321, &r), 0);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_2M);
	ck_assert_uint_eq(r.phys, PA_2M + 0x54321);
	ck_assert_uint_eq(r.reads, 4);

	ck_assert_int_eq(pagewalk__translate(VA_1G + 0x3ffffff8, &r), 0);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_1G);
	ck_assert_uint_eq(r.phys, PA_1G + 0x3ffffff8);
	ck_assert_uint_eq(r.reads, 3);

	/* a kernel address that only 5-level paging makes canonical */
	ck_assert_int_eq(pagewalk__translate(0xff00000000000100ull, &r), 0);
	ck_assert_uint_eq(r.phys, PA_1G + 0x100);

	/* different PML5 index, same lower indices: not mapped */
	ck_assert_int_eq(pagewalk__translate(VA_5L ^ (1ull << 48), &r), -ENOENT);
	ck_assert_uint_eq(r.level, 5);

	/* the same VA is not canonical with 4 levels: no reads at all */
	plat_test_pt_init(4);
	ck_assert_int_eq(pagewalk__translate(VA_5L, &r), -EINVAL);
	ck_assert_uint_eq(r.reads, 0);
	ck_assert_uint_eq(plat_test_pt_reads(), 0);
}
END_TEST

START_TEST(test_noncanonical_and_bad_levels)
{
	struct pagewalk_result r;

	map_all();
	ck_assert_int_eq(pagewalk__translate(0x0000800000000000ull, &r), -EINVAL);
	ck_assert_int_eq(pagewalk__translate(0x8000000000000000ull, &r), -EINVAL);
	ck_assert_int_eq(pagewalk__walk(plat_test_pt_root(), 3, VA_4K, &r), -EINVAL);
	ck_assert_int_eq(pagewalk__walk(plat_test_pt_root(), 6, VA_4K, &r), -EINVAL);
	ck_assert_int_eq(pagewalk__walk(0, 4, VA_4K, &r), -ENOENT);
	ck_assert_uint_eq(r.reads, 0);
	/* CR3 flag bits (PCID, no-flush) are ignored */
	ck_assert_int_eq(pagewalk__walk(plat_test_pt_root() | 0x5 | (1ull << 63), 4, VA_4K, &r), 0);
	ck_assert_uint_eq(r.phys, PA_4K);
	plat_test_pt_set_root(0);
	ck_assert_int_eq(pagewalk__translate(VA_4K, &r), -ENOENT);
}
END_TEST

START_TEST(test_ps_reserved_in_pml4)
{
	struct pagewalk_result r;
	u64 *e;

	map_all();
	e = plat_test_pt_entry(VA_4K, X86_PT_LEVEL_PML4);
	*e |= X86_PTE_PS;
	ck_assert_int_eq(pagewalk__translate(VA_4K, &r), -EIO);
	ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_UNKNOWN);
	ck_assert_uint_eq(r.reads, 1);
}
END_TEST

/* Bits that are not address bits never leak into the physical address. */
START_TEST(test_entry_flag_bits)
{
	const u64 noise = X86_PTE_NX | (0xfull << 59) | X86_PTE_GLOBAL | X86_PTE_DIRTY;
	struct pagewalk_result r;
	u64 *e;

	map_all();
	e = plat_test_pt_entry(VA_2M, X86_PT_LEVEL_PD);
	*e |= noise | X86_PTE_PAT_LARGE;
	/* offsets with bit 12 clear, so a leaked PAT bit would show */
	ck_assert_int_eq(pagewalk__translate(VA_2M + 0x234, &r), 0);
	ck_assert_uint_eq(r.phys, PA_2M + 0x234);
	e = plat_test_pt_entry(VA_1G, X86_PT_LEVEL_PDPT);
	*e |= noise | X86_PTE_PAT_LARGE;
	ck_assert_int_eq(pagewalk__translate(VA_1G + 0x20000234, &r), 0);
	ck_assert_uint_eq(r.phys, PA_1G + 0x20000234);
	e = plat_test_pt_entry(VA_4K, X86_PT_LEVEL_PT);
	*e |= noise;
	ck_assert_int_eq(pagewalk__translate(VA_4K + 0x10, &r), 0);
	ck_assert_uint_eq(r.phys, PA_4K + 0x10);
	/* intermediate entries with stray high bits still lead to the next table */
	e = plat_test_pt_entry(VA_4K, X86_PT_LEVEL_PD);
	*e |= X86_PTE_NX;
	ck_assert_int_eq(pagewalk__translate(VA_4K + 0x10, &r), 0);
	ck_assert_uint_eq(r.phys, PA_4K + 0x10);
}
END_TEST

START_TEST(test_read_fault_each_read)
{
	unsigned int nth;

	map_all();
	for (nth = 1; nth <= 4; nth++) {
		struct pagewalk_result r;

		plat_test_pt_fail_read(nth);
		ck_assert_int_eq(pagewalk__translate(VA_4K, &r), -EFAULT);
		ck_assert_uint_eq(r.reads, nth);
		ck_assert_uint_eq(r.page_size, PMUPROF_PAGE_UNKNOWN);
		plat_test_pt_fail_read(0);
	}
}
END_TEST

/* Huge pages: the offset inside the page always equals the VA's offset. */
START_TEST(test_offset_arithmetic)
{
	static const struct {
		unsigned int size;
		unsigned int shift;
	} sz[] = {{PMUPROF_PAGE_4K, 12}, {PMUPROF_PAGE_2M, 21}, {PMUPROF_PAGE_1G, 30}};
	unsigned int i, k;

	for (i = 0; i < PP_ARRAY_SIZE(sz); i++) {
		u64 va = 0x00007e0000000000ull + (5ull << sz[i].shift);
		u64 pa = 0x0000002000000000ull + (3ull << sz[i].shift);

		plat_test_pt_init(4);
		ck_assert_int_eq(plat_test_pt_map(va, pa, sz[i].size), 0);
		for (k = 0; k < 64; k++) {
			u64 off = (0x9e3779b97f4a7c15ull * (k + 1)) & ((1ull << sz[i].shift) - 1);
			struct pagewalk_result r;

			ck_assert_int_eq(pagewalk__translate(va + off, &r), 0);
			ck_assert_uint_eq(r.page_size, sz[i].size);
			ck_assert_uint_eq(r.phys, pa + off);
			ck_assert_uint_eq(r.phys & ((1ull << sz[i].shift) - 1), off);
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pagewalk");
	TCase *tc = pp_tcase(s, "pagewalk", setup, NULL,
			     PP_TESTS(test_leaf_sizes_4level, test_not_present_huge, test_5level,
				      test_noncanonical_and_bad_levels, test_ps_reserved_in_pml4,
				      test_entry_flag_bits, test_read_fault_each_read,
				      test_offset_arithmetic));
	tcase_add_loop_test(tc, test_not_present_each_level, 0, 2);
	return pp_check_run(s);
}
