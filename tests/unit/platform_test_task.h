/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host test platform: task part. See platform_test.h.
 *
 * A scriptable "current task" for kernel/nmi/capture:
 *  - plat_current_task() and plat_current_comm() return the task set with
 *    plat_test_task_set()
 *    (default after reset: pid 100, tid 101, comm "test", a user task).
 *  - plat_user_regs() returns the registers set with
 *    plat_test_task_set_user_regs(); NULL (the default) makes it return
 *    false, as for a kernel thread.
 *  - plat_kernel_stack() stores regs->ip then the scripted frames
 *    (plat_test_task_set_kstack), at most `max` entries, and sets
 *    *truncated when frames were left; it remembers the regs pointer it
 *    was given so tests can check the capture code passed them through.
 *  - plat_task_descends_from() walks a scripted ancestry of the current
 *    task (plat_test_task_set_ancestors: tgids, parent first) as Linux
 *    does: NO for an idle or kernel-thread current task, YES at the first
 *    ancestor with the tgid, NO at init (tgid <= 1) or past the last
 *    ancestor (the root; a kernel-thread ancestor ends a Linux walk the
 *    same way), CAPPED after max_depth ancestors. Default: no ancestors.
 *  - plat_current_traceable_by() compares with the scripted ids and
 *    dumpable state (plat_test_task_set_creds; default 1000/1000, dumpable).
 */
#ifndef PLATFORM_TEST_TASK_H
#define PLATFORM_TEST_TASK_H

#include "pmuprof/platform.h"

void plat_test_task_reset(void);

void plat_test_task_set(u32 pid, u32 tid, const char *comm, bool idle, bool kthread);
void plat_test_task_set_user_regs(const struct pp_regs *regs); /* NULL: none */

#define PLAT_TEST_KSTACK_MAX 512
/* Frames after the interrupted IP (return addresses, innermost first). */
void plat_test_task_set_kstack(const u64 *frames, unsigned int n);
unsigned int plat_test_task_kstack_calls(void);
const struct pp_regs *plat_test_task_kstack_regs(void);
unsigned int plat_test_task_user_regs_calls(void);

#define PLAT_TEST_ANCESTORS_MAX 64
void plat_test_task_set_ancestors(const u32 *tgids, unsigned int n);
unsigned int plat_test_task_descends_calls(void);
unsigned int plat_test_task_descends_last_depth(void); /* max_depth of the last call */
unsigned int plat_test_task_descends_levels(void);     /* ancestors looked at, all calls */
void plat_test_task_set_creds(u32 uid, u32 gid, bool dumpable);
unsigned int plat_test_task_traceable_calls(void);

#endif
