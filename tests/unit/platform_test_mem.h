/* SPDX-License-Identifier: GPL-2.0 */
/* Host test platform: mem part. See platform_test.h. */
#ifndef PLATFORM_TEST_MEM_H
#define PLATFORM_TEST_MEM_H

#include "pmuprof/platform.h"

void plat_test_mem_reset(void);

#endif
