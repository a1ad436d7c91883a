// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for PMUPROF_CF_INHERIT: CONFIGURE validation
 * (kernel/nmi/session.c) and the process-tree filter of capture__sample()
 * (kernel/nmi/capture.c) on the fake platform's scripted ancestry
 * (tests/unit/platform_test_task.c): the target itself, a child, a
 * grandchild, a child's thread, unrelated processes, the depth cap and its
 * stats counter, kernel threads and idle, the opener's credentials, and
 * that the walk runs only when the direct tgid check failed.
 */
#include <check.h>
#include <stdlib.h>

#include "kernel/nmi/session.h"
#include "kernel/nmi/capture.h"
#include "kernel/nmi/ring.h"
#include "platform_test.h"
#include "check_main.h"
#include "capture_fixture.h"

#define TARGET 1234u

/* ---- CONFIGURE ----------------------------------------------------------- */

static struct pmu_caps caps;
static struct pmuprof_info info;

static void setup(void)
{
	plat_test_reset();
	memset(&caps, 0, sizeof(caps));
	caps.status = PMUPROF_PMU_NO_ARCH_PERFMON;
	caps.vendor = PMUPROF_VENDOR_INTEL;
	strcpy(caps.vendor_string, "GenuineIntel");
	session__fill_info(&info, &caps, 4, 2, true, 4);
}

static void pid_config(struct pmuprof_config *c, u32 flags)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->flags = flags;
	c->nr_events = 1;
	c->events[0].source = PMUPROF_SOURCE_NMI_IPI;
	c->events[0].period = 1000000;
	c->target = PMUPROF_TARGET_PID;
	c->pid = (s32)TARGET;
}

static int validate(const struct pmuprof_config *c, u32 supported, struct session_plan *plan,
		    const char **why)
{
	struct session_env env = {&info, &caps, supported};

	return session__validate(&env, c, plan, why);
}

START_TEST(test_flag_bits)
{
	/* append-only: the next free bit, and __ALL covers exactly bits 0..8 */
	ck_assert_uint_eq(PMUPROF_CF_INHERIT, 1u << 7);
	ck_assert_uint_eq(PMUPROF_CF_USTACK_COPY, 1u << 8);
	ck_assert_uint_eq(PMUPROF_CF__ALL, 0x1ffu);
	ck_assert_uint_eq(PMUPROF_CF_INHERIT &
				  (PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK | PMUPROF_CF_EXCLUDE_USER |
				   PMUPROF_CF_EXCLUDE_KERNEL | PMUPROF_CF_DATA_ADDR |
				   PMUPROF_CF_PHYS_ADDR | PMUPROF_CF_CODE_PAGE),
			  0);
	ck_assert_uint_ge(PMUPROF_INHERIT_MAX_DEPTH, 8);
	/* the stats counter took a reserved word: the struct did not grow */
	ck_assert_uint_eq(sizeof(struct pmuprof_cpu_stats),
			  (14 + PMUPROF_HIST_BUCKETS + 4) * sizeof(__u64));
}
END_TEST

START_TEST(test_validate_inherit)
{
	struct pmuprof_config c;
	struct session_plan plan;
	const char *why = NULL;

	pid_config(&c, PMUPROF_CF_INHERIT | PMUPROF_CF_USTACK);
	ck_assert_int_eq(validate(&c, PMUPROF_CF__ALL, &plan, &why), 0);
	ck_assert_uint_eq(plan.cap.flags & PMUPROF_CF_INHERIT, PMUPROF_CF_INHERIT);
	ck_assert_int_eq(plan.cap.pid, (s32)TARGET);
	/* secure default until the glue looks at the opener's capabilities */
	ck_assert(plan.cap.inherit_check_creds);

	pid_config(&c, PMUPROF_CF_USTACK);
	ck_assert_int_eq(validate(&c, PMUPROF_CF__ALL, &plan, &why), 0);
	ck_assert(!plan.cap.inherit_check_creds);
}
END_TEST

START_TEST(test_validate_inherit_needs_pid)
{
	struct pmuprof_config c;
	struct session_plan plan;
	const char *why = NULL;

	pid_config(&c, PMUPROF_CF_INHERIT);
	c.target = PMUPROF_TARGET_ALL;
	c.pid = 0;
	ck_assert_int_eq(validate(&c, PMUPROF_CF__ALL, &plan, &why), -EINVAL);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "INHERIT"));

	pid_config(&c, PMUPROF_CF_INHERIT);
	c.target = PMUPROF_TARGET_CPUS;
	c.pid = 0;
	c.cpu_mask[0] = 1;
	why = NULL;
	ck_assert_int_eq(validate(&c, PMUPROF_CF__ALL, &plan, &why), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "INHERIT"));

	/* the pid checks still apply */
	pid_config(&c, PMUPROF_CF_INHERIT);
	c.pid = 0;
	ck_assert_int_eq(validate(&c, PMUPROF_CF__ALL, &plan, &why), -EINVAL);
}
END_TEST

START_TEST(test_validate_unknown_bits)
{
	struct pmuprof_config c;
	struct session_plan plan;
	const char *why = NULL;
	unsigned int bit;

	for (bit = 9; bit < 32; bit++) {
		pid_config(&c, PMUPROF_CF_INHERIT | (1u << bit));
		ck_assert_int_eq(validate(&c, PMUPROF_CF__ALL, &plan, &why), -EINVAL);
	}
	/* a build that does not implement it says so */
	pid_config(&c, PMUPROF_CF_INHERIT);
	ck_assert_int_eq(validate(&c, PMUPROF_CF__ALL & ~PMUPROF_CF_INHERIT, &plan, &why),
			 -EOPNOTSUPP);
}
END_TEST

/* ---- the filter ---------------------------------------------------------- */

#define RING_SZ PMUPROF_RING_MIN
static u8 ring_mem[RING_SZ] __attribute__((aligned(64)));
static struct ring ring;
static struct capture_cpu cc;
static struct capture_params cp;
static struct pp_regs uregs;

static void cap_setup(void)
{
	setup();
	capture_fixture(&ring, ring_mem, RING_SZ, 1, &cc, &cp, 16, 1);
	cp.flags = PMUPROF_CF_INHERIT;
	cp.target = PMUPROF_TARGET_PID;
	cp.pid = (s32)TARGET;
	memset(&uregs, 0, sizeof(uregs));
	uregs.ip = 0x401000;
	uregs.user = true;
	plat_test_task_set(TARGET, TARGET, "parent", false, false);
}

static int sample(void)
{
	bool wake = false;

	return capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &uregs, PMUPROF_SOURCE_NMI_IPI, 0,
			       1000, 1, &wake);
}

static const struct pmuprof_sample *last_sample(void)
{
	const struct pmuprof_record_header *h, *last = NULL;

	while ((h = ring__peek(&ring)) != NULL) {
		if (h->type == PMUPROF_REC_SAMPLE) {
			static u8 copy[PMUPROF_MAX_RECORD];

			memcpy(copy, h, h->size);
			last = (const void *)copy;
		}
		ring__consume(&ring, h);
	}
	return (const void *)last;
}

START_TEST(test_direct_no_walk)
{
	static const u32 anc[] = {1};

	plat_test_task_set_ancestors(anc, 1);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	/* a thread of the target: same tgid */
	plat_test_task_set(TARGET, TARGET + 7, "parent-thr", false, false);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	/* the cheap check decided: no ancestry walk, no credential check */
	ck_assert_uint_eq(plat_test_task_descends_calls(), 0);
	ck_assert_uint_eq(plat_test_task_traceable_calls(), 0);
	cp.inherit_check_creds = true;
	plat_test_task_set_creds(0, 0, false);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN); /* the target was checked at CONFIGURE */
	ck_assert_uint_eq(plat_test_task_traceable_calls(), 0);
	ck_assert_uint_eq(cc.ctx[0].st.samples, 3);
	ck_assert_uint_eq(cc.ctx[0].st.filtered, 0);
}
END_TEST

START_TEST(test_child_grandchild_thread)
{
	static const u32 child[] = {TARGET, 1};
	static const u32 grandchild[] = {2000, TARGET, 1};
	const struct pmuprof_sample *s;

	plat_test_task_set(2000, 2000, "child", false, false);
	plat_test_task_set_ancestors(child, 2);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	ck_assert_uint_eq(plat_test_task_descends_calls(), 1);
	ck_assert_uint_eq(plat_test_task_descends_last_depth(), PMUPROF_INHERIT_MAX_DEPTH);
	s = last_sample();
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->pid, 2000); /* the sample names the child, not the target */
	ck_assert_uint_eq(s->tid, 2000);
	ck_assert_str_eq(s->comm, "child");

	/* a thread of the child: its parent is the child's parent */
	plat_test_task_set(2000, 2003, "child-worker", false, false);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	s = last_sample();
	ck_assert_uint_eq(s->pid, 2000);
	ck_assert_uint_eq(s->tid, 2003);

	plat_test_task_set(3000, 3000, "grandchild", false, false);
	plat_test_task_set_ancestors(grandchild, 3);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	s = last_sample();
	ck_assert_uint_eq(s->pid, 3000);
	ck_assert_uint_eq(cc.ctx[0].st.samples, 3);
	ck_assert_uint_eq(cc.ctx[0].st.captured, 3);
	ck_assert_uint_eq(cc.ctx[0].st.filtered, 0);
	ck_assert_uint_eq(cc.ctx[0].st.inherit_capped, 0);
}
END_TEST

START_TEST(test_without_inherit)
{
	static const u32 child[] = {TARGET, 1};

	cp.flags &= ~PMUPROF_CF_INHERIT;
	plat_test_task_set(2000, 2000, "child", false, false);
	plat_test_task_set_ancestors(child, 2);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	ck_assert_uint_eq(plat_test_task_descends_calls(), 0);
	ck_assert_uint_eq(cc.ctx[0].st.filtered, 1);
	ck_assert_ptr_null(last_sample());
}
END_TEST

START_TEST(test_unrelated)
{
	/* a sibling of the target (same parent 900) and a process under init */
	static const u32 sibling[] = {900, 1};
	static const u32 other[] = {500, 300, 1};
	static const u32 parent_of_target[] = {1};

	plat_test_task_set(2100, 2100, "sibling", false, false);
	plat_test_task_set_ancestors(sibling, 2);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	plat_test_task_set(4000, 4001, "other", false, false);
	plat_test_task_set_ancestors(other, 3);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	/* the target's own parent is not in the tree */
	plat_test_task_set(900, 900, "shell", false, false);
	plat_test_task_set_ancestors(parent_of_target, 1);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	/* init itself: its parent is the idle task (pid 0) */
	{
		static const u32 swapper[] = {0};

		plat_test_task_set(1, 1, "init", false, false);
		plat_test_task_set_ancestors(swapper, 1);
		ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	}
	ck_assert_uint_eq(plat_test_task_descends_calls(), 4);
	/* each walk stopped at init / the root: 2 + 3 + 1 + 1 levels */
	ck_assert_uint_eq(plat_test_task_descends_levels(), 7);
	ck_assert_uint_eq(cc.ctx[0].st.filtered, 4);
	ck_assert_uint_eq(cc.ctx[0].st.inherit_capped, 0);
	ck_assert_uint_eq(cc.ctx[0].st.captured, 0);
	ck_assert_ptr_null(last_sample());
}
END_TEST

START_TEST(test_depth_cap)
{
	u32 chain[PLAT_TEST_ANCESTORS_MAX];
	unsigned int i, n = PMUPROF_INHERIT_MAX_DEPTH + 8;

	ck_assert_uint_le(n + 1, PLAT_TEST_ANCESTORS_MAX);
	plat_test_task_set(9000, 9000, "deep", false, false);
	/* the target is the MAX_DEPTH-th ancestor: still found */
	for (i = 0; i < n; i++)
		chain[i] = 5000 + i;
	chain[PMUPROF_INHERIT_MAX_DEPTH - 1] = TARGET;
	chain[n] = 1;
	plat_test_task_set_ancestors(chain, n + 1);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);

	/* one level further: the walk gives up, filtered and counted */
	chain[PMUPROF_INHERIT_MAX_DEPTH - 1] = 5000 + PMUPROF_INHERIT_MAX_DEPTH - 1;
	chain[PMUPROF_INHERIT_MAX_DEPTH] = TARGET;
	plat_test_task_set_ancestors(chain, n + 1);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	ck_assert_uint_eq(cc.ctx[0].st.inherit_capped, 1);

	/* a deep unrelated chain is capped too (never an unbounded walk) */
	chain[PMUPROF_INHERIT_MAX_DEPTH] = 7777;
	plat_test_task_set_ancestors(chain, n + 1);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	ck_assert_uint_eq(cc.ctx[0].st.inherit_capped, 2);
	ck_assert_uint_eq(plat_test_task_descends_levels(), 3 * PMUPROF_INHERIT_MAX_DEPTH);

	ck_assert_uint_eq(cc.ctx[0].st.filtered, 2);
	ck_assert_uint_eq(cc.ctx[0].st.samples, 1);

	/* GET_STATS sums it over contexts and CPUs */
	{
		struct pmuprof_cpu_stats a, total;

		cc.ctx[CAPTURE_CTX_IRQ].st.inherit_capped = 5;
		capture__cpu_stats(&cc, &a, NULL, NULL);
		ck_assert_uint_eq(a.inherit_capped, 7);
		memset(&total, 0, sizeof(total));
		capture__stats_add(&total, &a);
		capture__stats_add(&total, &a);
		ck_assert_uint_eq(total.inherit_capped, 14);
	}
}
END_TEST

START_TEST(test_kthread_and_idle)
{
	static const u32 anc[] = {TARGET, 1};

	/* even with a (nonsensical) ancestry through the target, no walk */
	plat_test_task_set_ancestors(anc, 2);
	plat_test_task_set(77, 77, "kworker/0:1", false, true);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	plat_test_task_set(0, 0, "swapper/0", true, true);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	ck_assert_uint_eq(plat_test_task_descends_calls(), 0);
	ck_assert_uint_eq(cc.ctx[0].st.filtered, 2);
	/* and the platform itself says NO for them (defence in depth) */
	ck_assert_int_eq(plat_task_descends_from(TARGET, PMUPROF_INHERIT_MAX_DEPTH), PP_DESCENT_NO);
}
END_TEST

START_TEST(test_credentials)
{
	static const u32 child[] = {TARGET, 1};

	plat_test_task_set(2000, 2000, "child", false, false);
	plat_test_task_set_ancestors(child, 2);
	cp.inherit_check_creds = true;
	cp.opener_uid = 1000;
	cp.opener_gid = 1000;
	plat_test_task_set_creds(1000, 1000, true);
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	plat_test_task_set_creds(0, 1000, true); /* e.g. a setuid-root child */
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	plat_test_task_set_creds(1000, 5, true);
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	plat_test_task_set_creds(1000, 1000, false); /* setgid exec, file caps */
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	ck_assert_uint_eq(plat_test_task_traceable_calls(), 4);
	/* an opener with CAP_SYS_PTRACE: no check at all */
	cp.inherit_check_creds = false;
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	ck_assert_uint_eq(plat_test_task_traceable_calls(), 4);
	/* an unrelated process never gets as far as the credentials */
	{
		static const u32 other[] = {500, 1};

		cp.inherit_check_creds = true;
		plat_test_task_set_creds(1000, 1000, true);
		plat_test_task_set_ancestors(other, 2);
		ck_assert_int_eq(sample(), CAPTURE_FILTERED);
		ck_assert_uint_eq(plat_test_task_traceable_calls(), 4);
	}
	ck_assert_uint_eq(cc.ctx[0].st.samples, 2);
	ck_assert_uint_eq(cc.ctx[0].st.filtered, 4);
}
END_TEST

START_TEST(test_other_filters_first)
{
	static const u32 child[] = {TARGET, 1};

	/* mode filter before the walk: a user sample with EXCLUDE_USER costs
	 * no ancestry walk */
	plat_test_task_set(2000, 2000, "child", false, false);
	plat_test_task_set_ancestors(child, 2);
	cp.flags |= PMUPROF_CF_EXCLUDE_USER;
	ck_assert_int_eq(sample(), CAPTURE_FILTERED);
	ck_assert_uint_eq(plat_test_task_descends_calls(), 0);
	cp.flags &= ~PMUPROF_CF_EXCLUDE_USER;
	ck_assert_int_eq(sample(), CAPTURE_WRITTEN);
	ck_assert_uint_eq(plat_test_task_descends_calls(), 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("inherit");
	pp_tcase(s, "configure", setup, NULL,
		 PP_TESTS(test_flag_bits, test_validate_inherit, test_validate_inherit_needs_pid,
			  test_validate_unknown_bits));

	pp_tcase(s, "filter", cap_setup, NULL,
		 PP_TESTS(test_direct_no_walk, test_child_grandchild_thread, test_without_inherit,
			  test_unrelated, test_depth_cap, test_kthread_and_idle, test_credentials,
			  test_other_filters_first));
	return s;
}

int main(void)
{
	return pp_check_run(suite());
}
