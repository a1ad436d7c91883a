// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/nmi/ipiplan: the cpu-clock sender plan (see ipiplan.h).
 * Runs at session start and on CPU hotplug, never in NMI context; cost
 * O(nr_cpus).
 */
#include "ipiplan.h"

static bool bit(const u64 *map, u32 cpu)
{
	return (map[cpu / 64] >> (cpu % 64)) & 1;
}

/* Next CPU >= from that is online, not leaving, and (sampled == want). */
static u32 next_cpu(u32 from, u32 nr_cpus, const u64 *online, const u64 *sampled, u32 leaving,
		    bool want)
{
	u32 c;

	for (c = from; c < nr_cpus; c++)
		if (c != leaving && bit(online, c) && bit(sampled, c) == want)
			return c;
	return IPIPLAN_NO_CPU;
}

u32 ipiplan__build(struct ipiplan_role *roles, u32 nr_cpus, const u64 *online, const u64 *sampled,
		   u32 leaving, bool nmi_ipi)
{
	u32 cpu, free_cpu, timers = 0;

	memset(roles, 0, (size_t)nr_cpus * sizeof(*roles));
	cpu = next_cpu(0, nr_cpus, online, sampled, leaving, true);
	if (!nmi_ipi) {
		for (; cpu != IPIPLAN_NO_CPU;
		     cpu = next_cpu(cpu + 1, nr_cpus, online, sampled, leaving, true)) {
			roles[cpu].self = true;
			timers++;
		}
		return timers;
	}
	free_cpu = next_cpu(0, nr_cpus, online, sampled, leaving, false);
	while (cpu != IPIPLAN_NO_CPU) {
		struct ipiplan_role *r;

		if (free_cpu != IPIPLAN_NO_CPU) {
			/* a CPU that does not sample sends the whole group */
			r = &roles[free_cpu];
			free_cpu = next_cpu(free_cpu + 1, nr_cpus, online, sampled, leaving, false);
		} else {
			/* the group's first CPU leads it: captures itself */
			r = &roles[cpu];
			r->self = true;
			cpu = next_cpu(cpu + 1, nr_cpus, online, sampled, leaving, true);
		}
		timers++;
		while (cpu != IPIPLAN_NO_CPU && r->nr_targets < IPIPLAN_FANOUT) {
			r->target[r->nr_targets++] = cpu;
			cpu = next_cpu(cpu + 1, nr_cpus, online, sampled, leaving, true);
		}
	}
	return timers;
}

u64 ipiplan__due(u64 *due, u64 period, u64 now)
{
	u64 d = *due, k;

	if (!period)
		period = 1;
	if (d > now)
		return 0;
	if (!d)
		d = now;
	/* first d + k * period > now, k >= 1: the due times d, d + period,
	 * ..., d + (k - 1) * period have all passed */
	k = (now - d) / period + 1;
	*due = d + period * k;
	return k;
}
