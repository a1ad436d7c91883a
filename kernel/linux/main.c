// SPDX-License-Identifier: GPL-2.0
/*
 * pmuprof.ko: module init/exit. See pp_linux.h for the map of the glue and
 * docs/KERNEL.md for the design.
 */
#include <linux/kernel.h>
#include <linux/module.h>

#include "pp_linux.h"

struct pmu_caps pp_caps;

static int __init pp_init(void)
{
	char line[160];
	int err;

	/* No PMU (CPUID.0AH version 0, as under QEMU TCG) is a normal state:
	 * GET_INFO reports it and the cpu-clock sources still work. */
	pmu__probe(&pp_caps);
	if (pmu__describe(&pp_caps, line, sizeof(line)) < 0)
		strscpy(line, "pmu: (no description)", sizeof(line));
	pr_info(PP_NAME ": %s\n", line);

	err = pp_sampler_init();
	if (err)
		return err;
	err = pp_chardev_init();
	if (err) {
		pp_sampler_exit();
		return err;
	}
	return 0;
}

static void __exit pp_exit(void)
{
	pp_chardev_exit();
	pp_sampler_exit();
}

module_init(pp_init);
module_exit(pp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("pmuprof: PMU and NMI-IPI sampling profiler");
MODULE_AUTHOR("pmuprof authors");
