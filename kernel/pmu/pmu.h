/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/pmu: the Intel architectural PMU, programmed directly.
 * Portable: talks to hardware only through pmuprof/platform.h.
 * Register layouts: pmuprof/x86_pmu_regs.h (the one header of SDM facts).
 *
 * Life cycle (Linux glue shown on the right):
 *   pmu__probe(&caps)                         module load, once
 *   pmu__plan(&caps, cfg, &plan, &why)        CONFIGURE ioctl (pure, no MSRs)
 *   pmu__reserve(&plan)                       START, before any MSR write
 *                                             (PEBS: refused while VMX is on)
 *   pmu__cpu_start_mem(&pcpu, &plan, &mem)    START, on each CPU (IPI); mem =
 *                                             the CPU's PEBS memory (allocated
 *                                             by the glue: kernel/pmu never
 *                                             allocates), NULL without PEBS
 *   pmu__handle_nmi_ex(&pcpu, &ops, ctx)      NMI handler          [NMI]
 *   pmu__cpu_pause / pmu__cpu_resume(&pcpu)   per-process sessions: context
 *                                             switch away from / to a target
 *   pmu__cpu_stop(&pcpu)                      STOP, on each CPU (IPI)
 *   pmu__release(&plan)                       STOP, after all CPUs stopped
 */
#ifndef PMUPROF_PMU_H
#define PMUPROF_PMU_H

#include "pmuprof/types.h"
#include "../../include/uapi/pmuprof.h"
#include "pebs.h"

struct pmu_caps {
	u32 status;  /* enum pmuprof_pmu_status */
	u32 version; /* CPUID.0AH:EAX[7:0]; 0 = no architectural PMU */
	u32 nr_gp, gp_width;
	u32 nr_fixed, fixed_width;
	u32 arch_events; /* 1 = available, enum pmuprof_arch_event bits */
	u32 arch_events_len;
	u32 fixed_mask; /* CPUID.0AH:ECX fixed-counter bitmap (v5+), else derived */
	u64 perf_capabilities;
	bool full_width; /* PERF_CAPABILITIES.FW_WRITE: use IA32_A_PMCx */
	bool hypervisor;
	u32 vendor; /* enum pmuprof_cpu_vendor */
	u32 family, model, stepping;
	char vendor_string[16];
	u32 pebs_format;      /* PERF_CAPABILITIES[11:8], if PEBS present */
	bool pebs;	      /* PEBS usable: DS, not MISC_ENABLE-unavailable, v2+, known format */
	bool pebs_baseline;   /* PERF_CAPABILITIES.PEBS_BASELINE: adaptive PEBS */
	const char *pebs_why; /* !pebs: why (static); the glue may also clear pebs (KPTI) */
	bool pebs_kpti;	      /* the glue cleared pebs because KPTI is on */
	bool any_thread;      /* AnyThread usable: version >= 3, not deprecated (EDX[15]) */
	bool ds;	      /* CPUID.1:EDX.DS (debug store) */
	bool hybrid;	      /* CPUID.07H:EDX.Hybrid: status PMUPROF_PMU_HYBRID */
	u32 core_type;	      /* hybrid: CPUID.1AH:EAX[31:24] of the probing CPU */
};

/* Cap on the NMI handler's "ack, re-read GLOBAL_STATUS" loop. */
#define PMU_MAX_OVF_LOOPS 16

enum pmu_counter_kind {
	PMU_CTR_GP = 0,
	PMU_CTR_FIXED = 1,
};

struct pmu_assign {
	u8 kind;	/* enum pmu_counter_kind */
	u8 idx;		/* counter number within its kind */
	u16 event;	/* index into pmuprof_config.events */
	u64 evtsel;	/* GP: IA32_PERFEVTSELx value incl. INT and EN */
	u64 fixed_bits; /* FIXED: this counter's nibble in FIXED_CTR_CTRL, shifted */
	u64 period;	/* initial period (events); freq mode: first guess */
	u64 freq_hz;	/* 0 = fixed period */
	bool pebs;	/* precise: PEBS on this counter (INT / the PMI nibble bit clear) */
};

struct pmu_plan {
	u32 nr; /* assignments (PMU-source events only) */
	struct pmu_assign a[PMUPROF_MAX_EVENTS];
	u64 global_ctrl; /* IA32_PERF_GLOBAL_CTRL value enabling ours (v2+) */
	u64 fixed_ctrl;	 /* IA32_FIXED_CTR_CTRL value for ours */
	u32 version;	 /* caps->version, for v1 vs v2+ enabling */
	u32 gp_width, fixed_width;
	bool full_width;
	bool any_freq; /* some assignment is in frequency mode (freq_hz != 0):
			* only then do periods change other than by throttling */
	/* PEBS (pebs_enable != 0): one record per PMI, see pmu_irq.c */
	u64 pebs_enable;   /* IA32_PEBS_ENABLE bits of ours */
	u64 pebs_counters; /* the same counters in GLOBAL_STATUS layout */
	u64 pebs_data_cfg; /* IA32_PEBS_DATA_CFG (adaptive formats) */
	u32 pebs_format;
	u32 pebs_record_size; /* bytes of one record with this format/config */
};

/*
 * Per-CPU PEBS memory, allocated by the platform glue before START and
 * freed after STOP. Both must stay mapped, never fault and be writable by
 * the CPU in every address space it runs in while PEBS is on (Linux: the
 * direct map, and only without page-table isolation; docs/PMU.md).
 * Addresses are used as the linear addresses the CPU writes through.
 */
/* (X86_DS_AREA_SIZE: use only where pmuprof/x86_pmu_regs.h is included;
 * the Linux glue cannot, its MSR names clash with <asm/msr-index.h>. A
 * page always holds it; pmu__cpu_start_mem() checks the alignment.) */
#define PMU_PEBS_DS_BYTES X86_DS_AREA_SIZE
struct pmu_pebs_mem {
	void *ds;    /* DS save area, >= PMU_PEBS_DS_BYTES, X86_DS_AREA_ALIGN-aligned */
	void *buf;   /* PEBS buffer */
	u32 buf_len; /* bytes; holds at least one record */
};

/* PEBS counters kept per CPU (diagnostics; not in the ABI). */
struct pmu_pebs_stats {
	u64 records;	  /* records parsed */
	u64 bad_index;	  /* DS index outside the buffer / not on a record */
	u64 bad_record;	  /* records pebs__parse() refused */
	u64 unattributed; /* records naming no counter of ours */
	u64 ambiguous;	  /* formats 1/2: records naming several of ours (dropped) */
};

/* Per-CPU state; lives inside the NMI handler's per-CPU struct. */
struct pmu_cpu {
	const struct pmu_plan *plan;
	u64 period[PMUPROF_MAX_EVENTS];	 /* current period per assignment */
	u64 armed[PMUPROF_MAX_EVENTS];	 /* period the next sample stands for */
	u64 left[PMUPROF_MAX_EVENTS];	 /* events the counter was armed to count:
					  * armed minus the overshoot carried in */
	u64 last_ns[PMUPROF_MAX_EVENTS]; /* freq mode: time of last overflow */
	/* Fixed for the session, set at start so the NMI handler does not
	 * derive them per PMI (issue 15): per assignment the counter's MSR
	 * (pmu__counter_msr) and value mask (its width); the status bits
	 * that make a PMI ours (pmu__want_mask). */
	u32 ctr_msr[PMUPROF_MAX_EVENTS];
	u64 ctr_mask[PMUPROF_MAX_EVENTS];
	u64 gbit[PMUPROF_MAX_EVENTS]; /* GLOBAL_STATUS bit (pmu__global_bit) */
	u64 want;
	u32 saved_lvtpc;
	u64 saved_global_ours; /* our GLOBAL_CTRL bits as found at start (put back at stop) */
	bool freeze_cleared;   /* DEBUGCTL.FREEZE_PERFMON_ON_PMI was set: set it again at stop */
	bool running;
	bool stopping;	  /* pmu__cpu_stop runs: the handler must not re-enable */
	bool paused;	  /* pmu__cpu_pause: ours disabled, values kept; the
			   * handler must not re-enable */
	u64 paused_ns;	  /* when pmu__cpu_pause ran (frequency mode clock) */
	u64 loops_capped; /* overflow loop hit PMU_MAX_OVF_LOOPS */
	/* PEBS, when plan->pebs_enable */
	struct pmu_pebs_mem pebs_mem;
	u64 pebs_base; /* linear address of pebs_mem.buf */
	u32 pebs_nrec; /* whole records the buffer holds */
	u64 saved_ds_area, saved_pebs_data_cfg;
	struct pmu_pebs_stats pebs;
};

/* Read CPUID.0AH & co. Always succeeds; caps->status says if usable. */
void pmu__probe(struct pmu_caps *caps);
/* One line "pmu: version=%u gp=%ux%u fixed=%ux%u ..." into buf. */
int pmu__describe(const struct pmu_caps *caps, char *buf, size_t len);

/*
 * Validate the PMU-source events of cfg and assign counters. Pure: no MSR
 * access. Returns 0, or a negative errno with *why set to a static message:
 *  -ENODEV  no usable PMU / event not available per CPUID / PEBS unsupported
 *  -EINVAL  reserved bits, INT/EN/PC set, ANY on v3-less PMU, period < min
 *  -ENOSPC  more PMU events than counters (GP and fixed)
 */
int pmu__plan(const struct pmu_caps *caps, const struct pmuprof_config *cfg, struct pmu_plan *plan,
	      const char **why);

/* Take every counter and event-select the plan uses through the platform's
 * reservation API. -EBUSY (with everything released) if any is held. A plan
 * with PEBS first asks every online CPU for CR4.VMXE (plat_cr4_any_cpu):
 * -EAGAIN, nothing taken, while a hypervisor (KVM) has VMX on, since guest
 * entries would keep our PEBS armed. Process context. */
int pmu__reserve(const struct pmu_plan *plan, const char **why);
void pmu__release(const struct pmu_plan *plan);

/* Program this CPU's counters, clear DEBUGCTL.FREEZE_PERFMON_ON_PMI if
 * set (restored at stop), point LVTPC at NMI, then enable (v1 too: no
 * counter counts before LVTPC and the handler are ready). A plan with
 * PEBS cannot start this way (nothing is programmed): use _mem. */
void pmu__cpu_start(struct pmu_cpu *pc, const struct pmu_plan *plan);
/*
 * Same, with the CPU's PEBS memory (NULL when the plan has no PEBS). For a
 * PEBS plan: DS area laid out (threshold one record), reset slots = the arm
 * values, IA32_DS_AREA (old value saved), IA32_PEBS_DATA_CFG (adaptive,
 * saved), IA32_PEBS_ENABLE (ours set) programmed before GLOBAL_CTRL
 * enables. Returns 0, or -EINVAL (nothing programmed) when a PEBS plan gets
 * no or too little memory, or a DS area that is not X86_DS_AREA_ALIGN-aligned.
 */
int pmu__cpu_start_mem(struct pmu_cpu *pc, const struct pmu_plan *plan,
		       const struct pmu_pebs_mem *mem);
/* Same, with `paused`: everything programmed and armed, but our counters
 * left disabled as pmu__cpu_pause() leaves them (the CPU runs no task of
 * a per-process session's target). */
int pmu__cpu_start_ex(struct pmu_cpu *pc, const struct pmu_plan *plan,
		      const struct pmu_pebs_mem *mem, bool paused);
/* Disable ours (PEBS_ENABLE bits first cleared with the counters),
 * clear their overflow bits (and the DS-buffer bit), restore
 * IA32_PEBS_DATA_CFG, IA32_DS_AREA, DEBUGCTL's freeze bit and LVTPC.
 * Records not yet drained are dropped. An NMI during stop is still
 * handled but leaves our counters disabled. The PEBS memory may be freed
 * once every CPU has stopped and no NMI handler runs any more. */
void pmu__cpu_stop(struct pmu_cpu *pc);

/*
 * Per-process sessions: stop our counters when the CPU switches away from
 * the target and let them go on when it switches back, as perf switches a
 * task's events at context switch. Only the enables change (GLOBAL_CTRL
 * bits; version 1: each PERFEVTSELx.EN): the counters are ours for the
 * session, so a disabled counter keeps its value, and the period in
 * progress resumes where it stopped. Call on the CPU itself with
 * interrupts off (the scheduler's switch path). An NMI may come in between:
 * `paused` is set before the first disabling write and cleared before the
 * enabling one, and the handler re-enables nothing while it is set; an
 * overflow raised just before the pause is still served (it belongs to the
 * task that is still current). No-ops when not running, when already in
 * the requested state, and (resume) inside pmu__cpu_stop. Frequency mode
 * measures rates over the time the counters ran: resume moves each
 * frequency counter's last overflow time on by the time paused.
 */
void pmu__cpu_pause(struct pmu_cpu *pc);
void pmu__cpu_resume(struct pmu_cpu *pc);

/*
 * The glue's sample sink, bound at link time (issue 15: no function
 * pointer, so no indirect call through a retpoline thunk per sample). The
 * module defines these in kernel/linux/sampler.c; the host tests in
 * tests/unit/pmu_glue_test.c (dispatching as each test needs). ctx is what
 * the caller passed to pmu__handle_nmi_at. All three run in NMI context
 * and must be NOKPROBE. [NMI]
 *   pmu__glue_emit: a sample of counter event with the period it was armed for.
 *   pmu__glue_emit_pebs: a sample built from PEBS record rec.
 *   pmu__glue_check_pebs: once per parsed record, before its samples
 *   (whatever counters it names): the PEBS-vs-decoder check
 *   (kernel/nmi/pebscheck.h).
 */
void pmu__glue_emit(void *ctx, u32 event, u64 period);
void pmu__glue_emit_pebs(void *ctx, u32 event, u64 period, const struct pebs_sample *rec);
void pmu__glue_check_pebs(void *ctx, const struct pebs_sample *rec);

/*
 * NMI entry. An overflow of ours: a GLOBAL_STATUS bit of an interrupting
 * counter of ours or, when none is set (a handler that ran first
 * acknowledged it), a counter of ours whose top bit is clear (wrapped).
 * None: returns 0 having written no counter or status MSR (the NMI is
 * someone else's) but LVTPC, which it reopens while the session runs (a
 * foreign PMI masked it). Otherwise: disable ours, call
 * pmu__glue_emit(ctx, event, period) once per overflowed counter of ours
 * with the period it was armed for, re-arm it for the next period minus the
 * events counted past the wrap (freq mode: adjust its period first),
 * acknowledge through GLOBAL_OVF_CTRL (v4: with CTR_FRZ), re-read status,
 * loop at most PMU_MAX_OVF_LOOPS, re-enable (not while pmu__cpu_stop runs),
 * unmask LVTPC last. Returns the number of samples emitted.
 *
 * PEBS: when GLOBAL_STATUS has the DS-buffer bit (62) and the plan has
 * PEBS, the records between the buffer base and the DS index (validated
 * against the buffer, at most its capacity: pebs__ds_take) are parsed;
 * each goes to pmu__glue_check_pebs, then becomes pmu__glue_emit_pebs(ctx,
 * event, period, record) once per counter of ours it names (formats 3+:
 * "applicable counters"; 1/2: the GLOBAL_STATUS copy, dropped when it names
 * several of ours; 0: the single PEBS counter). The index is reset, every
 * PEBS counter that produced a record or has its own status bit set is
 * re-armed (counter and DS reset slot), the bit acknowledged with ours.
 * PEBS counters' own status bits never emit a sample. A buffer interrupt of
 * ours that yielded no sample returns 1 (so > 0 means "this NMI was ours").
 * Bounded by PMU_MAX_OVF_LOOPS x (counters + buffer records).
 *
 * `now` is the handler's time stamp taken by the caller (as plat_now_ns():
 * the frequency-mode clock), so an NMI handler that already read the clock
 * does not read it again. [NMI]
 */
int pmu__handle_nmi_at(struct pmu_cpu *pc, void *ctx, u64 now);

/* Throttling: multiply this CPU's period of `event` by `factor`. [NMI] */
void pmu__scale_period(struct pmu_cpu *pc, u32 event, u32 factor);
/* Undo one pmu__scale_period() step: divide the event's fixed periods by
 * factor, never below the configured period. Frequency-mode counters are
 * left to their own control. The new period applies at the next re-arm. */
void pmu__restore_period(struct pmu_cpu *pc, u32 event, u32 factor);

#endif /* PMUPROF_PMU_H */
