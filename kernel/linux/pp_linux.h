/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/linux: the Linux glue of pmuprof.ko (internal header).
 *
 *   main.c            module init/exit, PMU probe line, NMI handler and
 *                     cpuhp registration
 *   chardev.c         /dev/pmuprof: open/release, ioctls, read, poll
 *   sampler.c         session start/stop, the NMI handler, the NMI-IPI
 *                     hrtimers, cpuhp callbacks, irq_work wake-ups
 *   platform_linux.c  pmuprof/platform.h for Linux
 *
 * One session exists at a time (single opener), so the per-CPU state is one
 * module-wide per-CPU allocation and the session a static struct.
 */
#ifndef PMUPROF_PP_LINUX_H
#define PMUPROF_PP_LINUX_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "pmuprof/platform.h"
#include "../nmi/tscconv.h"
#include "../nmi/ring.h"
#include "../nmi/capture.h"
#include "../nmi/session.h"
#include "../nmi/ipiplan.h"
#include "../pmu/pmu.h"

#define PP_NAME "pmuprof"

/*
 * Allocation accounting (issue 8). kmemleak is not in Debian's kernel, so
 * every allocation of the module goes through these wrappers and is counted:
 * "session" allocations (rings, ioctl scratch) must be back to 0 whenever no
 * file is open, "module" ones (per-CPU state, cpumask) at unload. Both are
 * readable in /sys/kernel/debug/pmuprof/allocations; pp_alloc_check() at
 * unload WARNs on a leak (the VM harness fails on that WARNING).
 */
extern atomic_long_t pp_allocs_session, pp_allocs_module;

static inline void *pp_kzalloc(size_t size)
{
	void *p = kzalloc(size, GFP_KERNEL);

	if (p)
		atomic_long_inc(&pp_allocs_session);
	return p;
}

static inline void pp_kfree(const void *p)
{
	if (p) {
		atomic_long_dec(&pp_allocs_session);
		kfree(p);
	}
}

static inline void *pp_vzalloc_node(unsigned long size, int node)
{
	void *p = vzalloc_node(size, node);

	if (p)
		atomic_long_inc(&pp_allocs_session);
	return p;
}

static inline void pp_vfree(const void *p)
{
	if (p) {
		atomic_long_dec(&pp_allocs_session);
		vfree(p);
	}
}

void pp_debugfs_init(void);
void pp_debugfs_exit(void);

/* Linux pt_regs wrapped in the portable form; plat_kernel_stack() finds
 * the pt_regs with container_of (see platform_linux.c). */
struct pp_linux_regs {
	struct pp_regs pp;
	struct pt_regs *pt;
};

struct pp_cpu;
struct pp_session;

/*
 * One NMI's sample context (sampler.c: pp_nmi_handler and the PMU layer's
 * glue). It lives in each CPU's pp_cpu, not on the handler's stack: an NMI
 * handler does not nest with itself on one CPU, and the fields that never
 * change (pc, s, and the pointers of cn but its time) are set once at load
 * (pp_sampler_init), not on every NMI (issue 15: instructions per sample).
 */
struct pp_emit_ctx {
	struct pp_cpu *pc;    /* constant: the CPU's own pp_cpu */
	struct pp_session *s; /* constant: &pp_sess */
	struct pt_regs *regs; /* this NMI's interrupted registers */
	struct pp_linux_regs lr;
	bool converted; /* lr holds regs (pp_convert) */
	bool sampling;	/* this NMI's pc->sampling; lr converted when set */
	bool all_regs;	/* session: pp_regs_from_pt, not _min (pp_cpu_begin) */
	bool wake;
	struct capture_nmi cn; /* cc, p, r, regs, wake constant; now_ns per NMI */
};

/*
 * Everything the NMI handler touches on one CPU, fetched once with
 * this_cpu_ptr() at its top.
 */
struct pp_cpu {
	struct ring ring;			 /* valid when ring_mem != NULL */
	void *ring_mem;				 /* vmalloc'ed, session lifetime */
	struct capture_cpu cap;			 /* stats, scratch stacks, throttle window */
	struct pmu_cpu pmu;			 /* this CPU's counters (PMU source) */
	struct pmu_pebs_mem pebs_mem;		 /* DS area + PEBS buffer (pebs_linux.c) */
	u64 pmu_period_seen[PMUPROF_MAX_EVENTS]; /* per assignment: last reported period */
	atomic_t nmi_pending;	   /* enum ipiplan_ipi_state of our NMI IPI to this CPU */
	u64 ipi_sent_ns;	   /* when it was raised (plat_now_ns), once SENT */
	bool sampling;		   /* this CPU captures (target set, online, running) */
	bool pmu_running;	   /* pmu__cpu_start done on this CPU */
	bool timer_running;	   /* session started here: the hrtimer may run */
	bool target_on;		   /* the task running here may be sampled: always, but
				    * in per-process sessions switched at each context
				    * switch (sampler.c: pp_sched_switch) */
	u64 clock_period_ns;	   /* this CPU as a target: current cpu-clock period */
	u64 clock_due_ns;	   /* this CPU as a target: next sample (ktime), 0 = now */
	struct ipiplan_role role;  /* this CPU's hrtimer: whom it samples (sampler.c) */
	cpumask_var_t ipi_mask;	   /* scratch of the hrtimer: this expiry's NMI targets */
	struct hrtimer timer;	   /* pinned; runs while `role` has work */
	struct irq_work wake_work; /* reader wake-up, queued from NMI */
	u64 ticks_missed;	   /* as a sender: due samples its late hrtimer skipped */
	u64 read_records;	   /* reader side (process context) */
	u64 read_bytes;
	u32 cpu;
	struct pp_emit_ctx ec; /* the NMI handler's (sampler.c) */
};

/* STOP waits this long for the last NMI IPIs to be taken (sampler.c:
 * pp_ipis_drain), then forgets the ones that never were. */
#define PP_IPI_LOST_NS (100 * NSEC_PER_MSEC)
/* A backstop: an NMI IPI still not consumed after this long is sent again.
 * Long, because a re-send that reaches the target inside the NMI that takes
 * the first one comes as a second, unclaimed NMI (sampler.c). */
#define PP_IPI_RESEND_NS (1000 * NSEC_PER_MSEC)
/* An NMI that served a PMI of ours takes the outstanding IPI too only when
 * it was sent longer ago than this (it must have landed: merged with this
 * NMI, or it would have come first); a younger one comes by itself. */
#define PP_IPI_LANDED_NS (1 * NSEC_PER_MSEC)

/* Dynamic per-CPU memory: the struct (~10 KiB with the scratch stacks) is
 * too big for the module static per-CPU reserve. */
extern struct pp_cpu __percpu *pp_cpus;

struct pp_session {
	struct mutex lock;    /* serialises ioctls, read, release */
	wait_queue_head_t wq; /* readers and pollers */
	u32 state;	      /* enum pmuprof_state; written under lock */
	bool running;	      /* read by the hotplug callbacks */
	bool privileged;      /* opener had CAP_SYS_ADMIN or CAP_SYSLOG */
	bool per_task;	      /* running, and target_on follows the target's tasks */
	struct session_plan plan;
	cpumask_var_t targets; /* CPUs that may sample in this session */
	u64 start_ns, stop_ns;
	struct pp_tscconv tsc; /* NMI handler timing by TSC delta; mult 0: clock reads */
	u64 replans;	       /* sender plans rebuilt by hotplug while running */
	u32 read_cpu;	       /* where read() resumes (fairness) */
};

extern struct pp_session pp_sess;
extern struct pmu_caps pp_caps;
extern atomic_t pp_open_count;

void pp_regs_from_pt(struct pp_linux_regs *lr, struct pt_regs *regs, bool want_segs);
/* Session flags that read more of the interrupted registers than IP,
 * flags, SP and BP: the decoder (every GPR, FS/GS bases) and the user
 * register dump. */
#define PP_CF_ALL_REGS (PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE | PMUPROF_CF_USTACK_COPY)
/* pp_regs_from_pt for a session without PP_CF_ALL_REGS or PEBS: only ip,
 * flags, SP, BP, user and compat (segment bases left as they are: 0 from
 * pp_cpu_begin); the other gpr[] are left unset, and nothing in such a
 * session reads them. [NMI] */
static __always_inline void pp_regs_from_pt_min(struct pp_linux_regs *lr, struct pt_regs *regs)
{
	struct pp_regs *r = &lr->pp;

	lr->pt = regs;
	r->gpr[PP_REG_SP] = regs->sp;
	r->gpr[PP_REG_BP] = regs->bp;
	r->ip = regs->ip;
	r->flags = regs->flags;
	r->user = user_mode(regs);
	r->compat = r->user && !user_64bit_mode(regs);
	/* fs_base, gs_base: not written; 0 in the NMI's emit context from
	 * pp_cpu_begin, and a session converts either always this way or
	 * always in full (pp_emit_ctx.all_regs) */
}

/* platform_linux.c: the process filter's parts for any task (the NMI's
 * plat_* versions look at current) */
struct task_struct;
enum pp_descent pp_task_descends_from(struct task_struct *p, u32 tgid, unsigned int max_depth);
bool pp_task_traceable_by(struct task_struct *p, u32 uid, u32 gid);

/* sampler.c */
int pp_sampler_init(void);
void pp_sampler_exit(void);
int pp_session_alloc_rings(struct pp_session *s);
void pp_session_free_rings(struct pp_session *s);
int pp_session_start(struct pp_session *s);
void pp_session_stop(struct pp_session *s);
bool pp_session_has_data(struct pp_session *s, u64 min_bytes);

/* pebs_linux.c: KPTI policy at load, per-CPU PEBS memory START..STOP */
void pp_pebs_init(struct pmu_caps *caps);
int pp_pebs_alloc(struct pp_session *s);
void pp_pebs_free(struct pp_session *s);

/* chardev.c */
int pp_chardev_init(void);
void pp_chardev_exit(void);

#endif /* PMUPROF_PP_LINUX_H */
