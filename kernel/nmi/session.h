/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/nmi/session: what a /dev/pmuprof session may do, decided without
 * touching the machine. Portable (no Linux), unit-tested on the host.
 *
 *  - session__fill_info(): GET_INFO from the PMU capabilities and the CPUs.
 *  - session__validate(): CONFIGURE. Checks every field of a
 *    struct pmuprof_config strictly and produces a normalised plan; on
 *    error it returns a negative errno and a static reason and writes
 *    nothing the caller keeps (the caller validates into a scratch plan and
 *    installs it only on success: no state change on error).
 *  - session__check_op(): the state machine
 *        IDLE --CONFIGURE--> CONFIGURED --START--> RUNNING --STOP--> STOPPED
 *        CONFIGURE is allowed again from CONFIGURED and STOPPED.
 *
 * Errno contract (CONFIGURE):
 *   -EINVAL  malformed: size < VER0, unknown flag, reserved field non-zero,
 *            bad target/mask/pid, depth > max, ring size not a power of two
 *            in range, wakeup > ring, no events or > PMUPROF_MAX_EVENTS,
 *            period 0 or below the minimum, rate above the maximum, a
 *            cpu-clock event with a config or PRECISE, two clock events,
 *            EXCLUDE_USER and EXCLUDE_KERNEL together, INHERIT without
 *            target PID
 *   -ENODEV  the event's source is not usable here (no PMU, one CPU for
 *            NMI_IPI, PEBS absent), or pmu__plan() says the event is absent
 *   -ENOSPC  more PMU events than counters (from pmu__plan())
 *   -EOPNOTSUPP  a PMUPROF_CF_* feature this build does not implement
 *   -EPERM   PMUPROF_CF_PHYS_ADDR from an unprivileged opener
 *   -EBUSY   wrong state (session__check_op)
 * (-E2BIG for a non-zero tail beyond the kernel's struct is the glue's job:
 * it sees the user memory, this code sees only the copied struct.)
 */
#ifndef PMUPROF_SESSION_H
#define PMUPROF_SESSION_H

#include "pmuprof/types.h"
#include "../../include/uapi/pmuprof.h"
#include "../pmu/pmu.h"
#include "capture.h"

#define SESSION_MAX_CLOCK_PERIOD_NS 10000000000ull /* 10 s between cpu-clock samples */
#define SESSION_MAX_PERIOD	    (1ull << 62)   /* keeps period arithmetic safe */

/* The running system, as seen by the validator. */
struct session_env {
	const struct pmuprof_info *info; /* from session__fill_info() */
	const struct pmu_caps *caps;
	u32 supported_flags; /* PMUPROF_CF_* this build implements */
};

/* A validated, normalised configuration. */
struct session_plan {
	struct pmuprof_config cfg; /* defaults filled in (depth, ring, wakeup) */
	struct capture_params cap;
	u32 nr_pmu_events;
	s32 clock_event;  /* index of the cpu-clock event, -1 if none */
	u32 clock_source; /* PMUPROF_SOURCE_NMI_IPI or _TIMER */
	u64 clock_period_ns;
	struct pmu_plan pmu; /* valid when nr_pmu_events > 0 */
};

enum session_op {
	SESSION_OP_CONFIGURE = 0,
	SESSION_OP_START,
	SESSION_OP_STOP,
};

void session__fill_info(struct pmuprof_info *info, const struct pmu_caps *caps, u32 nr_cpus,
			u32 nr_online, bool privileged, u32 paging_levels);

/* `usize` is the size the caller declared (cfg->size as copied in). */
int session__validate(const struct session_env *env, const struct pmuprof_config *cfg,
		      struct session_plan *out, const char **why);

/* 0 if `op` is allowed in `state` (enum pmuprof_state), else -EBUSY. STOP
 * in STOPPED is allowed (idempotent); the caller then does nothing. */
int session__check_op(u32 state, enum session_op op, const char **why);

/* Next state after a successful op. */
u32 session__next_state(u32 state, enum session_op op);

#endif /* PMUPROF_SESSION_H */
