/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host definition of the PMU layer's link-time glue (kernel/pmu/pmu.h
 * pmu__glue_*; the module's is kernel/linux/sampler.c): each sample goes
 * to the callback table the test passed to pmu__handle_nmi_ex.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pmu_glue_test.h"
#include "pmuprof/platform.h"

struct glue_ctx {
	const struct pmu_emit_ops *ops;
	void *ctx;
};

void pmu__glue_emit(void *arg, u32 event, u64 period)
{
	struct glue_ctx *g = arg;

	if (!g->ops->emit) {
		fprintf(stderr, "pmu_glue_test: a sample (event %u) where the test expected none\n",
			event);
		abort();
	}
	g->ops->emit(g->ctx, event, period);
}

void pmu__glue_emit_pebs(void *arg, u32 event, u64 period, const struct pebs_sample *rec)
{
	struct glue_ctx *g = arg;

	if (g->ops->emit_pebs)
		g->ops->emit_pebs(g->ctx, event, period, rec);
	else
		pmu__glue_emit(arg, event, period);
}

void pmu__glue_check_pebs(void *arg, const struct pebs_sample *rec)
{
	struct glue_ctx *g = arg;

	if (g->ops->check_pebs)
		g->ops->check_pebs(g->ctx, rec);
}

int pmu__handle_nmi_ex(struct pmu_cpu *pc, const struct pmu_emit_ops *ops, void *ctx)
{
	struct glue_ctx g = {ops, ctx};

	return pmu__handle_nmi_at(pc, &g, plat_now_ns());
}

int pmu__handle_nmi(struct pmu_cpu *pc, pmu_emit_fn emit, void *ctx)
{
	const struct pmu_emit_ops ops = {emit, NULL, NULL};

	return pmu__handle_nmi_ex(pc, &ops, ctx);
}
