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
#include <stdint.h>
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

/*
 * What an event counts, for the page-size answer (tlbevent.c classifies).
 * PS_EV_WALKS_*: page walks of one page size only.
 */
enum ps_ev_kind {
	PS_EV_OTHER = 0, /* anything else: shares are of that event */
	PS_EV_TIME,	 /* cpu-clock, cycles...: shares of time */
	PS_EV_WALKS,	 /* DTLB misses that walked, all page sizes */
	PS_EV_WALKS_4K,
	PS_EV_WALKS_2M,
	PS_EV_WALKS_1G,
	PS_EV_STLB_HIT, /* first-level DTLB misses that hit the STLB: no walk */
	PS_EV_ACCESSES, /* every load or store retired: accesses, not misses */
	PS_EV__NR
};

/*
 * The data-TLB events of Intel's core microarchitectures, by event select and
 * umask (IA32_PERFEVTSELx bits 7:0 and 15:8) with libpfm4's name. Source:
 * Intel SDM Vol. 3B, chapter 20 ("Performance Monitoring Events"), Skylake
 * table; Haswell through Ice Lake number DTLB_LOAD_MISSES (08H),
 * DTLB_STORE_MISSES (49H) and MEM_INST_RETIRED/MEM_UOPS_RETIRED (D0H) alike
 * for these umasks. Raw encodings are looked up here only on Intel family 6.
 */
struct ps_tlb_event {
	const char *name; /* libpfm4's PMU-less name, EVENT:UMASK */
	uint8_t select, umask;
	int kind; /* enum ps_ev_kind */
};

static const struct ps_tlb_event ps_tlb_events[] = {
	{"DTLB_LOAD_MISSES:MISS_CAUSES_A_WALK", 0x08, 0x01, PS_EV_WALKS},
	{"DTLB_LOAD_MISSES:WALK_COMPLETED_4K", 0x08, 0x02, PS_EV_WALKS_4K},
	{"DTLB_LOAD_MISSES:WALK_COMPLETED_2M_4M", 0x08, 0x04, PS_EV_WALKS_2M},
	{"DTLB_LOAD_MISSES:WALK_COMPLETED_1G", 0x08, 0x08, PS_EV_WALKS_1G},
	{"DTLB_LOAD_MISSES:WALK_COMPLETED", 0x08, 0x0e, PS_EV_WALKS},
	{"DTLB_LOAD_MISSES:STLB_HIT", 0x08, 0x20, PS_EV_STLB_HIT},
	{"DTLB_STORE_MISSES:MISS_CAUSES_A_WALK", 0x49, 0x01, PS_EV_WALKS},
	{"DTLB_STORE_MISSES:WALK_COMPLETED_4K", 0x49, 0x02, PS_EV_WALKS_4K},
	{"DTLB_STORE_MISSES:WALK_COMPLETED_2M_4M", 0x49, 0x04, PS_EV_WALKS_2M},
	{"DTLB_STORE_MISSES:WALK_COMPLETED_1G", 0x49, 0x08, PS_EV_WALKS_1G},
	{"DTLB_STORE_MISSES:WALK_COMPLETED", 0x49, 0x0e, PS_EV_WALKS},
	{"DTLB_STORE_MISSES:STLB_HIT", 0x49, 0x20, PS_EV_STLB_HIT},
	{"MEM_INST_RETIRED:STLB_MISS_LOADS", 0xd0, 0x11, PS_EV_WALKS},
	{"MEM_INST_RETIRED:STLB_MISS_STORES", 0xd0, 0x12, PS_EV_WALKS},
	{"MEM_INST_RETIRED:ALL_LOADS", 0xd0, 0x81, PS_EV_ACCESSES},
	{"MEM_INST_RETIRED:ALL_STORES", 0xd0, 0x82, PS_EV_ACCESSES},
	/* the same umasks under their pre-Skylake and Atom name */
	{"MEM_UOPS_RETIRED:STLB_MISS_LOADS", 0xd0, 0x11, PS_EV_WALKS},
	{"MEM_UOPS_RETIRED:STLB_MISS_STORES", 0xd0, 0x12, PS_EV_WALKS},
	{"MEM_UOPS_RETIRED:DTLB_MISS_LOADS", 0xd0, 0x11, PS_EV_WALKS},
	{"MEM_UOPS_RETIRED:DTLB_MISS_STORES", 0xd0, 0x12, PS_EV_WALKS},
	{"MEM_UOPS_RETIRED:ALL_LOADS", 0xd0, 0x81, PS_EV_ACCESSES},
	{"MEM_UOPS_RETIRED:ALL_STORES", 0xd0, 0x82, PS_EV_ACCESSES},
};

#endif
