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

/* --- freeze, GLOBAL_STATUS_RESET/SET (version 4) ---------------------------- */
/* Literal SDM numbers (vol. 3B 20.2.4 "Architectural Performance Monitoring
 * Version 4", figure "IA32_PERF_GLOBAL_STATUS"; vol. 3B 18.4.1
 * "IA32_DEBUGCTL MSR"), not x86_pmu_regs.h, for the reason given for PEBS
 * below. */
#define M_DEBUGCTL_FREEZE_PERFMON (1ull << 12)
#define M_DEBUGCTL_VALID	  0xffffull /* bits 15:0; higher ones reserved here */
#define M_BIT_TOPA		  (1ull << 55)
#define M_BIT_LBR_FRZ		  (1ull << 58)
#define M_BIT_CTR_FRZ		  (1ull << 59)
#define M_BIT_ASCI		  (1ull << 60)
#define M_BIT_UNCORE		  (1ull << 61)
#define M_BIT_BUF		  (1ull << 62)
#define M_BIT_COND_CHGD		  (1ull << 63)
#define M_V4			  4 /* GLOBAL_STATUS_RESET/SET, streamlined freeze */

static bool v4(const struct pmu_model *m)
{
	return m->cfg.version >= M_V4;
}

/* Bits GLOBAL_OVF_CTRL (v2, v3) / GLOBAL_STATUS_RESET (v4+) clear. */
static u64 status_reset_valid(const struct pmu_model *m)
{
	u64 v = global_valid(m) | M_BIT_UNCORE | M_BIT_BUF | M_BIT_COND_CHGD;

	if (v4(m))
		v |= M_BIT_TOPA | M_BIT_LBR_FRZ | M_BIT_CTR_FRZ | M_BIT_ASCI;
	return v;
}

/* v4 streamlined freeze: CTR_FRZ set = no counter counts. */
static bool frozen(const struct pmu_model *m)
{
	return v4(m) && (m->global_status & M_BIT_CTR_FRZ);
}

/* --- PEBS ------------------------------------------------------------------ */
/* Literal SDM numbers on purpose (vol. 3B "64-bit DS Save Area" and the PEBS
 * record format tables): the model must not share a wrong constant with
 * the code under test. */
#define M_DS_PEBS_BASE	    0x20
#define M_DS_PEBS_INDEX	    0x28
#define M_DS_PEBS_MAX	    0x30
#define M_DS_PEBS_THRESHOLD 0x38
#define M_DS_PEBS_RESET	    0x40
#define M_BIT_OVF_BUF	    M_BIT_BUF

static bool adaptive_pebs(const struct pmu_model *m)
{
	return m->cfg.pebs_baseline && m->cfg.pebs_format >= 4;
}

/* IA32_PEBS_ENABLE bits this model's format accepts. */
static u64 pebs_enable_valid(const struct pmu_model *m)
{
	u32 f = fixed_present(m);
	u64 v;

	if (m->cfg.pebs_format == 0)
		return 1; /* PMC0 */
	if (!adaptive_pebs(m))
		return (1ull << (m->cfg.nr_gp < 4 ? m->cfg.nr_gp : 4)) - 1;
	v = (1ull << m->cfg.nr_gp) - 1;
	for (u32 i = 0; i < PMU_MODEL_MAX_FIXED; i++)
		if (f & (1u << i))
			v |= 1ull << (32 + i);
	return v;
}

u32 pmu_model_adaptive_size(u64 cfg)
{
	u32 size = 0x20;

	if (cfg & 1)
		size += 0x20;
	if (cfg & 2)
		size += 0x90;
	if (cfg & 4)
		size += 0x100;
	if (cfg & 8)
		size += 0x18 * (u32)(((cfg >> 24) & 0xff) + 1);
	return size;
}

/* Adaptive: the groups of PEBS_DATA_CFG only for a counter whose adaptive
 * record bit is set (PERFEVTSELx bit 34, FIXED_CTR_CTRL bit 32 + 4i). */
static u64 record_cfg(const struct pmu_model *m, bool fixed, u32 idx)
{
	bool on = fixed ? (m->fixed_ctrl >> (32 + 4 * idx)) & 1 : (m->evtsel[idx] >> 34) & 1;

	return on ? m->pebs_data_cfg : 0;
}

u32 pmu_model_pebs_record_size(const struct pmu_model *m)
{
	static const u32 fixed_sizes[] = {0x90, 0xb0, 0xc0, 0xc8};

	if (adaptive_pebs(m))
		return pmu_model_adaptive_size(m->pebs_data_cfg);
	return m->cfg.pebs_format < 4 ? fixed_sizes[m->cfg.pebs_format] : 0;
}

static void put(u8 *p, u32 off, u64 v)
{
	memcpy(p + off, &v, sizeof(v));
}

static u64 get(const u8 *p, u32 off)
{
	u64 v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static void put_gprs(u8 *p, u32 off, const struct pmu_model_insn *in, u64 rip)
{
	put(p, off, in->flags);
	put(p, off + 8, rip);
	for (u32 r = 0; r < 16; r++)
		put(p, off + 16 + 8 * r, in->gpr[r]);
}

/* Write one record for the counter whose GLOBAL_STATUS bit is `bit`. */
static void write_record(struct pmu_model *m, u8 *rec, u32 size, u64 bit, u64 cfg)
{
	const struct pmu_model_insn *in = &m->insn;
	u32 off;

	memset(rec, 0, size);
	if (!adaptive_pebs(m)) {
		put_gprs(rec, 0x00, in, in->next_ip); /* RFLAGS, RIP, RAX..R15 */
		if (m->cfg.pebs_format >= 1) {
			/* 1/2: a copy of GLOBAL_STATUS; 3: applicable counters */
			put(rec, 0x90, m->cfg.pebs_format >= 3 ? bit : (m->global_status | bit));
			put(rec, 0x98, in->data_addr);
			put(rec, 0xa0, in->data_source);
			put(rec, 0xa8, in->latency);
		}
		if (m->cfg.pebs_format >= 2)
			put(rec, 0xb0, in->ip); /* eventing IP; 0xb8 TX abort = 0 */
		if (m->cfg.pebs_format >= 3)
			put(rec, 0xc0, in->tsc);
		return;
	}
	/* basic group: record format | size << 48, IP, applicable, TSC */
	put(rec, 0x00, (cfg & 0xffffffffull) | ((u64)size << 48));
	put(rec, 0x08, in->ip);
	put(rec, 0x10, bit);
	put(rec, 0x18, in->tsc);
	off = 0x20;
	if (cfg & 1) { /* memory info */
		put(rec, off, in->data_addr);
		put(rec, off + 0x08, in->data_source);
		put(rec, off + 0x10, in->latency);
		off += 0x20;
	}
	if (cfg & 2) /* GPRs */
		put_gprs(rec, off, in, in->ip);
}

/* Reset slot of a counter in the DS area (format 4+: 8 GP then fixed). */
static u32 reset_slot(bool fixed, u32 idx)
{
	return M_DS_PEBS_RESET + 8 * (fixed ? 8 + idx : idx);
}

/* The PEBS assist after counter `idx` (fixed or GP) overflowed. Returns
 * true when it raised the buffer PMI. */
static bool pebs_assist(struct pmu_model *m, bool fixed, u32 idx, u64 *ctr)
{
	u64 bit = fixed ? (1ull << (32 + idx)) : (1ull << idx);
	u8 *ds = (u8 *)(uintptr_t)m->ds_area;
	u64 cfg = adaptive_pebs(m) ? record_cfg(m, fixed, idx) : 0;
	u32 size = adaptive_pebs(m) ? pmu_model_adaptive_size(cfg) : pmu_model_pebs_record_size(m);
	u64 index, max;

	if (!ds || !size) {
		m->pebs_dropped++;
		return false;
	}
	index = get(ds, M_DS_PEBS_INDEX);
	max = get(ds, M_DS_PEBS_MAX);
	if (index + size > max) {
		m->pebs_dropped++;
		return false;
	}
	write_record(m, (u8 *)(uintptr_t)index, size, bit, cfg);
	m->pebs_records++;
	put(ds, M_DS_PEBS_INDEX, index + size);
	*ctr = get(ds, reset_slot(fixed, idx)) &
	       wmask(fixed ? m->cfg.fixed_width : m->cfg.gp_width);
	if (m->cfg.pebs_sets_ctr_status)
		m->global_status |= bit;
	if (index + size >= get(ds, M_DS_PEBS_THRESHOLD)) {
		m->global_status |= M_BIT_OVF_BUF;
		return true;
	}
	return false;
}

void pmu_model_set_insn(struct pmu_model *m, const struct pmu_model_insn *insn)
{
	m->insn = *insn;
}

static int pebs_read(struct pmu_model *m, u32 msr, u64 *val)
{
	switch (msr) {
	case X86_MSR_IA32_MISC_ENABLE:
		*val = X86_MISC_ENABLE_PERF_AVAIL |
		       (m->cfg.pebs_unavailable ? X86_MISC_ENABLE_PEBS_UNAVAIL : 0);
		return 0;
	case X86_MSR_IA32_DS_AREA:
		*val = m->ds_area;
		return 0;
	case X86_MSR_IA32_PEBS_ENABLE:
		*val = m->pebs_enable;
		return 0;
	case MSR_IA32_PEBS_DATA_CFG:
		if (!adaptive_pebs(m))
			return refuse(m);
		*val = m->pebs_data_cfg;
		return 0;
	}
	return -ENOENT;
}

static int pebs_write(struct pmu_model *m, u32 msr, u64 val)
{
	switch (msr) {
	case X86_MSR_IA32_MISC_ENABLE:
		return refuse(m); /* not the model's business */
	case X86_MSR_IA32_DS_AREA:
		if ((u64)((s64)(val << 16) >> 16) != val)
			return refuse(m); /* not canonical */
		m->ds_area = val;
		return 0;
	case X86_MSR_IA32_PEBS_ENABLE:
		if (val & ~pebs_enable_valid(m))
			return refuse(m);
		m->pebs_enable = val;
		return 0;
	case MSR_IA32_PEBS_DATA_CFG:
		if (!adaptive_pebs(m) || (val & ~0xff00000full))
			return refuse(m);
		m->pebs_data_cfg = val;
		return 0;
	}
	return -ENOENT;
}

static int model_read(void *ctx, u32 msr, u64 *val)
{
	struct pmu_model *m = ctx;
	int rc;

	if (m->cfg.ds && (rc = pebs_read(m, msr, val)) != -ENOENT)
		return rc;
	if (msr >= X86_MSR_IA32_PMC0 && msr < X86_MSR_IA32_PMC0 + m->cfg.nr_gp) {
		*val = m->pmc[msr - X86_MSR_IA32_PMC0];
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
	case MSR_IA32_DEBUGCTL:
		*val = m->debugctl;
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		if (!v4(m))
			return refuse(m);
		*val = 0;
		return 0;
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
	int rc;

	if (m->ipi_nth && m->ipi_msr == msr && --m->ipi_nth == 0)
		m->ipi_fire = true; /* arrives after this write (model_after) */

	if (m->cfg.ds && (rc = pebs_write(m, msr, val)) != -ENOENT)
		return rc;
	if (msr >= X86_MSR_IA32_PMC0 && msr < X86_MSR_IA32_PMC0 + m->cfg.nr_gp) {
		/* legacy write: bits 31:0, bit 31 sign-extended to the width */
		u64 v = val & 0xffffffffull;

		if (v & (1ull << 31))
			v |= ~0xffffffffull;
		m->pmc[msr - X86_MSR_IA32_PMC0] = v & wmask(m->cfg.gp_width);
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
		if (adaptive_pebs(m))
			reserved &= ~(1ull << 34); /* adaptive record bit */
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
			if ((f & (1u << i)) && adaptive_pebs(m))
				ok |= 1ull << (32 + 4 * i); /* adaptive record bit */
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
		return refuse(m);	    /* read-only */
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL: /* = GLOBAL_STATUS_RESET on v4+ */
		if (!v2(m) || (val & ~status_reset_valid(m)))
			return refuse(m);
		m->global_status &= ~(val & ~m->sticky_status);
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET: /* cannot set CondChgd */
		if (!v4(m) || (val & ~(status_reset_valid(m) & ~M_BIT_COND_CHGD)))
			return refuse(m);
		m->global_status |= val;
		return 0;
	case MSR_IA32_DEBUGCTL:
		if (val & ~M_DEBUGCTL_VALID)
			return refuse(m);
		m->debugctl = val;
		return 0;
	}
	return -ENOENT;
}

static void model_after(void *ctx);

void pmu_model_init(struct pmu_model *m, const struct pmu_model_cfg *cfg)
{
	static struct plat_test_msr_handler h;
	union x86_cpuid10_eax eax = {.full = 0};
	union x86_cpuid10_edx edx = {.full = 0};
	u32 ecx1 = 0;
	u64 caps = 0;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!m->cfg.signature)
		m->cfg.signature = MODEL_DEFAULT_SIGNATURE;
	/* power-up value: GP enables set, fixed enables clear (header comment) */
	if (v2(m))
		m->global_ctrl = (1ull << m->cfg.nr_gp) - 1;

	eax.split.version = cfg->version;
	eax.split.num_gp = cfg->nr_gp;
	eax.split.gp_width = cfg->gp_width;
	eax.split.ebx_length = cfg->ebx_len;
	edx.split.num_fixed = cfg->nr_fixed;
	edx.split.fixed_width = cfg->fixed_width;
	edx.split.anythread_deprecated = cfg->anythread_deprecated;

	plat_test_set_vendor(X86_VENDOR_INTEL_STR, X86_CPUID_LEAF_PERFMON);
	if (cfg->full_width)
		caps |= X86_PERF_CAP_FW_WRITE;
	caps |= (u64)(cfg->pebs_format & 0xf) << 8; /* PEBS record format */
	if (cfg->pebs_baseline)
		caps |= 1ull << 14;
	if (cfg->full_width || cfg->pdcm) {
		ecx1 |= X86_CPUID1_ECX_PDCM;
		plat_test_msr_define(X86_MSR_IA32_PERF_CAPABILITIES, caps, 0);
	}
	plat_test_set_cpuid1(m->cfg.signature, ecx1, cfg->ds ? X86_CPUID1_EDX_DS : 0);
	plat_test_set_cpuid(X86_CPUID_LEAF_PERFMON, PLAT_TEST_ANY_SUBLEAF, eax.full, cfg->ebx,
			    cfg->fixed_ecx, edx.full);

	h = (struct plat_test_msr_handler){model_read, model_write, m, model_after};
	plat_test_msr_set_handler(&h);
	plat_test_lvtpc_poke(X86_LVT_DM_NMI);
}

void pmu_model_detach(void)
{
	plat_test_msr_set_handler(NULL);
}

/* One NMI arrives: due if none runs or waits, else latched, else lost in
 * the full latch. */
static void raise_nmi(struct pmu_model *m)
{
	if (!m->in_nmi && !m->nmi_due) {
		m->nmi_due = true;
	} else if (!m->nmi_latched) {
		m->nmi_latched = true;
		m->nmis_latched++;
	} else {
		m->nmis_coalesced++;
	}
}

static void raise_pmi(struct pmu_model *m)
{
	u32 lvt = plat_test_lvtpc_peek();

	if ((lvt & X86_LVT_MASKED) || (lvt & X86_LVT_DM_MASK) != X86_LVT_DM_NMI) {
		m->pmis_lost++; /* dropped, not queued */
		return;
	}
	/* the APIC masks LVTPC when it delivers the PMI */
	plat_test_lvtpc_poke(lvt | X86_LVT_MASKED);
	raise_nmi(m);
}

/* A counter with INT (or a DS buffer threshold) asked for a PMI. */
static void pmi_request(struct pmu_model *m)
{
	if (m->debugctl & M_DEBUGCTL_FREEZE_PERFMON) {
		if (v4(m))
			m->global_status |= M_BIT_CTR_FRZ; /* streamlined freeze */
		else if (v2(m))
			m->global_ctrl = 0; /* legacy freeze */
	}
	raise_pmi(m);
}

bool pmu_model_take_nmi(struct pmu_model *m)
{
	pmu_model_iret(m);
	if (!m->nmi_due)
		return false;
	m->nmi_due = false;
	m->in_nmi = true;
	m->nmis_taken++;
	return true;
}

void pmu_model_iret(struct pmu_model *m)
{
	if (!m->in_nmi)
		return;
	m->in_nmi = false;
	if (m->nmi_latched) {
		m->nmi_latched = false;
		m->nmi_due = true;
	}
}

/* Cap on handler runs per boundary: a handler that keeps raising NMIs
 * (a latched one after every IRET) must not hang the test. */
#define MODEL_MAX_NMI_RUNS 64

/* An instruction boundary outside NMI context: run due NMIs through the
 * installed handler, each followed by its IRET. */
static void deliver_due(struct pmu_model *m)
{
	unsigned int runs = 0;

	if (!m->nmi_handler || m->in_nmi || m->nmi_depth)
		return;
	m->nmi_depth++;
	while (m->nmi_due && runs++ < MODEL_MAX_NMI_RUNS) {
		pmu_model_take_nmi(m);
		if (m->nmi_handler(m->nmi_ctx) == 0)
			m->nmis_unknown++;
		pmu_model_iret(m);
	}
	m->nmi_depth--;
}

void pmu_model_send_ipi(struct pmu_model *m)
{
	raise_nmi(m);
	deliver_due(m);
}

void pmu_model_set_nmi_handler(struct pmu_model *m, int (*fn)(void *ctx), void *ctx)
{
	m->nmi_handler = fn;
	m->nmi_ctx = ctx;
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

	if (frozen(m))
		goto out;
	for (u32 i = 0; i < m->cfg.nr_gp; i++) {
		u64 sel = m->evtsel[i];

		if (!(sel & X86_EVTSEL_EN) || (sel & X86_EVTSEL_EVENT_UMASK) != ev)
			continue;
		if (v2(m) && !(m->global_ctrl & X86_GLOBAL_PMC(i)))
			continue;
		if (!(sel & (user ? X86_EVTSEL_USR : X86_EVTSEL_OS)))
			continue;
		m->counted_gp[i] += n;
		if (add(&m->pmc[i], n, m->cfg.gp_width)) {
			m->overflows++;
			if (m->pebs_enable & (1ull << i)) {
				pmi |= pebs_assist(m, false, i, &m->pmc[i]);
			} else if (v2(m)) {
				m->global_status |= X86_GLOBAL_PMC(i);
			}
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
		m->counted_fixed[i] += n;
		if (add(&m->fixed[i], n, m->cfg.fixed_width)) {
			m->overflows++;
			if (m->pebs_enable & (1ull << (32 + i)))
				pmi |= pebs_assist(m, true, i, &m->fixed[i]);
			else
				m->global_status |= X86_GLOBAL_FIXED(i);
			pmi |= !!(nib & X86_FIXED_CTRL_PMI);
		}
	}
	if (pmi)
		pmi_request(m);
out:
	deliver_due(m);
}

/* After each MSR access / LVTPC write: the handler's own instructions
 * retire (kernel mode), or a due NMI is taken. */
static void model_after(void *ctx)
{
	struct pmu_model *m = ctx;

	if (m->in_nmi && m->nmi_cost) {
		pmu_model_count(m, X86_ARCH_EV_INSTRUCTIONS, m->nmi_cost, false);
		pmu_model_count(m, X86_ARCH_EV_CORE_CYCLES, m->nmi_cost, false);
	}
	if (m->ipi_fire) {
		m->ipi_fire = false;
		raise_nmi(m);
	}
	deliver_due(m);
}

void pmu_model_ipi_after_write(struct pmu_model *m, u32 msr, u32 nth)
{
	m->ipi_msr = msr;
	m->ipi_nth = nth;
	m->ipi_fire = false;
}
