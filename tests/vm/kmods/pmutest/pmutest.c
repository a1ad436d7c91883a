// SPDX-License-Identifier: GPL-2.0
/*
 * pmutest: a register-level test of the PMU's interrupt behaviour against
 * the SDM (Vol. 3B, ch. 20 "Architectural Performance Monitoring"), written
 * for the emulated Intel PMU of tests/vm/qemu-pmu/ and independent of Linux
 * perf. Loaded inside a test VM only (tests/vm/scenarios/emu_pmu_pmi.sh,
 * booted with nmi_watchdog=0 so that perf holds no counter), never on a host.
 *
 * At load it runs every test on one CPU (parameter cpu=, default 0) in a
 * kworker bound to that CPU, reports one line per check,
 *
 *	pmutest: CHECK <name> PASS|FAIL|SKIP <detail>
 *	pmutest: DONE checks=<n> failed=<m>
 *
 * and stays loaded (idle, no handler registered) until rmmod. Loading fails
 * only when there is no architectural PMU to test.
 *
 * The counters are programmed directly with WRMSR. Every PMU MSR the test
 * touches, DEBUGCTL and the APIC's LVTPC entry are saved first and restored
 * at the end. Counting windows run with interrupts off, so that a window
 * counts the loop below, the two XORs after it, the opening WRMSR or not
 * (the SDM leaves it open; window-exact measures it) and our own PMIs,
 * nothing else:
 *
 *	wrmsr (GLOBAL_CTRL = ctrl)
 *	1: add $1, %rsi ; sub $1, %rdi ; jnz 1b		(3 * iters instructions)
 *	xor %eax, %eax ; xor %edx, %edx ; wrmsr (GLOBAL_CTRL = 0)
 *
 * The PMI handler has the shape of Linux's intel_pmu_handle_irq: disable
 * (optionally) -> read status -> handle each bit -> ack -> re-read, capped ->
 * re-enable -> unmask LVTPC last. Reloading a counter uses the value it
 * reached after wrapping, -(period - value), so that over a window exactly
 * floor(counted / period) overflows happen.
 */
#define pr_fmt(fmt) "pmutest: " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <asm/apic.h>
#include <asm/asm.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

/* ------------------------------------------------ hardware facts (SDM) */

/* v4 names and MSRs Linux 6.1's headers do not have (SDM 20.2.4.2). */
#define PT_MSR_GLOBAL_STATUS_RESET MSR_CORE_PERF_GLOBAL_OVF_CTRL /* 0x390 */
#define PT_MSR_GLOBAL_STATUS_SET   0x391
/* IA32_PERF_CAPABILITIES[13]: IA32_A_PMCx full-width writes (SDM 20.2.6) */
#define PT_PERF_CAP_FW_WRITE BIT_ULL(13)
/* RDPMC: ECX[30] selects the fixed-function counters (SDM Vol. 2B RDPMC) */
#define PT_RDPMC_FIXED BIT(30)

/* IA32_FIXED_CTR_CTRL: one 4-bit field per fixed counter (SDM 20.2.2) */
#define PT_FIXED_BITS		4
#define PT_FIXED_OS		0x1
#define PT_FIXED_USR		0x2
#define PT_FIXED_PMI		0x8
#define PT_FIXED_CTL(i, nibble) ((u64)(nibble) << ((i)*PT_FIXED_BITS))

/* IA32_PERF_GLOBAL_CTRL/STATUS bit of a GP or fixed counter (SDM 20.2.2) */
#define PT_GP(i)    BIT_ULL(i)
#define PT_FIXED(i) BIT_ULL(INTEL_PMC_IDX_FIXED + (i))

/* INST_RETIRED.ANY_P: event C0H, umask 00H (SDM Table 20-1) */
#define PT_EVENT_INST_RETIRED 0x00c0ULL
#define PT_SEL_INST_OS	      (PT_EVENT_INST_RETIRED | ARCH_PERFMON_EVENTSEL_OS)
#define PT_SEL_EN	      ARCH_PERFMON_EVENTSEL_ENABLE
#define PT_SEL_INT	      ARCH_PERFMON_EVENTSEL_INT

/* ------------------------------------------------------- test shape */

/* The counters this test uses: GP 0-3 and fixed 0-2 (CPUID.0AH must say so). */
#define PT_NR_GP    4
#define PT_NR_FIXED 3
#define PT_NCTR	    (PT_NR_GP + PT_NR_FIXED)
#define PT_CTR_BITS_ALL                                                                            \
	(PT_GP(0) | PT_GP(1) | PT_GP(2) | PT_GP(3) | PT_FIXED(0) | PT_FIXED(1) | PT_FIXED(2))
/* What the restore may clear and set again in GLOBAL_STATUS. */
#define PT_STATUS_RESTORABLE (PT_CTR_BITS_ALL | GLOBAL_STATUS_COUNTERS_FROZEN)

#define PT_ITERS	 1000000UL /* loop iterations per window: 3,000,000 instructions */
#define PT_MAX_SAMPLES	 4096
#define PT_HANDLER_LOOPS 8    /* status re-reads per PMI before giving up */
#define PT_GATE_PERIOD	 1009 /* a counter that must not count is preset to -this */

static int pt_cpu_param;
module_param_named(cpu, pt_cpu_param, int, 0444);
MODULE_PARM_DESC(cpu, "CPU to run the tests on (default 0)");

/* ------------------------------------------------- the counting loop */

/* Addresses of the loop's instructions (labels in pt_window). */
extern const u8 pt_loop_add[], pt_loop_sub[], pt_loop_jnz[], pt_loop_end[];

/*
 * One counting window. noinline and noclone: the asm defines the labels
 * above, so it must exist exactly once. %rsi counts the ADDs retired and
 * %rdi the SUBs still to go; a PMI's pt_regs therefore say exactly how many
 * loop instructions had retired when it was taken (pt_loop_retired()).
 */
static noinline __noclone void pt_window(u64 ctrl, unsigned long iters)
{
	u32 lo = lower_32_bits(ctrl), hi = upper_32_bits(ctrl);
	unsigned long acc = 0;

	if (!iters)
		return;
	asm volatile("wrmsr\n"
		     "pt_loop_add:\n\t"
		     "add $1, %[acc]\n"
		     "pt_loop_sub:\n\t"
		     "sub $1, %[n]\n"
		     "pt_loop_jnz:\n\t"
		     "jnz pt_loop_add\n"
		     "pt_loop_end:\n\t"
		     "xor %%eax, %%eax\n\t"
		     "xor %%edx, %%edx\n\t"
		     "wrmsr"
		     : [acc] "+S"(acc), [n] "+D"(iters), "+a"(lo), "+d"(hi)
		     : "c"(MSR_CORE_PERF_GLOBAL_CTRL)
		     : "cc", "memory");
}

/* Instructions the window counts besides the loop after it: the two XORs. */
#define PT_WINDOW_TAIL 2

/* ------------------------------------------------------ PMI handler */

struct pt_cfg {
	u64 ovf_mask;	     /* GLOBAL_STATUS counter bits this test owns */
	u64 period[PT_NCTR]; /* reload periods, by counter index */
	bool reload;	     /* reload each overflowed counter to -(period - value) */
	bool disable;	     /* GLOBAL_CTRL = 0 while the handler runs */
	bool unmask;	     /* unmask LVTPC at the end of the PMI */
	bool clear_frz;	     /* reset CTR_FRZ at the very end of the PMI */
	int sample_bit;	     /* counter whose value each sample records, or -1 */
};

/* A handler that owns every counter's overflow, reloads and samples none:
 * for the tests that check where overflows and PMIs do not happen. */
#define PT_CFG_ANY_OVERFLOW                                                                        \
	{                                                                                          \
		.ovf_mask = PT_CTR_BITS_ALL, .reload = true, .disable = true, .unmask = true,      \
		.sample_bit = -1                                                                   \
	}

struct pt_sample {
	u64 ip, si, di; /* the interrupted context */
	u64 status;	/* GLOBAL_STATUS on entry (after the optional disable) */
	u64 ctr;	/* cfg.sample_bit's counter on entry, before any reload */
	u32 lvtpc;	/* LVTPC on entry */
};

struct pt_res {
	unsigned int pmis;		/* NMIs taken while armed */
	unsigned int unmasked_on_entry; /* ... whose LVTPC was not masked */
	unsigned int no_status;		/* ... with none of ovf_mask set in status */
	unsigned int ovf[PT_NCTR];	/* overflows handled, per counter */
	unsigned int late;		/* a counter had run a whole period past its wrap */
	unsigned int stuck;		/* status still set after PT_HANDLER_LOOPS acks */
	unsigned int nsamples;
};

/* Everything the NMI handler touches, per CPU (only the test CPU is armed). */
struct pt_cpu {
	bool armed;
	bool fw_write; /* full-width writes through IA32_A_PMCx */
	u64 cntmask;   /* counter width mask */
	struct pt_cfg cfg;
	struct pt_res res;
	struct pt_sample *samples; /* PT_MAX_SAMPLES */
};

static DEFINE_PER_CPU(struct pt_cpu, pt_cpu);

/* Counter index 0..PT_NCTR-1 <-> GLOBAL_STATUS bit. */
static __always_inline int pt_bit(int idx)
{
	return idx < PT_NR_GP ? idx : INTEL_PMC_IDX_FIXED + idx - PT_NR_GP;
}

static __always_inline int pt_idx(int bit)
{
	return bit < INTEL_PMC_IDX_FIXED ? bit : PT_NR_GP + bit - INTEL_PMC_IDX_FIXED;
}

static __always_inline u64 pt_ctr_read(int bit)
{
	u64 v;

	if (bit < INTEL_PMC_IDX_FIXED)
		rdmsrl(MSR_ARCH_PERFMON_PERFCTR0 + bit, v);
	else
		rdmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + bit - INTEL_PMC_IDX_FIXED, v);
	return v;
}

/* Counter BIT counts with event select SEL (a GP counter) or with its
 * FIXED_CTR_CTRL NIBBLE (a fixed one: into *FIXED_CTL, which the caller
 * writes once for all fixed counters). */
static void pt_ctr_select(int bit, u64 sel, u64 nibble, u64 *fixed_ctl)
{
	if (bit < INTEL_PMC_IDX_FIXED)
		wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + bit, sel);
	else
		*fixed_ctl |= PT_FIXED_CTL(bit - INTEL_PMC_IDX_FIXED, nibble);
}

/*
 * Without full-width writes a GP counter takes bits 31:0 sign-extended
 * (SDM 20.2.6): fine for the small negative values this test writes.
 */
static __always_inline void pt_ctr_write(struct pt_cpu *pc, int bit, u64 v)
{
	v &= pc->cntmask;
	if (bit >= INTEL_PMC_IDX_FIXED)
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + bit - INTEL_PMC_IDX_FIXED, v);
	else if (pc->fw_write)
		wrmsrl(MSR_IA32_PMC0 + bit, v);
	else
		wrmsrl(MSR_ARCH_PERFMON_PERFCTR0 + bit, v);
}

static __always_inline void pt_handle_bits(struct pt_cpu *pc, u64 bits)
{
	int i;

	for (i = 0; i < PT_NCTR; i++) {
		int bit = pt_bit(i);
		u64 c, p;

		if (!(bits & BIT_ULL(bit)))
			continue;
		pc->res.ovf[i]++;
		if (!pc->cfg.reload)
			continue;
		/* c: counted since the wrap (the handler's entry, or 0 if frozen) */
		c = pt_ctr_read(bit);
		p = pc->cfg.period[i];
		if (c >= p) {
			pc->res.late++;
			c = 0;
		}
		pt_ctr_write(pc, bit, c - p);
	}
}

static int pt_nmi(unsigned int cmd, struct pt_regs *regs)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	u64 ctrl = 0, status;
	u32 lvtpc;
	int loops;

	if (!READ_ONCE(pc->armed))
		return NMI_DONE;
	lvtpc = apic_read(APIC_LVTPC);
	pc->res.pmis++;
	if (!(lvtpc & APIC_LVT_MASKED))
		pc->res.unmasked_on_entry++;
	if (pc->cfg.disable) {
		rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
		wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	}
	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	if (!(status & pc->cfg.ovf_mask))
		pc->res.no_status++;
	if (pc->samples && pc->res.nsamples < PT_MAX_SAMPLES) {
		struct pt_sample *s = &pc->samples[pc->res.nsamples++];

		s->ip = regs->ip;
		s->si = regs->si;
		s->di = regs->di;
		s->status = status;
		s->lvtpc = lvtpc;
		s->ctr = pc->cfg.sample_bit >= 0 ? pt_ctr_read(pc->cfg.sample_bit) : 0;
	}
	for (loops = 0; status & pc->cfg.ovf_mask; loops++) {
		if (loops == PT_HANDLER_LOOPS) {
			pc->res.stuck++;
			break;
		}
		pt_handle_bits(pc, status & pc->cfg.ovf_mask);
		wrmsrl(PT_MSR_GLOBAL_STATUS_RESET, status & pc->cfg.ovf_mask);
		rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	}
	if (pc->cfg.disable)
		wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	if (pc->cfg.unmask)
		apic_write(APIC_LVTPC, APIC_DM_NMI);
	if (pc->cfg.clear_frz)
		wrmsrl(PT_MSR_GLOBAL_STATUS_RESET, GLOBAL_STATUS_COUNTERS_FROZEN);
	return NMI_HANDLED;
}
NOKPROBE_SYMBOL(pt_nmi);

/* ------------------------------------------------------ test driver */

struct pt_saved {
	u64 global_ctrl, status, fixed_ctrl, debugctl;
	u64 evtsel[PT_NR_GP], pmc[PT_NR_GP], fixed[PT_NR_FIXED];
	u32 lvtpc;
};

static struct {
	int cpu;
	unsigned int version, nr_gp, nr_fixed, width;
	u64 perf_cap;
	u64 ncal; /* instructions one window of PT_ITERS counts without PMIs */
	u64 pre;  /* of which before the loop's first instruction */
	bool have_cal;
	s64 skid_tail[2]; /* pt_test_skid's T without and with freeze; -1: unknown */
	unsigned long pmis_total, unmasked_total;
	unsigned int nchecks, nfailed, nskipped;
	struct pt_saved saved;
} pt;

static __printf(3, 4) bool pt_check(const char *name, bool ok, const char *fmt, ...)
{
	char detail[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	pt.nchecks++;
	if (!ok)
		pt.nfailed++;
	pr_info("CHECK %s %s %s\n", name, ok ? "PASS" : "FAIL", detail);
	return ok;
}

static void pt_skip(const char *name, const char *why)
{
	pt.nskipped++;
	pr_info("CHECK %s SKIP %s\n", name, why);
}

static void pt_save(struct pt_saved *s)
{
	int i;

	rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, s->global_ctrl);
	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, s->status);
	rdmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, s->fixed_ctrl);
	rdmsrl(MSR_IA32_DEBUGCTLMSR, s->debugctl);
	for (i = 0; i < PT_NR_GP; i++) {
		rdmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + i, s->evtsel[i]);
		rdmsrl(MSR_ARCH_PERFMON_PERFCTR0 + i, s->pmc[i]);
	}
	for (i = 0; i < PT_NR_FIXED; i++)
		rdmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + i, s->fixed[i]);
	s->lvtpc = apic_read(APIC_LVTPC);
}

static void pt_restore(const struct pt_saved *s)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	int i;

	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	for (i = 0; i < PT_NR_GP; i++) {
		wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + i, s->evtsel[i]);
		pt_ctr_write(pc, pt_bit(i), s->pmc[i]);
	}
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, s->fixed_ctrl);
	for (i = 0; i < PT_NR_FIXED; i++)
		pt_ctr_write(pc, pt_bit(PT_NR_GP + i), s->fixed[i]);
	if (pt.version >= 4) {
		wrmsrl(PT_MSR_GLOBAL_STATUS_RESET, PT_STATUS_RESTORABLE);
		if (s->status & PT_STATUS_RESTORABLE)
			wrmsrl(PT_MSR_GLOBAL_STATUS_SET, s->status & PT_STATUS_RESTORABLE);
	} else {
		wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, PT_CTR_BITS_ALL);
	}
	wrmsrl(MSR_IA32_DEBUGCTLMSR, s->debugctl);
	apic_write(APIC_LVTPC, s->lvtpc);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, s->global_ctrl);
}

static bool pt_saved_equal(const struct pt_saved *a, const struct pt_saved *b)
{
	int i;

	for (i = 0; i < PT_NR_GP; i++)
		if (a->evtsel[i] != b->evtsel[i] || a->pmc[i] != b->pmc[i])
			return false;
	for (i = 0; i < PT_NR_FIXED; i++)
		if (a->fixed[i] != b->fixed[i])
			return false;
	return a->global_ctrl == b->global_ctrl && a->status == b->status &&
	       a->fixed_ctrl == b->fixed_ctrl && a->debugctl == b->debugctl && a->lvtpc == b->lvtpc;
}

/* Everything off and zero, status clear, no freeze, LVTPC = NMI unmasked. */
static void pt_pmu_clear(void)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	int i;

	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	for (i = 0; i < PT_NR_GP; i++)
		wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + i, 0);
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, 0);
	for (i = 0; i < PT_NCTR; i++)
		pt_ctr_write(pc, pt_bit(i), 0);
	wrmsrl(PT_MSR_GLOBAL_STATUS_RESET,
	       pt.version >= 4 ? PT_STATUS_RESTORABLE : PT_CTR_BITS_ALL);
	wrmsrl(MSR_IA32_DEBUGCTLMSR, pt.saved.debugctl & ~DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

static u64 pt_status(void)
{
	u64 v;

	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, v);
	return v;
}

static void pt_arm(const struct pt_cfg *cfg)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);

	pc->cfg = *cfg;
	memset(&pc->res, 0, sizeof(pc->res));
	barrier(); /* the handler runs on this CPU: program order is enough */
	WRITE_ONCE(pc->armed, true);
}

static struct pt_res *pt_disarm(void)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);

	WRITE_ONCE(pc->armed, false);
	barrier();
	pt.pmis_total += pc->res.pmis;
	pt.unmasked_total += pc->res.unmasked_on_entry;
	return &pc->res;
}

/* One window with interrupts off (NMIs still arrive). */
static void pt_run(u64 ctrl, unsigned long iters)
{
	unsigned long flags;

	local_irq_save(flags);
	pt_window(ctrl, iters);
	local_irq_restore(flags);
}

static u64 pt_neg(u64 period)
{
	return -period & this_cpu_ptr(&pt_cpu)->cntmask;
}

/* The counter's value after COUNTED instructions from -period with exact reloads. */
static u64 pt_final(u64 counted, u64 period)
{
	return pt_neg(period - counted % period);
}

static const char *pt_res_str(const struct pt_res *r, char *buf, size_t len)
{
	snprintf(buf, len, "pmis=%u unmasked_on_entry=%u no_status=%u late=%u stuck=%u", r->pmis,
		 r->unmasked_on_entry, r->no_status, r->late, r->stuck);
	return buf;
}

static bool pt_res_clean(const struct pt_res *r)
{
	return !r->unmasked_on_entry && !r->no_status && !r->late && !r->stuck;
}

/* ------------------------------------------------------------ checks */

/* Identity: an architectural PMU with what this test needs. */
static int pt_test_cpuid(void)
{
	union cpuid10_eax eax;
	union cpuid10_edx edx;
	unsigned int ebx, ecx;

	cpuid(0xa, &eax.full, &ebx, &ecx, &edx.full);
	pt.version = eax.split.version_id;
	pt.nr_gp = eax.split.num_counters;
	pt.width = eax.split.bit_width;
	pt.nr_fixed = edx.split.num_counters_fixed;
	if (boot_cpu_has(X86_FEATURE_PDCM))
		rdmsrl(MSR_IA32_PERF_CAPABILITIES, pt.perf_cap);
	if (!pt_check("cpuid",
		      pt.version >= 2 && pt.nr_gp >= PT_NR_GP && pt.nr_fixed >= PT_NR_FIXED &&
			      pt.width >= 32 && pt.width == edx.split.bit_width_fixed,
		      "version=%u gp=%u fixed=%u width=%u/%u perf_cap=%#llx", pt.version, pt.nr_gp,
		      pt.nr_fixed, pt.width, edx.split.bit_width_fixed, pt.perf_cap))
		return -ENODEV;
	return 0;
}

/*
 * Calibration: a window without PMIs counts 3 * iters loop instructions,
 * the two XORs after the loop and, depending on the implementation, the
 * WRMSR that opened it. Fixed counter 0 and GP counter 0 must agree, and a
 * second window must count exactly the same.
 */
static void pt_test_calibrate(void)
{
	u64 f[2], g[2], loop = 3 * PT_ITERS;
	int k;

	for (k = 0; k < 2; k++) {
		pt_pmu_clear();
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, PT_FIXED_CTL(0, PT_FIXED_OS));
		wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0, PT_SEL_INST_OS | PT_SEL_EN);
		pt_run(PT_GP(0) | PT_FIXED(0), PT_ITERS);
		f[k] = pt_ctr_read(pt_bit(PT_NR_GP));
		g[k] = pt_ctr_read(0);
	}
	pt.have_cal = f[0] >= loop + PT_WINDOW_TAIL && f[0] <= loop + PT_WINDOW_TAIL + 1;
	pt.ncal = f[0];
	pt.pre = pt.have_cal ? f[0] - loop - PT_WINDOW_TAIL : 0;
	pt_check("window-exact", pt.have_cal,
		 "fixed0 counted %llu for a loop of %llu (+%llu: %llu before the loop, %d after)",
		 f[0], loop, f[0] - loop, pt.pre, PT_WINDOW_TAIL);
	pt_check("window-repeatable", f[1] == f[0] && g[1] == g[0],
		 "fixed0 %llu then %llu, gp0 %llu then %llu", f[0], f[1], g[0], g[1]);
	pt_check("gp-equals-fixed", g[0] == f[0], "gp0=%llu fixed0=%llu", g[0], f[0]);

	/*
	 * Not a check (the SDM leaves it open): is the opening WRMSR counted
	 * the same when another counter is already running?
	 */
	pt_pmu_clear();
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL,
	       PT_FIXED_CTL(0, PT_FIXED_OS) | PT_FIXED_CTL(1, PT_FIXED_OS));
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, PT_FIXED(1));
	pt_run(PT_FIXED(0) | PT_FIXED(1), PT_ITERS);
	f[1] = pt_ctr_read(pt_bit(PT_NR_GP));
	pr_info("INFO window-opening-wrmsr counted %lld time(s) with all counters off before it, "
		"%lld with fixed1 already counting\n",
		(s64)(f[0] - loop - PT_WINDOW_TAIL), (s64)(f[1] - loop - PT_WINDOW_TAIL));
}

/*
 * a/b: counters preset to -P over one window raise exactly floor(N'/P)
 * overflows, N' being what a non-interrupting counter counted in the same
 * window (it stops with the others while the handler runs), and end at
 * the value exact reloads predict. TEST is a list of (counter bit, period);
 * REF is the measuring counter's bit.
 */
struct pt_ovf_case {
	int bit;
	u64 period;
};

static void pt_test_overflow(const char *name, const struct pt_ovf_case *tc, int n, int ref,
			     bool same_pmi)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	struct pt_cfg cfg = {.reload = true, .disable = true, .unmask = true, .sample_bit = -1};
	u64 ctrl = BIT_ULL(ref), fixed_ctl = 0, counted, sum = 0, maxovf = 0, both = 0;
	char detail[320], rs[128];
	const struct pt_res *r;
	size_t off = 0;
	bool ok = true;
	int i;

	pt_pmu_clear();
	for (i = 0; i < n; i++) {
		int bit = tc[i].bit;

		cfg.ovf_mask |= BIT_ULL(bit);
		cfg.period[pt_idx(bit)] = tc[i].period;
		pt_ctr_write(pc, bit, pt_neg(tc[i].period));
		pt_ctr_select(bit, PT_SEL_INST_OS | PT_SEL_INT | PT_SEL_EN,
			      PT_FIXED_OS | PT_FIXED_PMI, &fixed_ctl);
	}
	pt_ctr_select(ref, PT_SEL_INST_OS | PT_SEL_EN, PT_FIXED_OS, &fixed_ctl);
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, fixed_ctl);
	ctrl |= cfg.ovf_mask;

	pt_arm(&cfg);
	pt_run(ctrl, PT_ITERS);
	r = pt_disarm();
	counted = pt_ctr_read(ref);

	off += scnprintf(detail + off, sizeof(detail) - off, "N'=%llu (+%lld vs no PMI)", counted,
			 (s64)(counted - pt.ncal));
	for (i = 0; i < n; i++) {
		int bit = tc[i].bit;
		u64 want = counted / tc[i].period, v = pt_ctr_read(bit);
		u64 vwant = pt_final(counted, tc[i].period);
		unsigned int got = r->ovf[pt_idx(bit)];

		ok &= got == want && v == vwant;
		sum += got;
		maxovf = max_t(u64, maxovf, got);
		off += scnprintf(detail + off, sizeof(detail) - off,
				 " ctr%d:P=%llu ovf=%u/%llu final=%#llx/%#llx", bit, tc[i].period,
				 got, want, v, vwant);
	}
	/* A PMI may carry several overflows; each overflow has one PMI at most. */
	ok &= r->pmis >= maxovf && r->pmis <= sum && pt_res_clean(r) && counted >= pt.ncal;
	if (same_pmi) {
		for (i = 0; i < r->nsamples; i++)
			both += (pc->samples[i].status & cfg.ovf_mask) == cfg.ovf_mask;
		ok &= r->pmis == maxovf && both == r->nsamples;
		off += scnprintf(detail + off, sizeof(detail) - off, " all-bits=%llu/%u", both,
				 r->nsamples);
	}
	pt_check(name, ok, "%s %s", detail, pt_res_str(r, rs, sizeof(rs)));
}

static void pt_tests_overflow(void)
{
	static const u64 gp_periods[] = {2003, 10007, 10009, 30000, 4000000};
	char name[48];
	int i;

	/* a: GP counter 0, measured by fixed counter 0 */
	for (i = 0; i < ARRAY_SIZE(gp_periods); i++) {
		struct pt_ovf_case tc = {0, gp_periods[i]};

		snprintf(name, sizeof(name), "gp-pmi-p%llu", gp_periods[i]);
		pt_test_overflow(name, &tc, 1, pt_bit(PT_NR_GP), false);
	}
	/* b: fixed counter 0, measured by GP counter 1 */
	{
		struct pt_ovf_case tc = {pt_bit(PT_NR_GP), 10007};

		pt_test_overflow("fixed-pmi-p10007", &tc, 1, 1, false);
		tc.period = 3001;
		pt_test_overflow("fixed-pmi-p3001", &tc, 1, 1, false);
	}
	/* b: two counters overflowing at the same instructions: one PMI, both bits */
	{
		struct pt_ovf_case tc[] = {{0, 10007}, {pt_bit(PT_NR_GP), 10007}};

		pt_test_overflow("multi-same-p10007", tc, 2, 1, true);
	}
	/* b: three counters with different periods */
	{
		struct pt_ovf_case tc[] = {{0, 10007}, {2, 7919}, {pt_bit(PT_NR_GP), 13001}};

		pt_test_overflow("multi-diff", tc, 3, 1, false);
	}
}

/*
 * c: the PMI masks LVTPC; while it stays masked no further PMI arrives
 * (overflows still set their status bit); unmasking alone replays nothing;
 * after unmasking, the next overflow interrupts again.
 */
static void pt_test_lvtpc(void)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	struct pt_cfg cfg = {
		.ovf_mask = PT_GP(0), .reload = true, .disable = true, .sample_bit = -1};
	const u64 period = 10007;
	const struct pt_res *r;
	u64 st, counted;
	u32 lvt;
	char rs[128];

	cfg.period[0] = period;
	pt_pmu_clear();
	pt_ctr_write(pc, 0, pt_neg(period));
	wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0, PT_SEL_INST_OS | PT_SEL_INT | PT_SEL_EN);
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, PT_FIXED_CTL(0, PT_FIXED_OS));

	cfg.unmask = false;
	pt_arm(&cfg);
	pt_run(PT_GP(0) | PT_FIXED(0), PT_ITERS);
	lvt = apic_read(APIC_LVTPC);
	st = pt_status();
	counted = pt_ctr_read(pt_bit(PT_NR_GP));
	r = &pc->res;
	pt_check("lvtpc-masked-after-pmi",
		 r->pmis >= 1 && (lvt & APIC_LVT_MASKED) && r->nsamples &&
			 (pc->samples[0].lvtpc & APIC_LVT_MASKED),
		 "LVTPC=%#x after the window, %#x in the first PMI; %s", lvt,
		 r->nsamples ? pc->samples[0].lvtpc : 0, pt_res_str(r, rs, sizeof(rs)));
	pt_check("lvtpc-masked-blocks-pmi",
		 r->pmis == 1 && (st & PT_GP(0)) && counted / period >= 2,
		 "%u PMI(s) for %llu overflows, GLOBAL_STATUS=%#llx after the window", r->pmis,
		 counted / period, st);

	/* Unmask with the overflow bit still pending: nothing may be replayed. */
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	pt_run(0, PT_ITERS);
	pt_check("lvtpc-unmask-no-replay", r->pmis == 1,
		 "%u PMI(s) after unmasking with GLOBAL_STATUS=%#llx pending", r->pmis, st);
	r = pt_disarm();

	/* Unmasked and acknowledged: overflows interrupt again, one PMI each. */
	wrmsrl(PT_MSR_GLOBAL_STATUS_RESET, PT_GP(0));
	pt_ctr_write(pc, 0, pt_neg(period));
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0, 0);
	cfg.unmask = true;
	pt_arm(&cfg);
	pt_run(PT_GP(0) | PT_FIXED(0), PT_ITERS);
	r = pt_disarm();
	counted = pt_ctr_read(pt_bit(PT_NR_GP));
	pt_check("lvtpc-unmask-next",
		 r->pmis == counted / period && r->ovf[0] == r->pmis && pt_res_clean(r),
		 "N'=%llu P=%llu: %u PMIs, want %llu; %s", counted, period, r->pmis,
		 counted / period, pt_res_str(r, rs, sizeof(rs)));
}

/*
 * d: a counter that is not enabled by all of GLOBAL_CTRL, its EN bit (or
 * FIXED_CTR_CTRL field) and a privilege-level bit that matches CPL 0 neither
 * counts nor interrupts, while the reference counter counts the window.
 */
static void pt_gate(const char *name, int bit, u64 sel_or_nibble, u64 ctrl, int ref)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	struct pt_cfg cfg = PT_CFG_ANY_OVERFLOW;
	u64 fixed_ctl = 0, v, counted, st;
	const struct pt_res *r;
	char rs[128];
	int i;

	for (i = 0; i < PT_NCTR; i++)
		cfg.period[i] = PT_GATE_PERIOD;
	pt_pmu_clear();
	pt_ctr_write(pc, bit, pt_neg(PT_GATE_PERIOD));
	pt_ctr_select(bit, sel_or_nibble, sel_or_nibble, &fixed_ctl);
	pt_ctr_select(ref, PT_SEL_INST_OS | PT_SEL_EN, PT_FIXED_OS, &fixed_ctl);
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, fixed_ctl);

	pt_arm(&cfg);
	pt_run(ctrl | BIT_ULL(ref), PT_ITERS);
	r = pt_disarm();
	v = pt_ctr_read(bit);
	counted = pt_ctr_read(ref);
	st = pt_status();
	pt_check(name, v == pt_neg(PT_GATE_PERIOD) && !r->pmis && !st && counted == pt.ncal,
		 "ctr%d %#llx (preset %#llx), GLOBAL_STATUS=%#llx, reference counted %llu/%llu; %s",
		 bit, v, pt_neg(PT_GATE_PERIOD), st, counted, pt.ncal,
		 pt_res_str(r, rs, sizeof(rs)));
}

/*
 * An overflow without INT (or the fixed counter's PMI bit) sets its
 * GLOBAL_STATUS bit and wraps, but raises no PMI (SDM 20.2.1.1, 20.2.2).
 */
static void pt_ovf_no_int(const char *name, int bit, int ref)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	struct pt_cfg cfg = PT_CFG_ANY_OVERFLOW;
	const u64 period = 10007;
	u64 fixed_ctl = 0, v, counted, st;
	const struct pt_res *r;
	char rs[128];

	pt_pmu_clear();
	pt_ctr_write(pc, bit, pt_neg(period));
	pt_ctr_select(bit, PT_SEL_INST_OS | PT_SEL_EN, PT_FIXED_OS, &fixed_ctl);
	pt_ctr_select(ref, PT_SEL_INST_OS | PT_SEL_EN, PT_FIXED_OS, &fixed_ctl);
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, fixed_ctl);
	pt_arm(&cfg);
	pt_run(BIT_ULL(bit) | BIT_ULL(ref), PT_ITERS);
	r = pt_disarm();
	v = pt_ctr_read(bit);
	counted = pt_ctr_read(ref);
	st = pt_status();
	pt_check(name,
		 !r->pmis && st == BIT_ULL(bit) && v == counted - period && counted == pt.ncal,
		 "ctr%d %#llx (want %#llx), GLOBAL_STATUS=%#llx (want %#llx); %s", bit, v,
		 counted - period, st, BIT_ULL(bit), pt_res_str(r, rs, sizeof(rs)));
}

static void pt_tests_gating(void)
{
	const u64 on = PT_SEL_INST_OS | PT_SEL_INT | PT_SEL_EN;
	const int f0 = pt_bit(PT_NR_GP);

	pt_gate("gate-global-ctrl-gp", 0, on, 0, f0);
	pt_gate("gate-en-clear", 0, on & ~PT_SEL_EN, PT_GP(0), f0);
	pt_gate("gate-usr-only-in-kernel", 0,
		(on & ~ARCH_PERFMON_EVENTSEL_OS) | ARCH_PERFMON_EVENTSEL_USR, PT_GP(0), f0);
	pt_gate("gate-global-ctrl-fixed", f0, PT_FIXED_OS | PT_FIXED_PMI, 0, 1);
	pt_gate("gate-fixed-ctrl-zero", f0, 0, PT_FIXED(0), 1);
	pt_gate("gate-fixed-ctrl-pmi-only", f0, PT_FIXED_PMI, PT_FIXED(0), 1);
	pt_gate("gate-fixed-ctrl-usr-only", f0, PT_FIXED_USR | PT_FIXED_PMI, PT_FIXED(0), 1);
	pt_ovf_no_int("ovf-no-int-gp", 0, f0);
	pt_ovf_no_int("ovf-no-int-fixed", f0, 1);
}

/*
 * e: STATUS_SET sets exactly the bits written and raises no PMI;
 * STATUS_RESET clears exactly the bits written; GLOBAL_STATUS itself is
 * read-only and reserved bits fault.
 */
static void pt_tests_status(void)
{
	struct pt_cfg cfg = {
		.ovf_mask = PT_CTR_BITS_ALL, .disable = true, .unmask = true, .sample_bit = -1};
	const u64 set = PT_GP(0) | PT_GP(2) | PT_FIXED(0) | PT_FIXED(2);
	const u64 first = PT_GP(0) | PT_FIXED(0);
	const struct pt_res *r;
	u64 st0, st1, st2, st3;
	int err;

	if (pt.version < 4) {
		pt_skip("status-set", "needs architectural PMU v4");
		return;
	}
	pt_pmu_clear();
	st0 = pt_status();
	pt_arm(&cfg);
	wrmsrl(PT_MSR_GLOBAL_STATUS_SET, set);
	st1 = pt_status();
	pt_run(0, PT_ITERS); /* time for a wrongly raised PMI to arrive */
	r = pt_disarm();
	pt_check("status-set", st0 == 0 && st1 == set, "status %#llx, after SET %#llx: %#llx", st0,
		 set, st1);
	pt_check("status-set-no-pmi", r->pmis == 0, "%u PMI(s) with LVTPC unmasked", r->pmis);
	wrmsrl(PT_MSR_GLOBAL_STATUS_RESET, first);
	st2 = pt_status();
	wrmsrl(PT_MSR_GLOBAL_STATUS_RESET, set & ~first);
	st3 = pt_status();
	pt_check("status-reset-exact", st2 == (set & ~first) && st3 == 0,
		 "RESET %#llx: %#llx, then RESET %#llx: %#llx", first, st2, set & ~first, st3);

	err = wrmsrl_safe(MSR_CORE_PERF_GLOBAL_STATUS, 0);
	pt_check("status-read-only", err != 0, "WRMSR to GLOBAL_STATUS %s",
		 err ? "faulted" : "did not fault");
	if (pt.nr_gp < INTEL_PMC_IDX_FIXED) {
		err = wrmsrl_safe(PT_MSR_GLOBAL_STATUS_RESET, BIT_ULL(pt.nr_gp));
		pt_check("status-reset-reserved", err != 0,
			 "STATUS_RESET of bit %u (no such counter) %s", pt.nr_gp,
			 err ? "faulted" : "did not fault");
	}
}

/*
 * f: with DEBUGCTL.FREEZE_PERFMON_ON_PMI the first PMI sets CTR_FRZ and
 * stops every counter until CTR_FRZ is reset through STATUS_RESET.
 */
static void pt_test_freeze(void)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	struct pt_cfg cfg = {.ovf_mask = PT_GP(0), .unmask = true, .sample_bit = 0};
	const u64 period = 10007, ctrl = PT_GP(0) | PT_FIXED(0);
	const int f0 = pt_bit(PT_NR_GP);
	u64 st1, g1, f1, st2, g2, f2, st3, g3, f3, dbg;
	const struct pt_res *r;
	char rs[128];

	if (pt.version < 4) {
		pt_skip("freeze-on-pmi", "needs architectural PMU v4");
		return;
	}
	cfg.period[0] = period;
	pt_pmu_clear();
	wrmsrl(MSR_IA32_DEBUGCTLMSR, pt.saved.debugctl | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	rdmsrl(MSR_IA32_DEBUGCTLMSR, dbg);
	pt_ctr_write(pc, 0, pt_neg(period));
	wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0, PT_SEL_INST_OS | PT_SEL_INT | PT_SEL_EN);
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, PT_FIXED_CTL(0, PT_FIXED_OS));

	pt_arm(&cfg);
	pt_run(ctrl, PT_ITERS);
	st1 = pt_status();
	g1 = pt_ctr_read(0);
	f1 = pt_ctr_read(f0);
	r = &pc->res;
	pt_check("freeze-sets-ctr-frz",
		 (dbg & DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI) && r->pmis == 1 && r->nsamples &&
			 (pc->samples[0].status & GLOBAL_STATUS_COUNTERS_FROZEN) &&
			 st1 == GLOBAL_STATUS_COUNTERS_FROZEN,
		 "DEBUGCTL=%#llx; GLOBAL_STATUS %#llx in the PMI, %#llx after the window; %s", dbg,
		 r->nsamples ? pc->samples[0].status : 0, st1, pt_res_str(r, rs, sizeof(rs)));
	/* Frozen at the PMI: the counter wrapped and counted nothing more. */
	pt_check("freeze-stops-at-pmi", g1 == 0 && f1 == period,
		 "gp0=%#llx (0 wanted: zero skid, frozen), fixed0=%llu (%llu wanted)", g1, f1,
		 period);

	pt_run(ctrl, PT_ITERS);
	st2 = pt_status();
	g2 = pt_ctr_read(0);
	f2 = pt_ctr_read(f0);
	pt_check("freeze-holds", r->pmis == 1 && g2 == g1 && f2 == f1 && st2 == st1,
		 "after another window: gp0 %#llx->%#llx fixed0 %llu->%llu status %#llx, pmis=%u",
		 g1, g2, f1, f2, st2, r->pmis);

	wrmsrl(PT_MSR_GLOBAL_STATUS_RESET, GLOBAL_STATUS_COUNTERS_FROZEN);
	st3 = pt_status();
	pt_run(ctrl, PT_ITERS);
	g3 = pt_ctr_read(0);
	f3 = pt_ctr_read(f0);
	r = pt_disarm();
	pt_check("freeze-reset-resumes",
		 st3 == 0 && r->pmis == 1 && g3 - g2 == pt.ncal && f3 - f2 == pt.ncal,
		 "status %#llx after RESET of CTR_FRZ; window counted gp0 +%llu fixed0 +%llu (%llu "
		 "wanted), pmis=%u",
		 st3, g3 - g2, f3 - f2, pt.ncal, r->pmis);
	wrmsrl(MSR_IA32_DEBUGCTLMSR, pt.saved.debugctl);
}

/* RDPMC that returns -EFAULT instead of oopsing when the index faults (#GP). */
static int pt_rdpmc_safe(u32 idx, u64 *val)
{
	u32 lo = 0, hi = 0;
	int err = -EFAULT;

	asm volatile("1: rdpmc\n\t"
		     "xor %[err], %[err]\n"
		     "2:\n\t" _ASM_EXTABLE(1b, 2b)
		     : [err] "+r"(err), "+a"(lo), "+d"(hi)
		     : "c"(idx));
	*val = lo | (u64)hi << 32;
	return err;
}

/*
 * g: RDPMC in the kernel returns the counter MSRs (ECX[30] selects the
 * fixed counters) and faults with #GP on an index past the last counter.
 */
static void pt_tests_rdpmc(void)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	bool ok_gp = true, ok_fixed = true;
	char dgp[160] = "", dfx[160] = "";
	size_t ogp = 0, ofx = 0;
	u64 v, m;
	int i, err;

	pt_pmu_clear(); /* counting off: the values stay put */
	for (i = 0; i < PT_NCTR; i++)
		pt_ctr_write(pc, pt_bit(i), pc->fw_write ? 0x123456789a00ULL + i : 0x12345600 + i);
	for (i = 0; i < PT_NR_GP; i++) {
		err = pt_rdpmc_safe(i, &v);
		m = pt_ctr_read(i);
		ok_gp &= !err && v == m;
		ogp += scnprintf(dgp + ogp, sizeof(dgp) - ogp, " %d:%#llx/%#llx%s", i, v, m,
				 err ? "(#GP)" : "");
	}
	for (i = 0; i < PT_NR_FIXED; i++) {
		err = pt_rdpmc_safe(PT_RDPMC_FIXED | i, &v);
		m = pt_ctr_read(pt_bit(PT_NR_GP + i));
		ok_fixed &= !err && v == m;
		ofx += scnprintf(dfx + ofx, sizeof(dfx) - ofx, " %d:%#llx/%#llx%s", i, v, m,
				 err ? "(#GP)" : "");
	}
	pt_check("rdpmc-gp", ok_gp, "rdpmc/msr%s", dgp);
	pt_check("rdpmc-fixed", ok_fixed, "rdpmc/msr%s", dfx);
	err = pt_rdpmc_safe(pt.nr_gp, &v);
	pt_check("rdpmc-bad-gp-index-faults", err == -EFAULT, "RDPMC(%#x) %s", pt.nr_gp,
		 err ? "raised #GP" : "did not fault");
	err = pt_rdpmc_safe(PT_RDPMC_FIXED | pt.nr_fixed, &v);
	pt_check("rdpmc-bad-fixed-index-faults", err == -EFAULT, "RDPMC(%#lx) %s",
		 PT_RDPMC_FIXED | pt.nr_fixed, err ? "raised #GP" : "did not fault");
	pt_pmu_clear();
}

/*
 * Loop instructions retired when a PMI interrupted the loop, from its
 * registers: %rsi = ADDs retired, iters - %rdi = SUBs retired, and the
 * JNZs retired follow from where the loop stands. -1 if the sample is not
 * in the loop or its registers contradict its IP.
 */
static s64 pt_loop_retired(const struct pt_sample *s, unsigned long iters, int *where)
{
	u64 adds = s->si, subs = iters - s->di;

	if (s->ip == (unsigned long)pt_loop_add && adds == subs) {
		*where = 0;
		return adds + subs + subs;
	}
	if (s->ip == (unsigned long)pt_loop_sub && adds == subs + 1) {
		*where = 1;
		return adds + subs + subs;
	}
	if (s->ip == (unsigned long)pt_loop_jnz && adds == subs && subs) {
		*where = 2;
		return adds + subs + subs - 1;
	}
	if (s->ip == (unsigned long)pt_loop_end && adds == iters && subs == iters) {
		*where = 3;
		return 3 * iters;
	}
	*where = -1;
	return -1;
}

/*
 * h: zero skid. With a period P, the PMI must interrupt the instruction
 * right after the one that made the counter wrap.
 *
 * The first wrap comes after P counted instructions, of which pt.pre
 * precede the loop: the first PMI must stand after loop instruction
 * P - pre, at the loop address (P - pre) mod 3, whatever the handler does.
 *
 * The handler reads the counter (c, counted since the wrap) and reloads it
 * to -(P - c); the next wrap comes after P - c more counted instructions:
 * the handler's tail T after it re-enabled counting (GLOBAL_CTRL or CTR_FRZ),
 * then loop instructions. So between PMIs k-1 and k the loop advances by
 * exactly P - c(k-1) - T, with T the same instruction path every time: T
 * must be one constant per handler kind (freeze or not), for every PMI and
 * every P, i.e. the IPs cycle through the loop with stride (P - c - T) mod 3.
 * With FREEZE_PERFMON_ON_PMI c must be 0 in every PMI: nothing retired
 * between the wrap and the PMI. (Without freeze c is the NMI entry's own
 * instructions, which Linux varies: back-to-back NMI detection compares
 * regs->ip with the previous NMI's; the scenario raises nmi_longest_ns so
 * that the exit path does not depend on the handler's duration.)
 */
static void pt_test_skid(u64 period, bool freeze)
{
	struct pt_cpu *pc = this_cpu_ptr(&pt_cpu);
	struct pt_cfg cfg = {.ovf_mask = PT_GP(0),
			     .reload = true,
			     .disable = !freeze,
			     .unmask = true,
			     .clear_frz = freeze,
			     .sample_bit = 0};
	unsigned int hist[4] = {0}, bad_ip = 0, bad_ctr = 0, bad_t = 0, i;
	s64 first = -1, prev_l = -1, prev_c = 0, *tail = &pt.skid_tail[freeze];
	u64 cmin = U64_MAX, cmax = 0, want_first;
	const struct pt_res *r;
	char name[48], rs[128];
	bool ok;

	snprintf(name, sizeof(name), "%s-p%llu", freeze ? "skid" : "skid-nofreeze", period);
	if (!pt.have_cal) {
		pt_skip(name, "no calibration (window-exact failed)");
		return;
	}
	if (freeze && pt.version < 4) {
		pt_skip(name, "needs architectural PMU v4 (freeze)");
		return;
	}
	cfg.period[0] = period;
	pt_pmu_clear();
	if (freeze)
		wrmsrl(MSR_IA32_DEBUGCTLMSR, pt.saved.debugctl | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	pt_ctr_write(pc, 0, pt_neg(period));
	wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0, PT_SEL_INST_OS | PT_SEL_INT | PT_SEL_EN);
	pt_arm(&cfg);
	pt_run(PT_GP(0), PT_ITERS);
	r = pt_disarm();
	wrmsrl(MSR_IA32_DEBUGCTLMSR, pt.saved.debugctl);

	want_first = period - pt.pre;
	for (i = 0; i < r->nsamples; i++) {
		const struct pt_sample *s = &pc->samples[i];
		int where;
		s64 l = pt_loop_retired(s, PT_ITERS, &where);

		if (l < 0) {
			bad_ip++;
			prev_l = -1;
			continue;
		}
		hist[where]++;
		cmin = min(cmin, s->ctr);
		cmax = max(cmax, s->ctr);
		if (freeze && s->ctr != 0)
			bad_ctr++;
		if (i == 0) {
			first = l;
		} else if (prev_l >= 0) {
			s64 tk = (s64)period - prev_c - (l - prev_l);

			if (*tail < 0)
				*tail = tk;
			if (tk != *tail)
				bad_t++;
		}
		prev_l = l;
		prev_c = s->ctr;
	}
	ok = r->pmis >= 2 && r->pmis == r->nsamples && !bad_ip && !bad_ctr && !bad_t &&
	     first == (s64)want_first && pt_res_clean(r);
	pt_check(name, ok,
		 "first PMI after loop insn %lld (want %llu: at %s); ctr in PMI %llu..%llu; tail "
		 "T=%lld; ips add/sub/jnz/end=%u/%u/%u/%u bad_ip=%u bad_ctr=%u bad_T=%u; %s",
		 first, want_first,
		 (want_first % 3) == 0	 ? "add"
		 : (want_first % 3) == 1 ? "sub"
					 : "jnz",
		 cmin, cmax, *tail, hist[0], hist[1], hist[2], hist[3], bad_ip, bad_ctr, bad_t,
		 pt_res_str(r, rs, sizeof(rs)));
}

static void pt_tests_skid(void)
{
	/* P mod 3 = 2, 0, 1 */
	static const u64 periods[] = {10007, 10008, 10009};
	int i;

	for (i = 0; i < ARRAY_SIZE(periods); i++)
		pt_test_skid(periods[i], true);
	for (i = 0; i < ARRAY_SIZE(periods); i++)
		pt_test_skid(periods[i], false);
}

/* Runs in a kworker bound to pt.cpu. */
static long pt_suite(void *unused)
{
	struct pt_cpu *pc;
	int err = 0;

	/*
	 * Preemption off from save to restore: nothing else may run on this
	 * CPU while the PMU is ours. Each window takes milliseconds under TCG.
	 */
	preempt_disable();
	pc = this_cpu_ptr(&pt_cpu);
	pr_info("START cpu=%d loop add=%px sub=%px jnz=%px end=%px\n", smp_processor_id(),
		pt_loop_add, pt_loop_sub, pt_loop_jnz, pt_loop_end);
	err = pt_test_cpuid();
	if (err)
		goto out;
	pc->cntmask = GENMASK_ULL(pt.width - 1, 0);
	pc->fw_write = pt.perf_cap & PT_PERF_CAP_FW_WRITE;
	pt.skid_tail[0] = pt.skid_tail[1] = -1;
	pt_save(&pt.saved);
	pr_info("saved GLOBAL_CTRL=%#llx STATUS=%#llx FIXED_CTR_CTRL=%#llx DEBUGCTL=%#llx "
		"LVTPC=%#x\n",
		pt.saved.global_ctrl, pt.saved.status, pt.saved.fixed_ctrl, pt.saved.debugctl,
		pt.saved.lvtpc);

	pt_test_calibrate();
	pt_tests_rdpmc();
	pt_tests_status();
	pt_tests_gating();
	pt_tests_overflow();
	pt_test_lvtpc();
	pt_test_freeze();
	pt_tests_skid();
	pt_check("lvtpc-masked-on-entry", pt.pmis_total > 0 && !pt.unmasked_total,
		 "%lu of %lu PMIs found LVTPC unmasked on entry", pt.unmasked_total, pt.pmis_total);

	pt_restore(&pt.saved);
	{
		struct pt_saved now;

		pt_save(&now);
		pt_check("state-restored", pt_saved_equal(&now, &pt.saved),
			 "GLOBAL_CTRL=%#llx STATUS=%#llx FIXED_CTR_CTRL=%#llx DEBUGCTL=%#llx "
			 "LVTPC=%#x",
			 now.global_ctrl, now.status, now.fixed_ctrl, now.debugctl, now.lvtpc);
	}
out:
	preempt_enable();
	return err;
}

static int __init pt_init(void)
{
	struct pt_sample *samples;
	long ret;

	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON) || !boot_cpu_has(X86_FEATURE_APIC)) {
		pr_info("CHECK cpuid FAIL no architectural PMU or no local APIC\n");
		return -ENODEV;
	}
	if (pt_cpu_param < 0 || pt_cpu_param >= nr_cpu_ids || !cpu_online(pt_cpu_param))
		return -EINVAL;
	pt.cpu = pt_cpu_param;
	samples = kvcalloc(PT_MAX_SAMPLES, sizeof(*samples), GFP_KERNEL);
	if (!samples)
		return -ENOMEM;
	per_cpu_ptr(&pt_cpu, pt.cpu)->samples = samples;
	ret = register_nmi_handler(NMI_LOCAL, pt_nmi, 0, "pmutest");
	if (ret)
		goto out_free;
	ret = work_on_cpu(pt.cpu, pt_suite, NULL);
	unregister_nmi_handler(NMI_LOCAL, "pmutest");
	if (!ret)
		pr_info("DONE checks=%u failed=%u skipped=%u\n", pt.nchecks, pt.nfailed,
			pt.nskipped);
out_free:
	per_cpu_ptr(&pt_cpu, pt.cpu)->samples = NULL;
	kvfree(samples);
	return ret;
}

static void __exit pt_exit(void)
{
	pr_info("unloaded\n");
}

module_init(pt_init);
module_exit(pt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("pmutest: register-level PMI test of the (emulated) Intel PMU");
