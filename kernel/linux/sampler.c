// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling on Linux: the NMI handler, the NMI-IPI hrtimers, per-CPU
 * start/stop, CPU hotplug, reader wake-ups.
 *
 * NMI-IPI source. The CPUs that run an hrtimer, and whom each one
 * samples, come from a plan (kernel/nmi/ipiplan.h) built at START and on
 * every CPU hotplug: a sampled CPU takes at most one interrupt per sample.
 * An online CPU that does not sample sends the NMIs of up to
 * IPIPLAN_FANOUT sampled CPUs; where no such CPU is left, the first CPU of
 * a group captures itself from its timer interrupt (source TIMER) and sends
 * the NMIs of the rest. At each expiry a sender, for every target T of its
 * role whose sample is due and that samples in this session, if T has no
 * NMI IPI of ours outstanding, marks it (ipiplan.h, enum ipiplan_ipi_state):
 *     cmpxchg(&T->nmi_pending, NONE, SENDING);    (P0)
 * then, for the targets marked, RAISING (P1, pairs with H0), one
 * apic->send_IPI_mask(targets, NMI_VECTOR), and for each T:
 *     T->ipi_sent_ns = now;
 *     cmpxchg(&T->nmi_pending, RAISING, SENT);    (P2, pairs with H0)
 * While the previous IPI
 * is unconsumed (the target is stalled, or inside a long NMI) its due
 * sample is not sent and is counted in ipis_outstanding (missed samples).
 * An NMI IPI is not lost: it merges in the target's NMI latch with whatever
 * NMI comes, and the next NMI the target takes consumes the flag (an NMI
 * that served a PMI leaves a young flag for the next NMI, see below). Only
 * as a backstop, after PP_IPI_RESEND_NS (1 s), is it sent again: a re-send
 * that reaches the target inside the NMI that takes the first one comes as
 * a second NMI that finds nothing, reported as unknown. With the re-send at
 * 100 ms, as before, a vCPU that the host did not run for that long (two
 * busy processes beside the VM on 2 cores) made one now and then. Each target
 * keeps its own period (throttling doubles it) and next due time; the timer
 * fires at the earliest due time of its role. Sessions with the TIMER source
 * plan `self` on every sampled CPU. With one online CPU the plan is that CPU
 * capturing itself.
 *
 * Re-planning (hotplug) installs roles while senders run: grow before
 * shrink (pp_role_install), so a CPU that keeps a role never sees an empty
 * one; a sender that sees a stale target list checks each target's
 * `sampling` at send time, so the worst case is one sample too many or too
 * few for one period. CPUs that gain a role get their timer started by a
 * function call IPI (pp_timer_kick); CPUs that lose it stop at their next
 * expiry.
 *
 * Recognising our NMIs. NMIs carry no source, so the handler decides from
 * state: it claims an NMI when pmu__handle_nmi_at() finds an overflow of
 * ours, or when it consumes the outstanding IPI (atomic_xchg to 0, H1). An
 * NMI without a PMI of ours consumes it; an NMI that served a PMI consumes
 * it only if it is SENT and was raised more than PP_IPI_LANDED_NS ago (H0,
 * ipiplan__take_ipi): a younger one is still in flight or latched behind
 * this NMI and comes as its own NMI, which must find it (taking it here
 * would leave that NMI "unknown"); an older one merged with this NMI. No
 * NMI takes a SENDING IPI: it is not raised yet (a host that deschedules
 * the sender's vCPU between P0 and P1 holds it there for milliseconds), so
 * an NMI meanwhile (an empty one latched behind a PMI that the PMI's
 * handler served, a foreign one) is not it.
 * Everything else returns NMI_DONE so
 * other handlers (and the "unknown NMI" report) see it. The handler
 * returns how many things it did (the IPI, plus one per counter overflow),
 * as perf does, so that Linux swallows a back-to-back NMI that finds
 * nothing because an earlier one did its work. With one IPI outstanding at
 * most, a coalesced IPI cannot leave a surplus that would claim later
 * foreign NMIs; what is left is a foreign NMI landing while an IPI is in
 * flight (it is claimed, the IPI then finds nothing). The flags are cleared
 * at START and, once the senders are stopped and the last IPI has landed,
 * at STOP.
 *
 * Ordering of start/stop against NMIs: per-CPU flags are set before the
 * sources that depend on them start (sampling before any IPI can target
 * the CPU, pmu_running before the counters are armed) and cleared after
 * the sources stop; synchronize_rcu() after STOP waits for NMI handlers
 * still inside capture (NMI handlers are RCU readers) before rings may be
 * freed.
 *
 * Hotplug: the CPUHP_AP_ONLINE_DYN callbacks run on the CPU concerned and
 * are serialised with START/STOP, which hold cpus_read_lock().
 *
 * Per-process sessions (TARGET_PID) follow the target at context switch,
 * as perf switches a task's events: a probe on the sched_switch tracepoint
 * (found by name at load: the tracepoint is not exported to modules, its
 * registration API is), registered from START to STOP, sets each CPU's
 * `target_on` when the incoming task is one the capture filter would keep
 * (pp_task_is_target: the tgid, or with CF_INHERIT a descendant) and
 * clears it otherwise. On a change it pauses or resumes the CPU's counters
 * (pmu__cpu_pause/resume: enables only, values and the period in progress
 * kept), so another process's events never count towards the target's
 * periods; and an NMI-IPI sender sends no NMI to, nor a group leader
 * captures, a CPU whose `target_on` is clear. The probe runs on the CPU
 * itself with interrupts off (the scheduler holds its runqueue lock), as do
 * pp_cpu_begin/pp_cpu_end, so the three never interleave on one CPU; an
 * NMI may come in anywhere and pmu__cpu_pause/resume are written for it.
 * A sender on another CPU reads `target_on` without ordering: at worst one
 * sample is sent to a CPU that has just switched away (the capture filter
 * drops it) or not sent to one that has just switched in. The per-sample
 * process filter stays the authority (kernel-mode events count the few
 * scheduler instructions between the tracepoint and the switch itself).
 * Without the tracepoint (another kernel) the session counts and sends
 * everywhere and filters at sample time, as before.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/delay.h>
#include <linux/vmalloc.h>
#include <linux/percpu.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <asm/irq_regs.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/tsc.h>

#include "pp_linux.h"
#include "../nmi/dataaddr.h"

struct pp_cpu __percpu *pp_cpus;
static int pp_cpuhp_state = -1;
static struct tracepoint *pp_tp_switch; /* sched_switch, NULL if not found */

static bool want_segs(const struct pp_session *s)
{
	return s->plan.cap.flags & PMUPROF_CF_DATA_ADDR;
}

/* A rate change, as a THROTTLE or UNTHROTTLE record. [NMI or IRQ] */
static void pp_rate_note(struct pp_cpu *pc, unsigned int ctx, bool raise, u32 event, u64 before,
			 u64 after, u64 now, bool *wake)
{
	if (raise)
		capture__unthrottled(&pc->cap, ctx, &pc->ring, event, before, after, now, wake);
	else
		capture__throttled(&pc->cap, ctx, &pc->ring, event, before, after, now, wake);
}
NOKPROBE_SYMBOL(pp_rate_note);

/*
 * Act on capture__handler_done()'s verdict for this CPU's rate, one step:
 * LOWER (throttling) multiplies the periods by CAPTURE_THROTTLE_FACTOR,
 * RAISE divides them back, within [the configured period, the maximum].
 * Clock: the period the sender uses for this CPU. PMU: each counter's
 * period (pmu__scale_period / pmu__restore_period, which keeps frequency
 * mode to its own control). Each change is a THROTTLE or UNTHROTTLE
 * record. [NMI or IRQ]
 */
static void pp_rate_change(enum capture_rate r, struct pp_cpu *pc, struct pp_session *s,
			   unsigned int ctx, u64 now, bool *wake)
{
	bool raise = r == CAPTURE_RATE_RAISE;
	u32 i;

	if (s->plan.clock_event >= 0) {
		u64 before = READ_ONCE(pc->clock_period_ns);
		u64 after =
			raise ? before / CAPTURE_THROTTLE_FACTOR : before * CAPTURE_THROTTLE_FACTOR;

		after = clamp_t(u64, after, s->plan.clock_period_ns, SESSION_MAX_CLOCK_PERIOD_NS);
		if (after != before) {
			WRITE_ONCE(pc->clock_period_ns, after);
			pp_rate_note(pc, ctx, raise, s->plan.clock_event, before, after, now, wake);
		}
	}
	if (ctx != CAPTURE_CTX_NMI || !READ_ONCE(pc->pmu_running))
		return; /* counters are only touched from their NMI */
	for (i = 0; i < s->plan.pmu.nr; i++) {
		u32 ev = s->plan.pmu.a[i].event;
		u64 before = pc->pmu.period[i];

		if (raise)
			pmu__restore_period(&pc->pmu, ev, CAPTURE_THROTTLE_FACTOR);
		else
			pmu__scale_period(&pc->pmu, ev, CAPTURE_THROTTLE_FACTOR);
		if (pc->pmu.period[i] != before)
			pp_rate_note(pc, ctx, raise, ev, before, pc->pmu.period[i], now, wake);
		pc->pmu_period_seen[i] = pc->pmu.period[i]; /* reported as (UN)THROTTLE */
	}
}
NOKPROBE_SYMBOL(pp_rate_change);

/* Nearly every run keeps the rate: no call for that. */
static __always_inline void pp_rate(enum capture_rate r, struct pp_cpu *pc, struct pp_session *s,
				    unsigned int ctx, u64 now, bool *wake)
{
	if (r != CAPTURE_RATE_KEEP)
		pp_rate_change(r, pc, s, ctx, now, wake);
}

/*
 * The interrupted registers in portable form, once per NMI, as far as the
 * session reads them: all of them (and the segment bases, want_segs) for
 * the instruction decoder (DATA_ADDR, CODE_PAGE), the user register dump
 * (USTACK_COPY) and the PEBS check; otherwise IP, flags, SP and BP, which
 * is all capture reads then (the mode, the IP, the frame-pointer walk):
 * 16 loads and stores fewer per sample (issue 15). ec->cn's pointers are
 * set at load (pp_emit_ctx_init), its time per NMI by the handler.
 */
static __always_inline void pp_convert_regs(struct pp_emit_ctx *ec)
{
	const struct pp_session *s = &pp_sess;

	ec->converted = true;
	if (ec->all_regs)
		pp_regs_from_pt(&ec->lr, ec->regs, want_segs(s));
	else
		pp_regs_from_pt_min(&ec->lr, ec->regs);
}

/* pp_convert_regs once per NMI, where a sample may not come (NMI IPI,
 * PEBS); out of line. [NMI] */
static noinline void pp_convert(struct pp_emit_ctx *ec)
{
	if (!ec->converted)
		pp_convert_regs(ec);
}
NOKPROBE_SYMBOL(pp_convert);

/* The constant part of a CPU's emit context (struct pp_emit_ctx). */
static void pp_emit_ctx_init(struct pp_cpu *pc)
{
	struct pp_emit_ctx *ec = &pc->ec;

	ec->pc = pc;
	ec->s = &pp_sess;
	ec->cn.cc = &pc->cap;
	ec->cn.p = &pp_sess.plan.cap;
	ec->cn.r = &pc->ring;
	ec->cn.regs = &ec->lr.pp;
	ec->cn.wake = &ec->wake;
}

/* The PMU layer's sample sink (kernel/pmu/pmu.h: a direct call, bound at
 * link time). Only pp_nmi_handler asks the PMU layer, and it has converted
 * the registers before when this CPU samples (ec->sampling). [NMI] */
void pmu__glue_emit(void *arg, u32 event, u64 period)
{
	struct pp_emit_ctx *ec = arg;
	const struct pp_session *s = &pp_sess;

	if (!ec->sampling || event >= s->plan.cap.nr_events)
		return;
	capture__sample_nmi(&ec->cn, s->plan.cfg.events[event].source, event, period);
}
NOKPROBE_SYMBOL(pmu__glue_emit);

/* A PEBS record of ours: the sample's IP and data address are the
 * record's (capture__sample_precise), the stacks from the PMI's regs. */
void pmu__glue_emit_pebs(void *arg, u32 event, u64 period, const struct pebs_sample *rec)
{
	struct pp_emit_ctx *ec = arg;
	struct pp_session *s = ec->s;
	struct capture_precise pr;

	if (!READ_ONCE(ec->pc->sampling) || event >= s->plan.cap.nr_events)
		return;
	pp_convert(ec);
	capture__precise_from_pebs(&pr, rec);
	capture__sample_precise(&ec->pc->cap, CAPTURE_CTX_NMI, &s->plan.cap, &ec->pc->ring,
				&ec->lr.pp, PMUPROF_SOURCE_PEBS, event, period, ec->cn.now_ns, &pr,
				&ec->wake);
}
NOKPROBE_SYMBOL(pmu__glue_emit_pebs);

/* Each PEBS record once: its data address against the decoder's, from the
 * record's GPRs and the PMI's segment bases (capture__pebs_check). */
void pmu__glue_check_pebs(void *arg, const struct pebs_sample *rec)
{
	struct pp_emit_ctx *ec = arg;
	struct pp_session *s = ec->s;

	if (!READ_ONCE(ec->pc->sampling))
		return;
	pp_convert(ec);
	capture__pebs_check(&ec->pc->cap, &ec->lr.pp, want_segs(s), rec);
}
NOKPROBE_SYMBOL(pmu__glue_check_pebs);

/*
 * Session start: may the NMI handler time itself by TSC delta? Only when
 * the TSC counts at a constant rate (X86_FEATURE_CONSTANT_TSC: not with
 * the P-state), the kernel has not found it unstable (then it would not be
 * the clocksource either) and its frequency is known. Stopping in deep
 * C-states (no NONSTOP_TSC) does not matter: the handler never idles
 * between its two reads. Otherwise mult stays 0 and the clock is read.
 */
static void pp_tsc_timing_init(struct pp_session *s)
{
	s->tsc.mult = 0;
	if (boot_cpu_has(X86_FEATURE_TSC) && boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	    !check_tsc_unstable())
		pp_tscconv_init(&s->tsc, tsc_khz);
}

/*
 * The NMI handler's end time, for its statistics (GET_STATS handler time)
 * and throttling: its start `now` (ktime, CLOCK_MONOTONIC) plus the TSC
 * cycles since `tsc0`, read right after `now`, instead of a second clock
 * read (issue 15). Used when the TSC ticks at a constant rate the kernel
 * knows (pp_tsc_timing_init); otherwise the clock is read again.
 */
static __always_inline u64 pp_handler_end(const struct pp_session *s, u64 now, u64 tsc0)
{
	if (likely(s->tsc.mult))
		return now + pp_tscconv_ns(&s->tsc, rdtsc() - tsc0);
	return plat_now_ns();
}

static int pp_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct pp_cpu *pc = this_cpu_ptr(pp_cpus);
	struct pp_session *s = &pp_sess;
	struct pp_emit_ctx *ec = &pc->ec; /* constant fields set at load */
	int handled = 0, n = 0;
	bool sampling; /* only this CPU changes it, never inside its NMI */
	u64 now, t_end, tsc0;

	int pending = atomic_read_acquire(&pc->nmi_pending); /* H0, pairs with P1, P2 */
	/* only this CPU changes it (pp_cpu_begin/end), never inside its NMI */
	bool pmu_on = READ_ONCE(pc->pmu_running);

	if (!pending && !pmu_on) {
		/* fast path: no session source aims at us */
		if (READ_ONCE(pc->sampling))
			capture__nmi_passed(&pc->cap, CAPTURE_CTX_NMI);
		return NMI_DONE;
	}

	sampling = READ_ONCE(pc->sampling);
	ec->regs = regs;
	ec->converted = false;
	ec->wake = false;
	now = plat_now_ns(); /* in a register; ec's copy for the glue */
	ec->cn.now_ns = now;
	tsc0 = rdtsc(); /* the handler's own time: pp_handler_end */

	ec->sampling = sampling;
	if (pmu_on) {
		/* the registers now, not per sample in pmu__glue_emit: nearly
		 * every NMI that reaches here with counters running is a PMI */
		if (sampling)
			pp_convert_regs(ec);
		n = pmu__handle_nmi_at(&pc->pmu, ec, now);
	}
	/* An NMI that served a PMI takes the outstanding IPI only once the IPI
	 * must have landed: one not raised yet, or a young one, is still in
	 * flight or latched behind this NMI, and will come as an NMI of its own
	 * (header comment). */
	if (ipiplan__take_ipi(pending, n > 0, now, READ_ONCE(pc->ipi_sent_ns), PP_IPI_LANDED_NS) &&
	    atomic_xchg(&pc->nmi_pending, IPIPLAN_IPI_NONE)) { /* H1, pairs with P0 */
		handled++;
		pc->cap.ctx[CAPTURE_CTX_NMI].st.ipis_taken++;
		if (sampling && s->plan.clock_event >= 0) {
			pp_convert(ec);
			capture__sample_nmi(&ec->cn, PMUPROF_SOURCE_NMI_IPI, s->plan.clock_event,
					    READ_ONCE(pc->clock_period_ns));
		}
	}
	if (n > 0) {
		u32 i;

		handled += n;
		/* frequency mode: report period changes as PERIOD records
		 * (without it periods change only by throttling, which
		 * reports them itself: pp_rate_change) */
		for (i = 0; s->plan.pmu.any_freq && i < s->plan.pmu.nr && sampling; i++) {
			if (pc->pmu.period[i] == pc->pmu_period_seen[i])
				continue;
			capture__period_changed(&pc->ring, s->plan.pmu.a[i].event,
						pc->pmu_period_seen[i], pc->pmu.period[i], now,
						&ec->wake);
			pc->pmu_period_seen[i] = pc->pmu.period[i];
		}
	}

	if (!handled) {
		if (sampling)
			capture__nmi_passed(&pc->cap, CAPTURE_CTX_NMI);
		return NMI_DONE;
	}
	if (sampling) {
		pc->cap.ctx[CAPTURE_CTX_NMI].st.overflow_loops_capped = pc->pmu.loops_capped;
		t_end = pp_handler_end(s, now, tsc0);
		pp_rate(capture__handler_done_at(&pc->cap, CAPTURE_CTX_NMI, now, t_end), pc, s,
			CAPTURE_CTX_NMI, t_end, &ec->wake);
		if (ec->wake)
			irq_work_queue(&pc->wake_work);
	}
	return handled;
}
NOKPROBE_SYMBOL(pp_nmi_handler);

/* A role with `self` (TIMER sessions, group leaders of NMI-IPI sessions,
 * one online CPU): capture from the hrtimer's interrupt registers, in hard
 * IRQ context (an NMI may nest inside: separate capture context,
 * nesting-safe ring). */
static void pp_timer_capture(struct pp_cpu *pc, struct pp_session *s)
{
	struct pt_regs *regs = get_irq_regs();
	struct pp_linux_regs lr;
	bool wake = false;
	u64 t0, t1;

	if (!regs || !READ_ONCE(pc->sampling))
		return;
	t0 = plat_now_ns();
	pp_regs_from_pt(&lr, regs, want_segs(s));
	capture__sample(&pc->cap, CAPTURE_CTX_IRQ, &s->plan.cap, &pc->ring, &lr.pp,
			PMUPROF_SOURCE_TIMER, s->plan.clock_event, READ_ONCE(pc->clock_period_ns),
			t0, &wake);
	t1 = plat_now_ns();
	pp_rate(capture__handler_done(&pc->cap, CAPTURE_CTX_IRQ, t0, t1), pc, s, CAPTURE_CTX_IRQ,
		t1, &wake);
	if (wake)
		irq_work_queue(&pc->wake_work);
}

/* Test knob: hold each sender this long between marking its IPIs and
 * raising them, as a host that deschedules the sender's vCPU there does
 * (tests/vm/scenarios/kernel_pmu_nmi_mix.sh). 0, the default, in use. */
static unsigned int pp_fault_ipi_delay_us;
module_param_named(fault_ipi_delay_us, pp_fault_ipi_delay_us, uint, 0644);
MODULE_PARM_DESC(fault_ipi_delay_us,
		 "test only: delay NMI IPIs this long after marking them outstanding (max 5000)");

static void pp_ipi_fault_delay(void)
{
	unsigned int us = min(READ_ONCE(pp_fault_ipi_delay_us), 5000u);

	if (us) {
		mdelay(us / 1000);
		udelay(us % 1000);
	}
}

/* P0: a sender decides on a target's IPI (from `from`: NONE, or SENT for a
 * re-send); false if the state was not `from`. */
static bool pp_ipi_mark(struct pp_cpu *tc, int from)
{
	return atomic_cmpxchg(&tc->nmi_pending, from, IPIPLAN_IPI_SENDING) == from;
}

/* Raise the IPIs to `mask`, marked SENDING: RAISING just before the ICR
 * write (P1, pairs with H0; a handler that took one meanwhile, a re-send's,
 * sees it raised again), SENT with the time after it (P2), unless an NMI
 * took it meanwhile. */
static void pp_ipis_raise(const struct cpumask *mask)
{
	unsigned int t;
	u64 now;

	for_each_cpu (t, mask)
		atomic_set(&per_cpu_ptr(pp_cpus, t)->nmi_pending, IPIPLAN_IPI_RAISING);
	smp_mb(); /* RAISING visible before the IPI lands */
	apic->send_IPI_mask(mask, NMI_VECTOR);
	now = plat_now_ns();
	for_each_cpu (t, mask) {
		struct pp_cpu *tc = per_cpu_ptr(pp_cpus, t);

		WRITE_ONCE(tc->ipi_sent_ns, now);
		atomic_cmpxchg(&tc->nmi_pending, IPIPLAN_IPI_RAISING, IPIPLAN_IPI_SENT);
	}
}

/*
 * One expiry of a CPU's hrtimer: send the NMIs of the targets that are due,
 * then capture this CPU itself if its role says so (after the IPIs, so the
 * targets are not delayed by this CPU's stack walk), and fire again at the
 * earliest due time. A target that does not sample (yet: START or hotplug
 * in progress) is looked at again one base period later.
 */
static enum hrtimer_restart pp_timer_fn(struct hrtimer *timer)
{
	struct pp_cpu *pc = container_of(timer, struct pp_cpu, timer);
	struct pp_session *s = &pp_sess;
	u64 base = s->plan.clock_period_ns, now, next = IPIPLAN_NO_DUE, k;
	u32 i, nr, sent = 0;

	if (!READ_ONCE(pc->timer_running))
		return HRTIMER_NORESTART;
	now = ktime_to_ns(hrtimer_cb_get_time(timer));
	nr = min_t(u32, READ_ONCE(pc->role.nr_targets), IPIPLAN_FANOUT);
	if (nr)
		cpumask_clear(pc->ipi_mask);
	for (i = 0; i < nr; i++) {
		unsigned int t = READ_ONCE(pc->role.target[i]);
		struct pp_cpu *tc;

		if (t >= nr_cpu_ids)
			continue;
		tc = per_cpu_ptr(pp_cpus, t);
		if (!READ_ONCE(tc->sampling)) {
			next = ipiplan__next(next, now + base);
			continue;
		}
		k = ipiplan__due(&tc->clock_due_ns, READ_ONCE(tc->clock_period_ns), now);
		/* due and the target's: a late expiry skipped k - 1 samples */
		if (k && READ_ONCE(tc->target_on))
			pc->ticks_missed += k - 1;
		if (!k || !READ_ONCE(tc->target_on)) {
			/* not due; or no task of the target runs there: not
			 * a sample of it, and no NMI for the CPU */
		} else if (pp_ipi_mark(tc, IPIPLAN_IPI_NONE)) { /* P0 */
			__cpumask_set_cpu(t, pc->ipi_mask);
			sent++;
		} else if (atomic_read(&tc->nmi_pending) == IPIPLAN_IPI_SENT &&
			   now - READ_ONCE(tc->ipi_sent_ns) > PP_IPI_RESEND_NS &&
			   pp_ipi_mark(tc, IPIPLAN_IPI_SENT)) { /* taken as lost: again */
			__cpumask_set_cpu(t, pc->ipi_mask);
			sent++;
		} else {
			pc->cap.ctx[CAPTURE_CTX_IRQ].st.ipis_outstanding++;
		}
		next = ipiplan__next(next, tc->clock_due_ns);
	}
	if (sent) {
		pc->cap.ctx[CAPTURE_CTX_IRQ].st.ipis_sent += sent;
		pp_ipi_fault_delay();
		pp_ipis_raise(pc->ipi_mask);
	}
	if (READ_ONCE(pc->role.self)) {
		if (!READ_ONCE(pc->sampling)) {
			next = ipiplan__next(next, now + base);
		} else {
			k = ipiplan__due(&pc->clock_due_ns, READ_ONCE(pc->clock_period_ns), now);
			if (k && READ_ONCE(pc->target_on)) {
				pc->ticks_missed += k - 1;
				pp_timer_capture(pc, s);
			}
			next = ipiplan__next(next, pc->clock_due_ns);
		}
	}
	if (next == IPIPLAN_NO_DUE)
		return HRTIMER_NORESTART; /* no role any more (re-planned) */
	hrtimer_set_expires(timer, ns_to_ktime(next));
	return HRTIMER_RESTART;
}

/* Start this CPU's hrtimer when its role needs one and it is not queued.
 * Runs on the CPU itself with interrupts off (function call IPI, or
 * locally), so the timer's own callback is not running meanwhile. */
static void pp_timer_kick(void *arg)
{
	struct pp_cpu *pc = this_cpu_ptr(pp_cpus);
	u64 period = *(const u64 *)arg;

	if (READ_ONCE(pc->timer_running) && ipiplan__has_timer(&pc->role) &&
	    !hrtimer_is_queued(&pc->timer))
		hrtimer_start(&pc->timer, ns_to_ktime(period), HRTIMER_MODE_REL_PINNED_HARD);
}

/* Scratch of pp_replan(): START holds cpus_read_lock() and the hotplug
 * callbacks run under the hotplug lock, so they never run at once. */
static struct ipiplan_role *pp_plan_roles; /* nr_cpu_ids entries */

/* Copy a new role into a CPU's live one, which that CPU's hrtimer may be
 * reading at the same time: grow before shrink, so a role that stays
 * non-empty is never seen empty (see the header comment). */
static void pp_role_install(struct ipiplan_role *live, const struct ipiplan_role *new)
{
	u32 i;

	if (new->self)
		WRITE_ONCE(live->self, true);
	for (i = 0; i < new->nr_targets; i++)
		WRITE_ONCE(live->target[i], new->target[i]);
	WRITE_ONCE(live->nr_targets, new->nr_targets);
	if (!new->self)
		WRITE_ONCE(live->self, false);
}

/*
 * Build the sender plan for the online CPUs (less `leaving`, a CPU on its
 * way offline) and install it; with `kick`, start the timers that the new
 * plan needs (hotplug; at START pp_cpu_begin starts them). Process context
 * with interrupts on (function call IPIs).
 */
static void pp_replan(struct pp_session *s, unsigned int leaving, bool kick)
{
	unsigned int cpu;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(u64));
	ipiplan__build(pp_plan_roles, nr_cpu_ids, (const u64 *)cpumask_bits(cpu_online_mask),
		       (const u64 *)cpumask_bits(s->targets), leaving,
		       s->plan.clock_source == PMUPROF_SOURCE_NMI_IPI);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		pp_role_install(&per_cpu_ptr(pp_cpus, cpu)->role, &pp_plan_roles[cpu]);
	if (!kick)
		return;
	s->replans++;
	for_each_online_cpu (cpu)
		if (cpu != leaving && ipiplan__has_timer(&pp_plan_roles[cpu]))
			smp_call_function_single(cpu, pp_timer_kick, &s->plan.clock_period_ns, 1);
}

static void pp_wake_fn(struct irq_work *w)
{
	wake_up_interruptible_all(&pp_sess.wq);
}

/*
 * Would the capture filter keep task t (capture.c: pid_match)? For a task
 * that is not current: `next` in the switch path, or current at START.
 * The target's own threads by tgid; with CF_INHERIT a descendant, walked as
 * in the NMI (a few loads per level, at most PMUPROF_INHERIT_MAX_DEPTH
 * levels, stopping at init), for every switch to a task of another
 * process while the session runs; and with the opener's credentials when
 * it lacks CAP_SYS_PTRACE.
 */
static bool pp_task_is_target(const struct pp_session *s, struct task_struct *t)
{
	const struct capture_params *p = &s->plan.cap;

	if (is_idle_task(t))
		return false;
	if ((u32)t->tgid == (u32)p->pid)
		return true;
	if (!(p->flags & PMUPROF_CF_INHERIT) || (t->flags & PF_KTHREAD))
		return false;
	if (pp_task_descends_from(t, (u32)p->pid, PMUPROF_INHERIT_MAX_DEPTH) != PP_DESCENT_YES)
		return false;
	return !p->inherit_check_creds || pp_task_traceable_by(t, p->opener_uid, p->opener_gid);
}

/* This CPU starts or stops running the target. On the CPU, interrupts off. */
static void pp_target_switch(struct pp_cpu *pc, bool on)
{
	if (on == pc->target_on)
		return;
	WRITE_ONCE(pc->target_on, on);
	if (!pc->pmu_running)
		return;
	if (on)
		pmu__cpu_resume(&pc->pmu);
	else
		pmu__cpu_pause(&pc->pmu);
}

/* The sched_switch probe (TP_PROTO of include/trace/events/sched.h, after
 * the registration's data pointer). Runs for every context switch of every
 * CPU while a per-process session runs: a CPU that does not sample returns
 * at once, a switch between two tasks on the same side costs the filter
 * test only. current is still prev. */
static void pp_sched_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state)
{
	struct pp_cpu *pc = this_cpu_ptr(pp_cpus);

	if (!READ_ONCE(pc->sampling) || !READ_ONCE(pp_sess.per_task))
		return;
	pp_target_switch(pc, pp_task_is_target(&pp_sess, next));
}

static void pp_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		*(struct tracepoint **)priv = tp;
}

/*
 * START of a per-process session: hook the context switch. False (the
 * session then counts everywhere and filters at sample time) for other
 * targets, or when the tracepoint is missing or refuses the probe.
 *
 * The probe is registered at the first such session and stays registered
 * until the module is unloaded (pp_sampler_exit); sessions only flip
 * pp_sess.per_task, which the probe reads first. Registering patches the
 * tracepoint's static branch in __schedule with text_poke_bp(), and doing
 * that at every START and STOP froze guests under QEMU TCG: a stress run of
 * per-process sessions (2 per iteration) hung at the 21st iteration with
 * CPU 1 looping in exc_int3 on the int3 that text_poke_bp() had put in
 * __schedule+0x1bc (rcu_preempt stall reports, console log kept in the
 * 2026-11-26 notes). perf rate-limits its own context-switch static key
 * for the same kind of reason. Now a module load patches it at most once.
 * The freeze is not pmuprof's: the scenario rel_tp_toggle reproduced it with
 * the module not loaded, by enabling and disabling the sched_switch trace
 * event from tracefs, on Debian's unmodified QEMU too (a stale TCG
 * translation of the int3; docs/KERNEL.md). On by default; follow_target=0 goes
 * back to counting everywhere and filtering at sample time.
 */
static bool pp_follow_target = true;
static bool pp_switch_registered; /* under pp_sess.lock, or at exit */
module_param_named(follow_target, pp_follow_target, bool, 0644);
MODULE_PARM_DESC(follow_target,
		 "per-process sessions switch counters and NMI-IPIs at "
		 "context switch (default on; 0: count everywhere, filter at sample time)");

static bool pp_switch_hook(struct pp_session *s)
{
	int err;

	if (s->plan.cap.target != PMUPROF_TARGET_PID || !READ_ONCE(pp_follow_target))
		return false;
	if (!pp_tp_switch) {
		pr_info_once(PP_NAME ": no sched_switch tracepoint: per-process sessions count "
				     "on every CPU and filter at sample time\n");
		return false;
	}
	if (!pp_switch_registered) {
		err = tracepoint_probe_register(pp_tp_switch, (void *)pp_sched_switch, NULL);
		if (err) {
			pr_warn_ratelimited(
				PP_NAME ": sched_switch probe: %d: counting on every CPU\n", err);
			return false;
		}
		pp_switch_registered = true;
	}
	return true;
}

/* STOP, once every CPU has ended: the probe stays registered but does
 * nothing from now on (it reads per_task first; pp_cpu_end cleared
 * `sampling` on every CPU before this). */
static void pp_switch_unhook(struct pp_session *s)
{
	WRITE_ONCE(s->per_task, false);
}

/* Start sampling on this CPU. Runs on the CPU itself (IPI from START, or
 * the cpuhp online callback), interrupts disabled. */
static void pp_cpu_begin(void *arg)
{
	struct pp_session *s = arg;
	struct pp_cpu *pc = this_cpu_ptr(pp_cpus);
	unsigned int cpu = smp_processor_id();
	bool target = cpumask_test_cpu(cpu, s->targets) && pc->ring_mem;

	pc->clock_period_ns = s->plan.clock_period_ns;
	pc->clock_due_ns = 0;
	/* the task interrupted here (the opener on its own CPU, a cpuhp
	 * thread when the CPU comes up) until the next context switch */
	WRITE_ONCE(pc->target_on, !s->per_task || pp_task_is_target(s, current));
	if (target) {
		/* the NMI's register conversion for this session (pp_convert_regs):
		 * in full, or the minimal one over zeroed segment bases */
		pc->ec.all_regs = (s->plan.cap.flags & PP_CF_ALL_REGS) || s->plan.pmu.pebs_enable;
		pc->ec.lr.pp.fs_base = 0;
		pc->ec.lr.pp.gs_base = 0;
		barrier(); /* before an NMI on this CPU can see sampling set */
		WRITE_ONCE(pc->sampling, true);
		if (s->plan.nr_pmu_events) {
			u32 i;

			WRITE_ONCE(pc->pmu_running, true);
			if (pmu__cpu_start_ex(&pc->pmu, &s->plan.pmu,
					      s->plan.pmu.pebs_enable ? &pc->pebs_mem : NULL,
					      !pc->target_on)) {
				/* no PEBS memory for this CPU: it cannot sample */
				WRITE_ONCE(pc->pmu_running, false);
				pr_warn_once(PP_NAME ": cpu=%u: no PEBS buffers, its counters "
						     "stay off\n",
					     cpu);
			}
			for (i = 0; i < s->plan.pmu.nr; i++)
				pc->pmu_period_seen[i] = pc->pmu.period[i];
		}
	}
	if (s->plan.clock_event >= 0) {
		WRITE_ONCE(pc->timer_running, true);
		pp_timer_kick(&s->plan.clock_period_ns); /* if the plan gives it a role */
	}
}

/* Stop sampling on this CPU; the caller cancels the hrtimer afterwards
 * from process context (timer_running == false keeps it from re-arming). */
static void pp_cpu_end(void *arg)
{
	struct pp_cpu *pc = this_cpu_ptr(pp_cpus);

	WRITE_ONCE(pc->timer_running, false);
	WRITE_ONCE(pc->sampling, false);
	if (pc->pmu_running) {
		pmu__cpu_stop(&pc->pmu);
		WRITE_ONCE(pc->pmu_running, false);
	}
	WRITE_ONCE(pc->target_on, false);
}

static int pp_cpu_online(unsigned int cpu)
{
	unsigned long flags;

	if (!READ_ONCE(pp_sess.running))
		return 0;
	local_irq_save(flags);
	pp_cpu_begin(&pp_sess);
	local_irq_restore(flags);
	if (pp_sess.plan.clock_event >= 0)
		pp_replan(&pp_sess, IPIPLAN_NO_CPU, true);
	return 0;
}

static int pp_cpu_offline(unsigned int cpu)
{
	struct pp_cpu *pc = this_cpu_ptr(pp_cpus);
	unsigned long flags;

	if (!READ_ONCE(pp_sess.running))
		return 0;
	local_irq_save(flags);
	pp_cpu_end(NULL);
	local_irq_restore(flags);
	hrtimer_cancel(&pc->timer);
	if (pp_sess.plan.clock_event >= 0)
		pp_replan(&pp_sess, cpu, true); /* its targets get another sender */
	return 0;
}

int pp_session_alloc_rings(struct pp_session *s)
{
	const struct pmuprof_config *cfg = &s->plan.cfg;
	unsigned int cpu;
	int err;

	cpumask_clear(s->targets);
	for_each_possible_cpu (cpu) {
		/* TARGET_CPUS, or TARGET_PID given CPUs (-C with -p/COMMAND) */
		if (s->plan.cap.cpu_filter &&
		    !(cpu < PMUPROF_MAX_CPUS && ((cfg->cpu_mask[cpu / 64] >> (cpu % 64)) & 1)))
			continue;
		cpumask_set_cpu(cpu, s->targets);
	}
	for_each_cpu (cpu, s->targets) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		pc->ring_mem = pp_vzalloc_node(cfg->ring_size, cpu_to_node(cpu));
		if (!pc->ring_mem) {
			err = -ENOMEM;
			goto fail;
		}
		err = ring__init(&pc->ring, pc->ring_mem, cfg->ring_size, cpu, cfg->wakeup_bytes);
		if (err)
			goto fail;
	}
	return 0;
fail:
	pp_session_free_rings(s);
	return err;
}

void pp_session_free_rings(struct pp_session *s)
{
	unsigned int cpu;

	for_each_possible_cpu (cpu) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		pp_vfree(pc->ring_mem);
		pc->ring_mem = NULL;
	}
}

/* The handlers' CPU budget before sampling slows down (capture.h); 0 turns
 * the budget off, as perf's kernel.perf_cpu_time_max_percent = 0 does: for
 * emulators, where a handler's wall time says little about its cost. The
 * rate cap (max_sample_rate) still applies; both 0: never throttle. */
static unsigned int pp_max_handler_pct = CAPTURE_MAX_CPU_PCT;
module_param_named(max_handler_pct, pp_max_handler_pct, uint, 0644);
MODULE_PARM_DESC(max_handler_pct,
		 "percent of a CPU the sample handlers may use before the rate is lowered "
		 "(default 25; 0 = no budget, max_sample_rate still applies; read at START)");

/* Handler runs per second per CPU before the rate is lowered whatever they
 * cost, as perf's kernel.perf_event_max_sample_rate (capture.h); 0: no
 * cap. */
static unsigned int pp_max_sample_rate = CAPTURE_MAX_RATE;
module_param_named(max_sample_rate, pp_max_sample_rate, uint, 0644);
MODULE_PARM_DESC(max_sample_rate, "NMIs per second per CPU before the rate is lowered "
				  "(default 100000; 0 = no cap; read at START)");

int pp_session_start(struct pp_session *s)
{
	const char *why = NULL;
	unsigned int cpu;
	int err;

	for_each_possible_cpu (cpu) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		if (pc->ring_mem)
			ring__reset(&pc->ring);
		capture__reset(&pc->cap);
		pc->cap.max_cpu_pct = min_t(unsigned int, READ_ONCE(pp_max_handler_pct), 100);
		pc->cap.max_rate = READ_ONCE(pp_max_sample_rate);
		memset(&pc->pmu, 0, sizeof(pc->pmu));
		pc->read_records = 0;
		pc->read_bytes = 0;
		pc->ticks_missed = 0;
		pc->clock_period_ns = s->plan.clock_period_ns;
	}
	if (s->plan.nr_pmu_events) {
		err = pp_pebs_alloc(s); /* nothing without precise events */
		if (err)
			return err;
		err = pmu__reserve(&s->plan.pmu, &why);
		if (err) {
			pr_info_ratelimited(PP_NAME ": START: %s\n",
					    why ? why : "PMU counters are busy");
			pp_pebs_free(s);
			return err;
		}
	}
	/* before cpus_read_lock(): registering takes it (static keys) */
	s->per_task = pp_switch_hook(s);
	cpus_read_lock();
	if (s->plan.clock_event >= 0)
		pp_replan(s, IPIPLAN_NO_CPU, false);
	pp_tsc_timing_init(s);
	s->start_ns = plat_now_ns();
	s->replans = 0;
	s->stop_ns = 0;
	for_each_possible_cpu (cpu) /* no sender runs: nothing is in flight */
		atomic_set(&per_cpu_ptr(pp_cpus, cpu)->nmi_pending, 0);
	WRITE_ONCE(s->running, true);
	on_each_cpu(pp_cpu_begin, s, 1);
	cpus_read_unlock();
	return 0;
}

/* The senders are stopped: let the last NMI IPIs land and be claimed (a
 * target may be stalled for a while), then forget any that never will, so
 * that none claims a foreign NMI later. Process context. */
static void pp_ipis_drain(void)
{
	unsigned int cpu, waited_ms = 0;

	for_each_possible_cpu (cpu) {
		atomic_t *p = &per_cpu_ptr(pp_cpus, cpu)->nmi_pending;

		while (atomic_read(p) && waited_ms < PP_IPI_LOST_NS / NSEC_PER_MSEC) {
			usleep_range(1000, 2000);
			waited_ms++;
		}
		if (atomic_xchg(p, 0))
			pr_info_ratelimited(PP_NAME ": cpu=%u never took its last NMI IPI\n", cpu);
	}
}

void pp_session_stop(struct pp_session *s)
{
	unsigned int cpu;

	cpus_read_lock();
	WRITE_ONCE(s->running, false);
	on_each_cpu(pp_cpu_end, NULL, 1);
	for_each_possible_cpu (cpu)
		hrtimer_cancel(&per_cpu_ptr(pp_cpus, cpu)->timer);
	cpus_read_unlock();
	pp_switch_unhook(s);
	pp_ipis_drain();
	if (s->plan.nr_pmu_events)
		pmu__release(&s->plan.pmu);
	/* NMI handlers that saw sampling == true may still be writing. */
	synchronize_rcu();
	for_each_possible_cpu (cpu)
		irq_work_sync(&per_cpu_ptr(pp_cpus, cpu)->wake_work);
	/* every CPU cleared PEBS_ENABLE and restored DS_AREA in pp_cpu_end,
	 * and no handler reads the buffers any more */
	pp_pebs_free(s);
	s->stop_ns = plat_now_ns();
}

bool pp_session_has_data(struct pp_session *s, u64 min_bytes)
{
	unsigned int cpu;

	for_each_cpu (cpu, s->targets) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		if (pc->ring_mem && ring__queued(&pc->ring) >= min_bytes)
			return true;
	}
	return false;
}

/* Free what pp_sampler_init() allocated; accepts a half-built state. */
static void pp_sampler_free(void)
{
	unsigned int cpu;

	if (pp_cpus) {
		for_each_possible_cpu (cpu) {
			struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

			if (!cpumask_available(pc->ipi_mask))
				continue;
			free_cpumask_var(pc->ipi_mask);
			atomic_long_dec(&pp_allocs_module);
		}
		free_percpu(pp_cpus);
		atomic_long_dec(&pp_allocs_module);
		pp_cpus = NULL;
	}
	if (pp_plan_roles) {
		kfree(pp_plan_roles);
		atomic_long_dec(&pp_allocs_module);
		pp_plan_roles = NULL;
	}
}

int pp_sampler_init(void)
{
	unsigned int cpu;
	int err;

	pp_pebs_init(&pp_caps); /* before any GET_INFO: may refuse PEBS (KPTI) */
	pp_cpus = alloc_percpu(struct pp_cpu);
	if (!pp_cpus)
		return -ENOMEM;
	atomic_long_inc(&pp_allocs_module);
	for_each_possible_cpu (cpu) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		if (!zalloc_cpumask_var(&pc->ipi_mask, GFP_KERNEL)) {
			err = -ENOMEM;
			goto fail_free;
		}
		atomic_long_inc(&pp_allocs_module);
	}
	pp_plan_roles = kcalloc(nr_cpu_ids, sizeof(*pp_plan_roles), GFP_KERNEL);
	if (!pp_plan_roles) {
		err = -ENOMEM;
		goto fail_free;
	}
	atomic_long_inc(&pp_allocs_module);
	for_each_possible_cpu (cpu) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		pc->cpu = cpu;
		pp_emit_ctx_init(pc);
		atomic_set(&pc->nmi_pending, 0);
		hrtimer_init(&pc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		pc->timer.function = pp_timer_fn;
		init_irq_work(&pc->wake_work, pp_wake_fn);
	}
	for_each_kernel_tracepoint(pp_tp_find, &pp_tp_switch);
	err = register_nmi_handler(NMI_LOCAL, pp_nmi_handler, 0, PP_NAME);
	if (err) {
		pr_err(PP_NAME ": register_nmi_handler failed: %d\n", err);
		goto fail_free;
	}
	err = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, PP_NAME ":online", pp_cpu_online,
					pp_cpu_offline);
	if (err < 0) {
		pr_err(PP_NAME ": cpuhp_setup_state failed: %d\n", err);
		goto fail_nmi;
	}
	pp_cpuhp_state = err;
	return 0;
fail_nmi:
	unregister_nmi_handler(NMI_LOCAL, PP_NAME);
fail_free:
	pp_sampler_free();
	return err;
}

void pp_sampler_exit(void)
{
	unsigned int cpu;

	if (pp_cpuhp_state >= 0)
		cpuhp_remove_state_nocalls(pp_cpuhp_state);
	unregister_nmi_handler(NMI_LOCAL, PP_NAME); /* waits for running handlers */
	if (pp_switch_registered) {
		tracepoint_probe_unregister(pp_tp_switch, (void *)pp_sched_switch, NULL);
		tracepoint_synchronize_unregister();
		pp_switch_registered = false;
	}
	for_each_possible_cpu (cpu) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		hrtimer_cancel(&pc->timer);
		irq_work_sync(&pc->wake_work);
		pp_vfree(pc->ring_mem);
		pc->ring_mem = NULL;
	}
	pp_sampler_free();
}
