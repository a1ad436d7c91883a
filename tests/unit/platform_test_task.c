// SPDX-License-Identifier: GPL-2.0
/* Host test platform: task part. See platform_test_task.h. */
#include "platform_test_task.h"

static struct pp_task cur;
static char cur_comm[PP_TASK_COMM_LEN];
static struct pp_regs uregs;
static bool have_uregs;
static u64 kframes[PLAT_TEST_KSTACK_MAX];
static unsigned int nkframes, kcalls, ucalls;
static const struct pp_regs *klast;
static u32 ancestors[PLAT_TEST_ANCESTORS_MAX];
static unsigned int nancestors, dcalls, dlast_depth, dlevels;
static u32 cred_uid, cred_gid;
static bool cred_dumpable;
static unsigned int tcalls;

void plat_test_task_reset(void)
{
	plat_test_task_set(100, 101, "test", false, false);
	have_uregs = false;
	memset(&uregs, 0, sizeof(uregs));
	nkframes = 0;
	kcalls = 0;
	ucalls = 0;
	klast = NULL;
	nancestors = 0;
	dcalls = 0;
	dlast_depth = 0;
	dlevels = 0;
	plat_test_task_set_creds(1000, 1000, true);
	tcalls = 0;
}

void plat_test_task_set_ancestors(const u32 *tgids, unsigned int n)
{
	if (n > PLAT_TEST_ANCESTORS_MAX)
		n = PLAT_TEST_ANCESTORS_MAX;
	memcpy(ancestors, tgids, n * sizeof(u32));
	nancestors = n;
}

unsigned int plat_test_task_descends_calls(void)
{
	return dcalls;
}

unsigned int plat_test_task_descends_last_depth(void)
{
	return dlast_depth;
}

unsigned int plat_test_task_descends_levels(void)
{
	return dlevels;
}

void plat_test_task_set_creds(u32 uid, u32 gid, bool dumpable)
{
	cred_uid = uid;
	cred_gid = gid;
	cred_dumpable = dumpable;
}

unsigned int plat_test_task_traceable_calls(void)
{
	return tcalls;
}

enum pp_descent plat_task_descends_from(u32 tgid, unsigned int max_depth)
{
	unsigned int depth;

	dcalls++;
	dlast_depth = max_depth;
	if (cur.idle || cur.kthread)
		return PP_DESCENT_NO;
	for (depth = 0; depth < max_depth; depth++) {
		if (depth == nancestors)
			return PP_DESCENT_NO; /* the root */
		dlevels++;
		if (ancestors[depth] == tgid)
			return PP_DESCENT_YES;
		if (ancestors[depth] <= 1)
			return PP_DESCENT_NO; /* init */
	}
	return PP_DESCENT_CAPPED;
}

bool plat_current_traceable_by(u32 uid, u32 gid)
{
	tcalls++;
	return !cur.kthread && cred_dumpable && uid == cred_uid && gid == cred_gid;
}

void plat_test_task_set(u32 pid, u32 tid, const char *comm, bool idle, bool kthread)
{
	memset(&cur, 0, sizeof(cur));
	memset(cur_comm, 0, sizeof(cur_comm));
	cur.pid = pid;
	cur.tid = tid;
	cur.idle = idle;
	cur.kthread = kthread;
	/* like the kernel's comm: not necessarily NUL-terminated at 16 */
	memcpy(cur_comm, comm, strnlen(comm, sizeof(cur_comm)));
}

void plat_test_task_set_user_regs(const struct pp_regs *regs)
{
	have_uregs = regs != NULL;
	if (regs)
		uregs = *regs;
}

void plat_test_task_set_kstack(const u64 *frames, unsigned int n)
{
	if (n > PLAT_TEST_KSTACK_MAX)
		n = PLAT_TEST_KSTACK_MAX;
	memcpy(kframes, frames, n * sizeof(u64));
	nkframes = n;
}

unsigned int plat_test_task_kstack_calls(void)
{
	return kcalls;
}

const struct pp_regs *plat_test_task_kstack_regs(void)
{
	return klast;
}

unsigned int plat_test_task_user_regs_calls(void)
{
	return ucalls;
}

void plat_current_task(struct pp_task *t)
{
	*t = cur;
}

void plat_current_comm(char *dst)
{
	memcpy(dst, cur_comm, sizeof(cur_comm));
}

bool plat_user_regs(struct pp_regs *out)
{
	ucalls++;
	if (!have_uregs)
		return false;
	*out = uregs;
	return true;
}

unsigned int plat_kernel_stack(const struct pp_regs *regs, u64 *out, unsigned int max,
			       bool *truncated)
{
	unsigned int n = 0, i;

	kcalls++;
	klast = regs;
	*truncated = false;
	if (!max)
		return 0;
	out[n++] = regs->ip;
	for (i = 0; i < nkframes; i++) {
		if (n == max) {
			*truncated = true;
			break;
		}
		out[n++] = kframes[i];
	}
	return n;
}
