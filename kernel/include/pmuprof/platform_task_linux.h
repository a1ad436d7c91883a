/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plat_current_task of pmuprof/platform.h for the Linux build, inline
 * (issue 15: every sample reads the current task's ids, flags and name;
 * as a call to platform_linux.c they went through a struct on the stack
 * and back). Only platform.h includes this, after struct pp_task, and
 * only under __KERNEL__; the host unit tests keep their task model
 * (tests/unit/platform_test_task.c).
 */
#ifndef PMUPROF_PLATFORM_TASK_LINUX_H
#define PMUPROF_PLATFORM_TASK_LINUX_H

#include <linux/sched.h>
#include <linux/string.h>

static __always_inline void plat_current_task(struct pp_task *t) /* [NMI] */
{
	struct task_struct *p = current;

	t->pid = p->tgid; /* initial pid namespace (task_pid_nr_ns is not exported) */
	t->tid = p->pid;
	t->idle = is_idle_task(p);
	t->kthread = !!(p->flags & PF_KTHREAD);
	/* comm may change under us (prctl); a torn name is harmless and
	 * the caller NUL-terminates. */
	memcpy(t->comm, p->comm, sizeof(t->comm));
}

#endif /* PMUPROF_PLATFORM_TASK_LINUX_H */
