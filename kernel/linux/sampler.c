// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling on Linux: the NMI handler, the NMI-IPI hrtimers, per-CPU
 * start/stop, CPU hotplug, reader wake-ups.
 *
 * NMI-IPI source. Every online CPU A runs a pinned hrtimer while a session
 * with a cpu-clock event runs. At each expiry A picks its target T, the next
 * online CPU after A (cyclic), and if T samples in this session:
 *     atomic_inc(&T->nmi_pending);            (P1, pairs with H1)
 *     apic->send_IPI_mask(cpumask_of(T), NMI_VECTOR);
 * "Next online CPU" is a bijection on the online CPUs, so every sampled CPU
 * gets exactly one sender, never itself, and the pairing follows hotplug
 * without any re-planning: a CPU going away makes its predecessor target
 * its successor. With one online CPU A == T: the timer captures from its
 * own interrupt registers instead (source TIMER). Sources configured as
 * TIMER always capture locally on every sampled CPU.
 *
 * Recognising our NMIs. The handler claims an NMI when it can consume one
 * pending IPI (atomic_dec_if_positive, H1) or when pmu__handle_nmi() finds
 * an overflow of ours; everything else returns NMI_DONE so other handlers
 * (and the "unknown NMI" report) see it. Consuming one at a time keeps
 * back-to-back IPIs (one latched while the handler runs) both claimed.
 * A pending IPI is claimed even when this CPU no longer samples (stop or
 * hotplug raced with the sender), so no NMI of ours is ever "unknown".
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
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/vmalloc.h>
#include <linux/percpu.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <asm/irq_regs.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "pp_linux.h"
#include "../nmi/dataaddr.h"

/* The portable code the NMI path runs cannot use Linux macros: keep kprobes
 * off it from here (a kprobe inside the NMI path would recurse into it). */
NOKPROBE_SYMBOL(capture__sample);
NOKPROBE_SYMBOL(capture__user_stack);
NOKPROBE_SYMBOL(capture__sample_size);
NOKPROBE_SYMBOL(capture__handler_done);
NOKPROBE_SYMBOL(capture__nmi_passed);
NOKPROBE_SYMBOL(capture__throttled);
NOKPROBE_SYMBOL(ring__reserve_sample);
NOKPROBE_SYMBOL(ring__reserve);
NOKPROBE_SYMBOL(ring__commit);
NOKPROBE_SYMBOL(pmu__handle_nmi);
NOKPROBE_SYMBOL(pmu__handle_nmi_ex);
NOKPROBE_SYMBOL(pmu__scale_period);
NOKPROBE_SYMBOL(dataaddr__fill);
NOKPROBE_SYMBOL(dataaddr__fill_known);
NOKPROBE_SYMBOL(capture__sample_precise);
NOKPROBE_SYMBOL(pebs__parse);
NOKPROBE_SYMBOL(pebs__ds_take);

struct pp_cpu __percpu *pp_cpus;
static int pp_cpuhp_state = -1;

static bool want_segs(const struct pp_session *s)
{
	return s->plan.cap.flags & PMUPROF_CF_DATA_ADDR;
}

/* Lower this CPU's rate (throttling). Clock: double the period the sender
 * uses for this CPU. PMU: double each counter's period. [NMI or IRQ] */
static void pp_throttle(struct pp_cpu *pc, struct pp_session *s, unsigned int ctx, u64 now,
			bool *wake)
{
	u32 i;

	if (s->plan.clock_event >= 0) {
		u64 old = READ_ONCE(pc->clock_period_ns);
		u64 new = old *CAPTURE_THROTTLE_FACTOR;

		if (new > SESSION_MAX_CLOCK_PERIOD_NS)
			new = SESSION_MAX_CLOCK_PERIOD_NS;
		if (new != old) {
			WRITE_ONCE(pc->clock_period_ns, new);
			capture__throttled(&pc->cap, ctx, &pc->ring, s->plan.clock_event, old, new,
					   now, wake);
		}
	}
	if (ctx != CAPTURE_CTX_NMI || !READ_ONCE(pc->pmu_running))
		return; /* counters are only touched from their NMI */
	for (i = 0; i < s->plan.pmu.nr; i++) {
		u32 ev = s->plan.pmu.a[i].event;
		u64 old = pc->pmu.period[i];

		pmu__scale_period(&pc->pmu, ev, CAPTURE_THROTTLE_FACTOR);
		if (pc->pmu.period[i] != old)
			capture__throttled(&pc->cap, ctx, &pc->ring, ev, old, pc->pmu.period[i],
					   now, wake);
		pc->pmu_period_seen[i] = pc->pmu.period[i]; /* reported as THROTTLE */
	}
}
NOKPROBE_SYMBOL(pp_throttle);

struct pp_emit_ctx {
	struct pp_cpu *pc;
	struct pp_session *s;
	struct pt_regs *regs;
	struct pp_linux_regs lr;
	bool converted;
	bool wake;
	u64 now;
};

static void pp_pmu_emit(void *arg, u32 event, u64 period)
{
	struct pp_emit_ctx *ec = arg;
	struct pp_session *s = ec->s;

	if (!READ_ONCE(ec->pc->sampling) || event >= s->plan.cap.nr_events)
		return;
	if (!ec->converted) {
		pp_regs_from_pt(&ec->lr, ec->regs, want_segs(s));
		ec->converted = true;
	}
	capture__sample(&ec->pc->cap, CAPTURE_CTX_NMI, &s->plan.cap, &ec->pc->ring, &ec->lr.pp,
			s->plan.cfg.events[event].source, event, period, ec->now, &ec->wake);
}
NOKPROBE_SYMBOL(pp_pmu_emit);

/* A PEBS record of ours: the sample's IP and data address are the
 * record's (capture__sample_precise), the stacks from the PMI's regs. */
static void pp_pmu_emit_pebs(void *arg, u32 event, u64 period, const struct pebs_sample *rec)
{
	struct pp_emit_ctx *ec = arg;
	struct pp_session *s = ec->s;
	struct capture_precise pr;

	if (!READ_ONCE(ec->pc->sampling) || event >= s->plan.cap.nr_events)
		return;
	if (!ec->converted) {
		pp_regs_from_pt(&ec->lr, ec->regs, want_segs(s));
		ec->converted = true;
	}
	capture__precise_from_pebs(&pr, rec);
	capture__sample_precise(&ec->pc->cap, CAPTURE_CTX_NMI, &s->plan.cap, &ec->pc->ring,
				&ec->lr.pp, PMUPROF_SOURCE_PEBS, event, period, ec->now, &pr,
				&ec->wake);
}
NOKPROBE_SYMBOL(pp_pmu_emit_pebs);

static const struct pmu_emit_ops pp_pmu_ops = {pp_pmu_emit, pp_pmu_emit_pebs};

static int pp_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct pp_cpu *pc = this_cpu_ptr(pp_cpus);
	struct pp_session *s = &pp_sess;
	struct pp_emit_ctx ec;
	bool mine = false;
	u64 t_end;

	if (atomic_read(&pc->nmi_pending) <= 0 && !READ_ONCE(pc->pmu_running))
		return NMI_DONE; /* fast path: no session source aims at us */

	ec.pc = pc;
	ec.s = s;
	ec.regs = regs;
	ec.converted = false;
	ec.wake = false;
	ec.now = plat_now_ns();

	if (atomic_dec_if_positive(&pc->nmi_pending) >= 0) { /* H1, pairs with P1 */
		mine = true;
		if (READ_ONCE(pc->sampling) && s->plan.clock_event >= 0) {
			pp_regs_from_pt(&ec.lr, regs, want_segs(s));
			ec.converted = true;
			capture__sample(&pc->cap, CAPTURE_CTX_NMI, &s->plan.cap, &pc->ring,
					&ec.lr.pp, PMUPROF_SOURCE_NMI_IPI, s->plan.clock_event,
					READ_ONCE(pc->clock_period_ns), ec.now, &ec.wake);
		}
	}
	if (READ_ONCE(pc->pmu_running) && pmu__handle_nmi_ex(&pc->pmu, &pp_pmu_ops, &ec) > 0) {
		u32 i;

		mine = true;
		/* frequency mode: report period changes as PERIOD records */
		for (i = 0; i < s->plan.pmu.nr && READ_ONCE(pc->sampling); i++) {
			if (pc->pmu.period[i] == pc->pmu_period_seen[i])
				continue;
			capture__period_changed(&pc->ring, s->plan.pmu.a[i].event,
						pc->pmu_period_seen[i], pc->pmu.period[i], ec.now,
						&ec.wake);
			pc->pmu_period_seen[i] = pc->pmu.period[i];
		}
	}

	if (!mine) {
		if (READ_ONCE(pc->sampling))
			capture__nmi_passed(&pc->cap, CAPTURE_CTX_NMI);
		return NMI_DONE;
	}
	if (READ_ONCE(pc->sampling)) {
		pc->cap.ctx[CAPTURE_CTX_NMI].st.overflow_loops_capped = pc->pmu.loops_capped;
		t_end = plat_now_ns();
		if (capture__handler_done(&pc->cap, CAPTURE_CTX_NMI, ec.now, t_end))
			pp_throttle(pc, s, CAPTURE_CTX_NMI, t_end, &ec.wake);
		if (ec.wake)
			irq_work_queue(&pc->wake_work);
	}
	return NMI_HANDLED;
}
NOKPROBE_SYMBOL(pp_nmi_handler);

/* TIMER source / one-CPU fallback: capture from the hrtimer's interrupt
 * registers, in hard IRQ context (an NMI may nest inside: separate
 * capture context, nesting-safe ring). */
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
	if (capture__handler_done(&pc->cap, CAPTURE_CTX_IRQ, t0, t1))
		pp_throttle(pc, s, CAPTURE_CTX_IRQ, t1, &wake);
	if (wake)
		irq_work_queue(&pc->wake_work);
}

static unsigned int next_online_cpu(unsigned int cpu)
{
	unsigned int t = cpumask_next(cpu, cpu_online_mask);

	if (t >= nr_cpu_ids)
		t = cpumask_first(cpu_online_mask);
	return t;
}

static enum hrtimer_restart pp_timer_fn(struct hrtimer *timer)
{
	struct pp_cpu *pc = container_of(timer, struct pp_cpu, timer);
	struct pp_session *s = &pp_sess;
	unsigned int me = smp_processor_id();
	u64 period = READ_ONCE(pc->clock_period_ns);

	if (!READ_ONCE(pc->timer_running))
		return HRTIMER_NORESTART;

	if (s->plan.clock_source == PMUPROF_SOURCE_TIMER) {
		pp_timer_capture(pc, s);
	} else {
		unsigned int t = next_online_cpu(me);

		if (t == me) {
			pp_timer_capture(pc, s); /* alone: no other CPU to send from */
		} else {
			struct pp_cpu *tc = per_cpu_ptr(pp_cpus, t);

			if (READ_ONCE(tc->sampling)) {
				atomic_inc(&tc->nmi_pending); /* P1, pairs with H1 */
				smp_mb__after_atomic();
				pc->cap.ctx[CAPTURE_CTX_IRQ].st.ipis_sent++;
				apic->send_IPI_mask(cpumask_of(t), NMI_VECTOR);
				period = READ_ONCE(tc->clock_period_ns);
			}
		}
	}
	if (!period)
		period = s->plan.clock_period_ns;
	hrtimer_forward_now(timer, ns_to_ktime(period));
	return HRTIMER_RESTART;
}

static void pp_wake_fn(struct irq_work *w)
{
	wake_up_interruptible_all(&pp_sess.wq);
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
	if (target) {
		WRITE_ONCE(pc->sampling, true);
		if (s->plan.nr_pmu_events) {
			u32 i;

			WRITE_ONCE(pc->pmu_running, true);
			if (pmu__cpu_start_mem(&pc->pmu, &s->plan.pmu,
					       s->plan.pmu.pebs_enable ? &pc->pebs_mem : NULL)) {
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
	if (s->plan.clock_event >= 0 &&
	    (s->plan.clock_source == PMUPROF_SOURCE_NMI_IPI || target)) {
		WRITE_ONCE(pc->timer_running, true);
		hrtimer_start(&pc->timer, ns_to_ktime(s->plan.clock_period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
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
}

static int pp_cpu_online(unsigned int cpu)
{
	unsigned long flags;

	if (!READ_ONCE(pp_sess.running))
		return 0;
	local_irq_save(flags);
	pp_cpu_begin(&pp_sess);
	local_irq_restore(flags);
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
	return 0;
}

int pp_session_alloc_rings(struct pp_session *s)
{
	const struct pmuprof_config *cfg = &s->plan.cfg;
	unsigned int cpu;
	int err;

	cpumask_clear(s->targets);
	for_each_possible_cpu (cpu) {
		if (cfg->target == PMUPROF_TARGET_CPUS &&
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
		memset(&pc->pmu, 0, sizeof(pc->pmu));
		pc->read_records = 0;
		pc->read_bytes = 0;
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
	cpus_read_lock();
	s->start_ns = plat_now_ns();
	s->stop_ns = 0;
	WRITE_ONCE(s->running, true);
	on_each_cpu(pp_cpu_begin, s, 1);
	cpus_read_unlock();
	return 0;
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

		pc->cpu = cpu;
		atomic_set(&pc->nmi_pending, 0);
		hrtimer_init(&pc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		pc->timer.function = pp_timer_fn;
		init_irq_work(&pc->wake_work, pp_wake_fn);
	}
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
	free_percpu(pp_cpus);
	atomic_long_dec(&pp_allocs_module);
	pp_cpus = NULL;
	return err;
}

void pp_sampler_exit(void)
{
	unsigned int cpu;

	if (pp_cpuhp_state >= 0)
		cpuhp_remove_state_nocalls(pp_cpuhp_state);
	unregister_nmi_handler(NMI_LOCAL, PP_NAME); /* waits for running handlers */
	for_each_possible_cpu (cpu) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		hrtimer_cancel(&pc->timer);
		irq_work_sync(&pc->wake_work);
		pp_vfree(pc->ring_mem);
		pc->ring_mem = NULL;
	}
	free_percpu(pp_cpus);
	atomic_long_dec(&pp_allocs_module);
	pp_cpus = NULL;
}
