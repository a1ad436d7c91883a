// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS on Linux: the policy check at load and the per-CPU memory the CPU
 * writes PEBS records into. kernel/pmu never allocates: START allocates a
 * DS save area and a PEBS buffer for every CPU of the session's target set
 * here, pmu__cpu_start_mem() gets them, STOP frees them once no CPU runs
 * PEBS and no NMI handler can still be reading them.
 *
 * Where the memory lives. The CPU writes PEBS records with ordinary stores
 * through the page tables of whatever runs when the event happens, user
 * code included; a fault there is not recoverable. pmuprof therefore uses
 * pages of the kernel direct map (alloc_pages: always mapped, never paged
 * out, physically contiguous), which are present in every process's page
 * tables... except with kernel page-table isolation (KPTI/PTI): user mode
 * then runs on page tables that hold no direct map, and Linux's own perf
 * maps its DS buffers into the cpu_entry_area for that reason, a mapping a
 * module cannot create. So with X86_FEATURE_PTI pmuprof refuses PEBS at
 * load (GET_INFO does not offer PMUPROF_SOURCE_PEBS and CONFIGURE of a
 * precise event fails with ENODEV and the reason); non-precise PMU events
 * and the NMI-IPI source still work. CPUs not affected by Meltdown run
 * without PTI by default; elsewhere `pti=off` on the kernel command line
 * makes PEBS available (at the security cost that implies).
 *
 * The other refusal is per session, at START (pmu__reserve, portable):
 * while a hypervisor has VMX on on any online CPU (CR4.VMXE, read on each
 * CPU by plat_cr4_any_cpu), a session with precise events fails with
 * EAGAIN, because KVM's guest entries would leave our PEBS armed inside
 * the guests (docs/PMU.md).
 *
 * UNVERIFIED ON HARDWARE: no machine with a PEBS-capable PMU was available;
 * see docs/PMU.md for what the host model verifies.
 */
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/topology.h>
#include <asm/cpufeature.h>

#include "pp_linux.h"

/* 16 KiB of records per CPU: one record raises the PMI, so the buffer only
 * has to absorb the records written while a PMI is pending (the handler
 * runs with our counters disabled). 80 records of format 3, 256 adaptive. */
#define PP_PEBS_BUF_ORDER 2
/* One page: page aligned (X86_DS_AREA_ALIGN, checked by pmu__cpu_start_mem)
 * and far larger than the 160-byte 64-bit DS save area. */
#define PP_PEBS_DS_ORDER 0

void pp_pebs_init(struct pmu_caps *caps)
{
	if (!caps->pebs)
		return;
	if (boot_cpu_has(X86_FEATURE_PTI)) {
		caps->pebs = false;
		caps->pebs_kpti = true;
		caps->pebs_why =
			"pmu: PEBS refused: kernel page-table isolation (KPTI) is on, and the CPU "
			"writes PEBS records through the user page tables too, where a module's "
			"buffers are not mapped (perf uses the cpu_entry_area, closed to modules); "
			"boot with pti=off to use precise events, or drop the precise modifier";
		pr_info(PP_NAME ": pebs: disabled: kernel page-table isolation is on "
				"(pti=off on the kernel command line enables precise events)\n");
		return;
	}
	pr_info(PP_NAME ": pebs: format %u%s available (unverified on hardware)\n",
		caps->pebs_format, caps->pebs_baseline ? " (adaptive)" : "");
}

static void pp_pebs_free_cpu(struct pp_cpu *pc)
{
	if (pc->pebs_mem.buf) {
		free_pages((unsigned long)pc->pebs_mem.buf, PP_PEBS_BUF_ORDER);
		atomic_long_dec(&pp_allocs_session);
	}
	if (pc->pebs_mem.ds) {
		free_pages((unsigned long)pc->pebs_mem.ds, PP_PEBS_DS_ORDER);
		atomic_long_dec(&pp_allocs_session);
	}
	memset(&pc->pebs_mem, 0, sizeof(pc->pebs_mem));
}

/* Process context, before any CPU starts. */
int pp_pebs_alloc(struct pp_session *s)
{
	unsigned int cpu;

	if (!s->plan.pmu.pebs_enable)
		return 0;
	for_each_cpu (cpu, s->targets) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);
		int node = cpu_to_node(cpu);
		struct page *ds, *buf;

		ds = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, PP_PEBS_DS_ORDER);
		if (!ds)
			goto nomem;
		pc->pebs_mem.ds = page_address(ds);
		atomic_long_inc(&pp_allocs_session);
		buf = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, PP_PEBS_BUF_ORDER);
		if (!buf)
			goto nomem;
		pc->pebs_mem.buf = page_address(buf);
		pc->pebs_mem.buf_len = PAGE_SIZE << PP_PEBS_BUF_ORDER;
		atomic_long_inc(&pp_allocs_session);
	}
	return 0;
nomem:
	pr_info_ratelimited(PP_NAME ": START: out of memory for the PEBS buffers (%lu KiB per "
				    "CPU)\n",
			    (PAGE_SIZE << PP_PEBS_BUF_ORDER) >> 10);
	pp_pebs_free(s);
	return -ENOMEM;
}

/* Process context, after every CPU stopped and synchronize_rcu(). */
void pp_pebs_free(struct pp_session *s)
{
	unsigned int cpu;

	for_each_possible_cpu (cpu)
		pp_pebs_free_cpu(per_cpu_ptr(pp_cpus, cpu));
}
