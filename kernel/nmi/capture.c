// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/nmi/capture.c: build sample records in NMI context. See capture.h.
 *
 * Cost: one sample is a task snapshot, an optional ORC walk (platform), an
 * optional frame-pointer walk of at most `depth` 16-byte user reads written
 * straight into the record (reserved for `depth` frames, then trimmed:
 * ring__trim), an optional data-address step (dataaddr.h: <= 2 instruction
 * fetches, one decode, <= 10 page-table reads), one ring reservation and
 * the copy of the kernel stack; with CF_USTACK_COPY a copy of at most
 * PMUPROF_USTACK_COPY_MAX bytes of user stack, straight into the record, at
 * most one platform copy per 4 KiB page. Every loop is bounded by `depth`
 * (<= PMUPROF_MAX_DEPTH) or by the copy size.
 */
#include "capture.h"
#include "dataaddr.h"
#include "fpwalk.h"

static inline bool cpu_in_mask(const u64 *mask, u32 cpu)
{
	if (cpu >= PMUPROF_MAX_CPUS)
		return false;
	return (mask[cpu / 64] >> (cpu % 64)) & 1;
}

void capture__reset(struct capture_cpu *cc)
{
	unsigned int i;

	cc->max_cpu_pct = CAPTURE_MAX_CPU_PCT;
	cc->max_rate = CAPTURE_MAX_RATE;
	memset(cc->pebs_check, 0, sizeof(cc->pebs_check));
	for (i = 0; i < CAPTURE_NR_CTX; i++) {
		struct capture_ctx *c = &cc->ctx[i];

		memset(&c->st, 0, sizeof(c->st));
		memset(c->event_samples, 0, sizeof(c->event_samples));
		memset(c->event_lost, 0, sizeof(c->event_lost));
		c->win_start_ns = 0;
		c->win_busy_ns = 0;
		c->win_runs = 0;
		c->copy_bytes = 0;
		c->copy_short = 0;
	}
}

void capture__copy_stats(const struct capture_cpu *cc, u64 *bytes, u64 *cut_short)
{
	unsigned int i;

	for (i = 0; i < CAPTURE_NR_CTX; i++) {
		*bytes += cc->ctx[i].copy_bytes;
		*cut_short += cc->ctx[i].copy_short;
	}
}

void capture__pebs_check(struct capture_cpu *cc, const struct pp_regs *intr, bool have_segs,
			 const struct pebs_sample *rec)
{
	cc->pebs_check[pebs_check__record(rec, intr, have_segs)]++;
}
PP_NOKPROBE(capture__pebs_check);

void capture__pebs_check_stats(const struct capture_cpu *cc, u64 *sum)
{
	for (unsigned int i = 0; i < PEBS_CHECK_NR; i++)
		sum[i] += cc->pebs_check[i];
}

u32 capture__sample_size(bool addr, unsigned int nr_kstack, unsigned int nr_ustack)
{
	u32 size = sizeof(struct pmuprof_sample);

	if (addr)
		size += sizeof(struct pmuprof_sample_addr);
	size += (u32)(nr_kstack + nr_ustack) * sizeof(u64);
	return size; /* every part is a multiple of 8 bytes */
}
PP_NOKPROBE(capture__sample_size);

/* Pages of the user stack copy: one platform copy never crosses one, so a
 * page that is not present ends the copy exactly at its start. */
#define CAPTURE_COPY_PAGE 4096u

void capture__user_stack_copy(const struct pp_regs *uregs, struct pmuprof_sample_ustack *out,
			      u8 *stack, u32 size)
{
	/* pp_regs (ModRM order) -> DWARF order of struct pmuprof_sample_ustack */
	static const u8 dwarf_of[PP_NR_GPR] = {
		[PP_REG_AX] = PMUPROF_UREG_AX,
		[PP_REG_CX] = PMUPROF_UREG_CX,
		[PP_REG_DX] = PMUPROF_UREG_DX,
		[PP_REG_BX] = PMUPROF_UREG_BX,
		[PP_REG_SP] = PMUPROF_UREG_SP,
		[PP_REG_BP] = PMUPROF_UREG_BP,
		[PP_REG_SI] = PMUPROF_UREG_SI,
		[PP_REG_DI] = PMUPROF_UREG_DI,
		[PP_REG_R8] = 8,
		[PP_REG_R9] = 9,
		[PP_REG_R10] = 10,
		[PP_REG_R11] = 11,
		[PP_REG_R12] = 12,
		[PP_REG_R13] = 13,
		[PP_REG_R14] = 14,
		[PP_REG_R15] = 15,
	};
	u64 sp = uregs->gpr[PP_REG_SP];
	u32 done = 0, i;

	for (i = 0; i < PP_NR_GPR; i++)
		out->regs[dwarf_of[i]] = uregs->gpr[i];
	out->regs[PMUPROF_UREG_IP] = uregs->ip;
	out->size = size;
	out->flags = uregs->compat ? PMUPROF_USTACK_COMPAT : 0;
	out->__pad0 = 0;
	while (done < size) {
		u32 chunk = CAPTURE_COPY_PAGE - (u32)((sp + done) & (CAPTURE_COPY_PAGE - 1));
		size_t left;

		if (chunk > size - done)
			chunk = size - done;
		left = plat_copy_user_nmi(stack + done, sp + done, chunk);
		if (left) {
			if (left < chunk)
				done += chunk - (u32)left; /* what came before the fault */
			break;
		}
		done += chunk;
	}
	out->valid = done;
	if (done < size)
		memset(stack + done, 0, size - done);
}
PP_NOKPROBE(capture__user_stack_copy);

/* Walks for which no user-access batch could be opened. */
FPWALK_DEFINE(careful_fp_walk, fpwalk__copy_read)

unsigned int capture__user_stack(const struct pp_regs *uregs, u64 *out, unsigned int max,
				 u32 *sflags)
{
	u64 fp;
	int n;

	if (!max)
		return 0;
	out[0] = uregs->ip;
	if (uregs->compat)
		return 1; /* 32-bit frames are not walked (documented) */
	fp = uregs->gpr[PP_REG_BP];
	if (!fp || (fp & 7))
		return 1;
	/* The checks that hold for the whole walk once, as perf does; without
	 * a batch (page tables not current's), the careful copy per frame. */
	n = plat_user_fp_walk(fp, out + 1, max - 1, sflags);
	if (n < 0)
		n = (int)careful_fp_walk(fp, out + 1, max - 1, sflags, 0);
	return 1 + (unsigned int)n;
}
PP_NOKPROBE(capture__user_stack);

static void ctx_count_lost(struct capture_ctx *c, u32 event)
{
	c->st.captured++;
	c->st.lost++;
	if (event < PMUPROF_MAX_EVENTS)
		c->event_lost[event]++;
}

/*
 * The TARGET_PID filter. The direct tgid check is the common case and costs
 * nothing; only a task of another process, with CF_INHERIT, pays for the
 * ancestry walk (a few dependent loads per level, at most
 * PMUPROF_INHERIT_MAX_DEPTH levels, stopping at init). No cache of earlier
 * answers: a tgid-keyed one is wrong after pid reuse within a session (a
 * fork-heavy build wraps pid_max), and re-parenting moves a process out of
 * the tree at any time.
 */
static bool pid_match_inherit(struct capture_ctx *c, const struct capture_params *p, bool kthread)
{
	if (!(p->flags & PMUPROF_CF_INHERIT) || kthread)
		return false;
	switch (plat_task_descends_from((u32)p->pid, PMUPROF_INHERIT_MAX_DEPTH)) {
	case PP_DESCENT_YES:
		return !p->inherit_check_creds ||
		       plat_current_traceable_by(p->opener_uid, p->opener_gid);
	case PP_DESCENT_CAPPED:
		c->st.inherit_capped++; /* also counted as filtered by the caller */
		return false;
	default:
		return false;
	}
}
PP_NOKPROBE(pid_match_inherit);

/* The common case inline, the rest a call. */
static __always_inline bool pid_match(struct capture_ctx *c, const struct capture_params *p,
				      const struct pp_task *t)
{
	if (t->idle)
		return false;
	if (t->pid == (u32)p->pid)
		return true;
	return pid_match_inherit(c, p, t->kthread);
}

_Static_assert(sizeof(((struct pmuprof_sample *)0)->comm) == PP_TASK_COMM_LEN,
	       "plat_current_comm fills the record's comm");

/* Kernel IPs live in the upper half of the address space (x86-64). */
static bool kernel_ip(u64 ip)
{
	return (s64)ip < 0;
}

/* The body of capture__sample_precise and capture__sample: inlined into
 * each, so that the one without a PEBS record (every PMI and NMI-IPI
 * sample) has no PEBS branch, register copy or spilled argument left
 * (issue 15: the handler's instructions per sample). `plain` (a constant
 * at each inlining) says the caller found none of CAPTURE_CF_EXTRAS in
 * p->flags: the branches that look at them are then left out at compile
 * time, with the same record as their run-time tests would give. */
static __always_inline int sample(struct capture_cpu *cc, unsigned int ctx,
				  const struct capture_params *p, struct ring *r,
				  const struct pp_regs *iregs, u32 source, u32 event, u64 period,
				  u64 now_ns, const struct capture_precise *pr, bool *wake,
				  bool plain)
{
	struct capture_ctx *c = &cc->ctx[ctx];
	struct pmuprof_sample *s;
	struct pp_task task PP_NOINIT;
	struct pp_regs uregs PP_NOINIT, pregs PP_NOINIT;
	struct pmuprof_sample_addr addr PP_NOINIT;
	const struct pp_regs *ur = NULL;
	const struct pp_regs *regs = iregs; /* the sample's IP and mode */
	unsigned int nk = 0, nu = 0, nu_max = 0;
	u32 sflags = 0, size, cut;
	bool trunc = false, want_addr;
	u64 *stacks;

	if (pr) {
		/* PEBS: the record's IP; registers otherwise as interrupted */
		pregs = *iregs;
		pregs.ip = pr->ip;
		pregs.user = !kernel_ip(pr->ip);
		if (pregs.user != iregs->user)
			pregs.compat = false; /* only the IP is used in that case */
		regs = &pregs;
	}

	/* Filters first: they are the cheap way out. */
	if ((p->target == PMUPROF_TARGET_CPUS || p->cpu_filter) &&
	    !cpu_in_mask(p->cpu_mask, r->cpu))
		goto filtered;
	if (regs->user ? (p->flags & PMUPROF_CF_EXCLUDE_USER)
		       : (p->flags & PMUPROF_CF_EXCLUDE_KERNEL))
		goto filtered;
	plat_current_task(&task);
	if (p->target == PMUPROF_TARGET_PID && !pid_match(c, p, &task))
		goto filtered;

	if (!plain && !regs->user && (p->flags & PMUPROF_CF_KSTACK) && p->privileged) {
		if (!iregs->user) {
			/* the unwinder needs the interrupted regs themselves
			 * (the platform finds its own frame from them) */
			nk = plat_kernel_stack(iregs, c->kstack, p->depth, &trunc);
			if (nk > p->depth)
				nk = p->depth; /* never trust a count from outside */
			if (trunc)
				sflags |= PMUPROF_SF_KSTACK_TRUNC;
			if (nk)
				c->kstack[0] = regs->ip;
		} else if (p->depth) {
			c->kstack[0] = regs->ip; /* PEBS kernel IP, PMI in user mode */
			nk = 1;
		}
	}
	if (!plain && (p->flags & (PMUPROF_CF_USTACK | PMUPROF_CF_USTACK_COPY))) {
		if (regs->user && iregs->user) {
			ur = regs;
		} else if (!task.kthread && !task.idle && plat_user_regs(&uregs)) {
			if (regs->user)
				uregs.ip = regs->ip; /* PEBS user IP, PMI in the kernel */
			ur = &uregs;
		}
		if (ur && (p->flags & PMUPROF_CF_USTACK))
			nu_max = p->depth; /* walked straight into the record */
		if (ur && p->ustack_copy)
			sflags |= PMUPROF_SF_USTACK_COPY;
	}

	want_addr = !plain && (p->flags & (PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE));
	if (want_addr) {
		if (pr)
			dataaddr__fill_known(&addr, regs, p->flags, p->privileged, pr->has_addr,
					     pr->data_addr, PMUPROF_ADDR_SRC_PEBS,
					     PMUPROF_ADDR_PREC_EXACT);
		else /* PMU overflow without PEBS: the IP has skidded past the event */
			dataaddr__fill(&addr, regs, p->flags, p->privileged,
				       source == PMUPROF_SOURCE_PMU);
		if (!regs->user && !p->privileged) {
			addr.code_page = PMUPROF_PAGE_UNKNOWN; /* nothing about kernel text */
			addr.code_phys = 0;
		}
		sflags |= PMUPROF_SF_ADDR;
	}

	/* Room for the deepest user stack: the walk writes into the record
	 * (no scratch copy), which is then trimmed to the frames found. A ring
	 * with less room than that left loses the sample even if its stack
	 * would have fitted. */
	size = capture__sample_size(want_addr, nk, nu_max);
	if (sflags & PMUPROF_SF_USTACK_COPY)
		size += (u32)sizeof(struct pmuprof_sample_ustack) + p->ustack_copy;
	/* an NMI writer is never interrupted by another: the ring's fast path
	 * when no writer of this CPU's ring is open (ring.h) */
	s = ctx == CAPTURE_CTX_NMI ? ring__reserve_sample_nmi(r, size, now_ns)
				   : ring__reserve_sample(r, size, now_ns);
	if (!s) {
		ctx_count_lost(c, event);
		return CAPTURE_LOST;
	}
	stacks = (u64 *)(s + 1);
	if (want_addr) {
		memcpy(stacks, &addr, sizeof(addr));
		stacks += sizeof(addr) / sizeof(u64);
	}
	if (nk)
		memcpy(stacks, c->kstack, nk * sizeof(u64));
	if (nu_max)
		nu = capture__user_stack(ur, stacks + nk, nu_max, &sflags);
	cut = (nu_max - nu) * (u32)sizeof(u64);
	if (cut) {
		ring__trim(r, s, size, cut);
		size -= cut;
	}
	if (sflags & PMUPROF_SF_USTACK_COPY) {
		struct pmuprof_sample_ustack *us = (void *)(stacks + nk + nu);

		/* straight into the ring: the record is this CPU's until commit */
		capture__user_stack_copy(ur, us, (u8 *)(us + 1), p->ustack_copy);
		c->copy_bytes += us->valid;
		if (us->valid < p->ustack_copy)
			c->copy_short++;
	}
	s->hdr.type = PMUPROF_REC_SAMPLE;
	s->hdr.misc = regs->user ? PMUPROF_MISC_USER : PMUPROF_MISC_KERNEL;
	if (task.idle)
		s->hdr.misc |= PMUPROF_MISC_IDLE;
	if (pr ? pr->ip_exact
	       : (source == PMUPROF_SOURCE_NMI_IPI || source == PMUPROF_SOURCE_TIMER))
		s->hdr.misc |= PMUPROF_MISC_EXACT_IP; /* PEBS eventing IP / a boundary */
	s->hdr.size = size;
	s->time_ns = now_ns;
	s->ip = (regs->user || p->privileged) ? regs->ip : 0;
	s->period = period;
	s->pid = task.pid;
	s->tid = task.tid;
	s->cpu = r->cpu;
	s->event = (u16)event;
	s->source = (u8)source;
	s->__pad0 = 0;
	s->sample_flags = sflags;
	s->nr_kstack = (u16)nk;
	s->nr_ustack = (u16)nu;
	plat_current_comm(s->comm);
	s->comm[sizeof(s->comm) - 1] = '\0';
	if (ctx == CAPTURE_CTX_NMI ? ring__commit_nmi(r, s) : ring__commit(r, s))
		*wake = true;

	c->st.captured++;
	c->st.samples++;
	if (event < PMUPROF_MAX_EVENTS)
		c->event_samples[event]++;
	return CAPTURE_WRITTEN;

filtered:
	c->st.filtered++;
	return CAPTURE_FILTERED;
}

int capture__sample_precise(struct capture_cpu *cc, unsigned int ctx,
			    const struct capture_params *p, struct ring *r,
			    const struct pp_regs *iregs, u32 source, u32 event, u64 period,
			    u64 now_ns, const struct capture_precise *pr, bool *wake)
{
	return sample(cc, ctx, p, r, iregs, source, event, period, now_ns, pr, wake, false);
}
PP_NOKPROBE(capture__sample_precise);

int capture__sample(struct capture_cpu *cc, unsigned int ctx, const struct capture_params *p,
		    struct ring *r, const struct pp_regs *regs, u32 source, u32 event, u64 period,
		    u64 now_ns, bool *wake)
{
	return sample(cc, ctx, p, r, regs, source, event, period, now_ns, NULL, wake, false);
}
PP_NOKPROBE(capture__sample);

int capture__sample_nmi_plain(const struct capture_nmi *e, u32 source, u32 event, u64 period)
{
	return sample(e->cc, CAPTURE_CTX_NMI, e->p, e->r, e->regs, source, event, period, e->now_ns,
		      NULL, e->wake, true);
}
PP_NOKPROBE(capture__sample_nmi_plain);

int capture__sample_nmi_full(const struct capture_nmi *e, u32 source, u32 event, u64 period)
{
	return sample(e->cc, CAPTURE_CTX_NMI, e->p, e->r, e->regs, source, event, period, e->now_ns,
		      NULL, e->wake, false);
}
PP_NOKPROBE(capture__sample_nmi_full);

enum capture_rate capture__handler_done(struct capture_cpu *cc, unsigned int ctx, u64 t_start,
					u64 t_end)
{
	if (ctx == CAPTURE_CTX_NMI)
		return capture__handler_done_at(cc, CAPTURE_CTX_NMI, t_start, t_end);
	return capture__handler_done_at(cc, ctx, t_start, t_end);
}
PP_NOKPROBE(capture__handler_done);

void capture__nmi_passed(struct capture_cpu *cc, unsigned int ctx)
{
	cc->ctx[ctx].st.nmis_passed++;
}
PP_NOKPROBE(capture__nmi_passed);

static void period_record(struct ring *r, u16 type, u32 event, u64 old_period, u64 new_period,
			  u64 now_ns, bool *wake)
{
	struct pmuprof_throttle *t;

	t = ring__reserve(r, sizeof(*t));
	if (!t)
		return; /* counted by the ring (other_dropped) */
	t->hdr.type = type;
	t->hdr.misc = 0;
	t->hdr.size = sizeof(*t);
	t->cpu = r->cpu;
	t->event = (u16)event;
	t->__pad0 = 0;
	t->time_ns = now_ns;
	t->old_period = old_period;
	t->new_period = new_period;
	if (ring__commit(r, t))
		*wake = true;
}

void capture__throttled(struct capture_cpu *cc, unsigned int ctx, struct ring *r, u32 event,
			u64 old_period, u64 new_period, u64 now_ns, bool *wake)
{
	cc->ctx[ctx].st.throttled++; /* counted even if the record does not fit */
	period_record(r, PMUPROF_REC_THROTTLE, event, old_period, new_period, now_ns, wake);
}
PP_NOKPROBE(capture__throttled);

void capture__unthrottled(struct capture_cpu *cc, unsigned int ctx, struct ring *r, u32 event,
			  u64 old_period, u64 new_period, u64 now_ns, bool *wake)
{
	cc->ctx[ctx].st.unthrottled++; /* counted even if the record does not fit */
	period_record(r, PMUPROF_REC_UNTHROTTLE, event, old_period, new_period, now_ns, wake);
}
PP_NOKPROBE(capture__unthrottled);

void capture__period_changed(struct ring *r, u32 event, u64 old_period, u64 new_period, u64 now_ns,
			     bool *wake)
{
	period_record(r, PMUPROF_REC_PERIOD, event, old_period, new_period, now_ns, wake);
}
PP_NOKPROBE(capture__period_changed);

void capture__stats_add(struct pmuprof_cpu_stats *dst, const struct pmuprof_cpu_stats *src)
{
	unsigned int i;

	if (src->nmis_handled) {
		if (!dst->nmis_handled || src->handler_ns_min < dst->handler_ns_min)
			dst->handler_ns_min = src->handler_ns_min;
		if (src->handler_ns_max > dst->handler_ns_max)
			dst->handler_ns_max = src->handler_ns_max;
	}
	dst->captured += src->captured;
	dst->samples += src->samples;
	dst->lost += src->lost;
	dst->filtered += src->filtered;
	dst->nmis_handled += src->nmis_handled;
	dst->nmis_passed += src->nmis_passed;
	dst->ipis_sent += src->ipis_sent;
	dst->ipis_outstanding += src->ipis_outstanding;
	dst->ipis_taken += src->ipis_taken;
	dst->throttled += src->throttled;
	dst->overflow_loops_capped += src->overflow_loops_capped;
	dst->inherit_capped += src->inherit_capped;
	dst->unthrottled += src->unthrottled;
	dst->handler_ns_total += src->handler_ns_total;
	dst->read_records += src->read_records;
	dst->read_bytes += src->read_bytes;
	for (i = 0; i < PMUPROF_HIST_BUCKETS; i++)
		dst->hist[i] += src->hist[i];
}

void capture__cpu_stats(const struct capture_cpu *cc, struct pmuprof_cpu_stats *out,
			u64 *ev_samples, u64 *ev_lost)
{
	unsigned int i, e;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < CAPTURE_NR_CTX; i++) {
		const struct capture_ctx *c = &cc->ctx[i];

		capture__stats_add(out, &c->st);
		for (e = 0; e < PMUPROF_MAX_EVENTS; e++) {
			if (ev_samples)
				ev_samples[e] += c->event_samples[e];
			if (ev_lost)
				ev_lost[e] += c->event_lost[e];
		}
	}
}
