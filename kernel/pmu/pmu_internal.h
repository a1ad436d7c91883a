/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/pmu internals shared by its files (pmu_probe.c enumeration,
 * pmu_sched.c validation/scheduling/reservation, pmu_hw.c MSR programming,
 * pmu_irq.c overflow handling, pmu_freq.c period control, pmu_events.c
 * tables) and the host unit tests (tests/unit/test_pmu.c). Not part of the
 * API other components use.
 */
#ifndef PMUPROF_PMU_INTERNAL_H
#define PMUPROF_PMU_INTERNAL_H

#include "pmu.h"
#include "pmuprof/x86_pmu_regs.h"
#include "pmuprof/platform.h"

/* One pre-defined architectural event (pmu_events.c). */
struct pmu_arch_event {
	u64 encoding; /* event select | umask << 8 */
	s8 fixed;     /* fixed counter that counts it, -1 if none */
	const char *name;
};
extern const struct pmu_arch_event pmu_arch_events[PMUPROF_ARCH__MAX];

/* Event-select pseudo-encodings that only a fixed counter can count. */
struct pmu_fixed_pseudo {
	u64 encoding;
	u8 fixed;
	const char *name;
};
extern const struct pmu_fixed_pseudo pmu_fixed_pseudos[];
extern const unsigned int pmu_nr_fixed_pseudos;

/* Vendor strings (CPUID.0) -> enum pmuprof_cpu_vendor. */
struct pmu_vendor {
	const char *id; /* 12 chars */
	u32 vendor;
};
extern const struct pmu_vendor pmu_vendors[];
extern const unsigned int pmu_nr_vendors;

/* Fixed counters pmuprof maps events to (0..2; 3 = TOPDOWN.SLOTS is left
 * alone: it is tied to PERF_METRICS, which pmuprof does not program). */
#define PMU_NR_MAPPED_FIXED 3

/* Index into pmu_arch_events of an event-select|umask, or -1. */
int pmu__arch_index(u64 event_umask);

/* Counter arithmetic, exposed for the unit tests. Inline, as the helpers
 * below: the NMI handler runs them per overflow (issue 15: a call each
 * cost more than the arithmetic). */
static __always_inline u64 pmu__width_mask(u32 width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}
/* Value that makes a counter of `width` bits overflow after `period` events. */
static __always_inline u64 pmu__arm_value(u64 period, u32 width)
{
	return (0 - period) & pmu__width_mask(width);
}
/* Largest period a counter of the plan accepts: 2^(width-1)-1, and at most
 * 2^31-1 when writes go through legacy IA32_PMCx (bit 31 sign-extends). */
u64 pmu__max_period(const struct pmu_plan *plan, const struct pmu_assign *a);
/* Bit width of the counter of assignment `a`. (Inline, as the two below:
 * the NMI handler calls them per counter per PMI.) */
static inline u32 pmu__counter_width(const struct pmu_plan *plan, const struct pmu_assign *a)
{
	return a->kind == PMU_CTR_FIXED ? plan->fixed_width : plan->gp_width;
}
/* MSR the counter of assignment `a` is written through. */
static inline u32 pmu__counter_msr(const struct pmu_plan *plan, const struct pmu_assign *a)
{
	if (a->kind == PMU_CTR_FIXED)
		return MSR_IA32_FIXED_CTR0 + a->idx;
	return (plan->full_width ? MSR_IA32_A_PMC0 : X86_MSR_IA32_PMC0) + a->idx;
}
/* GLOBAL_CTRL/STATUS bit of an assignment. */
static inline u64 pmu__global_bit(const struct pmu_assign *a)
{
	return a->kind == PMU_CTR_FIXED ? X86_GLOBAL_FIXED(a->idx) : X86_GLOBAL_PMC(a->idx);
}
/* Assignment indexes whose GLOBAL_STATUS bit is set in status; returns the
 * count (bits not ours are ignored). */
unsigned int pmu__decode_status(const struct pmu_plan *plan, u64 status, u8 *out);
/* Frequency mode: next period from the current one, the time it took
 * (ns) and the target rate. Low-pass filtered (1/8 step, as perf) and
 * clamped to [PMUPROF_MIN_PMU_PERIOD, max]. */
u64 pmu__freq_next_period(u64 period, u64 elapsed_ns, u64 freq_hz, u64 max);
/* First-guess period for a target rate (assumes ~1e9 events/s). */
u64 pmu__freq_first_period(u64 freq_hz, u64 max);
/* Frequency mode, at an overflow of assignment i at time now: the next
 * period from the armed one and the time it took (pmu_freq.c). [NMI]
 * Only for a counter in frequency mode: pmu__freq_update checks that
 * inline, and calls this for the division. */
void pmu__freq_step(struct pmu_cpu *pc, u32 i, u64 now);
static __always_inline void pmu__freq_update(struct pmu_cpu *pc, u32 i, u64 now)
{
	if (pc->plan->a[i].freq_hz)
		pmu__freq_step(pc, i, now);
}

/* Arm counter i of this CPU to overflow after `period` events (pmu_hw.c). [NMI] */
void pmu__arm(struct pmu_cpu *pc, u32 i, u64 period);
/* Smallest count a counter is armed with (Linux: x86_perf_event_set_period). */
#define PMU_MIN_LEFT 2
/* Events to arm for when `over` events of the next period already counted:
 * period - over, or period when over >= period (dropped), at least
 * PMU_MIN_LEFT. As Linux's x86_perf_event_set_period: the overshoot counts
 * towards the next period; a whole period or more of it is dropped (as
 * perf does: the counter would otherwise be armed at or past its
 * overflow). */
static __always_inline u64 pmu__rearm_left(u64 period, u64 over)
{
	u64 left = over < period ? period - over : period;

	return left < PMU_MIN_LEFT ? PMU_MIN_LEFT : left;
}
/* Arm counter i for the next sample of `period` events of which `over`
 * have already counted: the counter gets -pmu__rearm_left(), armed[i] =
 * period (what the sample will report). [NMI] */
static __always_inline void pmu__arm_carry(struct pmu_cpu *pc, u32 i, u64 period, u64 over)
{
	u64 left = pmu__rearm_left(period, over);

	pc->armed[i] = period;
	pc->left[i] = left;
	plat_wrmsr(pc->ctr_msr[i], (0 - left) & pc->ctr_mask[i]);
}
/* Events counter i counted past its wrap; 0 if it has not wrapped (a
 * status bit set by someone else). Counter i was armed to count left[i]
 * events before wrapping; what it holds past the wrap came after the
 * overflow (skid, NMI entry, the handler until it disabled the counters).
 * Read while the counter is disabled. [NMI] */
static __always_inline u64 pmu__overshoot(struct pmu_cpu *pc, u32 i)
{
	u64 mask = pc->ctr_mask[i];
	u64 since_arm = (plat_rdmsr(pc->ctr_msr[i]) - ((0 - pc->left[i]) & mask)) & mask;

	return since_arm > pc->left[i] ? since_arm - pc->left[i] : 0;
}
/* PEBS: the DS reset slot of counter i = its arm value, so every record
 * stands for armed[i] (pmu_hw.c). [NMI] */
void pmu__pebs_set_reset(struct pmu_cpu *pc, u32 i);

/* Compiler barrier (pp_barrier() of pmuprof/barrier.h, which cannot be
 * included beside x86_pmu_regs.h in the module: its Linux headers define
 * the same MSR names). Orders this CPU's stores against an NMI on it. */
static inline void pmu__barrier(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/* Version 2+: GLOBAL_CTRL/STATUS/OVF_CTRL exist. */
static inline bool pmu__has_global(const struct pmu_plan *plan)
{
	return plan->version >= X86_PMU_V_FIXED;
}

/* Version 4+: OVF_CTRL is GLOBAL_STATUS_RESET (clears CTR_FRZ, bit 59). */
static inline bool pmu__has_status_reset(const struct pmu_plan *plan)
{
	return plan->version >= X86_PMU_V_STATUS_RESET;
}

static inline bool pmu__has_pebs(const struct pmu_plan *plan)
{
	return plan->pebs_enable != 0;
}

/* GLOBAL_STATUS bits that make a PMI ours: an overflow of a counter that
 * interrupts (not PEBS counters: their INT is clear, and their own status
 * bit may be set while the record is still to come), or the DS-buffer bit
 * when we run PEBS. Kept in pmu_cpu.want from start. */
static inline u64 pmu__want_mask(const struct pmu_plan *plan)
{
	return (plan->global_ctrl & ~plan->pebs_counters) |
	       (pmu__has_pebs(plan) ? X86_GLOBAL_STATUS_OVF_BUF : 0);
}

/* Status bits pmuprof acknowledges: its counters, plus the DS-buffer bit
 * when it runs PEBS (it is then the only DS user: perf is locked out by
 * the counter reservation). */
static inline u64 pmu__ack_mask(const struct pmu_plan *plan)
{
	return plan->global_ctrl | (plan->pebs_enable ? X86_GLOBAL_STATUS_OVF_BUF : 0);
}

#endif /* PMUPROF_PMU_INTERNAL_H */
