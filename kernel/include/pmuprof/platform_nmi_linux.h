/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The platform functions of pmuprof/platform.h that every NMI sample calls,
 * static inline for the Linux build (issue 15: the handler's instructions
 * per sample): plat_now_ns (ktime_get_mono_fast_ns), plat_current_task and
 * plat_current_comm (the sample's ids, flags and name, without a struct
 * round trip through a call). plat_lvtpc_set_nmi stays in platform_linux.c: apic_write() is an
 * indirect call, which the PMU layer's NMI path must not make itself
 * (scripts/check-nmi-direct.sh). Only
 * platform.h includes this, at its end and only under __KERNEL__; the host
 * unit tests keep their models (tests/unit/platform_test_*.c).
 */
#ifndef PMUPROF_PLATFORM_NMI_LINUX_H
#define PMUPROF_PLATFORM_NMI_LINUX_H

#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

static __always_inline u64 plat_now_ns(void) /* [NMI] monotonic, NMI-safe */
{
	return ktime_get_mono_fast_ns();
}

static __always_inline void plat_current_task(struct pp_task *t) /* [NMI] */
{
	struct task_struct *p = current;

	t->pid = p->tgid; /* initial pid namespace (task_pid_nr_ns is not exported) */
	t->tid = p->pid;
	t->idle = is_idle_task(p);
	t->kthread = !!(p->flags & PF_KTHREAD);
}

static __always_inline void plat_current_comm(char *dst) /* [NMI] */
{
	BUILD_BUG_ON(sizeof(current->comm) != PP_TASK_COMM_LEN);
	/* comm may change under us (prctl); a torn name is harmless and
	 * the caller NUL-terminates. */
	memcpy(dst, current->comm, PP_TASK_COMM_LEN);
}

#endif /* PMUPROF_PLATFORM_NMI_LINUX_H */
