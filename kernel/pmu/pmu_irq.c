// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu overflow handling: the NMI handler (pmu__handle_nmi_at, shape
 * of Linux's intel_pmu_handle_irq), the PEBS buffer drain and the version-1
 * path without GLOBAL_STATUS. Small and bounded: at most
 * PMU_MAX_OVF_LOOPS x (counters + buffer records) steps. [NMI]
 */
#include "pmu_internal.h"
#include "pmuprof/platform.h"

/* Tail checks per PMI: the first pass leaves its status re-read to the
 * first, so the second stands for the one pass 1 had before (issue 15). */
#define PMU_TAIL_CHECKS 2

static bool test_bit64(u64 v, unsigned int b)
{
	return (v >> b) & 1;
}

/*
 * Emit the period that just elapsed (what the counter was armed for, even
 * if pmu__scale_period() changed the next one), adjust the period in
 * frequency mode from armed events / elapsed time, re-arm. [NMI]
 * Events counted between the overflow and the re-arm (skid, NMI entry,
 * this handler until it disabled the counters) are carried into the next
 * period, as Linux's x86_perf_event_update/set_period do: the counter is
 * armed for period - overshoot, so the sum of sample periods follows the
 * events counted. Counters are disabled while this runs.
 */
static __always_inline void overflow_one(struct pmu_cpu *pc, const struct pmu_plan *plan, u32 i,
					 u64 now, void *ctx)
{
	const struct pmu_assign *a = &plan->a[i]; /* plan: pc->plan, the caller's copy */
	u64 over = pmu__overshoot(pc, i);

	pmu__glue_emit(ctx, a->event, pc->armed[i]);
	if (a->freq_hz) /* pmu__freq_update */
		pmu__freq_step(pc, i, now);
	pmu__arm_carry(pc, i, pc->period[i], over);
}

/* Re-arm a PEBS counter: the counter and the reset value the CPU reloads
 * after its next record. Counters are disabled while this runs. */
static void pebs_rearm(struct pmu_cpu *pc, u32 i)
{
	pmu__arm(pc, i, pc->period[i]);
	pmu__pebs_set_reset(pc, i);
}

/*
 * Counters of ours a record belongs to (GLOBAL_STATUS layout). Format 0
 * has no such field, and allows PEBS on PMC0 only: the record is that
 * counter's. Formats 1/2 carry a copy of GLOBAL_STATUS, which can name
 * several counters (and other overflows): a record naming more than one
 * of ours is ambiguous and dropped. Formats 3+ carry "applicable
 * counters": the record counts once for each. A record naming none of
 * ours (the status copy raced with clearing) goes to the only PEBS
 * counter when there is just one. [NMI]
 */
static u64 pebs_attribute(struct pmu_cpu *pc, const struct pebs_sample *rec)
{
	const struct pmu_plan *plan = pc->plan;
	u64 mine = plan->pebs_counters;
	u64 app;

	if (plan->pebs_format == 0)
		return mine;
	app = rec->applicable & mine;
	if (!app && !(mine & (mine - 1)))
		app = mine;
	if (!app) {
		pc->pebs.unattributed++;
		return 0;
	}
	if (plan->pebs_format < X86_PEBS_FORMAT_APPLICABLE && (app & (app - 1))) {
		pc->pebs.ambiguous++;
		return 0;
	}
	return app;
}

/*
 * Drain the PEBS buffer: at most pc->pebs_nrec records, each read inside
 * the buffer whatever the DS index says (pebs__ds_take validates it against
 * our own base and size). Returns the samples emitted and the counters
 * that produced a record (returned, not stored through a pointer: the
 * handler's frame then has no address-taken local). [NMI]
 */
struct pebs_drained {
	int n;	   /* samples emitted */
	u32 rearm; /* bit i: counter i produced a record */
};

static struct pebs_drained drain_pebs(struct pmu_cpu *pc, void *ctx, u64 now)
{
	const struct pmu_plan *plan = pc->plan;
	const u8 *buf = pc->pebs_mem.buf;
	u32 rs = plan->pebs_record_size, nrec;
	struct pebs_drained d = {0, 0};

	if (pebs__ds_take(pc->pebs_mem.ds, PMU_PEBS_DS_BYTES, pc->pebs_base, rs, pc->pebs_nrec,
			  &nrec))
		pc->pebs.bad_index++;
	for (u32 k = 0; k < nrec && k < pc->pebs_nrec; k++) {
		struct pebs_sample rec;
		u64 app;

		if (pebs__parse(plan->pebs_format, buf + (size_t)k * rs, rs, plan->pebs_data_cfg,
				&rec) < 0) {
			pc->pebs.bad_record++;
			continue;
		}
		pc->pebs.records++;
		pmu__glue_check_pebs(ctx, &rec);
		app = pebs_attribute(pc, &rec);
		for (u32 i = 0; app && i < plan->nr; i++) {
			const struct pmu_assign *a = &plan->a[i];

			if (!a->pebs || !(app & pmu__global_bit(a)))
				continue;
			pmu__glue_emit_pebs(ctx, a->event, pc->armed[i], &rec);
			pmu__freq_update(pc, i, now);
			d.rearm |= 1u << i;
			d.n++;
		}
	}
	return d;
}
PP_NOKPROBE(drain_pebs);

/*
 * GLOBAL_STATUS bits of our interrupting (non-PEBS) counters that wrapped:
 * top bit (width - 1) clear. A counter is armed with -left, 1 <= left <=
 * the maximum period < 2^(width-1), so its top bit stays set until it
 * wraps (the version-1 test). For when our status bit is gone: a handler
 * that ran first may acknowledge every bit it read (perf's, serving an
 * Intel PT ToPA PMI, writes back all of GLOBAL_STATUS). One RDMSR per
 * counter of ours. [NMI]
 */
static u64 wrapped_ours(const struct pmu_plan *plan)
{
	u64 m = 0;

	for (u32 i = 0; i < plan->nr; i++) {
		const struct pmu_assign *a = &plan->a[i];
		u64 v;

		if (a->pebs)
			continue;
		v = plat_rdmsr(pmu__counter_msr(plan, a));
		if (!test_bit64(v, pmu__counter_width(plan, a) - 1))
			m |= pmu__global_bit(a);
	}
	return m;
}
PP_NOKPROBE(wrapped_ours);

/* Loop cap hit: status keeps re-asserting. Re-arm all of ours and clear
 * their status bits, like Linux's intel_pmu_reset() for its counters. */
static void reset_ours(struct pmu_cpu *pc)
{
	const struct pmu_plan *plan = pc->plan;

	pc->loops_capped++;
	for (u32 i = 0; i < plan->nr; i++) {
		pmu__arm(pc, i, pc->period[i]);
		if (plan->a[i].pebs)
			pmu__pebs_set_reset(pc, i);
	}
	if (pmu__has_pebs(plan)) {
		u32 dropped;

		pebs__ds_take(pc->pebs_mem.ds, PMU_PEBS_DS_BYTES, pc->pebs_base,
			      plan->pebs_record_size, pc->pebs_nrec, &dropped);
	}
	if (pmu__has_global(plan))
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, pmu__ack_mask(plan));
}
PP_NOKPROBE(reset_ours);

/* Version 1: no GLOBAL_STATUS. A counter armed with -period has its top
 * bit set until it wraps; a clear top bit means it overflowed. */
static u32 v1_overflowed(const struct pmu_plan *plan)
{
	u32 m = 0;

	for (u32 i = 0; i < plan->nr; i++) {
		const struct pmu_assign *a = &plan->a[i];
		u64 v = plat_rdmsr(X86_MSR_IA32_PMC0 + a->idx);

		if (!test_bit64(v, plan->gp_width - 1))
			m |= 1u << i;
	}
	return m;
}
PP_NOKPROBE(v1_overflowed);

static int handle_v1(struct pmu_cpu *pc, void *ctx, u64 now)
{
	const struct pmu_plan *plan = pc->plan;
	u32 ovf = v1_overflowed(plan);
	unsigned int loops = 0;
	int n = 0;

	if (!ovf) {
		plat_lvtpc_set_nmi(); /* not ours: see pmu__handle_nmi_at */
		return 0;
	}
	/* disable ours; inside pmu__cpu_stop, as stop leaves them (0) */
	for (u32 i = 0; i < plan->nr; i++)
		plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx,
			   pc->stopping ? 0 : plan->a[i].evtsel & ~X86_EVTSEL_EN);
	while (ovf) {
		for (u32 i = 0; i < plan->nr; i++)
			if (ovf & (1u << i)) {
				overflow_one(pc, plan, i, now, ctx);
				n++;
			}
		ovf = v1_overflowed(plan);
		if (ovf && ++loops >= PMU_MAX_OVF_LOOPS) {
			reset_ours(pc);
			break;
		}
	}
	/* an NMI inside pmu__cpu_stop leaves what stop disabled disabled, and
	 * one on a paused CPU (switched away from the target) what pause did */
	for (u32 i = 0; !pc->stopping && !pc->paused && i < plan->nr; i++)
		plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx, plan->a[i].evtsel);
	plat_lvtpc_set_nmi();
	return n;
}

int pmu__handle_nmi_at(struct pmu_cpu *pc, void *ctx, u64 now)
{
	const struct pmu_plan *plan = pc->plan;
	unsigned int loops = 0;
	u64 ours, want, status, ctrl;
	unsigned int tails; /* tail checks made (PMU_TAIL_CHECKS: none left) */
	bool buf_pmi = false, live;
	int n = 0;

	if (!pc->running || !plan || !plan->nr)
		return 0;
	if (!pmu__has_global(plan))
		return handle_v1(pc, ctx, now); /* no PEBS before version 2 */

	ours = plan->global_ctrl;
	want = pc->want; /* what makes an NMI ours: pmu__want_mask */
	status = plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	if (!(status & want))
		status |= wrapped_ours(plan); /* our bit acknowledged by someone else */
	if (!(status & want)) {
		/* Someone else's NMI or counter: touch no counter or status
		 * bit, but reopen LVTPC. The APIC masked it if this was a PMI
		 * (a foreign counter's, or ours raced away), and while we run
		 * nobody else unmasks it: one such PMI would end sampling on
		 * this CPU. Linux's perf rewrites LVTPC on every PMI NMI too. */
		plat_lvtpc_set_nmi();
		return 0;
	}

	/* Set by this CPU's own stop/pause, which this NMI interrupted or
	 * which has not begun: they cannot change until we return. Not live:
	 * leave our enables off and look at status no more after LVTPC. */
	live = !pc->stopping && !pc->paused;
	tails = live ? 0 : PMU_TAIL_CHECKS;
	ctrl = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
again:
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl & ~ours);
	for (;;) {
		u64 mine = status & want;
		u32 rearm = 0;

		if (mine & X86_GLOBAL_STATUS_OVF_BUF) {
			struct pebs_drained d = drain_pebs(pc, ctx, now);

			buf_pmi = true;
			n += d.n;
			rearm = d.rearm;
			/* PEBS counters' own overflow bits are served by the
			 * records: acknowledge them with the buffer bit */
			mine |= status & plan->pebs_counters;
		}
		for (u32 i = 0; i < plan->nr; i++) {
			if (!(mine & pc->gbit[i]))
				continue;
			if (plan->a[i].pebs) {
				rearm |= 1u << i;
				continue;
			}
			overflow_one(pc, plan, i, now, ctx);
			n++;
		}
		for (u32 i = 0; rearm && i < plan->nr; i++)
			if (rearm & (1u << i))
				pebs_rearm(pc, i);
		/* ack only our bits: foreign overflow stays for its owner. On
		 * v4 also CTR_FRZ: a freeze on PMI (DEBUGCTL bit 12, set by
		 * someone while we run) stops every counter until it is
		 * cleared through GLOBAL_STATUS_RESET. */
		if (pmu__has_status_reset(plan))
			mine |= status & X86_GLOBAL_STATUS_CTR_FRZ;
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, mine);
		/* First pass: the tail check below reads GLOBAL_STATUS again
		 * anyway. An overflow this read would find (one that came
		 * between the first read and the disable) stays set until
		 * acknowledged, so the tail check finds it too and comes back
		 * here with the counters disabled again, and that pass loops
		 * and tail-checks as this one would have: one RDMSR fewer per
		 * PMI, no overflow left behind. It counts as the loop it
		 * would have been, towards PMU_MAX_OVF_LOOPS. */
		if (!tails) {
			loops++;
			break;
		}
		status = plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
		if (!(status & want))
			break;
		if (++loops >= PMU_MAX_OVF_LOOPS) {
			reset_ours(pc);
			tails = PMU_TAIL_CHECKS; /* status keeps re-asserting: no tail check */
			break;
		}
	}
	/* An NMI inside pmu__cpu_stop: stop has cleared (or is about to
	 * clear) our enables; restoring the ones found at entry would turn
	 * our counters back on after it. Likewise on a CPU that
	 * pmu__cpu_pause switched away from the target. */
	if (live)
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl | ours);
	/* The APIC masked LVTPC when it delivered the PMI; reopen it last so
	 * that a new overflow cannot interrupt us half-way. */
	plat_lvtpc_set_nmi();
	/* A counter close to its overflow when we re-enabled (a period carried
	 * down to a few events, or one that was near its end anyway) can wrap
	 * before LVTPC is open again: its PMI met a masked entry and was
	 * dropped (a masked LVT entry inhibits reception, SDM Vol. 3A 11.5.1),
	 * and the counter, now far from its next wrap, would never interrupt
	 * again. Look once more; a PMI that did get through finds nothing
	 * and is swallowed (we return more than one). */
	if (tails < PMU_TAIL_CHECKS) {
		tails++;
		status = plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
		if (status & want)
			goto again;
	}
	/* a buffer PMI of ours with no usable record is still ours */
	return n ? n : (buf_pmi ? 1 : 0);
}
PP_NOKPROBE(pmu__handle_nmi_at);
