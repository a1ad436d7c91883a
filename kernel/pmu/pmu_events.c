// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu tables: architectural events, fixed-counter pseudo-encodings,
 * vendor strings. Facts from SDM vol. 3B table 20-1 (architectural events);
 * which fixed counter counts what comes from include/pmuprof/fixed_counters.h
 * (table 20-2, shared with pmuctl). Names as perf spells them.
 */
#include "pmu_internal.h"
#include "pmuprof/fixed_counters.h"

/* An architectural event and the fixed counter that also counts it (-1: none). */
#define ARCH(enc, name)                                                                            \
	{                                                                                          \
		enc, X86_FIXED_ARCH_COUNTER(enc), name                                             \
	}

const struct pmu_arch_event pmu_arch_events[PMUPROF_ARCH__MAX] = {
	[PMUPROF_ARCH_CORE_CYCLES] = ARCH(X86_ARCH_EV_CORE_CYCLES, "cycles"),
	[PMUPROF_ARCH_INSTRUCTIONS] = ARCH(X86_ARCH_EV_INSTRUCTIONS, "instructions"),
	[PMUPROF_ARCH_REF_CYCLES] = ARCH(X86_ARCH_EV_REF_CYCLES, "ref-cycles"),
	[PMUPROF_ARCH_LLC_REFERENCES] = ARCH(X86_ARCH_EV_LLC_REFERENCES, "llc-references"),
	[PMUPROF_ARCH_LLC_MISSES] = ARCH(X86_ARCH_EV_LLC_MISSES, "llc-misses"),
	[PMUPROF_ARCH_BRANCH_INSTRUCTIONS] = ARCH(X86_ARCH_EV_BRANCH_INSTR, "branches"),
	[PMUPROF_ARCH_BRANCH_MISSES] = ARCH(X86_ARCH_EV_BRANCH_MISSES, "branch-misses"),
	[PMUPROF_ARCH_TOPDOWN_SLOTS] = ARCH(X86_ARCH_EV_TOPDOWN_SLOTS, "slots"),
};

#define PSEUDO(arg, enc, ctr, name) {enc, ctr, name},
const struct pmu_fixed_pseudo pmu_fixed_pseudos[] = {X86_FIXED_PSEUDO_EVENTS(PSEUDO, 0)};
const unsigned int pmu_nr_fixed_pseudos = PP_ARRAY_SIZE(pmu_fixed_pseudos);

const struct pmu_vendor pmu_vendors[] = {
	{X86_VENDOR_INTEL_STR, PMUPROF_VENDOR_INTEL},
	{X86_VENDOR_AMD_STR, PMUPROF_VENDOR_AMD},
	{X86_VENDOR_HYGON_STR, PMUPROF_VENDOR_OTHER},
};
const unsigned int pmu_nr_vendors = PP_ARRAY_SIZE(pmu_vendors);

int pmu__arch_index(u64 event_umask)
{
	for (unsigned int i = 0; i < PP_ARRAY_SIZE(pmu_arch_events); i++)
		if (pmu_arch_events[i].encoding == event_umask)
			return (int)i;
	return -1;
}
