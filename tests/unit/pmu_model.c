/* SPDX-License-Identifier: GPL-2.0 */
/* Register-level model of the architectural PMU; see pmu_model.h. */
#include "pmu_model.h"
#include "platform_test_cpu.h"
#include "pmuprof/x86_pmu_regs.h"

/* Skylake client, stepping 3 (CPUID.1:EAX 0x000506e3). */
#define MODEL_DEFAULT_SIGNATURE 0x000506e3u

static u64 wmask(u32 w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static bool v2(const struct pmu_model *m)
{
	return m->cfg.version >= X86_PMU_V_FIXED;
}

static u32 fixed_present(const struct pmu_model *m)
{
	u32 mask;

	if (!v2(m))
		return 0;
	mask = (1u << m->cfg.nr_fixed) - 1;
	if (m->cfg.version >= X86_PMU_V_FIXED_MASK)
		mask |= m->cfg.fixed_ecx;
	return mask & ((1u << PMU_MODEL_MAX_FIXED) - 1);
}

static u64 global_valid(const struct pmu_model *m)
{
	u64 v = (1ull << m->cfg.nr_gp) - 1;
	u32 f = fixed_present(m);

	for (u32 i = 0; i < PMU_MODEL_MAX_FIXED; i++)
		if (f & (1u << i))
			v |= X86_GLOBAL_FIXED(i);
	return v;
}

static int refuse(struct pmu_model *m)
{
	m->faults++;
	return -EIO;
}

static int model_read(void *ctx, u32 msr, u64 *val)
{
	struct pmu_model *m = ctx;

	if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + m->cfg.nr_gp) {
		*val = m->pmc[msr - MSR_IA32_PMC0];
		return 0;
	}
	if (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + PMU_MODEL_MAX_GP) {
		if (!m->cfg.full_width || msr >= MSR_IA32_A_PMC0 + m->cfg.nr_gp)
			return refuse(m);
		*val = m->pmc[msr - MSR_IA32_A_PMC0];
		return 0;
	}
	if (msr >= MSR_IA32_PERFEVTSEL0 && msr < MSR_IA32_PERFEVTSEL0 + m->cfg.nr_gp) {
		*val = m->evtsel[msr - MSR_IA32_PERFEVTSEL0];
		return 0;
	}
	if (msr >= MSR_IA32_FIXED_CTR0 && msr < MSR_IA32_FIXED_CTR0 + PMU_MODEL_MAX_FIXED) {
		if (!(fixed_present(m) & (1u << (msr - MSR_IA32_FIXED_CTR0))))
			return refuse(m);
		*val = m->fixed[msr - MSR_IA32_FIXED_CTR0];
		return 0;
	}
	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL:
		if (!v2(m))
			return refuse(m);
		*val = m->fixed_ctrl;
		return 0;
	case MSR_IA32_PERF_GLOBAL_CTRL:
		if (!v2(m))
			return refuse(m);
		*val = m->global_ctrl;
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS:
		if (!v2(m))
			return refuse(m);
		*val = m->global_status;
		return 0;
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		if (!v2(m))
			return refuse(m);
		*val = 0; /* write-only in effect */
		return 0;
	}
	return -ENOENT;
}

static int model_write(void *ctx, u32 msr, u64 val)
{
	struct pmu_model *m = ctx;

	if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + m->cfg.nr_gp) {
		/* legacy write: bits 31:0, bit 31 sign-extended to the width */
		u64 v = val & 0xffffffffull;

		if (v & (1ull << 31))
			v |= ~0xffffffffull;
		m->pmc[msr - MSR_IA32_PMC0] = v & wmask(m->cfg.gp_width);
		return 0;
	}
	if (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + PMU_MODEL_MAX_GP) {
		if (!m->cfg.full_width || msr >= MSR_IA32_A_PMC0 + m->cfg.nr_gp ||
		    (val & ~wmask(m->cfg.gp_width)))
			return refuse(m);
		m->pmc[msr - MSR_IA32_A_PMC0] = val;
		return 0;
	}
	if (msr >= MSR_IA32_PERFEVTSEL0 && msr < MSR_IA32_PERFEVTSEL0 + m->cfg.nr_gp) {
		u64 reserved = X86_EVTSEL_RESERVED;

		if (m->cfg.version < X86_PMU_V_ANYTHREAD || m->cfg.anythread_deprecated)
			reserved |= X86_EVTSEL_ANY;
		if (val & reserved)
			return refuse(m);
		m->evtsel[msr - MSR_IA32_PERFEVTSEL0] = val;
		return 0;
	}
	if (msr >= MSR_IA32_FIXED_CTR0 && msr < MSR_IA32_FIXED_CTR0 + PMU_MODEL_MAX_FIXED) {
		if (!(fixed_present(m) & (1u << (msr - MSR_IA32_FIXED_CTR0))) ||
		    (val & ~wmask(m->cfg.fixed_width)))
			return refuse(m);
		m->fixed[msr - MSR_IA32_FIXED_CTR0] = val;
		return 0;
	}
	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL: {
		u64 ok = 0;
		u32 f = fixed_present(m);

		if (!v2(m))
			return refuse(m);
		for (u32 i = 0; i < PMU_MODEL_MAX_FIXED; i++) {
			u64 nib = X86_FIXED_CTRL_OS | X86_FIXED_CTRL_USR | X86_FIXED_CTRL_PMI;

			if (m->cfg.version >= X86_PMU_V_ANYTHREAD && !m->cfg.anythread_deprecated)
				nib |= X86_FIXED_CTRL_ANY;
			if (f & (1u << i))
				ok |= nib << X86_FIXED_CTRL_SHIFT(i);
		}
		if (val & ~ok)
			return refuse(m);
		m->fixed_ctrl = val;
		return 0;
	}
	case MSR_IA32_PERF_GLOBAL_CTRL:
		if (!v2(m) || (val & ~global_valid(m)))
			return refuse(m);
		m->global_ctrl = val;
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS:
		return refuse(m); /* read-only */
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		if (!v2(m) || (val & ~(global_valid(m) | X86_GLOBAL_STATUS_OVF_BUF |
				       X86_GLOBAL_STATUS_COND_CHGD | X86_GLOBAL_STATUS_OVF_UNCORE)))
			return refuse(m);
		m->global_status &= ~(val & ~m->sticky_status);
		return 0;
	}
	return -ENOENT;
}

void pmu_model_init(struct pmu_model *m, const struct pmu_model_cfg *cfg)
{
	static struct plat_test_msr_handler h;
	union x86_cpuid10_eax eax = {.full = 0};
	union x86_cpuid10_edx edx = {.full = 0};
	u32 ecx1 = 0;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!m->cfg.signature)
		m->cfg.signature = MODEL_DEFAULT_SIGNATURE;
	if (v2(m))
		m->global_ctrl = global_valid(m); /* power-up value: all enabled */

	eax.split.version = cfg->version;
	eax.split.num_gp = cfg->nr_gp;
	eax.split.gp_width = cfg->gp_width;
	eax.split.ebx_length = cfg->ebx_len;
	edx.split.num_fixed = cfg->nr_fixed;
	edx.split.fixed_width = cfg->fixed_width;
	edx.split.anythread_deprecated = cfg->anythread_deprecated;

	plat_test_set_vendor(X86_VENDOR_INTEL_STR, X86_CPUID_LEAF_PERFMON);
	if (cfg->full_width) {
		ecx1 |= X86_CPUID1_ECX_PDCM;
		plat_test_msr_define(MSR_IA32_PERF_CAPABILITIES, X86_PERF_CAP_FW_WRITE, 0);
	}
	plat_test_set_cpuid1(m->cfg.signature, ecx1, 0);
	plat_test_set_cpuid(X86_CPUID_LEAF_PERFMON, PLAT_TEST_ANY_SUBLEAF, eax.full, cfg->ebx,
			    cfg->fixed_ecx, edx.full);

	h = (struct plat_test_msr_handler){model_read, model_write, m};
	plat_test_msr_set_handler(&h);
	plat_test_lvtpc_poke(X86_LVT_DM_NMI);
}

void pmu_model_detach(void)
{
	plat_test_msr_set_handler(NULL);
}

static void raise_pmi(struct pmu_model *m)
{
	u32 lvt = plat_test_lvtpc_peek();

	if ((lvt & X86_LVT_MASKED) || (lvt & X86_LVT_DM_MASK) != X86_LVT_DM_NMI) {
		m->pmis_lost++;
		return;
	}
	/* the APIC masks LVTPC when it delivers the PMI */
	plat_test_lvtpc_poke(lvt | X86_LVT_MASKED);
	m->nmis_pending++;
}

/* Add n to a counter; true if it wrapped past its width. */
static bool add(u64 *ctr, u64 n, u32 width)
{
	u64 mask = wmask(width);
	u64 before = *ctr;

	*ctr = (before + n) & mask;
	return n > mask - before;
}

static bool fixed_counts(u32 i, u64 ev)
{
	switch (i) {
	case X86_FIXED_CTR_INSTRUCTIONS:
		return ev == X86_ARCH_EV_INSTRUCTIONS;
	case X86_FIXED_CTR_CORE_CYCLES:
		return ev == X86_ARCH_EV_CORE_CYCLES;
	case X86_FIXED_CTR_REF_CYCLES:
		return ev == X86_ARCH_EV_REF_CYCLES || ev == X86_FIXED_PSEUDO_REF_TSC;
	}
	return false;
}

void pmu_model_count(struct pmu_model *m, u64 ev, u64 n, bool user)
{
	bool pmi = false;

	for (u32 i = 0; i < m->cfg.nr_gp; i++) {
		u64 sel = m->evtsel[i];

		if (!(sel & X86_EVTSEL_EN) || (sel & X86_EVTSEL_EVENT_UMASK) != ev)
			continue;
		if (v2(m) && !(m->global_ctrl & X86_GLOBAL_PMC(i)))
			continue;
		if (!(sel & (user ? X86_EVTSEL_USR : X86_EVTSEL_OS)))
			continue;
		if (add(&m->pmc[i], n, m->cfg.gp_width)) {
			m->overflows++;
			if (v2(m))
				m->global_status |= X86_GLOBAL_PMC(i);
			pmi |= !!(sel & X86_EVTSEL_INT);
		}
	}
	for (u32 i = 0; i < PMU_MODEL_MAX_FIXED; i++) {
		u64 nib = (m->fixed_ctrl >> X86_FIXED_CTRL_SHIFT(i)) & X86_FIXED_CTRL_NIBBLE;

		if (!(fixed_present(m) & (1u << i)) || !fixed_counts(i, ev))
			continue;
		if (!(m->global_ctrl & X86_GLOBAL_FIXED(i)))
			continue;
		if (!(nib & (user ? X86_FIXED_CTRL_USR : X86_FIXED_CTRL_OS)))
			continue;
		if (add(&m->fixed[i], n, m->cfg.fixed_width)) {
			m->overflows++;
			m->global_status |= X86_GLOBAL_FIXED(i);
			pmi |= !!(nib & X86_FIXED_CTRL_PMI);
		}
	}
	if (pmi)
		raise_pmi(m);
}

bool pmu_model_take_nmi(struct pmu_model *m)
{
	if (!m->nmis_pending)
		return false;
	m->nmis_pending--;
	return true;
}
