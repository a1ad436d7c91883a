/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/nmi/capture: turn one interrupt (PMU overflow NMI, NMI IPI, or the
 * hrtimer's own interrupt) into one PMUPROF_REC_SAMPLE in this CPU's ring.
 * Portable: talks to the kernel only through pmuprof/platform.h.
 *
 * Contexts. A CPU can capture from two contexts: NMI (every source) and
 * hard IRQ (TIMER samples from the hrtimer, which an NMI may interrupt). Each
 * context owns a struct capture_ctx (stats, scratch stacks, throttle
 * window) and is its only writer, so no counter is ever updated by two
 * nested contexts at once; GET_STATS sums the contexts. The ring itself is
 * nesting-safe (ring.h).
 *
 * Accounting (per context, per CPU), exact at all times:
 *   captured == samples + lost          (filtered samples are not captured)
 *   sum over events of event_samples == samples, of event_lost == lost
 *
 * Throttling (see capture__handler_done): a window of handler runs is
 * closed every CAPTURE_THROTTLE_WINDOW_NS; the rate is lowered (period x2)
 * when, in that window, the handler used more than CAPTURE_MAX_CPU_PCT % of
 * the CPU *and* its mean run time was above CAPTURE_MAX_MEAN_NS, or when
 * it ran more than CAPTURE_MAX_RATE times a second. These are perf's
 * defaults (kernel.perf_cpu_time_max_percent = 25, which at perf's 100 kHz
 * kernel.perf_event_max_sample_rate allows 2.5 us per sample): cheap
 * handlers are not throttled below that rate, expensive ones never get more
 * than a quarter of a CPU for long.
 * The share is checked early against the whole window, so a storm is cut
 * after at most a quarter window (25 ms) of handler time; the window is
 * long enough that one slow run (a vCPU preempted on the host, first-time
 * code translation under TCG: a few ms) does not throttle a 1 kHz session.
 * A window that closes with the handler so cheap that the rate could go up
 * one step and still use at most half the budget (or with a mean run under
 * CAPTURE_MAX_MEAN_NS, which can never throttle), and at most half the
 * rate cap, lets a throttled rate come back one step (CAPTURE_RATE_RAISE):
 * the same hysteresis keeps the two from alternating, and a transient storm
 * does not cost the rest of the session its rate.
 */
#ifndef PMUPROF_CAPTURE_H
#define PMUPROF_CAPTURE_H

#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "../../include/uapi/pmuprof.h"
#include "ring.h"
#include "../pmu/pebs.h"
#include "pebscheck.h"

enum capture_context {
	CAPTURE_CTX_NMI = 0,
	CAPTURE_CTX_IRQ = 1, /* TIMER samples (hrtimer interrupt) */
	CAPTURE_NR_CTX,
};

#define CAPTURE_THROTTLE_WINDOW_NS 100000000ull /* 100 ms */
#define CAPTURE_MAX_CPU_PCT	   25u
#define CAPTURE_MAX_MEAN_NS	   2500u
#define CAPTURE_THROTTLE_FACTOR	   2u
/* Handler runs per second per CPU and context before the rate is lowered
 * whatever they cost: perf's kernel.perf_event_max_sample_rate default.
 * The CPU budget sees only the handler's own time; the cost of taking the
 * NMI (entry and exit, and in a guest the exit to the hypervisor and the
 * injection) is outside it, and under TCG with KPTI it is several times the
 * handler's (a soft-TLB flush on each CR3 switch). */
#define CAPTURE_MAX_RATE 100000u
/* One run counts at most this much towards the budget (less than the 25 ms
 * a window allows): a single run made long by something else (a vCPU
 * descheduled on its host for tens of ms) is not a rate problem and does
 * not throttle alone; slow runs that keep coming still do. */
#define CAPTURE_THROTTLE_RUN_CAP_NS 10000000ull

/* Session-wide parameters, constant while a session runs. */
struct capture_params {
	u32 flags;	 /* PMUPROF_CF_* */
	u32 depth;	 /* max frames per stack, 1..PMUPROF_MAX_DEPTH */
	u32 target;	 /* enum pmuprof_target */
	s32 pid;	 /* PMUPROF_TARGET_PID: tgid */
	bool privileged; /* may see kernel addresses */
	u32 nr_events;
	u64 cpu_mask[PMUPROF_MAX_CPUS / 64]; /* TARGET_CPUS, or TARGET_PID with cpu_filter */
	bool cpu_filter; /* only cpu_mask's CPUs (TARGET_CPUS; TARGET_PID given a mask) */
	/* CF_INHERIT: a descendant (not the target process itself) is kept
	 * only if plat_current_traceable_by(opener_uid, opener_gid) when
	 * inherit_check_creds is set (the opener lacks CAP_SYS_PTRACE).
	 * session__validate() sets it; the glue fills the ids or clears it. */
	bool inherit_check_creds;
	u32 opener_uid, opener_gid;
	u32 ustack_copy; /* CF_USTACK_COPY: bytes of user stack per sample, else 0 */
};

struct capture_ctx {
	struct pmuprof_cpu_stats st; /* read_records/read_bytes unused here */
	u64 event_samples[PMUPROF_MAX_EVENTS];
	u64 event_lost[PMUPROF_MAX_EVENTS];
	/* throttle window */
	u64 win_start_ns;
	u64 win_busy_ns;
	u64 win_runs;
	/* CF_USTACK_COPY: stack bytes copied, copies that stopped early */
	u64 copy_bytes;
	u64 copy_short;
	/* scratch: the kernel stack is gathered here, then copied into the
	 * record (the user stack is walked straight into the record) */
	u64 kstack[PMUPROF_MAX_DEPTH];
};

struct capture_cpu {
	struct capture_ctx ctx[CAPTURE_NR_CTX];
	/* PEBS records checked against the decoder, by enum
	 * pebs_check_result (pebscheck.h); NMI context only */
	u64 pebs_check[PEBS_CHECK_NR];
	/* handler CPU budget in %, CAPTURE_MAX_CPU_PCT after capture__reset;
	 * 0: never throttle (perf's kernel.perf_cpu_time_max_percent = 0) */
	u32 max_cpu_pct;
	/* handler runs per second, CAPTURE_MAX_RATE after capture__reset;
	 * 0: no cap (the budget above still applies) */
	u32 max_rate;
};

enum capture_result {
	CAPTURE_FILTERED = 0, /* not captured: pid/mode/cpu filter */
	CAPTURE_WRITTEN = 1,  /* sample record committed */
	CAPTURE_LOST = 2,     /* ring full: counted as lost */
};

/* Zero every counter and the throttle window, budget CAPTURE_MAX_CPU_PCT,
 * rate cap CAPTURE_MAX_RATE (session start). */
void capture__reset(struct capture_cpu *cc);

/*
 * Capture one sample of `source`/`event` standing for `period` from the
 * interrupted `regs`, into ring `r` (whose ->cpu is the sampled CPU).
 * Filters first (counted in `filtered`): CPU set, mode, and for TARGET_PID
 * the task's tgid; with CF_INHERIT a task of another process passes when it
 * descends from the target (plat_task_descends_from, at most
 * PMUPROF_INHERIT_MAX_DEPTH ancestors, walked only when the tgid check
 * failed, never for idle or kernel threads; a walk that hits the cap counts
 * `inherit_capped`) and, with inherit_check_creds, the opener could ptrace
 * it.
 * `regs` is passed unchanged to plat_kernel_stack(). Sets *wake when the
 * reader should be woken (watermark crossed). Returns enum capture_result.
 * [NMI]
 */
int capture__sample(struct capture_cpu *cc, unsigned int ctx, const struct capture_params *p,
		    struct ring *r, const struct pp_regs *regs, u32 source, u32 event, u64 period,
		    u64 now_ns, bool *wake);

/*
 * What the PMI samples of one NMI share, filled by the glue once per NMI
 * (before its first sample): capture__sample_nmi takes capture__sample's
 * other arguments from here, and ctx is CAPTURE_CTX_NMI (issue 15: four
 * arguments to pass per sample instead of ten, and the ring's NMI writer
 * path chosen at build time).
 */
struct capture_nmi {
	struct capture_cpu *cc;
	const struct capture_params *p;
	struct ring *r;
	const struct pp_regs *regs;
	u64 now_ns;
	bool *wake;
};
/* Session flags that add to a sample more than its header: stacks, the
 * data address, the code page, the user stack copy. */
#define CAPTURE_CF_EXTRAS                                                                          \
	(PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK | PMUPROF_CF_USTACK_COPY | PMUPROF_CF_DATA_ADDR |   \
	 PMUPROF_CF_CODE_PAGE)

/* capture__sample(e->cc, CAPTURE_CTX_NMI, e->p, e->r, e->regs, source,
 * event, period, e->now_ns, e->wake), in two copies: _plain for sessions
 * without CAPTURE_CF_EXTRAS (IP-only samples: no stack, address or copy
 * code, and a smaller frame), _full for the rest. [NMI] */
int capture__sample_nmi_plain(const struct capture_nmi *e, u32 source, u32 event, u64 period);
int capture__sample_nmi_full(const struct capture_nmi *e, u32 source, u32 event, u64 period);
static __always_inline int capture__sample_nmi(const struct capture_nmi *e, u32 source, u32 event,
					       u64 period)
{
	if (!(e->p->flags & CAPTURE_CF_EXTRAS))
		return capture__sample_nmi_plain(e, source, event, period);
	return capture__sample_nmi_full(e, source, event, period);
}

/*
 * What a PEBS record says about the sampled instruction, for
 * capture__sample_precise().
 */
struct capture_precise {
	u64 ip;	       /* IP from the record */
	u64 data_addr; /* data linear address, if has_addr */
	bool ip_exact; /* the eventing IP (formats 2+), not the next instruction */
	bool has_addr; /* the record carries a data address for this event */
};

/* A parsed PEBS record as capture input: the address counts only when the
 * record has the field and it is non-zero (events that are not memory
 * accesses leave it 0). */
static inline void capture__precise_from_pebs(struct capture_precise *pr,
					      const struct pebs_sample *rec)
{
	pr->ip = rec->ip;
	pr->ip_exact = rec->ip_exact;
	pr->has_addr = rec->has_addr && rec->data_addr;
	pr->data_addr = pr->has_addr ? rec->data_addr : 0;
}

/*
 * capture__sample() for a sample built from a PEBS record (pr != NULL;
 * NULL behaves exactly like capture__sample()). The sample's IP and mode
 * are the record's (user iff ip is in the lower half, as perf decides);
 * the interrupted `regs` still give the stacks, whose first entry becomes
 * the record's IP: kernel stack only when the interrupt hit kernel mode
 * too (else just the IP), user stack from regs or the task's saved user
 * registers. Data address: from the record (addr_source PEBS, precision
 * EXACT, page walk; dataaddr__fill_known), never decoded. EXACT_IP in misc
 * when pr->ip_exact. [NMI]
 */
int capture__sample_precise(struct capture_cpu *cc, unsigned int ctx,
			    const struct capture_params *p, struct ring *r,
			    const struct pp_regs *regs, u32 source, u32 event, u64 period,
			    u64 now_ns, const struct capture_precise *pr, bool *wake);

/*
 * Check one PEBS record's data address against the decoder's
 * (pebs_check__record) and count the result in cc->pebs_check. `intr`
 * are the PMI's interrupted registers; `have_segs` whether their FS/GS
 * bases were read. One decode per record. [NMI]
 */
void capture__pebs_check(struct capture_cpu *cc, const struct pp_regs *intr, bool have_segs,
			 const struct pebs_sample *rec);
/* Add this CPU's PEBS check counts to sum[PEBS_CHECK_NR]. */
void capture__pebs_check_stats(const struct capture_cpu *cc, u64 *sum);

/* What capture__handler_done() asks of the caller's sampling rate. */
enum capture_rate {
	CAPTURE_RATE_KEEP = 0,
	CAPTURE_RATE_LOWER, /* over budget: periods x CAPTURE_THROTTLE_FACTOR */
	CAPTURE_RATE_RAISE, /* a window well under budget: periods back down */
};

/*
 * Account one handler run that took t_end - t_start ns (NMI claimed).
 * Returns CAPTURE_RATE_LOWER when the rate must be lowered (the caller
 * scales its periods by CAPTURE_THROTTLE_FACTOR and calls
 * capture__throttled()), CAPTURE_RATE_RAISE when a window closed so far
 * under budget that the rate may go back up one step (the caller divides
 * periods it throttled earlier by the factor, never below the configured
 * ones, and calls capture__unthrottled()). [NMI]
 */
enum capture_rate capture__handler_done(struct capture_cpu *cc, unsigned int ctx, u64 t_start,
					u64 t_end);
/* The body of capture__handler_done, inline: with ctx a constant (NMI,
 * every PMI) the context's statistics are at a fixed offset, not
 * recomputed from ctx after each store, and the NMI handler runs it
 * without a call (issue 15). [NMI or IRQ] */
static __always_inline enum capture_rate
capture__handler_done_at(struct capture_cpu *cc, unsigned int ctx, u64 t_start, u64 t_end)
{
	struct capture_ctx *c = &cc->ctx[ctx];
	u64 took = t_end > t_start ? t_end - t_start : 0;
	u64 elapsed, span;
	bool over, quiet;

	c->st.nmis_handled++;
	if (c->st.nmis_handled == 1 || took < c->st.handler_ns_min)
		c->st.handler_ns_min = took;
	if (took > c->st.handler_ns_max)
		c->st.handler_ns_max = took;
	c->st.handler_ns_total += took;
	c->st.hist[pmuprof_hist_bucket(took)]++;
	if (!cc->max_cpu_pct && !cc->max_rate)
		return CAPTURE_RATE_KEEP; /* throttling off */

	if (!c->win_runs)
		c->win_start_ns = t_start;
	c->win_busy_ns += took < CAPTURE_THROTTLE_RUN_CAP_NS ? took : CAPTURE_THROTTLE_RUN_CAP_NS;
	c->win_runs++;
	elapsed = t_end > c->win_start_ns ? t_end - c->win_start_ns : 0;
	span = elapsed < CAPTURE_THROTTLE_WINDOW_NS ? CAPTURE_THROTTLE_WINDOW_NS : elapsed;

	/* Over budget: more than MAX_CPU_PCT of the window's time with a mean
	 * above MAX_MEAN_NS per run, or more runs than max_rate allows; both
	 * checked early against the full window length, so a storm is caught
	 * before the window ends. */
	over = (cc->max_cpu_pct && c->win_busy_ns > (u64)CAPTURE_MAX_MEAN_NS * c->win_runs &&
		c->win_busy_ns * 100 > span * cc->max_cpu_pct) ||
	       (cc->max_rate && c->win_runs * PP_NSEC_PER_SEC > span * cc->max_rate);
	if (over) {
		c->win_runs = 0;
		c->win_busy_ns = 0;
		return CAPTURE_RATE_LOWER;
	}
	if (elapsed < CAPTURE_THROTTLE_WINDOW_NS)
		return CAPTURE_RATE_KEEP;
	/* A whole window closed under budget. Quiet: at FACTOR times the rate
	 * the handler would still use at most half the budget (or its runs
	 * are too short to ever throttle on time) and run at most half as
	 * often as max_rate allows. */
	quiet = (!cc->max_cpu_pct || c->win_busy_ns <= (u64)CAPTURE_MAX_MEAN_NS * c->win_runs ||
		 c->win_busy_ns * 100 * CAPTURE_THROTTLE_FACTOR * 2 <= elapsed * cc->max_cpu_pct) &&
		(!cc->max_rate || c->win_runs * PP_NSEC_PER_SEC * CAPTURE_THROTTLE_FACTOR * 2 <=
					  elapsed * cc->max_rate);
	c->win_runs = 0;
	c->win_busy_ns = 0;
	return quiet ? CAPTURE_RATE_RAISE : CAPTURE_RATE_KEEP;
}

/* Count an NMI that was not ours (returned NMI_DONE). [NMI] */
void capture__nmi_passed(struct capture_cpu *cc, unsigned int ctx);
/* Count a lowered rate and emit a THROTTLE record (best effort). [NMI] */
void capture__throttled(struct capture_cpu *cc, unsigned int ctx, struct ring *r, u32 event,
			u64 old_period, u64 new_period, u64 now_ns, bool *wake);
/* Count a raised rate and emit an UNTHROTTLE record (best effort). [NMI] */
void capture__unthrottled(struct capture_cpu *cc, unsigned int ctx, struct ring *r, u32 event,
			  u64 old_period, u64 new_period, u64 now_ns, bool *wake);
/* Frequency mode moved an event's period: emit a PERIOD record (best
 * effort; samples carry their own period either way). [NMI] */
void capture__period_changed(struct ring *r, u32 event, u64 old_period, u64 new_period, u64 now_ns,
			     bool *wake);

/*
 * User call stack by frame pointers from user registers `uregs`:
 * out[0] = uregs->ip, then return addresses, at most `max` entries. Stops
 * on a zero or misaligned frame pointer, on a frame pointer that does not
 * grow (loop guard), on a zero return address, and on a fault (sets
 * PMUPROF_SF_USTACK_FAULT in *sflags); sets PMUPROF_SF_USTACK_TRUNC when
 * `max` was reached with frames left. [NMI]
 */
unsigned int capture__user_stack(const struct pp_regs *uregs, u64 *out, unsigned int max,
				 u32 *sflags);

/* Size of a sample record with these parts (multiple of 8). */
u32 capture__sample_size(bool addr, unsigned int nr_kstack, unsigned int nr_ustack);

/*
 * CF_USTACK_COPY: fill `out` (regs from `uregs`, size = `size`) and copy up
 * to `size` bytes of user stack from uregs' SP into `stack`, a page at a
 * time, stopping at the first page that cannot be read (no fault is taken);
 * out->valid says how far it got, the rest of `stack` is zeroed. At most
 * size / 4096 + 1 platform copies. [NMI]
 */
void capture__user_stack_copy(const struct pp_regs *uregs, struct pmuprof_sample_ustack *out,
			      u8 *stack, u32 size);

/* Sum both contexts of one CPU into *out (min/max combined), and the
 * per-event counts into ev_samples/ev_lost (added, may be NULL). */
void capture__cpu_stats(const struct capture_cpu *cc, struct pmuprof_cpu_stats *out,
			u64 *ev_samples, u64 *ev_lost);
/* dst += src with min/max combined (only over entries that ran). */
void capture__stats_add(struct pmuprof_cpu_stats *dst, const struct pmuprof_cpu_stats *src);
/* Add this CPU's user stack copy totals (CF_USTACK_COPY) to *bytes, *cut_short. */
void capture__copy_stats(const struct capture_cpu *cc, u64 *bytes, u64 *cut_short);

#endif /* PMUPROF_CAPTURE_H */
