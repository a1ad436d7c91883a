// SPDX-License-Identifier: GPL-2.0
/*
 * pmuprof.ko: module init/exit. See pp_linux.h for the map of the glue and
 * docs/KERNEL.md for the design.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "pp_linux.h"

struct pmu_caps pp_caps;

atomic_long_t pp_allocs_session = ATOMIC_LONG_INIT(0);
atomic_long_t pp_allocs_module = ATOMIC_LONG_INIT(0);
static struct dentry *pp_debugfs_dir;

/* /sys/kernel/debug/pmuprof/allocations: "session=N module=M" (live counts) */
static int pp_allocations_show(struct seq_file *m, void *v)
{
	seq_printf(m, "session=%ld module=%ld\n", atomic_long_read(&pp_allocs_session),
		   atomic_long_read(&pp_allocs_module));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pp_allocations);

/* /sys/kernel/debug/pmuprof/nmi_pending: "cpu=N pending=P" per possible CPU,
 * P = 1 while an NMI IPI sent to N is not yet consumed (sampler.c) */
static int pp_nmi_pending_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	if (!pp_cpus)
		return 0;
	for_each_possible_cpu (cpu)
		seq_printf(m, "cpu=%u pending=%d\n", cpu,
			   atomic_read(&per_cpu_ptr(pp_cpus, cpu)->nmi_pending));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pp_nmi_pending);

void pp_debugfs_init(void)
{
	/* debugfs errors are not fatal (and debugfs may be absent) */
	pp_debugfs_dir = debugfs_create_dir(PP_NAME, NULL);
	debugfs_create_file("allocations", 0400, pp_debugfs_dir, NULL, &pp_allocations_fops);
	debugfs_create_file("nmi_pending", 0400, pp_debugfs_dir, NULL, &pp_nmi_pending_fops);
}

void pp_debugfs_exit(void)
{
	debugfs_remove_recursive(pp_debugfs_dir);
	pp_debugfs_dir = NULL;
}

/* At unload everything is freed: a non-zero count is a leak. */
static void pp_alloc_check(void)
{
	long s = atomic_long_read(&pp_allocs_session), m = atomic_long_read(&pp_allocs_module);

	WARN(s || m, PP_NAME ": leak at unload: %ld session and %ld module allocations not freed\n",
	     s, m);
}

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
	pp_debugfs_init();
	return 0;
}

static void __exit pp_exit(void)
{
	pp_debugfs_exit();
	pp_chardev_exit();
	pp_sampler_exit();
	pp_alloc_check();
}

module_init(pp_init);
module_exit(pp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("pmuprof: PMU and NMI-IPI sampling profiler");
MODULE_AUTHOR("pmuprof authors");
