/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host test platform: mem part. See platform_test.h.
 *
 * Fake memory: tests register regions of user or kernel address space
 * backed by their own buffers (not copied: the test keeps the buffer alive
 * and may change it). Everything not covered by a region faults.
 *   plat_copy_user_nmi()       copies the longest mapped prefix (byte by
 *                              byte over adjacent regions) and returns the
 *                              bytes not copied, like copy_from_user_nmi();
 *                              with plat_test_mem_user_all_or_nothing(true)
 *                              it copies nothing when any byte faults (the
 *                              worst case the real one is allowed).
 *   plat_copy_kernel_nofault() all or nothing, 0 or -EFAULT.
 *   plat_user_fp_walk()        one batch per call (refused on request:
 *                              -1), the walk of kernel/nmi/fpwalk.h over
 *                              plat_copy_user_nmi() reads of 16 bytes, all
 *                              or nothing.
 *
 * Fake page tables: a pool of 4 KiB tables at fake physical addresses
 * (PLAT_TEST_PT_PHYS_BASE + i * 4096). plat_test_pt_init(levels) creates an
 * empty root; plat_test_pt_map() maps a 4K/2M/1G page, creating the tables
 * on the way; plat_test_pt_entry() gives a pointer to any entry so tests can
 * clear bits or plant odd values. One root serves user and kernel halves
 * (as Linux's pgd does); plat_test_pt_set_root() overrides it (0 = no mm).
 */
#ifndef PLATFORM_TEST_MEM_H
#define PLATFORM_TEST_MEM_H

#include "pmuprof/platform.h"

void plat_test_mem_reset(void);

/* --- fake memory ------------------------------------------------------- */
#define PLAT_TEST_MEM_MAX_REGIONS 16
/* 0, or -ENOSPC when the region table is full. */
int plat_test_mem_map_user(u64 addr, void *buf, size_t len);
int plat_test_mem_map_kernel(u64 addr, void *buf, size_t len);
void plat_test_mem_user_all_or_nothing(bool on);
/* plat_test_mem_reset(), then two 4 KiB code pages filled with int3 (0xcc)
 * mapped at user address user_code and kernel address kern_text: the
 * pages tests write the instructions they decode into. 0 or -ENOSPC. */
extern u8 plat_test_user_code[4096], plat_test_kern_code[4096];
int plat_test_mem_code_pages(u64 user_code, u64 kern_text);
/* Calls made so far (to check that code does not read more than needed). */
unsigned int plat_test_mem_user_copies(void);
unsigned int plat_test_mem_kernel_copies(void);
/* Make plat_user_fp_walk() refuse (no batch: CR3 not current's). */
void plat_test_mem_user_batch_refuse(bool on);
/* Batched walks done (plat_user_fp_walk calls that were not refused). */
unsigned int plat_test_mem_user_batches(void);

/* --- fake page tables ------------------------------------------------- */
#define PLAT_TEST_PT_PHYS_BASE	0x10000000ull
#define PLAT_TEST_PT_MAX_TABLES 64

/* Fresh tables with `levels` (4 or 5) levels; sets plat_paging_levels(). */
void plat_test_pt_init(unsigned int levels);
/* Map the page of size `page_size` (enum pmuprof_page_size: 4K/2M/1G)
 * containing va to the page at pa (both aligned down to the page size).
 * Returns 0, -ENOSPC when the table pool is exhausted, -EEXIST when a
 * bigger page already maps the range, -EINVAL for a bad size. */
int plat_test_pt_map(u64 va, u64 pa, unsigned int page_size);
/* The entry at `level` (5..1) on va's path, or NULL if the walk does not
 * reach that level (a table missing or a huge page above it). */
u64 *plat_test_pt_entry(u64 va, unsigned int level);
void plat_test_pt_set_root(u64 root);
u64 plat_test_pt_root(void);
/* Make the nth plat_read_pte() call from now (1-based) fail with -EFAULT;
 * 0 disables. */
void plat_test_pt_fail_read(unsigned int nth);
unsigned int plat_test_pt_reads(void);
/* plat_phys_to_node(): physical [start, end) is on node (up to 8 ranges,
 * cleared by plat_test_mem_reset); elsewhere -1. 0 or -ENOSPC. */
int plat_test_phys_node(u64 start, u64 end, int node);

#endif
