/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/pmu internals shared by pmu.c, pmu_events.c and the host unit
 * tests (tests/unit/test_pmu.c). Not part of the API other components use.
 */
#ifndef PMUPROF_PMU_INTERNAL_H
#define PMUPROF_PMU_INTERNAL_H

#include "pmu.h"
#include "pmuprof/x86_pmu_regs.h"

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

/* Counter arithmetic, exposed for the unit tests. */
u64 pmu__width_mask(u32 width);
/* Value that makes a counter of `width` bits overflow after `period` events. */
u64 pmu__arm_value(u64 period, u32 width);
/* Largest period a counter of the plan accepts: 2^(width-1)-1, and at most
 * 2^31-1 when writes go through legacy IA32_PMCx (bit 31 sign-extends). */
u64 pmu__max_period(const struct pmu_plan *plan, const struct pmu_assign *a);
/* MSR the counter of assignment `a` is written through. */
u32 pmu__counter_msr(const struct pmu_plan *plan, const struct pmu_assign *a);
/* GLOBAL_CTRL/STATUS bit of an assignment. */
u64 pmu__global_bit(const struct pmu_assign *a);
/* Assignment indexes whose GLOBAL_STATUS bit is set in status; returns the
 * count (bits not ours are ignored). */
unsigned int pmu__decode_status(const struct pmu_plan *plan, u64 status, u8 *out);
/* Frequency mode: next period from the current one, the time it took
 * (ns) and the target rate. Low-pass filtered (1/8 step, as perf) and
 * clamped to [PMUPROF_MIN_PMU_PERIOD, max]. */
u64 pmu__freq_next_period(u64 period, u64 elapsed_ns, u64 freq_hz, u64 max);
/* First-guess period for a target rate (assumes ~1e9 events/s). */
u64 pmu__freq_first_period(u64 freq_hz, u64 max);

#endif /* PMUPROF_PMU_INTERNAL_H */
