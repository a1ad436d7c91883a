/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host test implementation of kernel/include/pmuprof/platform.h.
 * Split by area so each part has one owner:
 *   platform_test_cpu.{c,h}   CPUID, MSRs, LVTPC, counter reservation, clock, cpu id
 *   platform_test_mem.{c,h}   fake user/kernel memory, fake page tables
 *   platform_test_task.{c,h}  current task, user regs, kernel stack walk
 * All three are linked into build/tests/unit/libplattest.a (tests/unit/plattest.mk).
 * Every part has a reset function; tests call plat_test_reset() in setup.
 */
#ifndef PLATFORM_TEST_H
#define PLATFORM_TEST_H

#include "pmuprof/platform.h"
#include "platform_test_cpu.h"
#include "platform_test_mem.h"
#include "platform_test_task.h"

static inline void plat_test_reset(void)
{
	plat_test_cpu_reset();
	plat_test_mem_reset();
	plat_test_task_reset();
}

#endif
