/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/nmi/ipiplan: who sends the NMI IPIs of the cpu-clock source, and
 * when. Portable (no Linux), unit-tested on the host.
 *
 * Cost model. A CPU that samples must take one interrupt per sample: the
 * NMI that captures it. Anything else it takes (a timer interrupt to send
 * someone else's NMI) is overhead on the profiled code, and so is waking an
 * idle CPU. The plan keeps every sampled CPU at exactly one interrupt per
 * sample:
 *
 *  - Sampled CPUs (the session's targets that are online) are split, in
 *    CPU-number order, into groups of at most IPIPLAN_FANOUT.
 *  - Group k is served by the k-th online CPU that does NOT sample, if
 *    there is one: its hrtimer sends one NMI IPI to every CPU of the group
 *    (send_IPI_mask). Every sampled CPU then gets NMI samples only.
 *  - Groups left without such a free CPU are led by their first CPU: its
 *    hrtimer captures the leader itself from the timer interrupt's own
 *    registers (source TIMER: it cannot see IRQ-disabled code, as perf's
 *    cpu-clock) and sends the NMIs of the rest of the group, up to
 *    IPIPLAN_FANOUT of them.
 *
 * So with every online CPU sampled (`-a`, `-p`, a command), one CPU in
 * IPIPLAN_FANOUT + 1 samples from its timer; leave one CPU out of `-C` and
 * every sampled CPU gets NMI samples. The fan-out bounds the sender's work:
 * one ICR write per group in x2APIC cluster or flat logical mode, one per
 * target in physical mode.
 *
 * TIMER sessions (every sampled CPU captures from its own hrtimer) use the
 * same plan with `self` on each sampled CPU and no IPIs.
 *
 * Pacing. A sender's targets keep their own period (throttling doubles it
 * per CPU), so a sender does not tick at a fixed rate: each target (and the
 * leader itself) carries the absolute time of its next sample, and the
 * timer fires at the earliest of them (ipiplan__due, ipiplan__next).
 */
#ifndef PMUPROF_IPIPLAN_H
#define PMUPROF_IPIPLAN_H

#include "pmuprof/types.h"

#define IPIPLAN_FANOUT 8u	   /* NMI IPIs one timer expiry sends, at most */
#define IPIPLAN_NO_CPU 0xffffffffu /* "no CPU" in the builder's arguments */
#define IPIPLAN_NO_DUE (~0ull)	   /* ipiplan__next: nothing scheduled */

/* One CPU's part in the plan. A CPU runs its hrtimer iff nr_targets or
 * self; an all-zero role is "no timer". */
struct ipiplan_role {
	u32 nr_targets;		    /* NMI IPIs this CPU's timer sends */
	u32 target[IPIPLAN_FANOUT]; /* their CPU numbers, ascending */
	bool self;		    /* the timer captures this CPU itself */
};

static inline bool ipiplan__has_timer(const struct ipiplan_role *r)
{
	return r->nr_targets || r->self;
}

/*
 * Build the plan for CPUs [0, nr_cpus). `online` and `sampled` are bitmaps
 * of (nr_cpus + 63) / 64 words (bit c of word c / 64); sampled CPUs that
 * are not online are ignored, as is `leaving` (a CPU on its way offline,
 * or IPIPLAN_NO_CPU). `nmi_ipi` false: a TIMER session (self on every
 * sampled CPU). Writes every roles[0..nr_cpus) entry; returns the number of
 * CPUs that run a timer.
 */
u32 ipiplan__build(struct ipiplan_role *roles, u32 nr_cpus, const u64 *online, const u64 *sampled,
		   u32 leaving, bool nmi_ipi);

/*
 * One target's pacing: the number of due times that have passed at `now`
 * (ns), 0 when the sample is not due yet. When due, *due moves on by whole
 * periods past `now`: a late expiry takes one sample and drops the others
 * (returns k > 1: k - 1 samples missed, the caller counts them), keeping
 * the phase, as hrtimer_forward does. *due == 0 means "not started": due at
 * once (returns 1). period 0 is taken as 1 ns.
 */
u64 ipiplan__due(u64 *due, u64 period, u64 now);

/* The earlier of `next` and `due` (IPIPLAN_NO_DUE: none yet). */
static inline u64 ipiplan__next(u64 next, u64 due)
{
	return due < next ? due : next;
}

/*
 * A target's outstanding NMI IPI (the sampler's per-CPU `nmi_pending`). Its
 * sender marks it SENDING when it decides to send, RAISING just before the
 * ICR write and SENT, with the time, once the write is done. A sender held
 * up before the write (a vCPU the host descheduled, an SMI) then leaves an
 * IPI that no NMI takes, so the NMIs meanwhile (a PMI's, an empty one
 * latched behind a PMI, a foreign one) are not mistaken for it; had one
 * taken it, the IPI would come later as an NMI nobody claims.
 */
enum ipiplan_ipi_state {
	IPIPLAN_IPI_NONE = 0,	 /* none outstanding */
	IPIPLAN_IPI_SENDING = 1, /* decided on, certainly not raised yet */
	IPIPLAN_IPI_RAISING = 2, /* being raised: may have been */
	IPIPLAN_IPI_SENT = 3,	 /* raised at or before its sent time */
};

/*
 * Whether an NMI takes the outstanding IPI in `state`, raised at or before
 * `sent_ns` when SENT. An IPI not raised yet (NONE, SENDING) is not taken.
 * An NMI that served no PMI of ours takes a RAISING or SENT one: it is that
 * IPI (or a foreign NMI that came first, which nothing tells apart). An NMI
 * that served a PMI takes it only when it is SENT and was raised more than
 * `landed_ns` before `now` (read as the handler starts): it was raised
 * before this NMI was delivered, so the two merged. A younger one is still
 * to come, or waits in the NMI latch, and comes as an NMI of its own that
 * must find it.
 */
static inline bool ipiplan__take_ipi(u32 state, bool served_pmi, u64 now, u64 sent_ns,
				     u64 landed_ns)
{
	switch (state) {
	case IPIPLAN_IPI_RAISING:
		return !served_pmi;
	case IPIPLAN_IPI_SENT:
		return !served_pmi || (now > sent_ns && now - sent_ns > landed_ns);
	default: /* NONE, SENDING: not raised */
		return false;
	}
}

#endif /* PMUPROF_IPIPLAN_H */
