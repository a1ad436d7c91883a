/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The platform interface: everything kernel/pmu and kernel/nmi need from the
 * kernel they run in. The Linux module implements it in
 * kernel/linux/platform_linux.c; the host unit tests implement it in
 * tests/unit/platform_test_{cpu,mem,task}.c (libplattest.a, a scriptable
 * fake: MSR file, fake APIC, fake memory for user stacks and page tables).
 * A port to another kernel (Redox, Akaros, a hobby kernel) implements these
 * functions and nothing else.
 *
 * Context rules: every function marked [NMI] is called from NMI context
 * and must not sleep, allocate, take locks, or print.
 */
#ifndef PMUPROF_PLATFORM_H
#define PMUPROF_PLATFORM_H

#include "pmuprof/types.h"

/* PP_NOKPROBE(fn) after every function the NMI handler can reach: no kprobe
 * in it (it would trap inside the NMI). NOKPROBE_SYMBOL on Linux, nothing
 * elsewhere; scripts/check-nokprobe.sh checks the built module. */
#ifdef __KERNEL__
#include <asm-generic/kprobes.h> /* not <linux/kprobes.h>: its MSR names clash */
#define PP_NOKPROBE(fn) NOKPROBE_SYMBOL(fn)
#else
#define PP_NOKPROBE(fn)
#endif

/*
 * Interrupted register state, portable form. gpr[] is indexed by the x86
 * register number used in ModRM/SIB encodings (PP_REG_*), so the
 * instruction decoder can index it directly.
 */
enum pp_reg {
	PP_REG_AX = 0,
	PP_REG_CX = 1,
	PP_REG_DX = 2,
	PP_REG_BX = 3,
	PP_REG_SP = 4,
	PP_REG_BP = 5,
	PP_REG_SI = 6,
	PP_REG_DI = 7,
	PP_REG_R8 = 8,
	PP_REG_R9,
	PP_REG_R10,
	PP_REG_R11,
	PP_REG_R12,
	PP_REG_R13,
	PP_REG_R14,
	PP_REG_R15,
	PP_NR_GPR
};

struct pp_regs {
	u64 gpr[PP_NR_GPR];
	u64 ip;
	u64 flags;
	u64 fs_base; /* segment bases for FS:/GS: operands */
	u64 gs_base;
	bool user;   /* interrupted in user mode (CPL 3) */
	bool compat; /* 32-bit user code (decoder uses 32-bit defaults) */
};

/* --- CPU identification and MSRs ------------------------------------ */
void plat_cpuid(u32 leaf, u32 subleaf, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx);
#ifdef __KERNEL__
/* Linux: static inline (RDMSR/WRMSR on the NMI path without a call). */
#include "pmuprof/platform_msr_linux.h"
#else
u64 plat_rdmsr(u32 msr);	   /* [NMI] */
void plat_wrmsr(u32 msr, u64 val); /* [NMI] */
#endif
int plat_rdmsr_safe(u32 msr, u64 *val); /* 0 or -EIO if the MSR faults */
unsigned int plat_cpu(void);		/* [NMI] current CPU number */
/* Linux: static inline (platform_nmi_linux.h) */
#ifndef __KERNEL__
u64 plat_now_ns(void); /* [NMI] monotonic, NMI-safe */
#endif
/* CR4 bits set on at least one online CPU: the OR of every online CPU's
 * CR4, each read on its CPU (Linux: a function call IPI to each). Process
 * context, may wait for the other CPUs; a snapshot, stale once returned. */
u64 plat_cr4_any_cpu(void);

/* --- Local APIC performance-counter LVT ------------------------------- */
u32 plat_lvtpc_read(void);
void plat_lvtpc_write(u32 val); /* [NMI] */
/* Program LVTPC for NMI delivery, unmasked. The APIC sets the mask bit when
 * it delivers a PMI; the handler calls this last to re-open it. */
void plat_lvtpc_set_nmi(void); /* [NMI] */

/* --- Counter ownership (Linux: reserve_perfctr_nmi & co.) ------------- */
/* Return true when the MSR was free and is now ours. */
bool plat_reserve_perfctr(u32 msr);
void plat_release_perfctr(u32 msr);
bool plat_reserve_evntsel(u32 msr);
void plat_release_evntsel(u32 msr);

/* --- Memory access from NMI context ----------------------------------- */
/* Copy from the current task's user memory; returns bytes NOT copied. */
size_t plat_copy_user_nmi(void *dst, u64 uaddr, size_t n); /* [NMI] */
/* Frame-pointer walk of the current task's user stack from frame pointer
 * `fp` as a batch of reads (the checks that hold for the whole walk once,
 * no fault served; Linux: one user-access window), with the loop and stop
 * rules of kernel/nmi/fpwalk.h: return addresses into out[0..room-1],
 * PMUPROF_SF_USTACK_FAULT / _TRUNC into *sflags. Returns the entries stored,
 * or -1 when no batch can be opened (current's page tables are not the
 * loaded ones): nothing was read, the caller walks with
 * plat_copy_user_nmi(). */
int plat_user_fp_walk(u64 fp, u64 *out, unsigned int room, u32 *sflags); /* [NMI] */
/* Copy from kernel memory that may be unmapped; 0 or -EFAULT. */
int plat_copy_kernel_nofault(void *dst, u64 kaddr, size_t n); /* [NMI] */

/* --- Current task ------------------------------------------------------ */
struct pp_task {
	u32 pid; /* tgid */
	u32 tid;
	bool idle; /* the idle task */
	bool kthread;
};
/* Its name: PP_TASK_COMM_LEN bytes into dst, not necessarily
 * NUL-terminated (the caller terminates it). Apart from pp_task, so that
 * it is copied straight into the sample record. */
#define PP_TASK_COMM_LEN 16
/* Linux: static inline (platform_nmi_linux.h) */
#ifndef __KERNEL__
void plat_current_task(struct pp_task *t); /* [NMI] */
void plat_current_comm(char *dst);	   /* [NMI] */
#endif
/* Registers of the current task at its last entry from user mode (for a
 * user stack when the NMI hit kernel code). false for kernel threads. */
bool plat_user_regs(struct pp_regs *out); /* [NMI] */

/* Does the current task descend from process `tgid`? Walks the real-parent
 * chain from the current task's parent (a thread's parent is its process's
 * parent), comparing each ancestor's tgid, at most `max_depth` ancestors.
 * NO at once for kernel threads and the idle task, and when the walk reaches
 * init (pid 1) or the root of the tree without a match; CAPPED when
 * `max_depth` ancestors were looked at without reaching either. The current
 * task's own tgid is the caller's business (it checks that first). */
enum pp_descent {
	PP_DESCENT_NO = 0,
	PP_DESCENT_YES = 1,
	PP_DESCENT_CAPPED = 2,
};
enum pp_descent plat_task_descends_from(u32 tgid, unsigned int max_depth); /* [NMI] */
/* May an opener with real uid/gid `uid`/`gid` (initial user namespace) and
 * without CAP_SYS_PTRACE profile the current task? As ptrace's read check:
 * the task's real, effective and saved uids and gids all equal uid/gid and
 * its memory is dumpable by its owner (not after a setuid, setgid or
 * file-capability exec or a credential change). false for kernel threads. */
bool plat_current_traceable_by(u32 uid, u32 gid); /* [NMI] */

/* --- Kernel call stack ------------------------------------------------- */
/* Walk the kernel stack from the interrupted regs (which are kernel-mode),
 * storing return addresses after out[0] = regs->ip. Returns frames stored;
 * sets *truncated when more frames existed than max. Linux: ORC. */
unsigned int plat_kernel_stack(const struct pp_regs *regs, u64 *out, unsigned int max,
			       bool *truncated); /* [NMI] */

/* --- Page tables (for page size and physical address) ------------------ */
/* Physical address of the top-level table translating `vaddr` in the
 * current context (user: current mm; kernel: kernel page tables), or 0. */
u64 plat_pgtable_root(u64 vaddr); /* [NMI] */
/* Read entry `index` of the table at physical address `table`; 0 or -EFAULT. */
int plat_read_pte(u64 table, unsigned int index, u64 *entry); /* [NMI] */
unsigned int plat_paging_levels(void);			      /* 4 or 5 */
/* NUMA node of the page at physical address phys, or -1 when it is not
 * ordinary memory with a struct page (device memory, a hole). Plain loads of
 * the memory map, no locks: callable from the NMI handler. */
int plat_phys_to_node(u64 phys); /* [NMI] */

#ifdef __KERNEL__
/* Linux: the clock and current task of every sample, inline. */
#include "pmuprof/platform_nmi_linux.h"
#endif

#endif /* PMUPROF_PLATFORM_H */
