/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host tests' side of the PMU layer's link-time glue (kernel/pmu/pmu.h,
 * pmu__glue_*): the tests hand pmu__handle_nmi_at a callback table per call,
 * as the module once did through a function pointer; the host glue
 * (pmu_glue_test.c) dispatches each sample to it.
 */
#ifndef PMUPROF_TESTS_PMU_GLUE_TEST_H
#define PMUPROF_TESTS_PMU_GLUE_TEST_H

#include "kernel/pmu/pmu.h"

typedef void (*pmu_emit_fn)(void *ctx, u32 event, u64 period);
typedef void (*pmu_emit_pebs_fn)(void *ctx, u32 event, u64 period, const struct pebs_sample *rec);
typedef void (*pmu_check_pebs_fn)(void *ctx, const struct pebs_sample *rec);

/* emit_pebs NULL: PEBS samples go to emit; check_pebs NULL: no check. A
 * sample with emit NULL aborts the test (it expected none). */
struct pmu_emit_ops {
	pmu_emit_fn emit;
	pmu_emit_pebs_fn emit_pebs;
	pmu_check_pebs_fn check_pebs;
};

/* pmu__handle_nmi_at(pc, ..., plat_now_ns()) with samples going to ops/ctx. */
int pmu__handle_nmi_ex(struct pmu_cpu *pc, const struct pmu_emit_ops *ops, void *ctx);
/* Same with only emit. */
int pmu__handle_nmi(struct pmu_cpu *pc, pmu_emit_fn emit, void *ctx);

#endif /* PMUPROF_TESTS_PMU_GLUE_TEST_H */
