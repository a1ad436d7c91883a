/* SPDX-License-Identifier: GPL-2.0 */
/* Host test platform: cpu part. See platform_test.h. */
#ifndef PLATFORM_TEST_CPU_H
#define PLATFORM_TEST_CPU_H

#include "pmuprof/platform.h"

void plat_test_cpu_reset(void);

#endif
