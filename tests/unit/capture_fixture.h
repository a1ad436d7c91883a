/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture fixture test_capture and test_inherit share: one CPU's
 * kernel/nmi capture state writing into a ring the test reads back.
 */
#ifndef PMUPROF_TESTS_CAPTURE_FIXTURE_H
#define PMUPROF_TESTS_CAPTURE_FIXTURE_H

#include <check.h>
#include <string.h>

#include "kernel/nmi/capture.h"
#include "kernel/nmi/ring.h"

/*
 * Ring r over mem (size bytes, CPU cpu, woken at half full), capture state
 * cc reset, parameters cp zeroed but for depth frames, privileged, and
 * nr_events events; the caller adds flags and the target.
 */
static inline void capture_fixture(struct ring *r, void *mem, u32 size, u32 cpu,
				   struct capture_cpu *cc, struct capture_params *cp, u32 depth,
				   u32 nr_events)
{
	ck_assert_int_eq(ring__init(r, mem, size, cpu, size / 2), 0);
	memset(cc, 0, sizeof(*cc));
	capture__reset(cc);
	memset(cp, 0, sizeof(*cp));
	cp->depth = depth;
	cp->privileged = true;
	cp->nr_events = nr_events;
}

#endif
