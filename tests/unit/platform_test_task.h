/* SPDX-License-Identifier: GPL-2.0 */
/* Host test platform: task part. See platform_test.h. */
#ifndef PLATFORM_TEST_TASK_H
#define PLATFORM_TEST_TASK_H

#include "pmuprof/platform.h"

void plat_test_task_reset(void);

#endif
