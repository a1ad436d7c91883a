// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for kernel/nmi/session.c (GET_INFO contents, CONFIGURE
 * validation, the state machine) and kernel/nmi/capture.c (sample layout,
 * filters, privilege hiding, user stack walks on fake memory with loops and
 * faults, kernel stacks, ring-full accounting, throttling, stats).
 * Platform: tests/unit/platform_test*.c (fake task, memory, clock).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/nmi/session.h"
#include "kernel/nmi/capture.h"
#include "kernel/nmi/ring.h"
#include "platform_test.h"
#include "pmu_model.h"
#include "pmu_glue_test.h"
#include "check_main.h"
#include "capture_fixture.h"
#include "ring_sample.h"

/* ---- fixtures ---------------------------------------------------------- */

static struct pmu_caps caps_none, caps_intel;
static struct pmuprof_info info_2cpu, info_1cpu, info_1possible, info_pmu, info_unpriv;

static void setup_caps(void)
{
	memset(&caps_none, 0, sizeof(caps_none));
	caps_none.status = PMUPROF_PMU_NO_ARCH_PERFMON;
	caps_none.vendor = PMUPROF_VENDOR_INTEL;
	caps_none.hypervisor = true;
	strcpy(caps_none.vendor_string, "GenuineIntel");

	memset(&caps_intel, 0, sizeof(caps_intel));
	caps_intel.status = PMUPROF_PMU_OK;
	caps_intel.version = 4;
	caps_intel.nr_gp = 4;
	caps_intel.gp_width = 48;
	caps_intel.nr_fixed = 3;
	caps_intel.fixed_width = 48;
	caps_intel.arch_events = 0x7f;
	caps_intel.arch_events_len = 7;
	caps_intel.fixed_mask = 0x7;
	caps_intel.full_width = true;
	caps_intel.vendor = PMUPROF_VENDOR_INTEL;
	strcpy(caps_intel.vendor_string, "GenuineIntel");

	session__fill_info(&info_2cpu, &caps_none, 4, 2, true, 4);
	session__fill_info(&info_1cpu, &caps_none, 4, 1, true, 4);
	session__fill_info(&info_1possible, &caps_none, 1, 1, true, 4);
	session__fill_info(&info_pmu, &caps_intel, 4, 4, true, 5);
	session__fill_info(&info_unpriv, &caps_none, 4, 2, false, 4);
}

static void setup(void)
{
	plat_test_reset();
	setup_caps();
}

static void base_config(struct pmuprof_config *c)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->nr_events = 1;
	c->flags = PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	c->events[0].source = PMUPROF_SOURCE_NMI_IPI;
	c->events[0].period = 1000000;
}

#define SUPPORTED                                                                                  \
	(PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK | PMUPROF_CF_EXCLUDE_USER |                         \
	 PMUPROF_CF_EXCLUDE_KERNEL | PMUPROF_CF_USTACK_COPY)

/* ---- GET_INFO ------------------------------------------------------------ */

START_TEST(test_info_sources)
{
	ck_assert_uint_eq(info_2cpu.sources,
			  (1u << PMUPROF_SOURCE_NMI_IPI) | (1u << PMUPROF_SOURCE_TIMER));
	/* one of four CPUs online: NMI_IPI still offered (the session samples
	 * from the timer until a second CPU comes online, rel_faults) */
	ck_assert_uint_eq(info_1cpu.sources,
			  (1u << PMUPROF_SOURCE_NMI_IPI) | (1u << PMUPROF_SOURCE_TIMER));
	ck_assert_uint_eq(info_1possible.sources, 1u << PMUPROF_SOURCE_TIMER);
	ck_assert_uint_eq(info_pmu.sources, (1u << PMUPROF_SOURCE_NMI_IPI) |
						    (1u << PMUPROF_SOURCE_TIMER) |
						    (1u << PMUPROF_SOURCE_PMU));
	ck_assert_uint_eq(info_2cpu.pmu_status, PMUPROF_PMU_NO_ARCH_PERFMON);
	ck_assert(info_2cpu.flags & PMUPROF_INFO_PRIVILEGED);
	ck_assert(info_2cpu.flags & PMUPROF_INFO_HYPERVISOR);
	ck_assert(!(info_unpriv.flags & PMUPROF_INFO_PRIVILEGED));
	ck_assert(info_pmu.flags & PMUPROF_INFO_FULL_WIDTH);
	ck_assert_uint_eq(info_pmu.nr_gp, 4);
	ck_assert_uint_eq(info_pmu.paging_levels, 5);
	ck_assert_uint_eq(info_2cpu.size, sizeof(struct pmuprof_info));
	ck_assert_uint_eq(info_2cpu.max_depth, PMUPROF_MAX_DEPTH);
	ck_assert_uint_eq(info_2cpu.ring_default, PMUPROF_RING_DEFAULT);
	ck_assert_uint_eq(info_2cpu.nr_cpus, 4);
	ck_assert_uint_eq(info_2cpu.nr_online, 2);
	ck_assert_str_eq(info_2cpu.vendor_string, "GenuineIntel");
}
END_TEST

/* PEBS present but refused by the glue under KPTI: no PEBS source, and the
 * flag that lets pmuctl say why (emu_pmu_pebs_kpti). */
START_TEST(test_info_pebs_kpti)
{
	struct pmu_caps c = caps_intel;
	struct pmuprof_info in;

	c.pebs = true;
	session__fill_info(&in, &c, 4, 4, true, 4);
	ck_assert(in.sources & (1u << PMUPROF_SOURCE_PEBS));
	ck_assert(!(in.flags & PMUPROF_INFO_PEBS_KPTI));
	c.pebs = false;
	c.pebs_kpti = true;
	session__fill_info(&in, &c, 4, 4, true, 4);
	ck_assert(!(in.sources & (1u << PMUPROF_SOURCE_PEBS)));
	ck_assert(in.flags & PMUPROF_INFO_PEBS_KPTI);
	ck_assert(!(info_pmu.flags & PMUPROF_INFO_PEBS_KPTI));
}
END_TEST

/* ---- CONFIGURE validation table ------------------------------------------ */

struct vcase {
	const char *name;
	void (*edit)(struct pmuprof_config *c);
	const struct pmuprof_info *info; /* NULL: info_2cpu */
	int err;			 /* expected, 0 = valid */
};

#define E(fn) static void fn(struct pmuprof_config *c)
E(e_none)
{
	(void)c;
}
E(e_size_small)
{
	c->size = sizeof(*c) - 8;
}
E(e_size_zero)
{
	c->size = 0;
}
E(e_flags_unknown)
{
	c->flags |= 1u << 9; /* first bit after PMUPROF_CF_USTACK_COPY */
}
E(e_flags_high)
{
	c->flags |= 1u << 31;
}
E(e_reserved)
{
	c->__reserved[2] = 1;
}
E(e_copy)
{
	c->flags |= PMUPROF_CF_USTACK_COPY;
}
E(e_copy_size)
{
	c->flags |= PMUPROF_CF_USTACK_COPY;
	c->ustack_copy_size = 16384;
}
E(e_copy_odd)
{
	c->flags |= PMUPROF_CF_USTACK_COPY;
	c->ustack_copy_size = 8190;
}
E(e_copy_big)
{
	c->flags |= PMUPROF_CF_USTACK_COPY;
	c->ustack_copy_size = PMUPROF_USTACK_COPY_MAX + 8;
}
E(e_copy_no_flag)
{
	c->ustack_copy_size = 8192;
}
E(e_copy_small_ring)
{
	c->flags |= PMUPROF_CF_USTACK_COPY;
	c->ustack_copy_size = PMUPROF_USTACK_COPY_MAX;
	c->ring_size = 128u << 10; /* 4 records of 68 KiB do not fit */
}
E(e_reserved32)
{
	c->__reserved32 = 1;
}
E(e_excl_both)
{
	c->flags |= PMUPROF_CF_EXCLUDE_USER | PMUPROF_CF_EXCLUDE_KERNEL;
}
E(e_excl_user)
{
	c->flags |= PMUPROF_CF_EXCLUDE_USER;
}
E(e_data_addr)
{
	c->flags |= PMUPROF_CF_DATA_ADDR;
}
E(e_phys_alone)
{
	c->flags |= PMUPROF_CF_PHYS_ADDR;
}
E(e_depth_max)
{
	c->stack_depth = PMUPROF_MAX_DEPTH;
}
E(e_depth_over)
{
	c->stack_depth = PMUPROF_MAX_DEPTH + 1;
}
E(e_depth_huge)
{
	c->stack_depth = 1000000000u;
}
E(e_ring_min)
{
	c->ring_size = PMUPROF_RING_MIN;
}
E(e_ring_max)
{
	c->ring_size = PMUPROF_RING_MAX;
}
E(e_ring_small)
{
	c->ring_size = PMUPROF_RING_MIN / 2;
}
E(e_ring_big)
{
	c->ring_size = PMUPROF_RING_MAX * 2;
}
E(e_ring_npow2)
{
	c->ring_size = PMUPROF_RING_MIN + 8;
}
E(e_wakeup_over)
{
	c->ring_size = PMUPROF_RING_MIN;
	c->wakeup_bytes = PMUPROF_RING_MIN + 1;
}
E(e_wakeup_eq)
{
	c->ring_size = PMUPROF_RING_MIN;
	c->wakeup_bytes = PMUPROF_RING_MIN;
}
E(e_target_bad)
{
	c->target = 3;
}
E(e_all_with_pid)
{
	c->pid = 5;
}
E(e_all_with_mask)
{
	c->cpu_mask[0] = 1;
}
E(e_cpus_ok)
{
	c->target = PMUPROF_TARGET_CPUS;
	c->cpu_mask[0] = 0x8;
}
E(e_cpus_empty)
{
	c->target = PMUPROF_TARGET_CPUS;
}
E(e_cpus_beyond)
{
	c->target = PMUPROF_TARGET_CPUS;
	c->cpu_mask[0] = 0x10;
}
E(e_cpus_far)
{
	c->target = PMUPROF_TARGET_CPUS;
	c->cpu_mask[15] = 1ull << 63;
}
E(e_cpus_pid)
{
	c->target = PMUPROF_TARGET_CPUS;
	c->cpu_mask[0] = 1;
	c->pid = 1;
}
E(e_pid_ok)
{
	c->target = PMUPROF_TARGET_PID;
	c->pid = 42;
}
E(e_pid_zero)
{
	c->target = PMUPROF_TARGET_PID;
}
E(e_pid_neg)
{
	c->target = PMUPROF_TARGET_PID;
	c->pid = -1;
}
E(e_pid_mask)
{
	c->target = PMUPROF_TARGET_PID;
	c->pid = 42;
	c->cpu_mask[1] = 1;
}
E(e_pid_cpus)
{
	c->target = PMUPROF_TARGET_PID;
	c->pid = 42;
	c->cpu_mask[0] = 0x2;
}
E(e_nr0)
{
	c->nr_events = 0;
}
E(e_nr17)
{
	c->nr_events = PMUPROF_MAX_EVENTS + 1;
}
E(e_slot_beyond)
{
	c->events[1].period = 1;
}
E(e_ev_flags)
{
	c->events[0].flags = 1u << 2;
}
E(e_ev_reserved)
{
	c->events[0].__reserved[1] = 1;
}
E(e_src_none)
{
	c->events[0].source = PMUPROF_SOURCE_NONE;
}
E(e_src_max)
{
	c->events[0].source = PMUPROF_SOURCE__MAX;
}
E(e_period0)
{
	c->events[0].period = 0;
}
E(e_period1)
{
	c->events[0].period = 1;
}
E(e_period_min)
{
	c->events[0].period = PMUPROF_MIN_CLOCK_PERIOD_NS;
}
E(e_period_below)
{
	c->events[0].period = PMUPROF_MIN_CLOCK_PERIOD_NS - 1;
}
E(e_period_10s)
{
	c->events[0].period = 10000000000ull;
}
E(e_period_over)
{
	c->events[0].period = 10000000001ull;
}
E(e_period_huge)
{
	c->events[0].period = ~0ull;
}
E(e_freq_ok)
{
	c->events[0].flags = PMUPROF_EVF_FREQ;
	c->events[0].period = 4000;
}
E(e_freq_max)
{
	c->events[0].flags = PMUPROF_EVF_FREQ;
	c->events[0].period = PMUPROF_MAX_FREQ_HZ;
}
E(e_freq_over)
{
	c->events[0].flags = PMUPROF_EVF_FREQ;
	c->events[0].period = PMUPROF_MAX_FREQ_HZ + 1;
}
E(e_clock_config)
{
	c->events[0].config = 0x3c;
}
E(e_clock_precise)
{
	c->events[0].flags = PMUPROF_EVF_PRECISE;
}
E(e_two_clocks)
{
	c->nr_events = 2;
	c->events[1] = c->events[0];
	c->events[1].source = PMUPROF_SOURCE_TIMER;
}
E(e_timer)
{
	c->events[0].source = PMUPROF_SOURCE_TIMER;
}
E(e_pmu)
{
	c->events[0].source = PMUPROF_SOURCE_PMU;
	c->events[0].config = 0x3003c;
	c->events[0].period = 100000;
}
E(e_pmu_low)
{
	e_pmu(c);
	c->events[0].period = PMUPROF_MIN_PMU_PERIOD - 1;
}
E(e_pebs)
{
	e_pmu(c);
	c->events[0].source = PMUPROF_SOURCE_PEBS;
}
E(e_pmu_int)
{
	e_pmu(c);
	c->events[0].config |= 1u << 20;
}
E(e_pmu_plus_clock)
{
	c->nr_events = 2;
	e_pmu(c);
	c->events[1].source = PMUPROF_SOURCE_NMI_IPI;
	c->events[1].period = 1000000;
}
E(e_pmu_too_many)
{
	/* 5 events that only general counters count, on 4 of them */
	c->nr_events = 5;
	for (int i = 0; i < 5; i++) {
		c->events[i].source = PMUPROF_SOURCE_PMU;
		c->events[i].config = 0x01a2 | (1u << 16);
		c->events[i].period = 100000;
	}
}
E(e_phys_ok)
{
	c->flags |= PMUPROF_CF_DATA_ADDR | PMUPROF_CF_PHYS_ADDR;
}
#undef E

static const struct vcase vcases[] = {
	{"valid", e_none, NULL, 0},
	{"size below VER0", e_size_small, NULL, EINVAL},
	{"size 0", e_size_zero, NULL, EINVAL},
	{"unknown flag bit 9", e_flags_unknown, NULL, EINVAL},
	{"unknown flag bit 31", e_flags_high, NULL, EINVAL},
	{"reserved word", e_reserved, NULL, EINVAL},
	{"exclude user and kernel", e_excl_both, NULL, EINVAL},
	{"exclude user", e_excl_user, NULL, 0},
	{"DATA_ADDR not built", e_data_addr, NULL, EOPNOTSUPP},
	{"PHYS_ADDR alone", e_phys_alone, NULL, EINVAL},
	{"depth 256", e_depth_max, NULL, 0},
	{"depth 257", e_depth_over, NULL, EINVAL},
	{"depth 1e9", e_depth_huge, NULL, EINVAL},
	{"ring min", e_ring_min, NULL, 0},
	{"ring max", e_ring_max, NULL, 0},
	{"ring below min", e_ring_small, NULL, EINVAL},
	{"ring above max", e_ring_big, NULL, EINVAL},
	{"ring not a power of two", e_ring_npow2, NULL, EINVAL},
	{"wakeup above ring", e_wakeup_over, NULL, EINVAL},
	{"wakeup == ring", e_wakeup_eq, NULL, 0},
	{"unknown target", e_target_bad, NULL, EINVAL},
	{"target ALL with pid", e_all_with_pid, NULL, EINVAL},
	{"target ALL with mask", e_all_with_mask, NULL, EINVAL},
	{"target CPUS cpu 3 of 4", e_cpus_ok, NULL, 0},
	{"target CPUS empty", e_cpus_empty, NULL, EINVAL},
	{"target CPUS cpu 4 of 4", e_cpus_beyond, NULL, EINVAL},
	{"target CPUS cpu 1023", e_cpus_far, NULL, EINVAL},
	{"target CPUS with pid", e_cpus_pid, NULL, EINVAL},
	{"target PID", e_pid_ok, NULL, 0},
	{"target PID 0", e_pid_zero, NULL, EINVAL},
	{"target PID -1", e_pid_neg, NULL, EINVAL},
	{"target PID with a CPU beyond nr_cpus", e_pid_mask, NULL, EINVAL},
	{"target PID on CPU 1 (-C with -p)", e_pid_cpus, NULL, 0},
	{"no events", e_nr0, NULL, EINVAL},
	{"17 events", e_nr17, NULL, EINVAL},
	{"slot beyond nr_events", e_slot_beyond, NULL, EINVAL},
	{"event unknown flag", e_ev_flags, NULL, EINVAL},
	{"event reserved", e_ev_reserved, NULL, EINVAL},
	{"source NONE", e_src_none, NULL, EINVAL},
	{"source past the enum", e_src_max, NULL, EINVAL},
	{"period 0", e_period0, NULL, EINVAL},
	{"period 1 ns", e_period1, NULL, EINVAL},
	{"period at clock min", e_period_min, NULL, 0},
	{"period below clock min", e_period_below, NULL, EINVAL},
	{"period 10 s", e_period_10s, NULL, 0},
	{"period above 10 s", e_period_over, NULL, EINVAL},
	{"period ~0", e_period_huge, NULL, EINVAL},
	{"freq 4 kHz", e_freq_ok, NULL, 0},
	{"freq at max", e_freq_max, NULL, 0},
	{"freq above max", e_freq_over, NULL, EINVAL},
	{"clock with config", e_clock_config, NULL, EINVAL},
	{"clock PRECISE", e_clock_precise, NULL, EINVAL},
	{"two clock events", e_two_clocks, NULL, EINVAL},
	{"TIMER source", e_timer, NULL, 0},
	{"USTACK_COPY default size", e_copy, NULL, 0},
	{"USTACK_COPY 16 KiB", e_copy_size, NULL, 0},
	{"USTACK_COPY size not a multiple of 8", e_copy_odd, NULL, EINVAL},
	{"USTACK_COPY above 64 KiB", e_copy_big, NULL, EINVAL},
	{"ustack_copy_size without the flag", e_copy_no_flag, NULL, EINVAL},
	{"USTACK_COPY ring too small", e_copy_small_ring, NULL, EINVAL},
	{"reserved32 set", e_reserved32, NULL, EINVAL},
	{"TIMER on one cpu", e_timer, &info_1cpu, 0},
	{"NMI_IPI on one online cpu", e_none, &info_1cpu, 0},
	{"NMI_IPI on one possible cpu", e_none, &info_1possible, ENODEV},
	{"PMU event without PMU", e_pmu, NULL, ENODEV},
	{"PMU event with PMU", e_pmu, &info_pmu, 0},
	{"PMU period below min", e_pmu_low, &info_pmu, EINVAL},
	{"PEBS not offered", e_pebs, &info_pmu, ENODEV},
	{"PMU INT bit set", e_pmu_int, &info_pmu, EINVAL},
	{"PMU + clock", e_pmu_plus_clock, &info_pmu, 0},
	{"5 GP events on 4 counters", e_pmu_too_many, &info_pmu, ENOSPC},
	{"PHYS_ADDR unprivileged", e_phys_ok, &info_unpriv, EOPNOTSUPP},
};

static const struct pmu_caps *caps_for(const struct pmuprof_info *info)
{
	return info == &info_pmu ? &caps_intel : &caps_none;
}

START_TEST(test_validate_table)
{
	const struct vcase *vc = &vcases[_i];
	const struct pmuprof_info *info = vc->info ? vc->info : &info_2cpu;
	struct session_env env = {info, caps_for(info), SUPPORTED};
	struct pmuprof_config cfg, copy;
	struct session_plan plan, untouched;
	const char *why = NULL;
	int err;

	base_config(&cfg);
	vc->edit(&cfg);
	copy = cfg;
	memset(&plan, 0xa5, sizeof(plan));
	untouched = plan;
	err = session__validate(&env, &cfg, &plan, &why);
	ck_assert_msg(err == -vc->err, "%s: got %d (%s), want %d", vc->name, err, why ? why : "-",
		      -vc->err);
	ck_assert_msg(!memcmp(&cfg, &copy, sizeof(cfg)), "%s: input modified", vc->name);
	if (vc->err) {
		ck_assert_msg(why && *why, "%s: no reason given", vc->name);
		/* early rejections leave the output alone; pmu__plan may have
		 * scribbled on plan->pmu, which the caller discards */
		if (vc->err != ENOSPC && !(vc->err == EINVAL && info == &info_pmu))
			ck_assert_msg(!memcmp(&plan, &untouched, sizeof(plan)),
				      "%s: plan written on error", vc->name);
	}
}
END_TEST

START_TEST(test_validate_normalises)
{
	struct session_env env = {&info_2cpu, &caps_none, SUPPORTED};
	struct pmuprof_config cfg;
	struct session_plan plan;
	const char *why;

	base_config(&cfg);
	cfg.events[0].flags = PMUPROF_EVF_FREQ;
	cfg.events[0].period = 4000;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), 0);
	ck_assert_uint_eq(plan.cfg.stack_depth, PMUPROF_DEFAULT_DEPTH);
	ck_assert_uint_eq(plan.cap.depth, PMUPROF_DEFAULT_DEPTH);
	ck_assert_uint_eq(plan.cfg.ring_size, PMUPROF_RING_DEFAULT);
	ck_assert_uint_eq(plan.cfg.wakeup_bytes, PMUPROF_RING_DEFAULT / 4);
	ck_assert_int_eq(plan.clock_event, 0);
	ck_assert_uint_eq(plan.clock_source, PMUPROF_SOURCE_NMI_IPI);
	ck_assert_uint_eq(plan.clock_period_ns, 250000);
	ck_assert_uint_eq(plan.nr_pmu_events, 0);
	ck_assert(plan.cap.privileged);
	ck_assert(!plan.cap.cpu_filter); /* target ALL */
	/* -C with -p: TARGET_PID restricted to a CPU set; without -C, any CPU */
	cfg.target = PMUPROF_TARGET_PID;
	cfg.pid = 42;
	cfg.cpu_mask[0] = 0x2;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), 0);
	ck_assert(plan.cap.cpu_filter);
	ck_assert_uint_eq(plan.cap.cpu_mask[0], 0x2);
	cfg.cpu_mask[0] = 0;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), 0);
	ck_assert(!plan.cap.cpu_filter);
	cfg.target = PMUPROF_TARGET_CPUS;
	cfg.pid = 0;
	cfg.cpu_mask[0] = 0x1;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), 0);
	ck_assert(plan.cap.cpu_filter);

	env.info = &info_pmu;
	env.caps = &caps_intel;
	base_config(&cfg);
	cfg.nr_events = 2;
	cfg.events[0].source = PMUPROF_SOURCE_PMU;
	cfg.events[0].config = 0x3003c;
	cfg.events[0].period = 100000;
	cfg.events[1].source = PMUPROF_SOURCE_NMI_IPI;
	cfg.events[1].period = 500000;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), 0);
	ck_assert_uint_eq(plan.nr_pmu_events, 1);
	ck_assert_int_eq(plan.clock_event, 1);
	ck_assert_uint_eq(plan.clock_period_ns, 500000);
	ck_assert_uint_eq(plan.pmu.nr, 1);
	ck_assert_uint_eq(plan.pmu.a[0].event, 0);

	/* with data addresses built in: PHYS_ADDR needs privilege */
	env.info = &info_unpriv;
	env.caps = &caps_none;
	env.supported_flags = PMUPROF_CF__ALL;
	base_config(&cfg);
	cfg.flags |= PMUPROF_CF_DATA_ADDR | PMUPROF_CF_PHYS_ADDR;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), -EPERM);
	cfg.flags &= ~PMUPROF_CF_PHYS_ADDR;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), 0);
	ck_assert(!plan.cap.privileged);
}
END_TEST

/* ---- state machine -------------------------------------------------------- */

START_TEST(test_state_machine)
{
	static const struct {
		u32 state;
		enum session_op op;
		int err;
		u32 next;
	} t[] = {
		{PMUPROF_STATE_IDLE, SESSION_OP_CONFIGURE, 0, PMUPROF_STATE_CONFIGURED},
		{PMUPROF_STATE_IDLE, SESSION_OP_START, -EBUSY, 0},
		{PMUPROF_STATE_IDLE, SESSION_OP_STOP, -EBUSY, 0},
		{PMUPROF_STATE_CONFIGURED, SESSION_OP_CONFIGURE, 0, PMUPROF_STATE_CONFIGURED},
		{PMUPROF_STATE_CONFIGURED, SESSION_OP_START, 0, PMUPROF_STATE_RUNNING},
		{PMUPROF_STATE_CONFIGURED, SESSION_OP_STOP, -EBUSY, 0},
		{PMUPROF_STATE_RUNNING, SESSION_OP_CONFIGURE, -EBUSY, 0},
		{PMUPROF_STATE_RUNNING, SESSION_OP_START, -EBUSY, 0},
		{PMUPROF_STATE_RUNNING, SESSION_OP_STOP, 0, PMUPROF_STATE_STOPPED},
		{PMUPROF_STATE_STOPPED, SESSION_OP_CONFIGURE, 0, PMUPROF_STATE_CONFIGURED},
		{PMUPROF_STATE_STOPPED, SESSION_OP_START, -EBUSY, 0},
		{PMUPROF_STATE_STOPPED, SESSION_OP_STOP, 0, PMUPROF_STATE_STOPPED},
	};

	for (unsigned int i = 0; i < PP_ARRAY_SIZE(t); i++) {
		const char *why = NULL;
		int err = session__check_op(t[i].state, t[i].op, &why);

		ck_assert_msg(err == t[i].err, "row %u: got %d want %d", i, err, t[i].err);
		if (err)
			ck_assert_ptr_nonnull(why);
		else
			ck_assert_uint_eq(session__next_state(t[i].state, t[i].op), t[i].next);
	}
}
END_TEST

/* ---- capture ------------------------------------------------------------- */

#define RING_SZ PMUPROF_RING_MIN
static u8 ring_mem[PMUPROF_RING_MAX / 1024] __attribute__((aligned(64)));
static struct ring ring;
static struct capture_cpu cc;
static struct capture_params cp;

static void cap_setup(void)
{
	setup();
	capture_fixture(&ring, ring_mem, RING_SZ, 3, &cc, &cp, 64, 2);
	cp.flags = PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	plat_test_task_set(1234, 1240, "workload", false, false);
}

static struct pp_regs uregs_at(u64 ip, u64 bp)
{
	struct pp_regs r;

	memset(&r, 0, sizeof(r));
	r.ip = ip;
	r.gpr[PP_REG_BP] = bp;
	r.gpr[PP_REG_SP] = bp - 64;
	r.user = true;
	return r;
}

/* Fake user stack: frames at STK + 0x100*i: {next_fp, ret}. */
#define STK 0x7ffd00000000ull
static u64 ustack_mem[512];

static void build_chain(unsigned int nframes)
{
	memset(ustack_mem, 0, sizeof(ustack_mem));
	for (unsigned int i = 0; i < nframes; i++) {
		u64 *f = &ustack_mem[i * 4];

		f[0] = i + 1 < nframes ? STK + 32 * (i + 1) : 0;
		f[1] = 0x401000 + 0x10 * (i + 1);
	}
	ck_assert_int_eq(plat_test_mem_map_user(STK, ustack_mem, sizeof(ustack_mem)), 0);
}

START_TEST(test_sample_layout_user)
{
	struct pp_regs r = uregs_at(0x400abc, STK);
	const struct pmuprof_sample *s;
	const u64 *st;
	bool wake = false;

	build_chain(3);
	ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &r,
					 PMUPROF_SOURCE_NMI_IPI, 1, 1000000, 5555, &wake),
			 CAPTURE_WRITTEN);
	s = ring_next_sample(&ring);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->hdr.size, sizeof(*s) + 4 * 8);
	ck_assert_uint_eq(s->hdr.misc, PMUPROF_MISC_USER | PMUPROF_MISC_EXACT_IP);
	ck_assert_uint_eq(s->time_ns, 5555);
	ck_assert_uint_eq(s->ip, 0x400abc);
	ck_assert_uint_eq(s->period, 1000000);
	ck_assert_uint_eq(s->pid, 1234);
	ck_assert_uint_eq(s->tid, 1240);
	ck_assert_uint_eq(s->cpu, 3);
	ck_assert_uint_eq(s->event, 1);
	ck_assert_uint_eq(s->source, PMUPROF_SOURCE_NMI_IPI);
	ck_assert_str_eq(s->comm, "workload");
	ck_assert_uint_eq(s->nr_kstack, 0);
	ck_assert_uint_eq(s->nr_ustack, 4);
	ck_assert_uint_eq(s->sample_flags, 0);
	st = (const u64 *)(s + 1);
	ck_assert_uint_eq(st[0], 0x400abc);
	ck_assert_uint_eq(st[1], 0x401010);
	ck_assert_uint_eq(st[2], 0x401020);
	ck_assert_uint_eq(st[3], 0x401030);
	ck_assert_int_eq(plat_test_task_kstack_calls(), 0);
	ck_assert_uint_eq(cc.ctx[0].st.captured, 1);
	ck_assert_uint_eq(cc.ctx[0].st.samples, 1);
	ck_assert_uint_eq(cc.ctx[0].event_samples[1], 1);
}
END_TEST

/* CF_USTACK_COPY: regs in DWARF order, the stack from SP, stopped at the
 * end of the readable memory, the rest zeroed; record size and stats. */
START_TEST(test_sample_ustack_copy)
{
	struct pp_regs r = uregs_at(0x400abc, STK + 0x40);
	const struct pmuprof_sample *s;
	const struct pmuprof_sample_ustack *us;
	const u8 *bytes;
	struct capture_params p = cp;
	bool wake = false;
	u64 nb = 0, ns = 0;

	for (unsigned int i = 0; i < PP_NR_GPR; i++)
		if (i != PP_REG_SP && i != PP_REG_BP)
			r.gpr[i] = 0x1000 + i; /* ModRM number i */
	build_chain(3);
	for (unsigned int i = 16; i < 512; i++)
		ustack_mem[i] = 0xabc00000 + i;
	p.flags = PMUPROF_CF_USTACK_COPY;
	p.ustack_copy = 8192; /* SP = STK: the 4 KiB fake stack ends 4 KiB above it */
	ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &p, &ring, &r,
					 PMUPROF_SOURCE_NMI_IPI, 1, 1000000, 5555, &wake),
			 CAPTURE_WRITTEN);
	s = ring_next_sample(&ring);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->sample_flags, PMUPROF_SF_USTACK_COPY);
	ck_assert_uint_eq(s->nr_ustack, 0); /* no FP walk without CF_USTACK */
	ck_assert_uint_eq(s->hdr.size, sizeof(*s) + sizeof(*us) + 8192);
	us = (const void *)(s + 1);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_IP], 0x400abc);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_SP], STK + 0x40 - 64);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_BP], STK + 0x40);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_AX], 0x1000 + PP_REG_AX);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_DX], 0x1000 + PP_REG_DX);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_CX], 0x1000 + PP_REG_CX);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_SI], 0x1000 + PP_REG_SI);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_DI], 0x1000 + PP_REG_DI);
	ck_assert_uint_eq(us->regs[15], 0x1000 + PP_REG_R15);
	ck_assert_uint_eq(us->size, 8192);
	ck_assert_uint_eq(us->valid, sizeof(ustack_mem));
	bytes = (const u8 *)(us + 1);
	ck_assert_int_eq(memcmp(bytes, ustack_mem, us->valid), 0);
	for (u32 i = us->valid; i < us->size; i++)
		ck_assert_uint_eq(bytes[i], 0);
	capture__copy_stats(&cc, &nb, &ns);
	ck_assert_uint_eq(nb, us->valid);
	ck_assert_uint_eq(ns, 1);
	/* a page at a time: the first page whole, the second faults at once */
	ck_assert_uint_eq(plat_test_mem_user_copies(), 2);
}
END_TEST

/* A stack whose SP is unreadable: regs still there, valid 0, all zero. */
START_TEST(test_sample_ustack_copy_unmapped)
{
	struct pp_regs r = uregs_at(0x400abc, 0x7ff000000040ull);
	const struct pmuprof_sample *s;
	const struct pmuprof_sample_ustack *us;
	struct capture_params p = cp;
	bool wake = false;

	p.flags = PMUPROF_CF_USTACK_COPY | PMUPROF_CF_USTACK;
	p.ustack_copy = 64;
	ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &p, &ring, &r,
					 PMUPROF_SOURCE_NMI_IPI, 1, 1000000, 5555, &wake),
			 CAPTURE_WRITTEN);
	s = ring_next_sample(&ring);
	ck_assert_uint_eq(s->sample_flags & PMUPROF_SF_USTACK_COPY, PMUPROF_SF_USTACK_COPY);
	ck_assert_uint_eq(s->nr_ustack, 1); /* the FP walk gives the IP only */
	us = (const void *)((const u64 *)(s + 1) + s->nr_ustack);
	ck_assert_uint_eq(us->regs[PMUPROF_UREG_IP], 0x400abc);
	ck_assert_uint_eq(us->valid, 0);
	ck_assert_uint_eq(s->hdr.size, sizeof(*s) + 8 + sizeof(*us) + 64);
	for (u32 i = 0; i < 64; i++)
		ck_assert_uint_eq(((const u8 *)(us + 1))[i], 0);
}
END_TEST

START_TEST(test_sample_kernel_mode)
{
	static const u64 kframes[] = {0xffffffff81000100ull, 0xffffffff81000200ull};
	struct pp_regs k, u = uregs_at(0x400abc, STK);
	const struct pmuprof_sample *s;
	const u64 *st;
	bool wake = false;

	build_chain(2);
	plat_test_task_set_user_regs(&u);
	plat_test_task_set_kstack(kframes, 2);
	memset(&k, 0, sizeof(k));
	k.ip = 0xffffffff81000050ull;
	ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &k, PMUPROF_SOURCE_PMU,
					 0, 100000, 1, &wake),
			 CAPTURE_WRITTEN);
	ck_assert_ptr_eq(plat_test_task_kstack_regs(), &k); /* regs passed through */
	s = ring_next_sample(&ring);
	ck_assert_uint_eq(s->hdr.misc, PMUPROF_MISC_KERNEL); /* PMU: no EXACT_IP */
	ck_assert_uint_eq(s->ip, k.ip);
	ck_assert_uint_eq(s->nr_kstack, 3);
	ck_assert_uint_eq(s->nr_ustack, 3);
	st = (const u64 *)(s + 1);
	ck_assert_uint_eq(st[0], k.ip);
	ck_assert_uint_eq(st[2], kframes[1]);
	ck_assert_uint_eq(st[3], 0x400abc); /* user part from the task's user regs */
	ck_assert_uint_eq(st[5], 0x401020);
}
END_TEST

START_TEST(test_sample_kstack_truncated)
{
	u64 kframes[300];
	struct pp_regs k;
	const struct pmuprof_sample *s;
	bool wake = false;

	for (int i = 0; i < 300; i++)
		kframes[i] = 0xffffffff81000000ull + i;
	plat_test_task_set_kstack(kframes, 300);
	memset(&k, 0, sizeof(k));
	k.ip = 0xffffffff81000050ull;
	cp.depth = 8;
	cp.flags = PMUPROF_CF_KSTACK;
	capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &k, PMUPROF_SOURCE_NMI_IPI, 0, 1, 1,
			&wake);
	s = ring_next_sample(&ring);
	ck_assert_uint_eq(s->nr_kstack, 8);
	ck_assert(s->sample_flags & PMUPROF_SF_KSTACK_TRUNC);
	ck_assert_uint_eq(s->nr_ustack, 0);
}
END_TEST

START_TEST(test_unprivileged_hides_kernel)
{
	static const u64 kframes[] = {0xffffffff81000100ull};
	struct pp_regs k, u = uregs_at(0x400abc, 0);
	const struct pmuprof_sample *s;
	bool wake = false;

	cp.privileged = false;
	plat_test_task_set_kstack(kframes, 1);
	plat_test_task_set_user_regs(&u);
	memset(&k, 0, sizeof(k));
	k.ip = 0xffffffff81000050ull;
	capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &k, PMUPROF_SOURCE_NMI_IPI, 0, 1, 1,
			&wake);
	s = ring_next_sample(&ring);
	ck_assert_uint_eq(s->ip, 0);
	ck_assert_uint_eq(s->nr_kstack, 0);
	ck_assert_int_eq(plat_test_task_kstack_calls(), 0);
	ck_assert_uint_eq(s->nr_ustack, 1); /* user part stays */
	ck_assert_uint_eq(((const u64 *)(s + 1))[0], 0x400abc);
	ring__consume(&ring, &s->hdr);
	u.ip = 0x400def;
	capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &u, PMUPROF_SOURCE_NMI_IPI, 0, 1, 2,
			&wake);
	s = ring_next_sample(&ring);
	ck_assert_uint_eq(s->ip, 0x400def); /* user IPs are not hidden */
}
END_TEST

START_TEST(test_kthread_and_idle)
{
	struct pp_regs k;
	const struct pmuprof_sample *s;
	bool wake = false;

	memset(&k, 0, sizeof(k));
	k.ip = 0xffffffff81000050ull;
	plat_test_task_set(0, 0, "swapper/1", true, true);
	capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &k, PMUPROF_SOURCE_NMI_IPI, 0, 1, 1,
			&wake);
	s = ring_next_sample(&ring);
	ck_assert_uint_eq(s->hdr.misc,
			  PMUPROF_MISC_KERNEL | PMUPROF_MISC_IDLE | PMUPROF_MISC_EXACT_IP);
	ck_assert_uint_eq(s->nr_ustack, 0);
	ck_assert_int_eq(plat_test_task_user_regs_calls(), 0); /* not even asked */
	ck_assert_uint_eq(s->comm[15], 0);
}
END_TEST

START_TEST(test_filters)
{
	struct pp_regs u = uregs_at(0x400abc, 0), k;
	bool wake = false;

	memset(&k, 0, sizeof(k));
	k.ip = 0xffffffff81000050ull;

	cp.flags |= PMUPROF_CF_EXCLUDE_USER;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_FILTERED);
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &k, 2, 0, 1, 1, &wake),
			 CAPTURE_WRITTEN);
	cp.flags ^= PMUPROF_CF_EXCLUDE_USER | PMUPROF_CF_EXCLUDE_KERNEL;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &k, 2, 0, 1, 1, &wake),
			 CAPTURE_FILTERED);
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_WRITTEN);
	cp.flags &= ~PMUPROF_CF_EXCLUDE_KERNEL;

	cp.target = PMUPROF_TARGET_PID;
	cp.pid = 1234;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_WRITTEN);
	cp.pid = 99;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_FILTERED);
	plat_test_task_set(0, 0, "swapper/0", true, true);
	cp.pid = 0x7fffffff;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &k, 2, 0, 1, 1, &wake),
			 CAPTURE_FILTERED);

	cp.target = PMUPROF_TARGET_CPUS;
	cp.cpu_mask[0] = 1u << 2; /* the ring is cpu 3 */
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_FILTERED);
	cp.cpu_mask[0] = 1u << 3;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_WRITTEN);

	/* TARGET_PID given CPUs (-C with -p): the pid and the CPU must match */
	plat_test_task_set(1234, 1235, "app", false, false);
	cp.target = PMUPROF_TARGET_PID;
	cp.pid = 1234;
	cp.cpu_filter = true;
	cp.cpu_mask[0] = 1u << 2;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_FILTERED);
	cp.cpu_mask[0] = 1u << 3;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_WRITTEN);
	cp.pid = 99;
	ck_assert_int_eq(capture__sample(&cc, 0, &cp, &ring, &u, 2, 0, 1, 1, &wake),
			 CAPTURE_FILTERED);

	ck_assert_uint_eq(cc.ctx[0].st.filtered, 7);
	ck_assert_uint_eq(cc.ctx[0].st.captured, 5);
	ck_assert_uint_eq(cc.ctx[0].st.samples, 5);
}
END_TEST

/* ---- user stack walks ---------------------------------------------------- */

static unsigned int walk(u64 ip, u64 bp, unsigned int max, u64 *out, u32 *flags)
{
	struct pp_regs r = uregs_at(ip, bp);

	*flags = 0;
	return capture__user_stack(&r, out, max, flags);
}

START_TEST(test_ustack_chain_and_depth)
{
	u64 out[PMUPROF_MAX_DEPTH];
	u32 fl;

	build_chain(10);
	ck_assert_uint_eq(walk(1, STK, 64, out, &fl), 11);
	ck_assert_uint_eq(fl, 0);
	ck_assert_uint_eq(out[10], 0x4010a0);
	ck_assert_uint_eq(walk(1, STK, 5, out, &fl), 5);
	ck_assert_uint_eq(fl, PMUPROF_SF_USTACK_TRUNC);
	ck_assert_uint_eq(walk(1, STK, 11, out, &fl), 11); /* exact fit: not truncated */
	ck_assert_uint_eq(fl, 0);
	ck_assert_uint_eq(walk(1, STK, 1, out, &fl), 1);
	ck_assert_uint_eq(walk(1, STK, 0, out, &fl), 0);
	ck_assert_uint_eq(walk(7, 0, 64, out, &fl), 1); /* no frame pointer */
	ck_assert_uint_eq(out[0], 7);
}
END_TEST

START_TEST(test_ustack_loops)
{
	u64 out[PMUPROF_MAX_DEPTH];
	u32 fl;
	unsigned int copies;

	build_chain(4);
	ustack_mem[2 * 4] = STK + 32 * 2; /* frame 2 points to itself */
	ck_assert_uint_eq(walk(1, STK, 256, out, &fl), 4);
	ck_assert_uint_eq(fl, 0);
	build_chain(4);
	ustack_mem[3 * 4] = STK; /* frame 3 points back to frame 0 */
	copies = plat_test_mem_user_copies();
	ck_assert_uint_eq(walk(1, STK, 256, out, &fl), 5);
	ck_assert_uint_le(plat_test_mem_user_copies() - copies, 4);
	build_chain(4);
	ustack_mem[1 * 4] = STK + 32 * 2 + 4; /* misaligned */
	ck_assert_uint_eq(walk(1, STK, 256, out, &fl), 3);
	build_chain(4);
	ustack_mem[1 * 4 + 1] = 0; /* zero return address ends the walk */
	ck_assert_uint_eq(walk(1, STK, 256, out, &fl), 2);
}
END_TEST

START_TEST(test_ustack_faults)
{
	u64 out[PMUPROF_MAX_DEPTH];
	u32 fl;

	build_chain(4);
	ustack_mem[1 * 4] = STK + 0x100000; /* frame 1 points to unmapped memory */
	ck_assert_uint_eq(walk(1, STK, 256, out, &fl), 3);
	ck_assert_uint_eq(fl, PMUPROF_SF_USTACK_FAULT);
	ck_assert_uint_eq(walk(1, 0xdead0000, 256, out, &fl), 1);
	ck_assert_uint_eq(fl, PMUPROF_SF_USTACK_FAULT);
	/* a frame straddling the end of the mapping faults half way */
	build_chain(2);
	plat_test_mem_user_all_or_nothing(true);
	ck_assert_uint_eq(walk(1, STK + sizeof(ustack_mem) - 8, 256, out, &fl), 1);
	ck_assert_uint_eq(fl, PMUPROF_SF_USTACK_FAULT);
}
END_TEST

/* One batch per walk (the checks once, as perf does), closed on every way
 * out; without a batch (page tables not current's) the same walk through
 * the careful copies. */
START_TEST(test_ustack_batch)
{
	u64 out[PMUPROF_MAX_DEPTH], out2[PMUPROF_MAX_DEPTH];
	unsigned int b0, n;
	u32 fl;

	build_chain(10);
	b0 = plat_test_mem_user_batches();
	n = walk(1, STK, 64, out, &fl);
	ck_assert_uint_eq(n, 11);
	ck_assert_uint_eq(plat_test_mem_user_batches() - b0, 1);
	ck_assert_uint_eq(walk(1, STK, 5, out2, &fl), 5);	  /* truncated */
	ck_assert_uint_eq(walk(1, 0xdead0000, 64, out2, &fl), 1); /* fault */
	ck_assert_uint_eq(walk(7, 0, 64, out2, &fl), 1);	  /* no frame pointer: no batch */
	ck_assert_uint_eq(plat_test_mem_user_batches() - b0, 3);
	plat_test_mem_user_batch_refuse(true);
	ck_assert_uint_eq(walk(1, STK, 64, out2, &fl), 11);
	ck_assert_mem_eq(out, out2, 11 * sizeof(u64));
	ck_assert_uint_eq(plat_test_mem_user_batches() - b0, 3);
	plat_test_mem_user_batch_refuse(false);
}
END_TEST

/* The user stack is walked straight into the record, reserved for depth
 * frames and trimmed: back-to-back records of the exact size, no ring space
 * left behind; a ring with room for the real record but not for the
 * worst case loses the sample (documented in capture.c). */
START_TEST(test_ustack_into_record)
{
	struct pp_regs r = uregs_at(0x400abc, STK);
	const u32 one = (u32)sizeof(struct pmuprof_sample) + 4 * 8;
	const u32 worst = (u32)sizeof(struct pmuprof_sample) + 64 * 8;
	bool wake = false;
	u64 before;

	build_chain(3);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &r,
						 PMUPROF_SOURCE_NMI_IPI, 1, 1, 1, &wake),
				 CAPTURE_WRITTEN);
	ck_assert_uint_eq(ring.reserve_head, 2 * one);
	ck_assert_uint_eq(ring__queued(&ring), 2 * one);
	/* fill up to less than the worst case, more than the real record */
	while (RING_SZ - (ring.reserve_head - ring.tail) >= worst)
		ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &r,
						 PMUPROF_SOURCE_NMI_IPI, 1, 1, 1, &wake),
				 CAPTURE_WRITTEN);
	before = ring.reserve_head;
	ck_assert_uint_ge(RING_SZ - (before - ring.tail), one);
	ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &r,
					 PMUPROF_SOURCE_NMI_IPI, 1, 1, 1, &wake),
			 CAPTURE_LOST);
	ck_assert_uint_eq(ring.reserve_head, before);
}
END_TEST

START_TEST(test_ustack_compat)
{
	struct pp_regs r = uregs_at(0x8048000, STK);
	u64 out[8];
	u32 fl = 0;

	build_chain(3);
	r.compat = true;
	ck_assert_uint_eq(capture__user_stack(&r, out, 8, &fl), 1);
}
END_TEST

/* ---- data address part ------------------------------------------------------ */

START_TEST(test_sample_with_addr)
{
	static u8 code[64] = {0x48, 0x8b, 0x07}; /* mov (%rdi),%rax */
	struct pp_regs r = uregs_at(0x401000, STK);
	const struct pmuprof_sample *s;
	const struct pmuprof_sample_addr *a;
	const u64 *st;
	bool wake = false;

	build_chain(1);
	ck_assert_int_eq(plat_test_mem_map_user(0x401000, code, sizeof(code)), 0);
	plat_test_pt_init(4);
	ck_assert_int_eq(plat_test_pt_map(0x7f0040200000ull, 0x80000000ull, PMUPROF_PAGE_2M), 0);
	r.gpr[PP_REG_DI] = 0x7f0040200010ull;
	cp.flags |= PMUPROF_CF_DATA_ADDR;
	ck_assert_int_eq(capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &r,
					 PMUPROF_SOURCE_NMI_IPI, 0, 1, 1, &wake),
			 CAPTURE_WRITTEN);
	s = ring_next_sample(&ring);
	ck_assert(s->sample_flags & PMUPROF_SF_ADDR);
	ck_assert_uint_eq(s->nr_ustack, 2);
	ck_assert_uint_eq(s->hdr.size, sizeof(*s) + sizeof(*a) + 2 * 8);
	a = (const void *)(s + 1);
	ck_assert_uint_eq(a->data_addr, 0x7f0040200010ull);
	ck_assert_uint_eq(a->addr_status, PMUPROF_ADDR_OK);
	ck_assert_uint_eq(a->addr_source, PMUPROF_ADDR_SRC_DECODE);
	ck_assert_uint_eq(a->precision, PMUPROF_ADDR_PREC_EXACT);
	ck_assert_uint_eq(a->data_page, PMUPROF_PAGE_2M);
	ck_assert_uint_eq(a->data_phys, 0); /* PHYS_ADDR not asked */
	st = (const u64 *)(a + 1);
	ck_assert_uint_eq(st[0], 0x401000); /* stacks follow the addr part */
	ck_assert_uint_eq(st[1], 0x401010);
	ring__consume(&ring, &s->hdr);

	/* a PMU sample's decoded address is marked as skid-affected */
	capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &r, PMUPROF_SOURCE_PMU, 0, 1, 2, &wake);
	s = ring_next_sample(&ring);
	a = (const void *)(s + 1);
	ck_assert_uint_eq(a->precision, PMUPROF_ADDR_PREC_SKID);
}
END_TEST

/* ---- ring full: lost accounting ------------------------------------------- */

START_TEST(test_lost_accounting)
{
	struct pp_regs u = uregs_at(0x400abc, STK);
	const struct pmuprof_record_header *h;
	u64 read_samples = 0, read_lost = 0, lost_records = 0;
	unsigned int i, written = 0, lost = 0;
	bool wake = false;

	build_chain(20); /* 21-frame samples: 240 bytes */
	for (i = 0; i < 200; i++) {
		int r = capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &u, 2, i % 2, 1, i,
					&wake);

		ck_assert(r == CAPTURE_WRITTEN || r == CAPTURE_LOST);
		written += r == CAPTURE_WRITTEN;
		lost += r == CAPTURE_LOST;
	}
	ck_assert_uint_gt(lost, 0);
	ck_assert(wake); /* the watermark (half the ring) was crossed */
	/* drain half, produce more, then drain all and flush */
	for (i = 0; i < 20 && (h = ring__peek(&ring)); i++) {
		read_samples += h->type == PMUPROF_REC_SAMPLE;
		ring__consume(&ring, h);
	}
	for (i = 0; i < 50; i++) {
		int r = capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &u, 2, 0, 1, i, &wake);

		written += r == CAPTURE_WRITTEN;
		lost += r == CAPTURE_LOST;
	}
	for (;;) {
		while ((h = ring__peek(&ring))) {
			if (h->type == PMUPROF_REC_SAMPLE)
				read_samples++;
			if (h->type == PMUPROF_REC_LOST) {
				read_lost += ((const struct pmuprof_lost *)h)->lost;
				lost_records++;
			}
			ring__consume(&ring, h);
		}
		if (ring__flush_lost(&ring, 999) <= 0)
			break;
	}
	ck_assert_uint_eq(cc.ctx[0].st.captured, 250);
	ck_assert_uint_eq(cc.ctx[0].st.samples, written);
	ck_assert_uint_eq(cc.ctx[0].st.lost, lost);
	ck_assert_uint_eq(read_samples, written);
	ck_assert_uint_eq(read_lost, lost);
	ck_assert_uint_ge(lost_records, 2);
	ck_assert_uint_eq(cc.ctx[0].event_samples[0] + cc.ctx[0].event_samples[1], written);
	ck_assert_uint_eq(cc.ctx[0].event_lost[0] + cc.ctx[0].event_lost[1], lost);
}
END_TEST

/* ---- throttling and handler stats ----------------------------------------- */

/* Run n handler runs of `took` ns every `interval` ns; count the verdicts
 * `want` (throttles unless said otherwise). */
static unsigned int run_verdicts(unsigned int ctx, u64 *t, unsigned int n, u64 took, u64 interval,
				 enum capture_rate want)
{
	unsigned int hits = 0;

	for (unsigned int i = 0; i < n; i++) {
		hits += capture__handler_done(&cc, ctx, *t, *t + took) == want;
		*t += interval;
	}
	return hits;
}

static unsigned int run_handlers(unsigned int ctx, u64 *t, unsigned int n, u64 took, u64 interval)
{
	return run_verdicts(ctx, t, n, took, interval, CAPTURE_RATE_LOWER);
}

/* A new session a second later: counters, window and limits back to their
 * defaults (capture__reset), the clock moved past the last window. */
static void fresh(u64 *t)
{
	capture__reset(&cc);
	*t += 1000000000ull;
}

/* max_cpu_pct = 0 and max_rate = 0: never throttles, whatever the handlers
 * cost (perf's kernel.perf_cpu_time_max_percent = 0); a lower budget
 * throttles sooner. */
START_TEST(test_throttle_off_and_budget)
{
	u64 t = 1000000000ull;

	capture__reset(&cc);
	ck_assert_uint_eq(cc.max_cpu_pct, CAPTURE_MAX_CPU_PCT);
	ck_assert_uint_eq(cc.max_rate, CAPTURE_MAX_RATE);
	cc.max_cpu_pct = 0;
	cc.max_rate = 0;
	/* 3 ms every 4 ms (75 %): throttles with the default budget */
	ck_assert_uint_eq(run_handlers(0, &t, 2000, 3000000, 4000000), 0);
	ck_assert_uint_eq(run_verdicts(0, &t, 2000, 3000000, 4000000, CAPTURE_RATE_RAISE), 0);
	ck_assert_uint_eq(cc.ctx[0].st.nmis_handled, 4000); /* still accounted */
	fresh(&t);
	cc.max_cpu_pct = 5;
	/* 10 us at 10 kHz is 10 %: over a 5 % budget, under the default */
	ck_assert_uint_ge(run_handlers(0, &t, 5000, 10000, 100000), 1);
	fresh(&t);
	ck_assert_uint_eq(run_handlers(0, &t, 5000, 10000, 100000), 0);
}
END_TEST

START_TEST(test_throttle_budget)
{
	u64 t = 1000000000ull;

	/* cheap: 1 us at 50 kHz (5 % CPU) never throttles */
	ck_assert_uint_eq(run_handlers(0, &t, 50000, 1000, 20000), 0);
	/* 2 us at 200 kHz is 40 % CPU but under the 2.5 us mean: not on time
	 * (the rate cap is test_throttle_rate's) */
	cc.max_rate = 0;
	ck_assert_uint_eq(run_handlers(0, &t, 50000, 2000, 5000), 0);
	fresh(&t);
	/* 20 us at 1 kHz is 2 % CPU: no throttle */
	ck_assert_uint_eq(run_handlers(0, &t, 3000, 20000, 1000000), 0);
	/* one 5 ms or 50 ms outlier among cheap 1 kHz runs: no throttle */
	ck_assert_uint_eq(run_handlers(0, &t, 1, 5000000, 1000000), 0);
	ck_assert_uint_eq(run_handlers(0, &t, 500, 20000, 1000000), 0);
	ck_assert_uint_eq(run_handlers(0, &t, 1, 50000000, 50000000), 0);
	ck_assert_uint_eq(run_handlers(0, &t, 500, 20000, 1000000), 0);
	/* 10 us at 20 kHz is 20 % CPU: no throttle */
	ck_assert_uint_eq(run_handlers(0, &t, 20000, 10000, 50000), 0);

	/* 10 us at 50 kHz is 50 %: throttles once a quarter window of
	 * handler time is used (2501 runs), then once per window */
	fresh(&t);
	ck_assert_uint_eq(run_handlers(0, &t, 2500, 10000, 20000), 0);
	ck_assert_uint_eq(run_handlers(0, &t, 1, 10000, 20000), 1);
	ck_assert_uint_ge(run_handlers(0, &t, 50000, 10000, 20000), 9);
	/* 3 ms every 4 ms (75 %) throttles at the 9th run */
	fresh(&t);
	ck_assert_uint_eq(run_handlers(0, &t, 8, 3000000, 4000000), 0);
	ck_assert_uint_eq(run_handlers(0, &t, 1, 3000000, 4000000), 1);
	/* 20 ms runs every 25 ms throttle despite the 10 ms per-run cap */
	fresh(&t);
	ck_assert_uint_eq(run_handlers(0, &t, 2, 20000000, 25000000), 0);
	ck_assert_uint_eq(run_handlers(0, &t, 1, 20000000, 25000000), 1);
	/* an NMI storm (back to back, 5 us each) is cut within 25 ms */
	fresh(&t);
	ck_assert_uint_eq(run_handlers(1, &t, 6000, 5000, 5000), 1);
	ck_assert_uint_eq(cc.ctx[1].st.nmis_handled, 6000);
}
END_TEST

/* Raising a throttled rate back: a window that closes with the handler far
 * under budget says RAISE once per window; a window near the budget (that
 * would be over it at twice the rate) keeps the rate, so LOWER and RAISE
 * do not alternate. */
/* The rate cap (perf's kernel.perf_event_max_sample_rate): handlers too
 * cheap for the CPU budget still throttle above CAPTURE_MAX_RATE runs a
 * second, at the run that passes the window's allowance; a throttled rate
 * comes back only when doubling it stays within half the cap; max_rate 0
 * turns the cap off, max_cpu_pct 0 leaves it on. */
START_TEST(test_throttle_rate)
{
	const unsigned int per_win =
		(unsigned int)(CAPTURE_MAX_RATE * CAPTURE_THROTTLE_WINDOW_NS / 1000000000ull);
	u64 t = 1000000000ull;

	/* 0.8 us at 250 kHz: 20 % CPU, under the mean; throttled by rate at
	 * run per_win + 1 of the first window */
	capture__reset(&cc);
	ck_assert_uint_eq(run_handlers(0, &t, per_win, 800, 4000), 0);
	ck_assert_uint_eq(run_handlers(0, &t, 1, 800, 4000), 1);
	/* 90 kHz for a second: under the cap, no verdict either way */
	fresh(&t);
	ck_assert_uint_eq(run_handlers(0, &t, 90000, 800, 11111), 0);
	ck_assert_uint_eq(run_verdicts(0, &t, 90000, 800, 11111, CAPTURE_RATE_RAISE), 0);
	/* 30 kHz windows close quiet on time but not on rate (60 kHz would
	 * be more than half the cap): kept; 20 kHz windows raise */
	fresh(&t);
	ck_assert_uint_eq(run_verdicts(0, &t, 30000, 800, 33333, CAPTURE_RATE_RAISE), 0);
	ck_assert_uint_ge(run_verdicts(0, &t, 20000, 800, 50000, CAPTURE_RATE_RAISE), 9);
	/* the budget off: the cap still throttles */
	fresh(&t);
	cc.max_cpu_pct = 0;
	ck_assert_uint_ge(run_handlers(0, &t, 250000, 800, 4000), 9);
	/* the cap off: 250 kHz at 0.8 us is only 20 % CPU, never throttled */
	fresh(&t);
	cc.max_rate = 0;
	ck_assert_uint_eq(run_handlers(0, &t, 250000, 800, 4000), 0);
}
END_TEST

START_TEST(test_throttle_raise)
{
	u64 t = 1000000000ull;

	capture__reset(&cc);
	/* cheap runs (1 us, under the 2.5 us mean): RAISE at every window
	 * close; a window is the 1001 runs that span 100 ms at 10 kHz, so 9
	 * of them close in 10000 runs */
	ck_assert_uint_eq(run_verdicts(0, &t, 10000, 1000, 100000, CAPTURE_RATE_RAISE), 9);
	/* 10 us at 2 kHz: 2 % of the CPU, 4 % at twice the rate: RAISE
	 * (windows of 201 runs: 9 close in 2000) */
	capture__reset(&cc);
	ck_assert_uint_eq(run_verdicts(0, &t, 2000, 10000, 500000, CAPTURE_RATE_RAISE), 9);
	/* 10 us at 10 kHz: 10 %, 20 % at twice the rate (over half the 25 %
	 * budget): neither LOWER nor RAISE */
	capture__reset(&cc);
	ck_assert_uint_eq(run_verdicts(0, &t, 10000, 10000, 100000, CAPTURE_RATE_RAISE), 0);
	capture__reset(&cc);
	ck_assert_uint_eq(run_handlers(0, &t, 10000, 10000, 100000), 0);
	/* after a storm (LOWER), cheap runs again: RAISE comes back */
	capture__reset(&cc);
	ck_assert_uint_eq(run_handlers(0, &t, 6000, 5000, 5000), 1);
	ck_assert_uint_ge(run_verdicts(0, &t, 3000, 1000, 100000, CAPTURE_RATE_RAISE), 2);
}
END_TEST

/* The UNTHROTTLE record and its counter. */
START_TEST(test_unthrottle_record)
{
	struct pmuprof_cpu_stats st;
	u64 evs[PMUPROF_MAX_EVENTS] = {0}, evl[PMUPROF_MAX_EVENTS] = {0};
	const struct pmuprof_throttle *tr;
	bool wake = false;

	capture__reset(&cc);
	capture__unthrottled(&cc, CAPTURE_CTX_IRQ, &ring, 1, 4000000, 2000000, 777, &wake);
	tr = (const void *)ring__peek(&ring);
	ck_assert_ptr_nonnull(tr);
	ck_assert_uint_eq(tr->hdr.type, PMUPROF_REC_UNTHROTTLE);
	ck_assert_uint_eq(tr->hdr.size, sizeof(*tr));
	ck_assert_uint_eq(tr->event, 1);
	ck_assert_uint_eq(tr->old_period, 4000000);
	ck_assert_uint_eq(tr->new_period, 2000000);
	ck_assert_uint_eq(tr->time_ns, 777);
	capture__cpu_stats(&cc, &st, evs, evl);
	ck_assert_uint_eq(st.unthrottled, 1);
	ck_assert_uint_eq(st.throttled, 0);
}
END_TEST

START_TEST(test_handler_stats)
{
	struct pmuprof_cpu_stats tot, a;
	u64 evs[PMUPROF_MAX_EVENTS] = {0}, evl[PMUPROF_MAX_EVENTS] = {0};

	capture__handler_done(&cc, 0, 100, 150);  /* 50 ns */
	capture__handler_done(&cc, 0, 200, 1200); /* 1000 ns */
	capture__handler_done(&cc, 1, 300, 303);  /* 3 ns, IRQ context */
	capture__handler_done(&cc, 0, 500, 500);  /* 0 ns */
	capture__nmi_passed(&cc, 0);
	ck_assert_uint_eq(cc.ctx[0].st.handler_ns_min, 0);
	ck_assert_uint_eq(cc.ctx[0].st.handler_ns_max, 1000);
	ck_assert_uint_eq(cc.ctx[0].st.handler_ns_total, 1050);
	ck_assert_uint_eq(cc.ctx[0].st.hist[pmuprof_hist_bucket(50)], 1);
	ck_assert_uint_eq(cc.ctx[0].st.hist[pmuprof_hist_bucket(1000)], 1);
	ck_assert_uint_eq(cc.ctx[0].st.hist[0], 1);
	cc.ctx[0].event_samples[3] = 7;
	cc.ctx[1].event_samples[3] = 2;
	cc.ctx[1].event_lost[5] = 4;
	capture__cpu_stats(&cc, &a, evs, evl);
	ck_assert_uint_eq(a.nmis_handled, 4);
	ck_assert_uint_eq(a.nmis_passed, 1);
	ck_assert_uint_eq(a.handler_ns_min, 0);
	ck_assert_uint_eq(a.handler_ns_max, 1000);
	ck_assert_uint_eq(evs[3], 9);
	ck_assert_uint_eq(evl[5], 4);

	/* totals: a CPU that never ran does not drag min to 0 */
	memset(&tot, 0, sizeof(tot));
	memset(&a, 0, sizeof(a));
	a.nmis_handled = 2;
	a.handler_ns_min = 40;
	a.handler_ns_max = 90;
	capture__stats_add(&tot, &a);
	memset(&a, 0, sizeof(a));
	capture__stats_add(&tot, &a);
	a.nmis_handled = 1;
	a.handler_ns_min = 60;
	a.handler_ns_max = 200;
	capture__stats_add(&tot, &a);
	ck_assert_uint_eq(tot.handler_ns_min, 40);
	ck_assert_uint_eq(tot.handler_ns_max, 200);
	ck_assert_uint_eq(tot.nmis_handled, 3);
}
END_TEST

START_TEST(test_throttle_record)
{
	const struct pmuprof_record_header *h;
	const struct pmuprof_throttle *t;
	bool wake = false;

	capture__throttled(&cc, 0, &ring, 2, 1000, 2000, 77, &wake);
	ck_assert_uint_eq(cc.ctx[0].st.throttled, 1);
	h = ring__peek(&ring);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->type, PMUPROF_REC_THROTTLE);
	t = (const void *)h;
	ck_assert_uint_eq(t->event, 2);
	ck_assert_uint_eq(t->old_period, 1000);
	ck_assert_uint_eq(t->new_period, 2000);
	ck_assert_uint_eq(t->cpu, 3);
	ck_assert_uint_eq(t->time_ns, 77);
	ring__consume(&ring, h);

	capture__period_changed(&ring, 1, 5000, 4000, 88, &wake);
	ck_assert_uint_eq(cc.ctx[0].st.throttled, 1); /* not a throttle */
	h = ring__peek(&ring);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->type, PMUPROF_REC_PERIOD);
	ck_assert_uint_eq(h->size, sizeof(*t));
	t = (const void *)h;
	ck_assert_uint_eq(t->event, 1);
	ck_assert_uint_eq(t->old_period, 5000);
	ck_assert_uint_eq(t->new_period, 4000);
}
END_TEST

/* ---- capture__sample_nmi against capture__sample -------------------------- */

/* One sample by each path into its own fresh ring and capture state:
 * the same verdict, the same record bytes, the same statistics. */
static void nmi_vs_sample(const struct capture_params *p, const struct pp_regs *r, u32 source,
			  const char *what)
{
	static u8 mem_a[RING_SZ] __attribute__((aligned(64)));
	static u8 mem_b[RING_SZ] __attribute__((aligned(64)));
	static struct ring ra, rb;
	static struct capture_cpu ca, cb;
	struct capture_params pa, pb;
	bool wake_a = false, wake_b = false;
	const struct capture_nmi cn = {&cb, p, &rb, r, 4242, &wake_b};
	const struct pmuprof_record_header *ha, *hb;
	int got_a, got_b;

	capture_fixture(&ra, mem_a, RING_SZ, 3, &ca, &pa, 64, 2);
	capture_fixture(&rb, mem_b, RING_SZ, 3, &cb, &pb, 64, 2);
	got_a = capture__sample(&ca, CAPTURE_CTX_NMI, p, &ra, r, source, 1, 100003, 4242, &wake_a);
	got_b = capture__sample_nmi(&cn, source, 1, 100003);
	ck_assert_msg(got_a == got_b, "%s: capture__sample %d, capture__sample_nmi %d", what, got_a,
		      got_b);
	ck_assert_msg(wake_a == wake_b, "%s: wake", what);
	ha = ring__peek(&ra);
	hb = ring__peek(&rb);
	ck_assert_msg(!ha == !hb, "%s: a record from one path only", what);
	if (ha) {
		ck_assert_msg(ha->size == hb->size, "%s: record size %u vs %u", what, ha->size,
			      hb->size);
		ck_assert_msg(!memcmp(ha, hb, ha->size), "%s: record bytes differ", what);
	}
	ck_assert_msg(!memcmp(&ca.ctx[CAPTURE_CTX_NMI], &cb.ctx[CAPTURE_CTX_NMI],
			      sizeof(ca.ctx[CAPTURE_CTX_NMI])),
		      "%s: statistics differ", what);
}

/* capture__sample_nmi has an IP-only copy of the body for sessions without
 * stacks, addresses or copies (issue 15). Every session, with those flags
 * and without, filtered or not, user or kernel, must give what
 * capture__sample gives: a flag missing from the copy's test (the copy
 * taken where a stack or address is due) fails here. */
START_TEST(test_sample_nmi_matches_sample)
{
	static const u32 flag_sets[] = {
		0,
		PMUPROF_CF_EXCLUDE_USER,
		PMUPROF_CF_EXCLUDE_KERNEL,
		PMUPROF_CF_KSTACK,
		PMUPROF_CF_USTACK,
		PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK,
		PMUPROF_CF_USTACK_COPY,
		PMUPROF_CF_USTACK | PMUPROF_CF_USTACK_COPY,
		PMUPROF_CF_DATA_ADDR,
		PMUPROF_CF_CODE_PAGE,
		PMUPROF_CF_DATA_ADDR | PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK,
	};
	static const u64 kframes[] = {0xffffffff81000100ull, 0xffffffff81000200ull};
	static const u32 sources[] = {PMUPROF_SOURCE_PMU, PMUPROF_SOURCE_NMI_IPI};
	struct pp_regs u = uregs_at(0x400abc, STK), k, pu = uregs_at(0x400f00, STK);
	char what[160];

	memset(&k, 0, sizeof(k));
	k.ip = 0xffffffff81000050ull;
	build_chain(3);
	plat_test_task_set_kstack(kframes, 2);
	plat_test_task_set_user_regs(&pu);
	for (unsigned int f = 0; f < PP_ARRAY_SIZE(flag_sets); f++)
		for (unsigned int t = 0; t < 5; t++)
			for (unsigned int m = 0; m < 4; m++)
				for (unsigned int src = 0; src < 2; src++) {
					struct capture_params p = cp;
					const struct pp_regs *r = m & 1 ? &k : &u;

					p.flags = flag_sets[f];
					p.ustack_copy = p.flags & PMUPROF_CF_USTACK_COPY ? 64 : 0;
					p.privileged = !(m & 2);
					p.target = t == 1 || t == 2 ? PMUPROF_TARGET_PID
						   : t >= 3	    ? PMUPROF_TARGET_CPUS
								    : p.target;
					p.pid = t == 1 ? 1234 : 99;
					p.cpu_mask[0] = t == 3 ? 1u << 3 : 1u << 2;
					if (t == 4)
						plat_test_task_set(0, 0, "swapper/3", true, true);
					else
						plat_test_task_set(1234, 1240, "workload", false,
								   false);
					snprintf(what, sizeof(what),
						 "flags %#x target case %u %s %s source %u",
						 p.flags, t, m & 1 ? "kernel" : "user",
						 m & 2 ? "unprivileged" : "privileged",
						 sources[src]);
					nmi_vs_sample(&p, r, sources[src], what);
				}
}
END_TEST

/* ---- end to end with the PMU model: overflow NMI -> emit -> sample ------- */

struct emit_ctx {
	struct capture_cpu *cc;
	struct capture_params *cp;
	struct ring *r;
	struct pp_regs *regs;
	u32 source[PMUPROF_MAX_EVENTS];
};

static void emit_to_capture(void *arg, u32 event, u64 period)
{
	struct emit_ctx *e = arg;
	bool wake;
	/* as the module's glue: the NMI entry, the shared part set once */
	const struct capture_nmi cn = {e->cc, e->cp, e->r, e->regs, 1, &wake};

	capture__sample_nmi(&cn, e->source[event], event, period);
}

START_TEST(test_pmu_model_to_samples)
{
	static const struct pmu_model_cfg skl = {PMU_MODEL_SKL, .full_width = true};
	static struct pmu_model m;
	static struct pmu_cpu pc;
	struct pmu_caps caps;
	struct pmuprof_info info;
	struct pmuprof_config cfg;
	struct session_plan plan;
	struct session_env env = {&info, &caps, SUPPORTED};
	struct pp_regs u = uregs_at(0x400abc, 0);
	struct emit_ctx e = {&cc, &cp, &ring, &u, {0}};
	const struct pmuprof_sample *sm;
	const char *why;
	unsigned int n0 = 0, n1 = 0;

	pmu_model_init(&m, &skl);
	pmu__probe(&caps);
	ck_assert_uint_eq(caps.status, PMUPROF_PMU_OK);
	session__fill_info(&info, &caps, 1, 1, true, 4);

	/* event 0: instructions (fixed counter), event 1: LLC misses (GP) */
	base_config(&cfg);
	cfg.nr_events = 2;
	cfg.flags = PMUPROF_CF_USTACK;
	cfg.events[0].source = PMUPROF_SOURCE_PMU;
	cfg.events[0].config = 0x300c0;
	cfg.events[0].period = 10000;
	cfg.events[1].source = PMUPROF_SOURCE_PMU;
	cfg.events[1].config = 0x3412e;
	cfg.events[1].period = 5000;
	ck_assert_int_eq(session__validate(&env, &cfg, &plan, &why), 0);
	ck_assert_uint_eq(plan.nr_pmu_events, 2);
	e.source[0] = e.source[1] = PMUPROF_SOURCE_PMU;
	cp = plan.cap;

	ck_assert_int_eq(pmu__reserve(&plan.pmu, &why), 0);
	memset(&pc, 0, sizeof(pc));
	pmu__cpu_start(&pc, &plan.pmu);
	for (int round = 0; round < 6; round++) {
		pmu_model_count(&m, 0x00c0, 10000, true);
		if (round % 2)
			pmu_model_count(&m, 0x412e, 5000, true);
		while (pmu_model_take_nmi(&m))
			ck_assert_int_gt(pmu__handle_nmi(&pc, emit_to_capture, &e), 0);
	}
	/* an NMI that is not ours: no overflow pending */
	ck_assert_int_eq(pmu__handle_nmi(&pc, emit_to_capture, &e), 0);
	pmu__cpu_stop(&pc);
	pmu__release(&plan.pmu);
	pmu_model_detach();

	while ((sm = ring_next_sample(&ring)) != NULL) {
		ck_assert_uint_eq(sm->source, PMUPROF_SOURCE_PMU);
		ck_assert_uint_eq(sm->hdr.misc, PMUPROF_MISC_USER); /* no EXACT_IP */
		ck_assert_uint_eq(sm->period, sm->event == 0 ? 10000 : 5000);
		n0 += sm->event == 0;
		n1 += sm->event == 1;
		ring__consume(&ring, &sm->hdr);
	}
	ck_assert_uint_eq(n0, 6);
	ck_assert_uint_eq(n1, 3);
	ck_assert_uint_eq(cc.ctx[0].event_samples[0], 6);
	ck_assert_uint_eq(cc.ctx[0].event_samples[1], 3);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("capture");
	TCase *tc = pp_tcase(s, "session", setup, NULL,
			     PP_TESTS(test_info_sources, test_info_pebs_kpti,
				      test_validate_normalises, test_state_machine));
	tcase_add_loop_test(tc, test_validate_table, 0, (int)PP_ARRAY_SIZE(vcases));

	pp_tcase(s, "capture", cap_setup, NULL,
		 PP_TESTS(test_sample_layout_user, test_sample_kernel_mode,
			  test_sample_kstack_truncated, test_unprivileged_hides_kernel,
			  test_kthread_and_idle, test_filters, test_ustack_chain_and_depth,
			  test_sample_ustack_copy, test_sample_ustack_copy_unmapped,
			  test_ustack_loops, test_ustack_faults, test_ustack_compat,
			  test_ustack_batch, test_ustack_into_record, test_throttle_off_and_budget,
			  test_sample_with_addr, test_lost_accounting, test_throttle_budget,
			  test_throttle_raise, test_throttle_rate, test_unthrottle_record,
			  test_handler_stats, test_throttle_record, test_pmu_model_to_samples,
			  test_sample_nmi_matches_sample));
	return s;
}

int main(void)
{
	return pp_check_run(suite());
}
