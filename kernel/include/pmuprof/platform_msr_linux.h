/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plat_rdmsr/plat_wrmsr of pmuprof/platform.h for the Linux build, inline
 * (issue 15: the NMI handler reads and writes several PMU MSRs per sample; as
 * calls they went through platform_linux.c and then the kernel's pv-ops call
 * to native_read_msr/native_write_msr). Only platform.h includes this, and
 * only under __KERNEL__; the host unit tests keep calling their MSR model.
 *
 * Which instruction: on bare metal and in HVM guests (KVM, Hyper-V, VMware,
 * QEMU TCG) Linux's pv_ops.cpu.read_msr/write_msr are native_read_msr/
 * native_write_msr, i.e. a plain RDMSR/WRMSR (with the kernel's exception
 * table entry) plus the msr:read_msr/write_msr tracepoints. We do the same
 * here without the call. The one PARAVIRT_XXL backend that replaces them is
 * Xen PV (X86_FEATURE_XENPV), where a guest's RDMSR/WRMSR is not how the
 * PMU MSRs are reached (Xen's vPMU is emulated through xen_read_msr /
 * xen_write_msr); there we take the pv-op path as before, through
 * plat_rdmsr_pv/plat_wrmsr_pv. cpu_feature_enabled is an
 * alternatives-patched jump (no load, no call).
 *
 * No MSR fault in the NMI: the handler only touches MSRs the session probe
 * established at start (see docs/PMU.md, "MSR access on the NMI path"). The
 * exception table entry of __rdmsr/__wrmsr stays: a fault would be the
 * kernel's "unchecked MSR access" warning and a read of 0, never an oops.
 */
#ifndef PMUPROF_PLATFORM_MSR_LINUX_H
#define PMUPROF_PLATFORM_MSR_LINUX_H

#include <asm/cpufeature.h>
#include <asm/msr.h>

/* The pv-op path (rdmsrl/wrmsrl), out of line in platform_linux.c: a
 * direct call, so the PMU layer's NMI path has no indirect call in it
 * (scripts/check-nmi-direct.sh). */
u64 plat_rdmsr_pv(u32 msr);	      /* [NMI] */
void plat_wrmsr_pv(u32 msr, u64 val); /* [NMI] */

static __always_inline u64 plat_rdmsr(u32 msr) /* [NMI] */
{
	u64 v;

	if (cpu_feature_enabled(X86_FEATURE_XENPV))
		return plat_rdmsr_pv(msr);
	v = __rdmsr(msr);
	if (tracepoint_enabled(read_msr))
		do_trace_read_msr(msr, v, 0);
	return v;
}

static __always_inline void plat_wrmsr(u32 msr, u64 val) /* [NMI] */
{
	if (cpu_feature_enabled(X86_FEATURE_XENPV)) {
		plat_wrmsr_pv(msr, val);
		return;
	}
	__wrmsr(msr, (u32)val, (u32)(val >> 32));
	if (tracepoint_enabled(write_msr))
		do_trace_write_msr(msr, val, 0);
}

#endif /* PMUPROF_PLATFORM_MSR_LINUX_H */
