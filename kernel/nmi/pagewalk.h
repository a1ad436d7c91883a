/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lockless x86-64 page-table walk for one linear address: page size backing
 * it (4K / 2M / 1G) and its physical address. Used from NMI context for
 * sampled data addresses and IPs.
 *
 * Cost: at most plat_paging_levels() <= 5 calls of plat_read_pte(), no
 * loops over anything else. Every entry is read exactly once and only the
 * copy is inspected, so a concurrent update is seen either before or after,
 * never half-way (each entry is one aligned 64-bit load). Keeping the table
 * pages themselves alive during the walk is the platform's job: on Linux an
 * NMI runs with interrupts off, which holds off the TLB-shootdown IPI that
 * freeing a page table waits for (the same argument as
 * perf_get_page_size()/gup_fast).
 */
#ifndef PMUPROF_PAGEWALK_H
#define PMUPROF_PAGEWALK_H

#include "pmuprof/types.h"

struct pagewalk_result {
	u64 phys;     /* physical address of vaddr; 0 on failure */
	u8 page_size; /* enum pmuprof_page_size; PMUPROF_PAGE_UNKNOWN on failure */
	u8 level;     /* level of the entry that mapped (1..3) or stopped the walk */
	u8 reads;     /* plat_read_pte() calls made (<= 5) */
};

/*
 * Walk the tables rooted at physical address `root` (CR3-style: low flag
 * bits are ignored) with `levels` (4 or 5) levels. Returns 0 and fills
 * *res, or a negative errno with res->page_size = PMUPROF_PAGE_UNKNOWN:
 *   -EINVAL  levels is not 4 or 5, or vaddr is not canonical for it
 *   -ENOENT  root is 0 or an entry on the way is not present
 *   -EFAULT  plat_read_pte() could not read an entry
 *   -EIO     PS set where the architecture reserves it (PML4E/PML5E)
 */
int pagewalk__walk(u64 root, unsigned int levels, u64 vaddr, struct pagewalk_result *res);

/* Same, for the current context: root from plat_pgtable_root(vaddr), levels
 * from plat_paging_levels(). [NMI] */
int pagewalk__translate(u64 vaddr, struct pagewalk_result *res);

#endif /* PMUPROF_PAGEWALK_H */
