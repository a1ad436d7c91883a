// SPDX-License-Identifier: GPL-2.0
/*
 * nmitool: NMI sources that a test of NMI claiming needs and a guest cannot
 * otherwise produce. Commands are written to /sys/kernel/debug/nmitool/cmd:
 *
 *   stall CPU MS   an NMI IPI to CPU whose handler (ours) spins MS ms (at most
 *                  1000) with NMIs blocked, as a stalled vCPU or a long NMI
 *                  handler would; the write returns when it is done
 *   nmi CPU        an NMI IPI to CPU that no handler claims: Linux must report
 *                  it as "NMI received for unknown reason" (unless someone
 *                  wrongly claims it)
 *   noop CPU N     N NMI IPIs to CPU, one at a time (each sent once the one
 *                  before was taken), each claimed by a handler that does
 *                  nothing else: the floor of what one NMI costs the CPU
 *                  (bench/handler_cost.sh)
 *   pmi CPU IDX P  a foreign PMI on CPU: general-purpose counter IDX counts
 *                  instructions (USR|OS|INT) from -P; when it overflows, our
 *                  handler acks its status bit and turns the counter off, and
 *                  does not touch LVTPC (the APIC masked it: reopening it is
 *                  the job of whoever else uses the PMU)
 *
 * /sys/kernel/debug/nmitool/status: "stalls=N pmis=N" (handled so far).
 * Test-only; never loaded on a host.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/seq_file.h>
#include <linux/sched/clock.h>
#include <linux/kprobes.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/msr.h>
#include <asm/perf_event.h>

#define NT_MAX_STALL_MS 1000
#define NT_DONE_WAIT_MS 5000

/* Per target CPU: what the next NMI of ours must do. */
static atomic_t nt_stall_ms[NR_CPUS];
static atomic_t nt_stall_done[NR_CPUS];
static atomic_t nt_noop[NR_CPUS];
static int nt_pmi_idx[NR_CPUS]; /* -1: none armed */
static atomic_long_t nt_stalls, nt_pmis;
static struct dentry *nt_dir;

static int nt_nmi(unsigned int type, struct pt_regs *regs)
{
	int cpu = smp_processor_id();
	int ms = atomic_xchg(&nt_stall_ms[cpu], 0);
	int handled = atomic_xchg(&nt_noop[cpu], 0);

	if (ms > 0) {
		u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;
		unsigned long spins = 0;

		/* capped: about 1 us per step, at most twice the time asked */
		while (local_clock() < end && spins++ < 2000UL * ms)
			udelay(1);
		atomic_set(&nt_stall_done[cpu], 1);
		atomic_long_inc(&nt_stalls);
		handled++;
	}
	if (READ_ONCE(nt_pmi_idx[cpu]) >= 0) {
		int idx = READ_ONCE(nt_pmi_idx[cpu]);
		u64 status, ctrl;

		rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
		if (status & BIT_ULL(idx)) {
			wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + idx, 0);
			rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
			wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl & ~BIT_ULL(idx));
			wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(idx));
			WRITE_ONCE(nt_pmi_idx[cpu], -1);
			atomic_long_inc(&nt_pmis);
			handled++;
		}
	}
	return handled;
}
NOKPROBE_SYMBOL(nt_nmi);

struct nt_pmi_arg {
	int idx;
	u64 period;
};

/* On the target CPU: arm counter idx (it must be free: the test says so). */
static void nt_pmi_arm(void *p)
{
	const struct nt_pmi_arg *a = p;
	u64 ctrl;

	WRITE_ONCE(nt_pmi_idx[smp_processor_id()], a->idx);
	wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + a->idx, 0);
	/* legacy IA32_PMCx (0xc1 + idx): the low 32 bits, sign-extended from 31 */
	wrmsrl(MSR_ARCH_PERFMON_PERFCTR0 + a->idx, (u32)-a->period);
	wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + a->idx,
	       0xc0 | ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS |
		       ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_ENABLE);
	rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl | BIT_ULL(a->idx));
}

static int nt_stall(unsigned int cpu, int ms)
{
	int waited = 0;

	atomic_set(&nt_stall_done[cpu], 0);
	atomic_set(&nt_stall_ms[cpu], ms);
	apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
	while (!atomic_read(&nt_stall_done[cpu]) && waited < NT_DONE_WAIT_MS) {
		msleep(1);
		waited++;
	}
	return atomic_read(&nt_stall_done[cpu]) ? 0 : -ETIMEDOUT;
}

/* N no-op NMIs, each sent once the previous one was taken (bounded wait). */
static int nt_noop_burst(unsigned int cpu, long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long spins = 0;

		atomic_set(&nt_noop[cpu], 1);
		apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
		while (atomic_read(&nt_noop[cpu]) && spins++ < NT_DONE_WAIT_MS * 1000UL)
			udelay(1);
		if (atomic_read(&nt_noop[cpu]))
			return -ETIMEDOUT;
		if (!(i & 1023))
			cond_resched();
	}
	return 0;
}

static ssize_t nt_cmd_write(struct file *f, const char __user *ubuf, size_t len, loff_t *off)
{
	char buf[64], verb[16];
	unsigned int cpu;
	long a = 0, b = 0;
	int n, err = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	n = sscanf(buf, "%15s %u %ld %ld", verb, &cpu, &a, &b);
	if (n < 2 || cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	if (!strcmp(verb, "stall") && n == 3 && a > 0 && a <= NT_MAX_STALL_MS) {
		err = nt_stall(cpu, (int)a);
	} else if (!strcmp(verb, "noop") && n == 3 && a > 0 && a <= 10000000) {
		err = nt_noop_burst(cpu, a);
	} else if (!strcmp(verb, "nmi") && n == 2) {
		apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
	} else if (!strcmp(verb, "pmi") && n == 4 && a >= 0 && a < 8 && b > 0 && b < (1L << 31) &&
		   boot_cpu_has(X86_FEATURE_ARCH_PERFMON)) {
		struct nt_pmi_arg arg = {(int)a, (u64)b};

		err = smp_call_function_single(cpu, nt_pmi_arm, &arg, 1);
	} else {
		return -EINVAL;
	}
	return err ? err : len;
}

static const struct file_operations nt_cmd_fops = {
	.owner = THIS_MODULE,
	.write = nt_cmd_write,
	.llseek = noop_llseek,
};

static int nt_status_show(struct seq_file *m, void *v)
{
	seq_printf(m, "stalls=%ld pmis=%ld\n", atomic_long_read(&nt_stalls),
		   atomic_long_read(&nt_pmis));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nt_status);

static int __init nt_init(void)
{
	int cpu, err;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		nt_pmi_idx[cpu] = -1;
	err = register_nmi_handler(NMI_LOCAL, nt_nmi, 0, "nmitool");
	if (err)
		return err;
	nt_dir = debugfs_create_dir("nmitool", NULL);
	debugfs_create_file("cmd", 0200, nt_dir, NULL, &nt_cmd_fops);
	debugfs_create_file("status", 0400, nt_dir, NULL, &nt_status_fops);
	return 0;
}

static void __exit nt_exit(void)
{
	debugfs_remove_recursive(nt_dir);
	unregister_nmi_handler(NMI_LOCAL, "nmitool");
}

module_init(nt_init);
module_exit(nt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("nmitool: NMI sources for tests of NMI claiming (test VMs only)");
