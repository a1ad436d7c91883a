/* SPDX-License-Identifier: MIT */
/*
 * TLB sizes the huge-page verdict measures reach against: hardware facts as
 * named fields, one row per documented CPU family, matched against the
 * recording's CPU model name; the first row is the stated default for
 * models pmuconv does not know (the verdict names which row it used).
 *
 * Sources: Intel 64 and IA-32 Architectures Optimization Reference Manual
 * (Skylake microarchitecture: DTLB 64 entries for 4K pages, 32 for 2M/4M,
 * 4 for 1G; STLB 1536 entries shared by 4K and 2M pages, 16 for 1G).
 * Only the default row exists today: a model name does not tell the
 * microarchitecture reliably (one brand spans generations with different
 * TLBs), so rows are added only with a match that does.
 */
#ifndef PMUCONV_TLBINFO_H
#define PMUCONV_TLBINFO_H

#include <stddef.h>
#include <string.h>

struct ps_tlb {
	const char *match; /* substring of the CPU model name; NULL: the default */
	const char *name;  /* what the verdict prints */
	unsigned l1d_4k;   /* first-level data TLB entries for 4K pages */
	unsigned l1d_2m;   /* ... for 2M pages */
	unsigned stlb;	   /* second-level TLB entries, shared by 4K and 2M pages */
};

static const struct ps_tlb ps_tlb_table[] = {
	{NULL, "Intel Skylake (stated default)", 64, 32, 1536},
};

/* The row for a CPU model name: the first whose match it contains, else
 * the default (row 0). */
static inline const struct ps_tlb *ps_tlb_for(const char *cpu_model)
{
	for (size_t i = 1; i < sizeof(ps_tlb_table) / sizeof(ps_tlb_table[0]); i++)
		if (cpu_model && strstr(cpu_model, ps_tlb_table[i].match))
			return &ps_tlb_table[i];
	return &ps_tlb_table[0];
}

#endif
