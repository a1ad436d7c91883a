// SPDX-License-Identifier: GPL-2.0
/*
 * pmuprof/platform.h implemented for Linux x86-64.
 * Every function marked [NMI] in platform.h is NMI-safe here: no locks, no
 * sleeping, no allocation, no printing.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/sched/coredump.h>
#include <linux/rcupdate.h>
#include <linux/cred.h>
#include <linux/smp.h>
#include <linux/atomic.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/nospec.h>
#include <linux/kprobes.h>
#include <asm/msr.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/unwind.h>
#include <asm/special_insns.h>
#include <asm/tlbflush.h>
#include <asm/pgtable.h>
#include <asm/perf_event.h>

#include "pp_linux.h"
#include "../nmi/fpwalk.h"

void plat_cpuid(u32 leaf, u32 subleaf, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	cpuid_count(leaf, subleaf, eax, ebx, ecx, edx);
}

/* plat_rdmsr, plat_wrmsr: static inline, pmuprof/platform_msr_linux.h.
 * Their Xen PV path, through pv-ops: */
u64 plat_rdmsr_pv(u32 msr)
{
	u64 v;

	rdmsrl(msr, v);
	return v;
}
NOKPROBE_SYMBOL(plat_rdmsr_pv);

void plat_wrmsr_pv(u32 msr, u64 val)
{
	wrmsrl(msr, val);
}
NOKPROBE_SYMBOL(plat_wrmsr_pv);

int plat_rdmsr_safe(u32 msr, u64 *val)
{
	return rdmsrl_safe(msr, val) ? -EIO : 0;
}

unsigned int plat_cpu(void)
{
	return raw_smp_processor_id();
}
NOKPROBE_SYMBOL(plat_cpu);

/* Runs on each CPU (IPI, interrupts off). The register, not Linux's
 * per-CPU shadow: a hypervisor module need not keep the shadow up to date
 * (KVM does, with cr4_set_bits()). */
static void pp_cr4_or_this_cpu(void *arg)
{
	atomic64_or((s64)__read_cr4(), arg);
}

u64 plat_cr4_any_cpu(void)
{
	atomic64_t any = ATOMIC64_INIT(0);

	might_sleep();
	on_each_cpu(pp_cr4_or_this_cpu, &any, 1);
	return (u64)atomic64_read(&any);
}

u32 plat_lvtpc_read(void)
{
	return apic_read(APIC_LVTPC);
}

void plat_lvtpc_write(u32 val)
{
	apic_write(APIC_LVTPC, val);
}
NOKPROBE_SYMBOL(plat_lvtpc_write);

void plat_lvtpc_set_nmi(void)
{
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}
NOKPROBE_SYMBOL(plat_lvtpc_set_nmi);

bool plat_reserve_perfctr(u32 msr)
{
	return reserve_perfctr_nmi(msr);
}

void plat_release_perfctr(u32 msr)
{
	release_perfctr_nmi(msr);
}

bool plat_reserve_evntsel(u32 msr)
{
	return reserve_evntsel_nmi(msr);
}

void plat_release_evntsel(u32 msr)
{
	release_evntsel_nmi(msr);
}

/*
 * The frame-pointer walk reads one {saved rbp, return address} pair per
 * frame, up to 256 times per sample. perf's perf_callchain_user() checks
 * once per walk, then makes two __get_user() calls per frame (each a call
 * with STAC, a speculation barrier and CLAC). Here the whole walk runs
 * inside one user-access window, with no call in it (fpwalk.h, read
 * inlined), as unsafe_get_user() is meant to be used:
 *   - once: the page tables in CR3 are current's (else -1, and capture
 *     walks with copy_from_user_nmi(), whose nmi_uaccess_okay() is not
 *     exported to modules), pagefault_disable() (a fault takes the
 *     exception-table fixup and ends the walk, nothing is paged in),
 *     user_access_begin() over the whole user half (access_ok, STAC and
 *     the speculation barrier);
 *   - per frame: the range check access_ok would make (the 16 bytes below
 *     TASK_SIZE_MAX), the address masked to 0 when out of range so that a
 *     mispredicted check cannot load a kernel address speculatively
 *     (array_index_mask_nospec), two exception-table-safe loads.
 * copy_from_user_nmi() per frame would also pay the generic string copy
 * (REP MOVS: a startup cost on hardware, 16 iterations under TCG).
 */
static __always_inline int pp_read_frame(u64 *next, u64 *ret, u64 fp, u64 lim)
{
	const u64 __user *p;

	if (fp >= lim)
		return -1;
	p = (const u64 __user *)(unsigned long)(fp & array_index_mask_nospec(fp, lim));
	unsafe_get_user(*next, p, fault);
	unsafe_get_user(*ret, p + 1, fault);
	return 0;
fault:
	return -1;
}
FPWALK_DEFINE(pp_fp_walk_batched, pp_read_frame)

int plat_user_fp_walk(u64 fp, u64 *out, unsigned int room, u32 *sflags)
{
	struct mm_struct *mm = current->mm;
	unsigned int n;

	if (!mm || read_cr3_pa() != __pa(mm->pgd))
		return -1;
	pagefault_disable();
	if (!user_access_begin((const void __user *)0, TASK_SIZE_MAX)) {
		pagefault_enable();
		return -1;
	}
	/* lim: a frame record's 16 bytes end at TASK_SIZE_MAX at the latest */
	n = pp_fp_walk_batched(fp, out, room, sflags, TASK_SIZE_MAX - 2 * sizeof(u64) + 1);
	user_access_end();
	pagefault_enable();
	return (int)n;
}
NOKPROBE_SYMBOL(plat_user_fp_walk);

size_t plat_copy_user_nmi(void *dst, u64 uaddr, size_t n)
{
	/* copy_from_user_nmi checks access_ok and that current's mm is the
	 * loaded one, and never faults pages in. */
	return copy_from_user_nmi(dst, (const void __user *)(unsigned long)uaddr, n);
}
NOKPROBE_SYMBOL(plat_copy_user_nmi);

int plat_copy_kernel_nofault(void *dst, u64 kaddr, size_t n)
{
	return copy_from_kernel_nofault(dst, (const void *)(unsigned long)kaddr, n) ? -EFAULT : 0;
}
NOKPROBE_SYMBOL(plat_copy_kernel_nofault);

enum pp_descent plat_task_descends_from(u32 tgid, unsigned int max_depth)
{
	return pp_task_descends_from(current, tgid, max_depth);
}
NOKPROBE_SYMBOL(plat_task_descends_from);

/* p: current (the NMI), or a task that cannot exit meanwhile (`next` in the
 * scheduler's switch path). */
enum pp_descent pp_task_descends_from(struct task_struct *p, u32 tgid, unsigned int max_depth)
{
	enum pp_descent ret = PP_DESCENT_CAPPED;
	unsigned int depth;

	if ((p->flags & PF_KTHREAD) || is_idle_task(p))
		return PP_DESCENT_NO;
	/*
	 * As Yama's task_is_descendant(), bounded. real_parent is __rcu
	 * (re-parenting rewrites it under tasklist_lock) and a task_struct is
	 * freed only after a grace period (delayed_put_task_struct), so every
	 * ancestor reached stays valid until rcu_read_unlock(). RCU read-side
	 * sections are allowed in NMI (the handler is already an RCU reader:
	 * STOP's synchronize_rcu() relies on it). The walk ends at init (pid
	 * 1), at the idle task (pid 0, init's and kthreadd's parent) or at a
	 * kernel thread (a usermode helper's parent): none is under a user
	 * process.
	 */
	rcu_read_lock();
	for (depth = 0; depth < max_depth; depth++) {
		p = rcu_dereference(p->real_parent);
		if ((u32)READ_ONCE(p->tgid) == tgid) {
			ret = PP_DESCENT_YES;
			break;
		}
		if (READ_ONCE(p->pid) <= 1 || (READ_ONCE(p->flags) & PF_KTHREAD)) {
			ret = PP_DESCENT_NO;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}
NOKPROBE_SYMBOL(pp_task_descends_from);

bool plat_current_traceable_by(u32 uid, u32 gid)
{
	return pp_task_traceable_by(current, uid, gid);
}
NOKPROBE_SYMBOL(plat_current_traceable_by);

bool pp_task_traceable_by(struct task_struct *p, u32 uid, u32 gid)
{
	struct mm_struct *mm = READ_ONCE(p->mm);
	const struct cred *c;
	bool ok;

	/* __ptrace_may_access(PTRACE_MODE_READ_REALCREDS) without the
	 * capability and LSM parts (the glue decided CAP_SYS_PTRACE at
	 * CONFIGURE): ids against the task's objective creds, then dumpable.
	 * Our own mm cannot go away under an NMI that interrupted us, nor
	 * `next`'s in the switch path (it is dropped by the task itself). */
	if (!mm || (p->flags & PF_KTHREAD) || get_dumpable(mm) != SUID_DUMP_USER)
		return false;
	rcu_read_lock();
	c = rcu_dereference(p->real_cred);
	ok = __kuid_val(c->uid) == uid && __kuid_val(c->euid) == uid &&
	     __kuid_val(c->suid) == uid && __kgid_val(c->gid) == gid &&
	     __kgid_val(c->egid) == gid && __kgid_val(c->sgid) == gid;
	rcu_read_unlock();
	return ok;
}
NOKPROBE_SYMBOL(pp_task_traceable_by);

static void fill_regs(struct pp_regs *r, struct pt_regs *regs)
{
	r->gpr[PP_REG_AX] = regs->ax;
	r->gpr[PP_REG_CX] = regs->cx;
	r->gpr[PP_REG_DX] = regs->dx;
	r->gpr[PP_REG_BX] = regs->bx;
	r->gpr[PP_REG_SP] = regs->sp;
	r->gpr[PP_REG_BP] = regs->bp;
	r->gpr[PP_REG_SI] = regs->si;
	r->gpr[PP_REG_DI] = regs->di;
	r->gpr[PP_REG_R8] = regs->r8;
	r->gpr[PP_REG_R9] = regs->r9;
	r->gpr[PP_REG_R10] = regs->r10;
	r->gpr[PP_REG_R11] = regs->r11;
	r->gpr[PP_REG_R12] = regs->r12;
	r->gpr[PP_REG_R13] = regs->r13;
	r->gpr[PP_REG_R14] = regs->r14;
	r->gpr[PP_REG_R15] = regs->r15;
	r->ip = regs->ip;
	r->flags = regs->flags;
	r->user = user_mode(regs);
	r->compat = r->user && !user_64bit_mode(regs);
}
NOKPROBE_SYMBOL(fill_regs);

bool plat_user_regs(struct pp_regs *out)
{
	struct task_struct *p = current;
	struct pt_regs *regs;

	if (!p->mm || (p->flags & (PF_KTHREAD | PF_EXITING)))
		return false;
	regs = task_pt_regs(p);
	if (!user_mode(regs))
		return false;
	fill_regs(out, regs);
	out->fs_base = 0;
	out->gs_base = 0;
	return true;
}
NOKPROBE_SYMBOL(plat_user_regs);

unsigned int plat_kernel_stack(const struct pp_regs *regs, u64 *out, unsigned int max,
			       bool *truncated)
{
	const struct pp_linux_regs *lr = container_of(regs, struct pp_linux_regs, pp);
	struct unwind_state state;
	unsigned int n = 0;
	unsigned long addr;

	*truncated = false;
	if (!max)
		return 0;
	out[n++] = regs->ip;
	if (!lr->pt || user_mode(lr->pt))
		return n;
	/* As perf_callchain_kernel(): start from the interrupted registers;
	 * __unwind_start() skips the regs frame itself. Bounded by max. */
	for (__unwind_start(&state, current, lr->pt, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (n == max) {
			*truncated = true;
			break;
		}
		out[n++] = addr;
	}
	return n;
}
NOKPROBE_SYMBOL(plat_kernel_stack);

u64 plat_pgtable_root(u64 vaddr)
{
	(void)vaddr;
	/* In the NMI, CR3 holds the kernel page tables of the interrupted
	 * context (PTI switches on entry), which map both halves. */
	return read_cr3_pa();
}
NOKPROBE_SYMBOL(plat_pgtable_root);

int plat_read_pte(u64 table, unsigned int index, u64 *entry)
{
	if (index >= PTRS_PER_PTE)
		return -EFAULT;
	return plat_copy_kernel_nofault(
		entry, (u64)(unsigned long)__va(table) + index * sizeof(u64), sizeof(u64));
}
NOKPROBE_SYMBOL(plat_read_pte);

int plat_phys_to_node(u64 phys)
{
	unsigned long pfn = (unsigned long)(phys >> PAGE_SHIFT);
	struct mem_section *ms;

	/* pfn_valid() without its rcu_read_lock_sched(): an NMI cannot be
	 * preempted, which already holds off the section's removal (memory
	 * hot-remove frees it after synchronize_rcu()); preempt_enable() in
	 * NMI context would be a call the no-kprobe check cannot vouch for */
	if (PHYS_PFN(PFN_PHYS(pfn)) != pfn || pfn_to_section_nr(pfn) >= NR_MEM_SECTIONS)
		return -1;
	ms = __pfn_to_section(pfn);
	if (!valid_section(ms) || !(early_section(ms) || pfn_section_valid(ms, pfn)))
		return -1;
	return page_to_nid(pfn_to_page(pfn));
}
NOKPROBE_SYMBOL(plat_phys_to_node);

unsigned int plat_paging_levels(void)
{
	return pgtable_l5_enabled() ? 5 : 4;
}
NOKPROBE_SYMBOL(plat_paging_levels);

void pp_regs_from_pt(struct pp_linux_regs *lr, struct pt_regs *regs, bool want_segs)
{
	struct pp_regs *r = &lr->pp;

	lr->pt = regs;
	fill_regs(r, regs);
	r->fs_base = 0;
	r->gs_base = 0;
	if (want_segs) {
		/* FS is not switched on kernel entry; the user GS base sits in
		 * KERNEL_GS_BASE after the entry's swapgs. */
		rdmsrl(MSR_FS_BASE, r->fs_base);
		if (r->user)
			rdmsrl(MSR_KERNEL_GS_BASE, r->gs_base);
		else
			rdmsrl(MSR_GS_BASE, r->gs_base);
	}
}
NOKPROBE_SYMBOL(pp_regs_from_pt);
