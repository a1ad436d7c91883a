// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/nmi/session.c: GET_INFO contents, CONFIGURE validation, session
 * state machine. See session.h for the errno contract.
 */
#include "session.h"

void session__fill_info(struct pmuprof_info *info, const struct pmu_caps *caps, u32 nr_cpus,
			u32 nr_online, bool privileged, u32 paging_levels)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->abi_version = PMUPROF_ABI_VERSION;
	if (caps->hypervisor)
		info->flags |= PMUPROF_INFO_HYPERVISOR;
	if (caps->full_width)
		info->flags |= PMUPROF_INFO_FULL_WIDTH;
	if (privileged)
		info->flags |= PMUPROF_INFO_PRIVILEGED;
	info->flags |= PMUPROF_INFO_PID_CPUS;
	if (caps->pebs_kpti)
		info->flags |= PMUPROF_INFO_PEBS_KPTI;

	/* The one-CPU TIMER fallback always works; NMI_IPI needs another CPU
	 * that can come online to send the NMI from (while only one is online,
	 * that CPU captures itself from its timer, TIMER samples, and NMI IPIs
	 * resume when a second comes back: the sender plan follows hotplug);
	 * the PMU source needs a usable PMU; PEBS a usable PEBS (caps->pebs:
	 * probed, and not refused by the glue). */
	info->sources = 1u << PMUPROF_SOURCE_TIMER;
	if (nr_cpus >= 2)
		info->sources |= 1u << PMUPROF_SOURCE_NMI_IPI;
	if (caps->status == PMUPROF_PMU_OK)
		info->sources |= 1u << PMUPROF_SOURCE_PMU;
	if (caps->status == PMUPROF_PMU_OK && caps->pebs)
		info->sources |= 1u << PMUPROF_SOURCE_PEBS;

	info->pmu_status = caps->status;
	info->pmu_version = caps->version;
	info->nr_gp = caps->nr_gp;
	info->gp_width = caps->gp_width;
	info->nr_fixed = caps->nr_fixed;
	info->fixed_width = caps->fixed_width;
	info->arch_events = caps->arch_events;
	info->arch_events_len = caps->arch_events_len;
	info->perf_capabilities = caps->perf_capabilities;
	info->vendor = caps->vendor;
	info->family = caps->family;
	info->model = caps->model;
	info->stepping = caps->stepping;
	memcpy(info->vendor_string, caps->vendor_string, sizeof(info->vendor_string));
	info->vendor_string[sizeof(info->vendor_string) - 1] = '\0';
	info->nr_cpus = nr_cpus;
	info->nr_online = nr_online;
	info->max_events = PMUPROF_MAX_EVENTS;
	info->max_depth = PMUPROF_MAX_DEPTH;
	info->ring_min = PMUPROF_RING_MIN;
	info->ring_max = PMUPROF_RING_MAX;
	info->ring_default = PMUPROF_RING_DEFAULT;
	info->min_pmu_period = PMUPROF_MIN_PMU_PERIOD;
	info->min_clock_period_ns = PMUPROF_MIN_CLOCK_PERIOD_NS;
	info->max_freq_hz = PMUPROF_MAX_FREQ_HZ;
	info->paging_levels = paging_levels;
}

static bool all_zero(const void *p, size_t n)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static bool is_pow2(u32 v)
{
	return v && !(v & (v - 1));
}

static bool is_clock_source(u32 source)
{
	return source == PMUPROF_SOURCE_NMI_IPI || source == PMUPROF_SOURCE_TIMER;
}

#define FAIL(err, msg)                                                                             \
	do {                                                                                       \
		*why = (msg);                                                                      \
		return -(err);                                                                     \
	} while (0)

static int check_mask(const __u64 *mask, u32 nr_cpus, const char **why)
{
	u32 w;

	for (w = 0; w < PMUPROF_MAX_CPUS / 64; w++) {
		u64 m = mask[w];
		u32 base = w * 64;

		if (!m)
			continue;
		/* any bit at or beyond nr_cpus names a CPU that cannot exist */
		if (base >= nr_cpus || (nr_cpus - base < 64 && (m >> (nr_cpus - base))))
			FAIL(EINVAL, "cpu_mask names a CPU >= nr_cpus");
	}
	return 0;
}

static int check_target(const struct session_env *env, const struct pmuprof_config *cfg,
			const char **why)
{
	u32 nr_cpus = env->info->nr_cpus;
	bool mask_empty = all_zero(cfg->cpu_mask, sizeof(cfg->cpu_mask));

	switch (cfg->target) {
	case PMUPROF_TARGET_ALL:
		if (cfg->pid || !mask_empty)
			FAIL(EINVAL, "target ALL takes no pid and no cpu_mask");
		return 0;
	case PMUPROF_TARGET_CPUS:
		if (cfg->pid)
			FAIL(EINVAL, "target CPUS takes no pid");
		if (mask_empty)
			FAIL(EINVAL, "target CPUS with an empty cpu_mask");
		return check_mask(cfg->cpu_mask, nr_cpus, why);
	case PMUPROF_TARGET_PID:
		if (cfg->pid <= 0)
			FAIL(EINVAL, "target PID needs a pid > 0");
		/* a mask restricts the process's sampling to those CPUs
		 * (pmuctl record -C with -p or COMMAND, as perf allows) */
		return check_mask(cfg->cpu_mask, nr_cpus, why);
	default:
		FAIL(EINVAL, "unknown target");
	}
}

static int check_event(const struct session_env *env, const struct pmuprof_event_config *ev,
		       const char **why)
{
	if (ev->flags & ~PMUPROF_EVF__ALL)
		FAIL(EINVAL, "event has unknown flags");
	if (!all_zero(ev->__reserved, sizeof(ev->__reserved)))
		FAIL(EINVAL, "event reserved fields must be zero");
	if (ev->source == PMUPROF_SOURCE_NONE || ev->source >= PMUPROF_SOURCE__MAX)
		FAIL(EINVAL, "event source is not a known source");
	if (!ev->period)
		FAIL(EINVAL, "event period (or frequency) is zero");
	if (ev->period > SESSION_MAX_PERIOD)
		FAIL(EINVAL, "event period is absurdly large");
	if ((ev->flags & PMUPROF_EVF_FREQ) && ev->period > PMUPROF_MAX_FREQ_HZ)
		FAIL(EINVAL, "event frequency above max_freq_hz");

	if (is_clock_source(ev->source)) {
		if (ev->config)
			FAIL(EINVAL, "a cpu-clock event takes no config");
		if (ev->flags & PMUPROF_EVF_PRECISE)
			FAIL(EINVAL, "a cpu-clock event cannot be PRECISE");
		if (!(ev->flags & PMUPROF_EVF_FREQ)) {
			if (ev->period < PMUPROF_MIN_CLOCK_PERIOD_NS)
				FAIL(EINVAL, "cpu-clock period below min_clock_period_ns");
			if (ev->period > SESSION_MAX_CLOCK_PERIOD_NS)
				FAIL(EINVAL, "cpu-clock period above 10 s");
		}
	} else {
		if (!(ev->flags & PMUPROF_EVF_FREQ) && ev->period < PMUPROF_MIN_PMU_PERIOD)
			FAIL(EINVAL, "PMU period below min_pmu_period");
	}
	if (!(env->info->sources & (1u << ev->source))) {
		switch (ev->source) {
		case PMUPROF_SOURCE_PMU:
			FAIL(ENODEV, "no usable PMU here (see GET_INFO pmu_status); use cpu-clock");
		case PMUPROF_SOURCE_PEBS:
			FAIL(ENODEV, "PEBS is not available");
		case PMUPROF_SOURCE_NMI_IPI:
			FAIL(ENODEV, "NMI_IPI needs a second CPU; use the TIMER source");
		default:
			FAIL(ENODEV, "event source not usable here");
		}
	}
	return 0;
}

int session__validate(const struct session_env *env, const struct pmuprof_config *cfg,
		      struct session_plan *out, const char **why)
{
	const struct pmuprof_info *info = env->info;
	u32 depth, ring, wakeup, i, copy = 0;
	s32 clock_event = -1;
	u32 nr_pmu = 0;
	bool privileged = info->flags & PMUPROF_INFO_PRIVILEGED;
	int err;

	*why = NULL;
	if (cfg->size < PMUPROF_CONFIG_SIZE_VER0)
		FAIL(EINVAL, "config size below PMUPROF_CONFIG_SIZE_VER0");
	if (cfg->flags & ~PMUPROF_CF__ALL)
		FAIL(EINVAL, "config has unknown flags");
	if (!all_zero(cfg->__reserved, sizeof(cfg->__reserved)))
		FAIL(EINVAL, "config reserved fields must be zero");
	if ((cfg->flags & PMUPROF_CF_EXCLUDE_USER) && (cfg->flags & PMUPROF_CF_EXCLUDE_KERNEL))
		FAIL(EINVAL, "EXCLUDE_USER and EXCLUDE_KERNEL together exclude everything");
	if ((cfg->flags & PMUPROF_CF_PHYS_ADDR) &&
	    !(cfg->flags & (PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE)))
		FAIL(EINVAL, "PHYS_ADDR needs DATA_ADDR or CODE_PAGE");
	if ((cfg->flags & PMUPROF_CF_INHERIT) && cfg->target != PMUPROF_TARGET_PID)
		FAIL(EINVAL, "INHERIT follows a process tree: it needs target PID");
	if (cfg->__reserved32)
		FAIL(EINVAL, "config reserved fields must be zero");
	if (!(cfg->flags & PMUPROF_CF_USTACK_COPY) && cfg->ustack_copy_size)
		FAIL(EINVAL, "ustack_copy_size without USTACK_COPY");
	if ((cfg->flags & PMUPROF_CF_USTACK_COPY) &&
	    (cfg->ustack_copy_size % 8 || cfg->ustack_copy_size > PMUPROF_USTACK_COPY_MAX))
		FAIL(EINVAL, "ustack_copy_size must be a multiple of 8 up to 64 KiB");
	if (cfg->flags & ~env->supported_flags)
		FAIL(EOPNOTSUPP, "a requested feature flag is not implemented by this module");
	if ((cfg->flags & PMUPROF_CF_PHYS_ADDR) && !privileged)
		FAIL(EPERM, "PHYS_ADDR needs CAP_SYS_ADMIN or CAP_SYSLOG");

	err = check_target(env, cfg, why);
	if (err)
		return err;

	depth = cfg->stack_depth ? cfg->stack_depth : PMUPROF_DEFAULT_DEPTH;
	if (depth > PMUPROF_MAX_DEPTH)
		FAIL(EINVAL, "stack_depth above max_depth");
	ring = cfg->ring_size ? cfg->ring_size : PMUPROF_RING_DEFAULT;
	if (!is_pow2(ring) || ring < PMUPROF_RING_MIN || ring > PMUPROF_RING_MAX)
		FAIL(EINVAL, "ring_size must be a power of two in [ring_min, ring_max]");
	if (cfg->flags & PMUPROF_CF_USTACK_COPY) {
		copy = cfg->ustack_copy_size ? cfg->ustack_copy_size : PMUPROF_USTACK_COPY_DEFAULT;
		if (ring / 4 <
		    PMUPROF_MAX_RECORD_NO_COPY + sizeof(struct pmuprof_sample_ustack) + copy)
			FAIL(EINVAL,
			     "ring_size too small for USTACK_COPY: it must hold 4 of "
			     "the largest records (ring_size >= 4 x (ustack_copy_size + 4.3 KiB))");
	}
	wakeup = cfg->wakeup_bytes ? cfg->wakeup_bytes : ring / 4;
	if (wakeup > ring)
		FAIL(EINVAL, "wakeup_bytes above ring_size");

	if (!cfg->nr_events || cfg->nr_events > PMUPROF_MAX_EVENTS)
		FAIL(EINVAL, "nr_events must be 1..max_events");
	for (i = 0; i < cfg->nr_events; i++) {
		const struct pmuprof_event_config *ev = &cfg->events[i];

		err = check_event(env, ev, why);
		if (err)
			return err;
		if (is_clock_source(ev->source)) {
			if (clock_event >= 0)
				FAIL(EINVAL, "at most one cpu-clock event per session");
			clock_event = (s32)i;
		} else {
			nr_pmu++;
		}
	}
	/* Unused event slots are reserved too. */
	if (!all_zero(&cfg->events[cfg->nr_events],
		      (PMUPROF_MAX_EVENTS - cfg->nr_events) * sizeof(cfg->events[0])))
		FAIL(EINVAL, "event slots beyond nr_events must be zero");

	memset(out, 0, sizeof(*out));
	if (nr_pmu) {
		err = pmu__plan(env->caps, cfg, &out->pmu, why);
		if (err) {
			if (!*why)
				*why = "PMU events rejected";
			return err;
		}
	}

	out->cfg = *cfg;
	out->cfg.size = sizeof(out->cfg);
	out->cfg.stack_depth = depth;
	out->cfg.ring_size = ring;
	out->cfg.wakeup_bytes = wakeup;
	out->nr_pmu_events = nr_pmu;
	out->clock_event = clock_event;
	if (clock_event >= 0) {
		const struct pmuprof_event_config *ev = &cfg->events[clock_event];

		out->clock_source = ev->source;
		out->clock_period_ns =
			(ev->flags & PMUPROF_EVF_FREQ) ? PP_NSEC_PER_SEC / ev->period : ev->period;
	}
	out->cap.flags = cfg->flags;
	out->cap.depth = depth;
	out->cap.ustack_copy = copy;
	out->cfg.ustack_copy_size = copy;
	out->cap.target = cfg->target;
	out->cap.pid = cfg->pid;
	out->cap.privileged = privileged;
	out->cap.nr_events = cfg->nr_events;
	/* Descendants are checked against the opener's ids unless the glue
	 * knows better (it clears this for CAP_SYS_PTRACE). */
	out->cap.inherit_check_creds = (cfg->flags & PMUPROF_CF_INHERIT) != 0;
	memcpy(out->cap.cpu_mask, cfg->cpu_mask, sizeof(out->cap.cpu_mask));
	out->cap.cpu_filter = cfg->target == PMUPROF_TARGET_CPUS ||
			      !all_zero(cfg->cpu_mask, sizeof(cfg->cpu_mask));
	return 0;
}

int session__check_op(u32 state, enum session_op op, const char **why)
{
	switch (op) {
	case SESSION_OP_CONFIGURE:
		if (state == PMUPROF_STATE_RUNNING)
			FAIL(EBUSY, "session is running; STOP before CONFIGURE");
		return 0;
	case SESSION_OP_START:
		if (state == PMUPROF_STATE_CONFIGURED)
			return 0;
		if (state == PMUPROF_STATE_RUNNING)
			FAIL(EBUSY, "session is already running");
		FAIL(EBUSY, "START needs a CONFIGURE first (again after STOP)");
	case SESSION_OP_STOP:
		if (state == PMUPROF_STATE_RUNNING || state == PMUPROF_STATE_STOPPED)
			return 0;
		FAIL(EBUSY, "STOP without a running session");
	}
	FAIL(EINVAL, "unknown operation");
}

u32 session__next_state(u32 state, enum session_op op)
{
	switch (op) {
	case SESSION_OP_CONFIGURE:
		return PMUPROF_STATE_CONFIGURED;
	case SESSION_OP_START:
		return PMUPROF_STATE_RUNNING;
	case SESSION_OP_STOP:
		return PMUPROF_STATE_STOPPED;
	}
	return state;
}
