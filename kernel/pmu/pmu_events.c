// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu tables: architectural events, fixed-counter pseudo-encodings,
 * vendor strings. Facts from SDM vol. 3B table 20-1 (architectural events)
 * and table 20-2 (fixed counters); names as perf spells them.
 */
#include "pmu_internal.h"

const struct pmu_arch_event pmu_arch_events[PMUPROF_ARCH__MAX] = {
	[PMUPROF_ARCH_CORE_CYCLES] = {X86_ARCH_EV_CORE_CYCLES, X86_FIXED_CTR_CORE_CYCLES, "cycles"},
	[PMUPROF_ARCH_INSTRUCTIONS] = {X86_ARCH_EV_INSTRUCTIONS, X86_FIXED_CTR_INSTRUCTIONS,
				       "instructions"},
	[PMUPROF_ARCH_REF_CYCLES] = {X86_ARCH_EV_REF_CYCLES, X86_FIXED_CTR_REF_CYCLES,
				     "ref-cycles"},
	[PMUPROF_ARCH_LLC_REFERENCES] = {X86_ARCH_EV_LLC_REFERENCES, -1, "llc-references"},
	[PMUPROF_ARCH_LLC_MISSES] = {X86_ARCH_EV_LLC_MISSES, -1, "llc-misses"},
	[PMUPROF_ARCH_BRANCH_INSTRUCTIONS] = {X86_ARCH_EV_BRANCH_INSTR, -1, "branches"},
	[PMUPROF_ARCH_BRANCH_MISSES] = {X86_ARCH_EV_BRANCH_MISSES, -1, "branch-misses"},
	[PMUPROF_ARCH_TOPDOWN_SLOTS] = {X86_ARCH_EV_TOPDOWN_SLOTS, -1, "slots"},
};

const struct pmu_fixed_pseudo pmu_fixed_pseudos[] = {
	{X86_FIXED_PSEUDO_REF_TSC, X86_FIXED_CTR_REF_CYCLES,
	 "ref-cycles (CPU_CLK_UNHALTED.REF_TSC)"},
	{X86_FIXED_PSEUDO_SLOTS, X86_FIXED_CTR_SLOTS, "TOPDOWN.SLOTS"},
};
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
