// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu MSR programming: counter arithmetic (widths, arm values, MSR
 * addresses, GLOBAL_STATUS bits), arming a counter, the per-CPU DS/PEBS
 * set-up, and per-CPU start/stop (pmu__cpu_start_mem, pmu__cpu_stop).
 */
#include "pmu_internal.h"
#include "pmuprof/platform.h"

u64 pmu__max_period(const struct pmu_plan *plan, const struct pmu_assign *a)
{
	u64 max = pmu__width_mask(pmu__counter_width(plan, a)) >> 1;
	/* Legacy IA32_PMCx writes sign-extend bit 31, so -period must have
	 * bit 31 set: period <= 2^31 - 1. Fixed counters get the same limit
	 * without full-width writes, as Linux does (x86_pmu.max_period). */
	u64 legacy = pmu__width_mask(X86_PMC_LEGACY_WRITE_BITS) >> 1;

	if (!plan->full_width && max > legacy)
		max = legacy;
	return max;
}
PP_NOKPROBE(pmu__max_period);

unsigned int pmu__decode_status(const struct pmu_plan *plan, u64 status, u8 *out)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < plan->nr && i < PMUPROF_MAX_EVENTS; i++)
		if (status & pmu__global_bit(&plan->a[i]))
			out[n++] = (u8)i;
	return n;
}

static bool adaptive(const struct pmu_plan *plan)
{
	return plan->pebs_format >= X86_PEBS_FORMAT_ADAPTIVE;
}

static u64 fixed_nibbles(const struct pmu_plan *plan)
{
	u64 m = 0;

	for (u32 i = 0; i < plan->nr; i++)
		if (plan->a[i].kind == PMU_CTR_FIXED)
			m |= (X86_FIXED_CTRL_NIBBLE << X86_FIXED_CTRL_SHIFT(plan->a[i].idx)) |
			     ((plan->pebs_enable && plan->pebs_format >= X86_PEBS_FORMAT_ADAPTIVE)
				      ? X86_FIXED_CTRL_ADAPTIVE(plan->a[i].idx)
				      : 0);
	return m;
}

void pmu__arm(struct pmu_cpu *pc, u32 i, u64 period)
{
	pmu__arm_carry(pc, i, period, 0);
}
PP_NOKPROBE(pmu__arm);

/* Counter reset value the CPU reloads after writing a record: the same
 * arm value as the counter itself, so every record stands for armed[i]. */
void pmu__pebs_set_reset(struct pmu_cpu *pc, u32 i)
{
	const struct pmu_plan *plan = pc->plan;
	const struct pmu_assign *a = &plan->a[i];
	int off = pebs__ds_reset_offset(plan->pebs_format, a->kind == PMU_CTR_FIXED, a->idx);
	u64 v = pmu__arm_value(pc->armed[i], pmu__counter_width(plan, a));

	if (off >= 0 && (u32)off + sizeof(v) <= PMU_PEBS_DS_BYTES)
		memcpy((u8 *)pc->pebs_mem.ds + off, &v, sizeof(v));
}
PP_NOKPROBE(pmu__pebs_set_reset);

/* Lay out the DS area: threshold = one record, so every record raises the
 * DS-buffer PMI (perf's single-record mode: the IP and data address go
 * out while the task that caused them is still current). */
static int pebs_setup(struct pmu_cpu *pc, const struct pmu_plan *plan,
		      const struct pmu_pebs_mem *mem)
{
	struct pebs_ds_params p;
	int rc;

	if (!mem || !mem->ds || !mem->buf || !plan->pebs_record_size ||
	    ((uintptr_t)mem->ds & (X86_DS_AREA_ALIGN - 1)) || mem->buf_len < plan->pebs_record_size)
		return -EINVAL;
	p.buf_base = (u64)(uintptr_t)mem->buf;
	p.buf_len = mem->buf_len;
	p.record_size = plan->pebs_record_size;
	p.threshold = 1;
	rc = pebs__ds_setup(mem->ds, PMU_PEBS_DS_BYTES, &p);
	if (rc < 0)
		return rc;
	pc->pebs_mem = *mem;
	pc->pebs_base = p.buf_base;
	pc->pebs_nrec = (u32)rc;
	return 0;
}

/*
 * IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (someone else's: pmuprof never sets
 * it) freezes every counter at each PMI: version 4 until CTR_FRZ is
 * cleared through GLOBAL_STATUS_RESET, versions 2/3 by clearing
 * GLOBAL_CTRL. Cleared while we run, so that counting goes on through NMI
 * entry (the overshoot is carried, see pmu_irq.c); set again at stop.
 * Read-modify-write: other DEBUGCTL bits (LBR, BTF) belong to others.
 */
static void freeze_off(struct pmu_cpu *pc)
{
	u64 v;

	if (plat_rdmsr_safe(MSR_IA32_DEBUGCTL, &v) || !(v & X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI))
		return;
	plat_wrmsr(MSR_IA32_DEBUGCTL, v & ~X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	pc->freeze_cleared = true;
}

static void freeze_restore(struct pmu_cpu *pc)
{
	if (!pc->freeze_cleared)
		return;
	plat_wrmsr(MSR_IA32_DEBUGCTL,
		   plat_rdmsr(MSR_IA32_DEBUGCTL) | X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	pc->freeze_cleared = false;
}

/* Status bits start and stop clear: ours, and on version 4 CTR_FRZ (a
 * freeze left over from before would keep our counters from counting). */
static u64 start_ack_mask(const struct pmu_plan *plan)
{
	return pmu__ack_mask(plan) | (pmu__has_status_reset(plan) ? X86_GLOBAL_STATUS_CTR_FRZ : 0);
}

void pmu__cpu_start(struct pmu_cpu *pc, const struct pmu_plan *plan)
{
	(void)pmu__cpu_start_mem(pc, plan, NULL);
}

int pmu__cpu_start_mem(struct pmu_cpu *pc, const struct pmu_plan *plan,
		       const struct pmu_pebs_mem *mem)
{
	return pmu__cpu_start_ex(pc, plan, mem, false);
}

int pmu__cpu_start_ex(struct pmu_cpu *pc, const struct pmu_plan *plan,
		      const struct pmu_pebs_mem *mem, bool paused)
{
	u64 ctrl = 0, fixed, v;
	u64 now = plat_now_ns();

	memset(pc, 0, sizeof(*pc));
	pc->plan = plan;
	if (!plan->nr)
		return 0;
	for (u32 i = 0; i < plan->nr; i++) {
		pc->ctr_msr[i] = pmu__counter_msr(plan, &plan->a[i]);
		pc->ctr_mask[i] = pmu__width_mask(pmu__counter_width(plan, &plan->a[i]));
		pc->gbit[i] = pmu__global_bit(&plan->a[i]);
	}
	pc->want = pmu__want_mask(plan);
	if (pmu__has_pebs(plan) && pebs_setup(pc, plan, mem)) {
		pc->plan = NULL; /* not running: the NMI handler ignores this CPU */
		return -EINVAL;
	}
	if (pmu__has_global(plan)) {
		ctrl = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
		pc->saved_global_ours = ctrl & plan->global_ctrl;
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl & ~plan->global_ctrl);
	}
	freeze_off(pc);
	for (u32 i = 0; i < plan->nr; i++) {
		const struct pmu_assign *a = &plan->a[i];

		pc->period[i] = a->period;
		pc->last_ns[i] = now;
		if (a->kind == PMU_CTR_GP)
			plat_wrmsr(MSR_IA32_PERFEVTSEL0 + a->idx, 0);
		pmu__arm(pc, i, a->period);
		if (a->pebs)
			pmu__pebs_set_reset(pc, i);
		/* v1 has no GLOBAL_CTRL: EN stays clear until LVTPC is set */
		if (a->kind == PMU_CTR_GP)
			plat_wrmsr(MSR_IA32_PERFEVTSEL0 + a->idx,
				   pmu__has_global(plan) ? a->evtsel : a->evtsel & ~X86_EVTSEL_EN);
	}
	if (plan->fixed_ctrl) {
		fixed = plat_rdmsr(MSR_IA32_FIXED_CTR_CTRL);
		plat_wrmsr(MSR_IA32_FIXED_CTR_CTRL,
			   (fixed & ~fixed_nibbles(plan)) | plan->fixed_ctrl);
	}
	if (pmu__has_pebs(plan)) {
		/* PEBS implies version 2+ (pmu__probe). */
		pc->saved_ds_area = plat_rdmsr(X86_MSR_IA32_DS_AREA);
		plat_wrmsr(X86_MSR_IA32_DS_AREA, (u64)(uintptr_t)pc->pebs_mem.ds);
		if (adaptive(plan)) {
			pc->saved_pebs_data_cfg = plat_rdmsr(MSR_IA32_PEBS_DATA_CFG);
			plat_wrmsr(MSR_IA32_PEBS_DATA_CFG, plan->pebs_data_cfg);
		}
		v = plat_rdmsr(X86_MSR_IA32_PEBS_ENABLE);
		plat_wrmsr(X86_MSR_IA32_PEBS_ENABLE, v | plan->pebs_enable);
	}
	if (pmu__has_global(plan))
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, start_ack_mask(plan));
	/* Our PMIs must find LVTPC pointing at NMI and the handler willing
	 * before the first counter counts: enable last (v1 too). */
	pc->saved_lvtpc = plat_lvtpc_read();
	plat_lvtpc_set_nmi();
	pc->paused = paused;
	pc->paused_ns = now;
	pc->running = true;
	pmu__barrier(); /* running before enabling; the NMI runs on this CPU */
	if (paused) {
		/* as pmu__cpu_pause leaves them: v2+ GLOBAL_CTRL bits clear
		 * (cleared above), v1 EN clear (written so above) */
	} else if (pmu__has_global(plan)) {
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl | plan->global_ctrl);
	} else {
		for (u32 i = 0; i < plan->nr; i++) /* v1: counts from here */
			plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx, plan->a[i].evtsel);
	}
	return 0;
}

void pmu__cpu_stop(struct pmu_cpu *pc)
{
	const struct pmu_plan *plan = pc->plan;
	u64 v;

	if (!pc->running || !plan)
		return;
	/* An NMI during what follows is still handled (its overflow is ours,
	 * so it is claimed), but must not re-enable what we disable: the
	 * handler leaves GLOBAL_CTRL / the EN bits off while `stopping`. */
	pc->stopping = true;
	pmu__barrier(); /* stopping before the first disabling write */
	if (pmu__has_global(plan)) {
		v = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, v & ~plan->global_ctrl);
	}
	if (pmu__has_pebs(plan)) {
		v = plat_rdmsr(X86_MSR_IA32_PEBS_ENABLE);
		plat_wrmsr(X86_MSR_IA32_PEBS_ENABLE, v & ~plan->pebs_enable);
	}
	for (u32 i = 0; i < plan->nr; i++)
		if (plan->a[i].kind == PMU_CTR_GP)
			plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx, 0);
	if (plan->fixed_ctrl) {
		v = plat_rdmsr(MSR_IA32_FIXED_CTR_CTRL);
		plat_wrmsr(MSR_IA32_FIXED_CTR_CTRL, v & ~fixed_nibbles(plan));
	}
	if (pmu__has_global(plan))
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, pmu__ack_mask(plan));
	if (pmu__has_pebs(plan)) {
		if (adaptive(plan))
			plat_wrmsr(MSR_IA32_PEBS_DATA_CFG, pc->saved_pebs_data_cfg);
		plat_wrmsr(X86_MSR_IA32_DS_AREA, pc->saved_ds_area);
	}
	freeze_restore(pc);
	/* Our counters are off (event selects, fixed nibbles): give our
	 * GLOBAL_CTRL bits back as found (Linux's perf leaves every enable
	 * set while it has no events). */
	if (pmu__has_global(plan) && pc->saved_global_ours) {
		v = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, v | pc->saved_global_ours);
	}
	pc->running = false;
	pmu__barrier(); /* not running before LVTPC goes back to its owner */
	plat_lvtpc_write(pc->saved_lvtpc);
	pc->paused = false;
	pc->stopping = false;
}

/* Our enables off (on) as one step each: GLOBAL_CTRL bits on version 2+,
 * every PERFEVTSELx.EN on version 1 (no fixed counters there). */
static void enables_write(const struct pmu_plan *plan, bool on)
{
	u64 v;

	if (pmu__has_global(plan)) {
		v = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL,
			   on ? v | plan->global_ctrl : v & ~plan->global_ctrl);
		return;
	}
	for (u32 i = 0; i < plan->nr; i++)
		plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx,
			   on ? plan->a[i].evtsel : plan->a[i].evtsel & ~X86_EVTSEL_EN);
}

/*
 * Context switch away from the target. `paused` first: an NMI from here on
 * serves what it finds (an overflow raised before the disable is the
 * outgoing task's, still current) and leaves our enables off; an NMI before
 * this point ran with them on and restored them, and we clear them now.
 * The counters keep their values and the period in progress (armed/left)
 * stays as it is: nothing else writes them while they are ours.
 */
void pmu__cpu_pause(struct pmu_cpu *pc)
{
	const struct pmu_plan *plan = pc->plan;

	if (!pc->running || pc->paused || !plan || !plan->nr)
		return;
	pc->paused = true;
	pmu__barrier(); /* paused before the disabling write; the NMI runs here */
	enables_write(plan, false);
	pc->paused_ns = plat_now_ns();
}

/* Context switch to a target task: the counters go on from the values they
 * stopped at. An NMI between clearing `paused` and the enabling write finds
 * our counters disabled (nothing of ours can overflow) or, if it serves a
 * PMI, enables them itself; the write below is then a repeat. */
void pmu__cpu_resume(struct pmu_cpu *pc)
{
	const struct pmu_plan *plan = pc->plan;
	u64 away;

	if (!pc->running || !pc->paused || pc->stopping || !plan || !plan->nr)
		return;
	/* Frequency mode: the rate is events per running time. Nothing of
	 * ours can overflow (so no NMI reads last_ns) while disabled. */
	away = plat_now_ns() - pc->paused_ns;
	for (u32 i = 0; i < plan->nr; i++)
		if (plan->a[i].freq_hz)
			pc->last_ns[i] += away;
	pc->paused = false;
	pmu__barrier(); /* not paused before enabling */
	enables_write(plan, true);
}
