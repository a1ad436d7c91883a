// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu enumeration: CPUID.0/1/0AH and IA32_PERF_CAPABILITIES into
 * struct pmu_caps (pmu__probe), and its one-line summary (pmu__describe).
 * Runs once at module load; see pmu.h for the life cycle, docs/PMU.md for
 * what is verified where.
 */
#include "pmu_internal.h"
#include "pmuprof/platform.h"

static u32 lookup_vendor(const char *s)
{
	if (!s[0])
		return PMUPROF_VENDOR_UNKNOWN;
	for (unsigned int i = 0; i < pmu_nr_vendors; i++)
		if (!memcmp(s, pmu_vendors[i].id, X86_VENDOR_STRING_LEN))
			return pmu_vendors[i].vendor;
	return PMUPROF_VENDOR_OTHER;
}

/* Display family/model per SDM vol. 2A CPUID.1 "Version Information". */
static void decode_signature(struct pmu_caps *c, u32 eax)
{
	union x86_cpuid1_eax sig = {.full = eax};

	c->family = sig.split.family;
	if (sig.split.family == X86_FAMILY_EXT_FAMILY)
		c->family += sig.split.ext_family;
	c->model = sig.split.model;
	if (sig.split.family == X86_FAMILY_P6 || sig.split.family == X86_FAMILY_EXT_FAMILY)
		c->model += (u32)sig.split.ext_model << X86_EXT_MODEL_SHIFT;
	c->stepping = sig.split.stepping;
}

/* A counter width the code can arm: legacy writes need at least 32 bits. */
static bool width_usable(u32 w)
{
	return w >= X86_PMC_LEGACY_WRITE_BITS && w <= 64;
}

static u32 fls32(u32 v)
{
	u32 n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

static void probe_perfmon(struct pmu_caps *c)
{
	union x86_cpuid10_eax eax;
	union x86_cpuid10_ebx ebx;
	union x86_cpuid10_ecx ecx;
	union x86_cpuid10_edx edx;
	u32 len;

	plat_cpuid(X86_CPUID_LEAF_PERFMON, 0, &eax.full, &ebx.full, &ecx.full, &edx.full);
	c->version = eax.split.version;
	if (!c->version) {
		c->status = PMUPROF_PMU_NO_ARCH_PERFMON;
		return;
	}

	c->nr_gp = eax.split.num_gp;
	c->gp_width = eax.split.gp_width;
	if (c->nr_gp > X86_PMU_MAX_GP)
		c->nr_gp = X86_PMU_MAX_GP;
	if (!width_usable(c->gp_width))
		c->nr_gp = 0;

	/* EBX has ebx_length valid bits; a set bit means NOT available. */
	c->arch_events_len = eax.split.ebx_length;
	len = c->arch_events_len < PMUPROF_ARCH__MAX ? c->arch_events_len : PMUPROF_ARCH__MAX;
	c->arch_events = ~ebx.full & ((1u << len) - 1);

	if (c->version >= X86_PMU_V_FIXED) {
		c->nr_fixed = edx.split.num_fixed;
		c->fixed_width = edx.split.fixed_width;
		if (c->nr_fixed > X86_PMU_MAX_FIXED)
			c->nr_fixed = X86_PMU_MAX_FIXED;
		c->fixed_mask = (1u << c->nr_fixed) - 1;
		/* v5+: counter i exists iff ECX[i] || EDX.num_fixed > i */
		if (c->version >= X86_PMU_V_FIXED_MASK) {
			c->fixed_mask |= ecx.fixed_mask & ((1u << X86_PMU_MAX_FIXED) - 1);
			c->nr_fixed = fls32(c->fixed_mask);
		}
		if (!width_usable(c->fixed_width)) {
			c->nr_fixed = 0;
			c->fixed_mask = 0;
		}
	}
	c->any_thread = c->version >= X86_PMU_V_ANYTHREAD && !edx.split.anythread_deprecated;

	if (!c->nr_gp && !c->nr_fixed) {
		/* a version but no usable counter: a broken virtual PMU */
		c->status = PMUPROF_PMU_NO_ARCH_PERFMON;
		return;
	}
	c->status = PMUPROF_PMU_OK;
}

/*
 * PEBS is usable when (SDM vol. 3B 18.6.3.x / 20.x "PEBS"): CPUID.1:EDX.DS
 * (debug store), IA32_MISC_ENABLE[12] "PEBS unavailable" clear, a PMU with
 * GLOBAL_STATUS (version 2+: the DS-buffer PMI is its bit 62), and a
 * record format pmuprof parses (adaptive formats only with PEBS_BASELINE).
 * The record format comes from IA32_PERF_CAPABILITIES[11:8], so no PDCM
 * means no PEBS here (pre-PDCM parts are not supported).
 */
static void probe_pebs(struct pmu_caps *c, const union x86_perf_capabilities *pc)
{
	u64 misc;

	c->pebs_why = "pmu: no usable PEBS on this CPU (no debug store, or IA32_MISC_ENABLE says "
		      "PEBS unavailable); drop the precise modifier";
	if (!c->ds || plat_rdmsr_safe(X86_MSR_IA32_MISC_ENABLE, &misc) ||
	    (misc & X86_MISC_ENABLE_PEBS_UNAVAIL))
		return;
	if (c->version < X86_PMU_V_FIXED) {
		c->pebs_why = "pmu: PEBS needs architectural PMU version 2+ (GLOBAL_STATUS bit 62)";
		return;
	}
	if (pc->split.pebs_format > X86_PEBS_FORMAT_MAX ||
	    (pc->split.pebs_format >= X86_PEBS_FORMAT_ADAPTIVE && !pc->split.pebs_baseline)) {
		c->pebs_why =
			"pmu: PEBS record format unknown to pmuprof; drop the precise modifier";
		return;
	}
	c->pebs = true;
	c->pebs_why = NULL;
	c->pebs_format = pc->split.pebs_format;
	c->pebs_baseline = pc->split.pebs_baseline;
}

static void probe_capabilities(struct pmu_caps *c, u32 ecx1)
{
	union x86_perf_capabilities pc;

	c->pebs_why = "pmu: no usable PEBS on this CPU (no IA32_PERF_CAPABILITIES to give the "
		      "record format); drop the precise modifier";
	if (!(ecx1 & X86_CPUID1_ECX_PDCM))
		return;
	if (plat_rdmsr_safe(X86_MSR_IA32_PERF_CAPABILITIES, &pc.full))
		return;
	c->perf_capabilities = pc.full;
	c->full_width = pc.split.full_width_write;
	probe_pebs(c, &pc);
}

/*
 * Hybrid parts (CPUID.07H:EDX.Hybrid): every core type has its own PMU
 * (CPUID.0AH differs: Alder Lake P-cores 8 GP + 4 fixed, E-cores 6 + 3),
 * but pmuprof probes once, on one CPU, and programs every CPU the same
 * way: PERFEVTSEL6/7 would fault on the E-cores, and event encodings are
 * per core type too. Refused until caps are probed per core type. The
 * probing CPU's core type is kept for the summary line.
 */
static void probe_hybrid(struct pmu_caps *c, u32 max_leaf)
{
	u32 eax, ebx, ecx, edx;
	union x86_cpuid1a_eax ct;

	if (max_leaf < X86_CPUID_LEAF_EXT_FEATURE)
		return;
	plat_cpuid(X86_CPUID_LEAF_EXT_FEATURE, 0, &eax, &ebx, &ecx, &edx);
	if (!(edx & X86_CPUID7_EDX_HYBRID))
		return;
	c->hybrid = true;
	if (max_leaf >= X86_CPUID_LEAF_HYBRID) {
		plat_cpuid(X86_CPUID_LEAF_HYBRID, 0, &ct.full, &ebx, &ecx, &edx);
		c->core_type = ct.split.core_type;
	}
	c->status = PMUPROF_PMU_HYBRID;
	c->pebs = false;
	c->pebs_why = "pmu: hybrid CPU (P-cores and E-cores have different PMUs), not supported; "
		      "drop the precise modifier and use cpu-clock";
}

void pmu__probe(struct pmu_caps *c)
{
	u32 max_leaf = 0, ebx = 0, ecx = 0, edx = 0, eax1 = 0, ebx1, ecx1 = 0, edx1 = 0;

	memset(c, 0, sizeof(*c));
	c->status = PMUPROF_PMU_NO_ARCH_PERFMON;

	plat_cpuid(X86_CPUID_LEAF_VENDOR, 0, &max_leaf, &ebx, &ecx, &edx);
	memcpy(c->vendor_string, &ebx, 4);
	memcpy(c->vendor_string + 4, &edx, 4);
	memcpy(c->vendor_string + 8, &ecx, 4);
	c->vendor_string[X86_VENDOR_STRING_LEN] = '\0';
	c->vendor = lookup_vendor(c->vendor_string);

	if (max_leaf >= X86_CPUID_LEAF_FEATURE) {
		plat_cpuid(X86_CPUID_LEAF_FEATURE, 0, &eax1, &ebx1, &ecx1, &edx1);
		decode_signature(c, eax1);
		c->hypervisor = ecx1 & X86_CPUID1_ECX_HYPERVISOR;
		c->ds = edx1 & X86_CPUID1_EDX_DS;
	}

	c->pebs_why = "pmu: no usable PMU, so no PEBS";
	if (c->vendor != PMUPROF_VENDOR_INTEL) {
		c->status = PMUPROF_PMU_NOT_INTEL;
		return;
	}
	if (max_leaf < X86_CPUID_LEAF_PERFMON)
		return; /* NO_ARCH_PERFMON */
	probe_perfmon(c);
	if (c->status != PMUPROF_PMU_OK)
		return;
	probe_capabilities(c, ecx1);
	probe_hybrid(c, max_leaf);
}

/* --- one-line summary without libc ----------------------------------- */
struct strbuf {
	char *buf;
	size_t len, pos;
};

static void sb_str(struct strbuf *sb, const char *s)
{
	while (*s) {
		if (sb->pos + 1 < sb->len)
			sb->buf[sb->pos] = *s;
		sb->pos++;
		s++;
	}
}

/* label, then v in base 10 or 16 (0x-prefixed) */
static void sb_num(struct strbuf *sb, const char *label, u64 v, unsigned int base)
{
	char tmp[24];
	unsigned int n = 0;

	sb_str(sb, label);
	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (base == 16)
		sb_str(sb, "0x");
	while (n) {
		char c[2] = {tmp[--n], '\0'};

		sb_str(sb, c);
	}
}

static const char *status_text(u32 status)
{
	switch (status) {
	case PMUPROF_PMU_OK:
		return "ok";
	case PMUPROF_PMU_NOT_INTEL:
		return "unavailable (not an Intel CPU: no architectural PMU support in pmuprof)";
	case PMUPROF_PMU_NO_ARCH_PERFMON:
		return "unavailable (CPUID.0AH reports no architectural PMU, e.g. a VM without a "
		       "virtual PMU)";
	case PMUPROF_PMU_BUSY:
		return "busy (held by perf or the NMI watchdog)";
	case PMUPROF_PMU_HYBRID:
		return "unavailable (hybrid CPU: P-cores and E-cores have different counters, "
		       "which pmuprof does not support)";
	}
	return "unknown";
}

int pmu__describe(const struct pmu_caps *c, char *buf, size_t len)
{
	struct strbuf sb = {buf, len, 0};

	if (!buf || !len)
		return -EINVAL;
	sb_str(&sb, "pmu: ");
	if (c->status == PMUPROF_PMU_OK) {
		sb_num(&sb, "version=", c->version, 10);
		sb_num(&sb, " gp=", c->nr_gp, 10);
		sb_num(&sb, "x", c->gp_width, 10);
		sb_num(&sb, " fixed=", c->nr_fixed, 10);
		sb_num(&sb, "x", c->fixed_width, 10);
		sb_num(&sb, " events=", c->arch_events, 16);
		sb_str(&sb, c->full_width ? " full-width" : " legacy-width");
		if (c->pebs) {
			sb_num(&sb, " pebs-format=", c->pebs_format, 10);
			if (c->pebs_baseline)
				sb_str(&sb, " pebs-adaptive");
		}
	} else {
		sb_str(&sb, status_text(c->status));
	}
	if (c->hybrid)
		sb_num(&sb, " core-type=", c->core_type, 16);
	sb_str(&sb, " cpu=");
	sb_str(&sb, c->vendor_string[0] ? c->vendor_string : "?");
	sb_num(&sb, " family=", c->family, 10);
	sb_num(&sb, " model=", c->model, 16);
	sb_num(&sb, " stepping=", c->stepping, 10);
	if (c->hypervisor)
		sb_str(&sb, " hypervisor");
	buf[sb.pos < len ? sb.pos : len - 1] = '\0';
	return (int)(sb.pos < len ? sb.pos : len - 1);
}
