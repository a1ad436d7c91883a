/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 paging structures as data (SDM vol.3A ch.4.5 "4-level paging and
 * 5-level paging", tables 4-15..4-20). The page walker (kernel/nmi/pagewalk.c)
 * uses only these names; no bit number appears in its logic.
 *
 * Levels are numbered as the SDM counts them from the bottom:
 *   level 1 = PT   (4 KiB pages)      index = VA[20:12]
 *   level 2 = PD   (2 MiB if PS=1)    index = VA[29:21]
 *   level 3 = PDPT (1 GiB if PS=1)    index = VA[38:30]
 *   level 4 = PML4                    index = VA[47:39]
 *   level 5 = PML5 (LA57 only)        index = VA[56:48]
 */
#ifndef PMUPROF_X86_PAGING_H
#define PMUPROF_X86_PAGING_H

#include "pmuprof/types.h"

/* Entry bits common to every level. */
#define X86_PTE_PRESENT	  (1ull << 0) /* P */
#define X86_PTE_RW	  (1ull << 1) /* R/W */
#define X86_PTE_USER	  (1ull << 2) /* U/S */
#define X86_PTE_PWT	  (1ull << 3)
#define X86_PTE_PCD	  (1ull << 4)
#define X86_PTE_ACCESSED  (1ull << 5)
#define X86_PTE_DIRTY	  (1ull << 6) /* only in entries that map a page */
#define X86_PTE_PS	  (1ull << 7) /* page size: in PDPTE (1G) and PDE (2M) */
#define X86_PTE_GLOBAL	  (1ull << 8)
#define X86_PTE_PAT_LARGE (1ull << 12) /* PAT bit of a 2M/1G mapping */
#define X86_PTE_NX	  (1ull << 63)

/* Physical-address field, bits 51:12 (MAXPHYADDR is at most 52). Bits 62:52
 * are ignored/protection-key bits and bit 63 is XD: never part of the
 * address. */
#define X86_PTE_ADDR_MASK 0x000ffffffffff000ull

/* Geometry. */
#define X86_PAGE_SHIFT_4K 12
#define X86_PAGE_SHIFT_2M 21
#define X86_PAGE_SHIFT_1G 30
#define X86_PT_INDEX_BITS 9
#define X86_PT_ENTRIES	  (1u << X86_PT_INDEX_BITS)
#define X86_PT_INDEX_MASK (X86_PT_ENTRIES - 1)
#define X86_PT_LEVEL_PT	  1
#define X86_PT_LEVEL_PD	  2
#define X86_PT_LEVEL_PDPT 3
#define X86_PT_LEVEL_PML4 4
#define X86_PT_LEVEL_PML5 5

/* CR3 / root: the table address is bits 51:12; the low bits carry PCID or
 * PWT/PCD and bit 63 is the no-flush hint. */
#define X86_CR3_ADDR_MASK X86_PTE_ADDR_MASK

/* Linear-address width: 48 bits with 4-level paging, 57 with 5-level. */
#define X86_VA_BITS_4LEVEL 48
#define X86_VA_BITS_5LEVEL 57

/* Shift of the VA bits that index the table at `level` (1..5). */
static inline unsigned int x86_pt_shift(unsigned int level)
{
	return X86_PAGE_SHIFT_4K + X86_PT_INDEX_BITS * (level - 1);
}

static inline unsigned int x86_pt_index(u64 va, unsigned int level)
{
	return (unsigned int)(va >> x86_pt_shift(level)) & X86_PT_INDEX_MASK;
}

/* A linear address is canonical when bits 63..(width-1) are all equal. */
static inline bool x86_va_canonical(u64 va, unsigned int va_bits)
{
	s64 sx = (s64)(va << (64 - va_bits)) >> (64 - va_bits);

	return (u64)sx == va;
}

#endif /* PMUPROF_X86_PAGING_H */
