// SPDX-License-Identifier: GPL-2.0
/* Lockless page-table walk; see pagewalk.h. */
#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "pmuprof/x86_paging.h"
#include "../../include/uapi/pmuprof.h"
#include "pagewalk.h"

/* Page size an entry with PS=1 (or a PTE at level 1) maps at `level`. */
static u8 pagewalk_size_at(unsigned int level)
{
	switch (level) {
	case X86_PT_LEVEL_PT:
		return PMUPROF_PAGE_4K;
	case X86_PT_LEVEL_PD:
		return PMUPROF_PAGE_2M;
	case X86_PT_LEVEL_PDPT:
		return PMUPROF_PAGE_1G;
	default:
		return PMUPROF_PAGE_UNKNOWN;
	}
}

int pagewalk__walk(u64 root, unsigned int levels, u64 vaddr, struct pagewalk_result *res)
{
	u64 table = root & X86_CR3_ADDR_MASK;
	unsigned int level;
	unsigned int va_bits;

	res->phys = 0;
	res->page_size = PMUPROF_PAGE_UNKNOWN;
	res->level = 0;
	res->reads = 0;

	if (levels == X86_PT_LEVEL_PML4)
		va_bits = X86_VA_BITS_4LEVEL;
	else if (levels == X86_PT_LEVEL_PML5)
		va_bits = X86_VA_BITS_5LEVEL;
	else
		return -EINVAL;
	if (!x86_va_canonical(vaddr, va_bits))
		return -EINVAL;
	if (!table)
		return -ENOENT;

	/* Bounded: exactly one read per level, levels <= 5. */
	for (level = levels; level >= X86_PT_LEVEL_PT; level--) {
		unsigned int shift = x86_pt_shift(level);
		u64 entry;

		res->level = (u8)level;
		res->reads++;
		if (plat_read_pte(table, x86_pt_index(vaddr, level), &entry))
			return -EFAULT;
		if (!(entry & X86_PTE_PRESENT))
			return -ENOENT;
		if (level == X86_PT_LEVEL_PT ||
		    ((entry & X86_PTE_PS) && level <= X86_PT_LEVEL_PDPT)) {
			/* Leaf. For 2M/1G the address field's low bits below
			 * the page size hold PAT (bit 12) and reserved bits:
			 * mask them out with the page-size mask. */
			u64 page_mask = (1ull << shift) - 1;
			u64 base = entry & X86_PTE_ADDR_MASK & ~page_mask;

			res->phys = base | (vaddr & page_mask);
			res->page_size = pagewalk_size_at(level);
			return 0;
		}
		if (entry & X86_PTE_PS)
			return -EIO; /* PS is reserved in PML4E/PML5E */
		table = entry & X86_PTE_ADDR_MASK;
	}
	return -ENOENT; /* not reached: level 1 always returns */
}
PP_NOKPROBE(pagewalk__walk);

int pagewalk__translate(u64 vaddr, struct pagewalk_result *res)
{
	return pagewalk__walk(plat_pgtable_root(vaddr), plat_paging_levels(), vaddr, res);
}
PP_NOKPROBE(pagewalk__translate);
