// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu period control: frequency mode (the first guess and perf's
 * low-pass filter towards a target rate) and throttling (pmu__scale_period,
 * pmu__restore_period). No floating point, 64-bit division only.
 */
#include "pmu_internal.h"
#include "pmuprof/platform.h"

/* Frequency mode: events per second assumed before the first overflow
 * (about one event per ns, right for cycles/instructions on a ~GHz core). */
#define PMU_FREQ_GUESS_EVENTS_PER_SEC PP_NSEC_PER_SEC
/* Frequency mode low-pass filter: move 1/8 of the way to the target. */
#define PMU_FREQ_FILTER_SHIFT 3

/* a * b / c without 128-bit arithmetic (none in the kernel for division):
 * drop low bits of a and c together until a * b fits. Bounded: <= 64 steps. */
static u64 mul_div_u64(u64 a, u64 b, u64 c)
{
	while (b && a > ~0ull / b) {
		a >>= 1;
		c >>= 1;
	}
	if (!c)
		return ~0ull;
	return a * b / c;
}

static u64 clamp_period(u64 p, u64 max)
{
	if (p < PMUPROF_MIN_PMU_PERIOD)
		p = PMUPROF_MIN_PMU_PERIOD;
	if (p > max)
		p = max;
	return p;
}

u64 pmu__freq_next_period(u64 period, u64 elapsed_ns, u64 freq_hz, u64 max)
{
	u64 target;

	if (!elapsed_ns || !freq_hz)
		return clamp_period(period, max);
	/* period events took elapsed_ns; the target interval is 1e9/freq ns */
	target = mul_div_u64(period, PP_NSEC_PER_SEC / freq_hz, elapsed_ns);
	if (target > period)
		period += (target - period + (1u << PMU_FREQ_FILTER_SHIFT) - 1) >>
			  PMU_FREQ_FILTER_SHIFT;
	else
		period -= (period - target) >> PMU_FREQ_FILTER_SHIFT;
	return clamp_period(period, max);
}
PP_NOKPROBE(pmu__freq_next_period);

u64 pmu__freq_first_period(u64 freq_hz, u64 max)
{
	return clamp_period(freq_hz ? PMU_FREQ_GUESS_EVENTS_PER_SEC / freq_hz : max, max);
}

void pmu__freq_step(struct pmu_cpu *pc, u32 i, u64 now)
{
	const struct pmu_plan *plan = pc->plan;
	const struct pmu_assign *a = &plan->a[i];

	/* elapsed 0: a second record of the same drain, already accounted */
	if (a->freq_hz && now != pc->last_ns[i]) {
		pc->period[i] = pmu__freq_next_period(pc->armed[i], now - pc->last_ns[i],
						      a->freq_hz, pmu__max_period(plan, a));
		pc->last_ns[i] = now;
	}
}
PP_NOKPROBE(pmu__freq_step);

void pmu__restore_period(struct pmu_cpu *pc, u32 event, u32 factor)
{
	const struct pmu_plan *plan = pc->plan;

	if (!plan || !factor)
		return;
	for (u32 i = 0; i < plan->nr; i++) {
		const struct pmu_assign *a = &plan->a[i];

		if (a->event != event || a->freq_hz)
			continue;
		pc->period[i] =
			pc->period[i] / factor > a->period ? pc->period[i] / factor : a->period;
	}
}
PP_NOKPROBE(pmu__restore_period);

void pmu__scale_period(struct pmu_cpu *pc, u32 event, u32 factor)
{
	const struct pmu_plan *plan = pc->plan;

	if (!plan || !factor)
		return;
	for (u32 i = 0; i < plan->nr; i++) {
		u64 max = pmu__max_period(plan, &plan->a[i]);

		if (plan->a[i].event != event)
			continue;
		pc->period[i] = pc->period[i] > max / factor ? max : pc->period[i] * factor;
	}
}
PP_NOKPROBE(pmu__scale_period);
