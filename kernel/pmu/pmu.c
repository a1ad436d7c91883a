// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu: the Intel architectural PMU (SDM vol. 3B ch. 20), programmed
 * directly through pmuprof/platform.h. See pmu.h for the life cycle and
 * docs/PMU.md for what is verified where.
 *
 * Only types.h facilities are used (memset/memcpy/strlen): the same file
 * builds into the Linux module and into the host unit tests. No floating
 * point; 64-bit division only (native on x86-64).
 */
#include "pmu_internal.h"
#include "pmuprof/platform.h"

#define PMU_NSEC_PER_SEC 1000000000ull
/* Frequency mode: events per second assumed before the first overflow
 * (about one event per ns, right for cycles/instructions on a ~GHz core). */
#define PMU_FREQ_GUESS_EVENTS_PER_SEC PMU_NSEC_PER_SEC
/* Frequency mode low-pass filter: move 1/8 of the way to the target. */
#define PMU_FREQ_FILTER_SHIFT 3

static bool test_bit64(u64 v, unsigned int b)
{
	return (v >> b) & 1;
}

/* ===================================================================== */
/* Enumeration                                                            */
/* ===================================================================== */

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
	if (!c->ds || plat_rdmsr_safe(MSR_IA32_MISC_ENABLE, &misc) ||
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
	if (plat_rdmsr_safe(MSR_IA32_PERF_CAPABILITIES, &pc.full))
		return;
	c->perf_capabilities = pc.full;
	c->full_width = pc.split.full_width_write;
	probe_pebs(c, &pc);
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

static void sb_num(struct strbuf *sb, u64 v, unsigned int base)
{
	char tmp[24];
	unsigned int n = 0;

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
		sb_str(&sb, "version=");
		sb_num(&sb, c->version, 10);
		sb_str(&sb, " gp=");
		sb_num(&sb, c->nr_gp, 10);
		sb_str(&sb, "x");
		sb_num(&sb, c->gp_width, 10);
		sb_str(&sb, " fixed=");
		sb_num(&sb, c->nr_fixed, 10);
		sb_str(&sb, "x");
		sb_num(&sb, c->fixed_width, 10);
		sb_str(&sb, " events=");
		sb_num(&sb, c->arch_events, 16);
		sb_str(&sb, c->full_width ? " full-width" : " legacy-width");
		if (c->pebs) {
			sb_str(&sb, " pebs-format=");
			sb_num(&sb, c->pebs_format, 10);
			if (c->pebs_baseline)
				sb_str(&sb, " pebs-adaptive");
		}
	} else {
		sb_str(&sb, status_text(c->status));
	}
	sb_str(&sb, " cpu=");
	sb_str(&sb, c->vendor_string[0] ? c->vendor_string : "?");
	sb_str(&sb, " family=");
	sb_num(&sb, c->family, 10);
	sb_str(&sb, " model=");
	sb_num(&sb, c->model, 16);
	sb_str(&sb, " stepping=");
	sb_num(&sb, c->stepping, 10);
	if (c->hypervisor)
		sb_str(&sb, " hypervisor");
	buf[sb.pos < len ? sb.pos : len - 1] = '\0';
	return (int)(sb.pos < len ? sb.pos : len - 1);
}

/* ===================================================================== */
/* Counter arithmetic                                                      */
/* ===================================================================== */

u64 pmu__width_mask(u32 width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

u64 pmu__arm_value(u64 period, u32 width)
{
	return (0 - period) & pmu__width_mask(width);
}

static u32 assign_width(const struct pmu_plan *plan, const struct pmu_assign *a)
{
	return a->kind == PMU_CTR_FIXED ? plan->fixed_width : plan->gp_width;
}

u64 pmu__max_period(const struct pmu_plan *plan, const struct pmu_assign *a)
{
	u64 max = pmu__width_mask(assign_width(plan, a)) >> 1;
	/* Legacy IA32_PMCx writes sign-extend bit 31, so -period must have
	 * bit 31 set: period <= 2^31 - 1. Fixed counters get the same limit
	 * without full-width writes, as Linux does (x86_pmu.max_period). */
	u64 legacy = pmu__width_mask(X86_PMC_LEGACY_WRITE_BITS) >> 1;

	if (!plan->full_width && max > legacy)
		max = legacy;
	return max;
}

u32 pmu__counter_msr(const struct pmu_plan *plan, const struct pmu_assign *a)
{
	if (a->kind == PMU_CTR_FIXED)
		return MSR_IA32_FIXED_CTR0 + a->idx;
	return (plan->full_width ? MSR_IA32_A_PMC0 : MSR_IA32_PMC0) + a->idx;
}

u64 pmu__global_bit(const struct pmu_assign *a)
{
	return a->kind == PMU_CTR_FIXED ? X86_GLOBAL_FIXED(a->idx) : X86_GLOBAL_PMC(a->idx);
}

unsigned int pmu__decode_status(const struct pmu_plan *plan, u64 status, u8 *out)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < plan->nr && i < PMUPROF_MAX_EVENTS; i++)
		if (status & pmu__global_bit(&plan->a[i]))
			out[n++] = (u8)i;
	return n;
}

/* a * b / c without 128-bit arithmetic (none in the kernel for division):
 * drop low bits of a and c together until a * b fits. Bounded: <= 64 steps. */
static u64 mul_div_u64(u64 a, u64 b, u64 c)
{
	while (b && a > ~0ull / b) {
		a >>= 1;
		c >>= 1;
	}
	if (!c)
		return ~0ull;
	return a * b / c;
}

static u64 clamp_period(u64 p, u64 max)
{
	if (p < PMUPROF_MIN_PMU_PERIOD)
		p = PMUPROF_MIN_PMU_PERIOD;
	if (p > max)
		p = max;
	return p;
}

u64 pmu__freq_next_period(u64 period, u64 elapsed_ns, u64 freq_hz, u64 max)
{
	u64 target;

	if (!elapsed_ns || !freq_hz)
		return clamp_period(period, max);
	/* period events took elapsed_ns; the target interval is 1e9/freq ns */
	target = mul_div_u64(period, PMU_NSEC_PER_SEC / freq_hz, elapsed_ns);
	if (target > period)
		period += (target - period + (1u << PMU_FREQ_FILTER_SHIFT) - 1) >>
			  PMU_FREQ_FILTER_SHIFT;
	else
		period -= (period - target) >> PMU_FREQ_FILTER_SHIFT;
	return clamp_period(period, max);
}

u64 pmu__freq_first_period(u64 freq_hz, u64 max)
{
	return clamp_period(freq_hz ? PMU_FREQ_GUESS_EVENTS_PER_SEC / freq_hz : max, max);
}

/* ===================================================================== */
/* Planning (pure: no MSR access)                                          */
/* ===================================================================== */

static const char *status_why(u32 status)
{
	switch (status) {
	case PMUPROF_PMU_NOT_INTEL:
		return "pmu: no Intel architectural PMU on this CPU; use the cpu-clock (NMI-IPI) "
		       "source";
	case PMUPROF_PMU_BUSY:
		return "pmu: the PMU is held by perf or the NMI watchdog; run `sysctl "
		       "kernel.nmi_watchdog=0` "
		       "and stop perf users";
	default:
		return "pmu: no architectural PMU (CPUID.0AH version 0, e.g. a VM without a "
		       "virtual PMU); "
		       "use the cpu-clock (NMI-IPI) source";
	}
}

static bool is_pmu_event(const struct pmuprof_event_config *ev)
{
	return ev->source == PMUPROF_SOURCE_PMU || ev->source == PMUPROF_SOURCE_PEBS;
}

/* PEBS requested: the PEBS source, or a PMU event with the precise flag. */
static bool is_precise(const struct pmuprof_event_config *ev)
{
	return ev->source == PMUPROF_SOURCE_PEBS || (ev->flags & PMUPROF_EVF_PRECISE);
}

static unsigned int popcount32(u32 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* Fixed counter an encoding can use (-1: none). *only_fixed for pseudo-
 * encodings that no general-purpose counter understands. */
static int fixed_candidate(u64 cfg, bool *only_fixed)
{
	u64 eu = cfg & X86_EVTSEL_EVENT_UMASK;
	int ai;

	*only_fixed = false;
	for (unsigned int i = 0; i < pmu_nr_fixed_pseudos; i++)
		if (pmu_fixed_pseudos[i].encoding == eu) {
			*only_fixed = true;
			return pmu_fixed_pseudos[i].fixed;
		}
	/* fixed counters cannot filter: EDGE/INV/CMASK need a GP counter */
	if (cfg & (X86_EVTSEL_EDGE | X86_EVTSEL_INV | X86_EVTSEL_CMASK_MASK))
		return -1;
	ai = pmu__arch_index(eu);
	return ai < 0 ? -1 : pmu_arch_events[ai].fixed;
}

/* Check one raw encoding; 0 or -errno with *why. */
static int check_encoding(const struct pmu_caps *caps, const struct pmuprof_event_config *ev,
			  const char **why)
{
	u64 cfg = ev->config;
	u64 eu = cfg & X86_EVTSEL_EVENT_UMASK;
	int ai;

	if (ev->flags & ~(u32)PMUPROF_EVF__ALL) {
		*why = "pmu: unknown event flag bits set";
		return -EINVAL;
	}
	if (is_precise(ev) && !caps->pebs) {
		*why = caps->pebs_why
			       ? caps->pebs_why
			       : "pmu: this CPU has no usable PEBS; drop the precise modifier";
		return -ENODEV;
	}
	if (cfg & X86_EVTSEL_RESERVED) {
		*why = "pmu: reserved bits 63:32 set in the event encoding";
		return -EINVAL;
	}
	if (cfg & (X86_EVTSEL_INT | X86_EVTSEL_EN | X86_EVTSEL_PC)) {
		*why = "pmu: INT (bit 20), EN (bit 22) and PC (bit 19) belong to the kernel; clear "
		       "them";
		return -EINVAL;
	}
	if ((cfg & X86_EVTSEL_ANY) && !caps->any_thread) {
		*why = caps->version < X86_PMU_V_ANYTHREAD
			       ? "pmu: AnyThread (bit 21) needs architectural PMU version 3 or "
				 "later"
			       : "pmu: AnyThread (bit 21) is deprecated on this CPU "
				 "(CPUID.0AH:EDX[15])";
		return -EINVAL;
	}
	/* CMASK is the 8-bit field 31:24; every value fits, nothing to check
	 * beyond the reserved bits above. EDGE/INV with CMASK 0 are legal. */
	ai = pmu__arch_index(eu);
	if (ai >= 0 && !(caps->arch_events & (1u << ai))) {
		*why = "pmu: this architectural event is not available on this CPU (CPUID.0AH:EBX)";
		return -ENODEV;
	}
	if ((cfg & X86_EVTSEL_EVENT_MASK) == 0) {
		bool only;
		int f = fixed_candidate(cfg, &only);

		if (!only) {
			*why = "pmu: event select 00H is not an event (only the fixed-counter "
			       "pseudo-encoding 0x0300 is)";
			return -EINVAL;
		}
		if (cfg & (X86_EVTSEL_EDGE | X86_EVTSEL_INV | X86_EVTSEL_CMASK_MASK)) {
			*why = "pmu: a fixed-counter pseudo-encoding cannot take EDGE, INV or "
			       "CMASK";
			return -EINVAL;
		}
		if (f >= PMU_NR_MAPPED_FIXED || !(caps->fixed_mask & (1u << f))) {
			*why = "pmu: the fixed counter this pseudo-encoding needs is not present "
			       "(or "
			       "not supported by pmuprof)";
			return -ENODEV;
		}
	}
	if (ev->flags & PMUPROF_EVF_FREQ) {
		if (!ev->period || ev->period > PMUPROF_MAX_FREQ_HZ) {
			*why = "pmu: frequency must be 1..PMUPROF_MAX_FREQ_HZ (50000) Hz";
			return -EINVAL;
		}
	} else if (ev->period < PMUPROF_MIN_PMU_PERIOD) {
		*why = "pmu: period below PMUPROF_MIN_PMU_PERIOD (1000 events); use a larger -c";
		return -EINVAL;
	}
	return 0;
}

/* USR/OS after the default (both when neither) and the session's excludes. */
static u64 mode_bits(u64 cfg, u32 cflags)
{
	u64 m = cfg & (X86_EVTSEL_USR | X86_EVTSEL_OS);

	if (!m)
		m = X86_EVTSEL_USR | X86_EVTSEL_OS;
	if (cflags & PMUPROF_CF_EXCLUDE_USER)
		m &= ~X86_EVTSEL_USR;
	if (cflags & PMUPROF_CF_EXCLUDE_KERNEL)
		m &= ~X86_EVTSEL_OS;
	return m;
}

/*
 * Where a precise event may go (pebs__allowed plus the fixed counter):
 * *fixed = the fixed counter to use (-1: none possible), *gp = the GP
 * counters allowed. 0 or -ENODEV with *why.
 */
static int precise_counters(const struct pmu_caps *caps, const struct pmuprof_event_config *ev,
			    int *fixed, u32 *gp, bool *only_fixed, const char **why)
{
	struct pebs_allowed al;
	int rc;

	rc = pebs__allowed(caps->family, caps->model, caps->pebs_format, caps->pebs_baseline,
			   caps->nr_gp, ev->config, &al, why);
	if (rc)
		return rc;
	*gp = al.gp;
	if (al.fixed >= 0) {
		/* the model table names the fixed counter (e.g. PDist) */
		*fixed = (ev->config & (X86_EVTSEL_EDGE | X86_EVTSEL_INV | X86_EVTSEL_CMASK_MASK))
				 ? -1
				 : al.fixed;
		*only_fixed = !al.gp;
	}
	if (*fixed >= 0 && !al.fixed_ok)
		*fixed = -1; /* formats 0..3: PEBS on GP counters only */
	if (*fixed < 0 && (*only_fixed || !*gp)) {
		*why = al.fixed_ok
			       ? "pmu: this precise event needs a fixed counter this CPU does not "
				 "have"
			       : "pmu: this event is counted only by a fixed counter, and PEBS "
				 "on fixed counters needs adaptive PEBS (PERF_CAPABILITIES."
				 "PEBS_BASELINE, Ice Lake+); drop the precise modifier";
		return -ENODEV;
	}
	return 0;
}

int pmu__plan(const struct pmu_caps *caps, const struct pmuprof_config *cfg, struct pmu_plan *plan,
	      const char **why)
{
	u32 gp_used = 0, fixed_used = 0, n_pmu = 0, all_gp;
	s8 fixed_of[PMUPROF_MAX_EVENTS], gp_of[PMUPROF_MAX_EVENTS];
	u32 gp_allowed[PMUPROF_MAX_EVENTS];
	bool adaptive_fmt;
	const char *dummy;
	int rc;

	if (!why)
		why = &dummy;
	*why = NULL;
	memset(plan, 0, sizeof(*plan));
	if (cfg->nr_events > PMUPROF_MAX_EVENTS) {
		*why = "pmu: more than PMUPROF_MAX_EVENTS (16) events";
		return -EINVAL;
	}
	for (u32 i = 0; i < cfg->nr_events; i++)
		n_pmu += is_pmu_event(&cfg->events[i]);
	if (!n_pmu)
		return 0;
	if (caps->status != PMUPROF_PMU_OK) {
		*why = status_why(caps->status);
		return -ENODEV;
	}
	if ((cfg->flags & PMUPROF_CF_EXCLUDE_USER) && (cfg->flags & PMUPROF_CF_EXCLUDE_KERNEL)) {
		*why = "pmu: excluding both user and kernel mode leaves nothing to count";
		return -EINVAL;
	}
	all_gp = caps->nr_gp >= 32 ? ~0u : (1u << caps->nr_gp) - 1;
	adaptive_fmt = caps->pebs && caps->pebs_format >= X86_PEBS_FORMAT_ADAPTIVE;

	/* Pass 1: validate; fixed-eligible events claim their fixed counter
	 * in configuration order (a second "instructions" goes to a GP).
	 * Precise events may only use the counters PEBS allows. */
	for (u32 i = 0; i < cfg->nr_events; i++) {
		const struct pmuprof_event_config *ev = &cfg->events[i];
		bool only;
		int f;

		fixed_of[i] = -1;
		gp_of[i] = -1;
		gp_allowed[i] = all_gp;
		if (!is_pmu_event(ev))
			continue;
		rc = check_encoding(caps, ev, why);
		if (rc)
			return rc;
		if (!mode_bits(ev->config, cfg->flags)) {
			*why = "pmu: the event's USR/OS bits and the session's excludes leave "
			       "nothing to count";
			return -EINVAL;
		}
		f = fixed_candidate(ev->config, &only);
		if (is_precise(ev)) {
			rc = precise_counters(caps, ev, &f, &gp_allowed[i], &only, why);
			if (rc)
				return rc;
		}
		if (f >= 0 && f < PMU_NR_MAPPED_FIXED && (caps->fixed_mask & (1u << f)) &&
		    !(fixed_used & (1u << f))) {
			fixed_used |= 1u << f;
			fixed_of[i] = (s8)f;
		} else if (only) {
			*why = "pmu: more events than counters: the fixed counter of a "
			       "pseudo-encoding is "
			       "already used by another event";
			return -ENOSPC;
		}
	}

	/* GP counters, most constrained events first (a PDIR event that only
	 * PMC1 takes must not find PMC1 given away); equally constrained
	 * events in configuration order, lowest free counter first. */
	for (u32 level = 1; level <= X86_PMU_MAX_GP; level++) {
		for (u32 i = 0; i < cfg->nr_events; i++) {
			const struct pmuprof_event_config *ev = &cfg->events[i];
			u32 free;

			if (!is_pmu_event(ev) || fixed_of[i] >= 0 ||
			    popcount32(gp_allowed[i] & all_gp) != level)
				continue;
			free = gp_allowed[i] & all_gp & ~gp_used;
			if (!free) {
				*why = is_precise(ev) && gp_allowed[i] != all_gp
					       ? "pmu: more events than counters: no free "
						 "PEBS-capable counter for this precise event "
						 "(PEBS works only on some counters here)"
					       : "pmu: more PMU events than counters "
						 "(general-purpose + free fixed)";
				return -ENOSPC;
			}
			gp_of[i] = (s8)(__builtin_ctz(free));
			gp_used |= 1u << gp_of[i];
		}
	}

	plan->version = caps->version;
	plan->gp_width = caps->gp_width;
	plan->fixed_width = caps->fixed_width;
	plan->full_width = caps->full_width;

	/* Pass 2: build assignments in configuration order. */
	for (u32 i = 0; i < cfg->nr_events; i++) {
		const struct pmuprof_event_config *ev = &cfg->events[i];
		struct pmu_assign *a = &plan->a[plan->nr];
		bool precise = is_precise(ev);
		u64 m, max;

		if (!is_pmu_event(ev))
			continue;
		if (fixed_of[i] < 0 && gp_of[i] < 0) {
			/* cannot happen: every PMU event got a counter above */
			*why = "pmu: more PMU events than counters (general-purpose + free fixed)";
			memset(plan, 0, sizeof(*plan));
			return -ENOSPC;
		}
		m = mode_bits(ev->config, cfg->flags);
		a->event = (u16)i;
		a->pebs = precise;
		if (fixed_of[i] >= 0) {
			/* PEBS: the DS-buffer PMI signals, not the counter's own */
			u64 nib = precise ? 0 : X86_FIXED_CTRL_PMI;

			a->kind = PMU_CTR_FIXED;
			a->idx = (u8)fixed_of[i];
			if (m & X86_EVTSEL_OS)
				nib |= X86_FIXED_CTRL_OS;
			if (m & X86_EVTSEL_USR)
				nib |= X86_FIXED_CTRL_USR;
			if (ev->config & X86_EVTSEL_ANY)
				nib |= X86_FIXED_CTRL_ANY;
			a->fixed_bits = nib << X86_FIXED_CTRL_SHIFT(a->idx);
			if (precise && adaptive_fmt) /* records with the memory-info group */
				a->fixed_bits |= X86_FIXED_CTRL_ADAPTIVE(a->idx);
			plan->fixed_ctrl |= a->fixed_bits;
			if (precise)
				plan->pebs_enable |= X86_PEBS_ENABLE_FIXED(a->idx);
		} else {
			a->kind = PMU_CTR_GP;
			a->idx = (u8)gp_of[i];
			a->evtsel = (ev->config & ~(X86_EVTSEL_USR | X86_EVTSEL_OS)) | m |
				    (precise ? 0 : X86_EVTSEL_INT) | X86_EVTSEL_EN;
			if (precise && adaptive_fmt) /* records with the memory-info group */
				a->evtsel |= X86_EVTSEL_ADAPTIVE;
			if (precise)
				plan->pebs_enable |= X86_PEBS_ENABLE_PMC(a->idx);
		}
		if (precise)
			plan->pebs_counters |= pmu__global_bit(a);
		max = pmu__max_period(plan, a);
		if (ev->flags & PMUPROF_EVF_FREQ) {
			a->freq_hz = ev->period;
			a->period = pmu__freq_first_period(a->freq_hz, max);
		} else if (ev->period > max) {
			*why = plan->full_width ? "pmu: period too large for the counter width"
						: "pmu: period too large: at most 2^31-1 without "
						  "full-width counter writes";
			memset(plan, 0, sizeof(*plan));
			return -EINVAL;
		} else {
			a->period = ev->period;
		}
		plan->global_ctrl |= pmu__global_bit(a);
		plan->nr++;
	}
	if (plan->pebs_enable) {
		plan->pebs_format = caps->pebs_format;
		if (caps->pebs_format >= X86_PEBS_FORMAT_ADAPTIVE) {
			/* basic group (eventing IP) + memory info (data address) */
			plan->pebs_data_cfg = X86_PEBS_CFG_MEMINFO;
			plan->pebs_record_size = pebs__adaptive_record_size(plan->pebs_data_cfg);
		} else {
			plan->pebs_record_size = pebs__fixed_record_size(caps->pebs_format);
		}
	}
	return 0;
}

/* ===================================================================== */
/* Ownership                                                               */
/* ===================================================================== */

/*
 * Linux's reserve_perfctr_nmi()/reserve_evntsel_nmi() map an MSR to a bit
 * relative to IA32_PMC0 / IA32_PERFEVTSEL0 (legacy addresses, whatever
 * address the writes use). Fixed counters have no bit: they cannot be
 * reserved. perf reserves all GP counters as a block while any hardware
 * event exists (and the NMI watchdog is such an event), so pmuprof always
 * reserves counter 0 as well, even for a fixed-counter-only plan: when
 * that succeeds, perf holds nothing, including the fixed counters; and
 * while pmuprof holds it, perf's hardware events fail to reserve.
 */
static u32 reserve_mask(const struct pmu_plan *plan)
{
	u32 m = 1u; /* sentinel: counter 0, see above */

	for (u32 i = 0; i < plan->nr; i++)
		if (plan->a[i].kind == PMU_CTR_GP)
			m |= 1u << plan->a[i].idx;
	return m;
}

static void release_taken(u32 perfctr, u32 evntsel)
{
	for (int i = X86_PMU_MAX_GP - 1; i >= 0; i--) {
		if (evntsel & (1u << i))
			plat_release_evntsel(MSR_IA32_PERFEVTSEL0 + (u32)i);
		if (perfctr & (1u << i))
			plat_release_perfctr(MSR_IA32_PMC0 + (u32)i);
	}
}

int pmu__reserve(const struct pmu_plan *plan, const char **why)
{
	u32 want, perfctr = 0, evntsel = 0;

	if (!plan->nr)
		return 0;
	want = reserve_mask(plan);
	for (u32 i = 0; i < X86_PMU_MAX_GP; i++) {
		if (!(want & (1u << i)))
			continue;
		if (!plat_reserve_perfctr(MSR_IA32_PMC0 + i))
			goto busy;
		perfctr |= 1u << i;
		if (!plat_reserve_evntsel(MSR_IA32_PERFEVTSEL0 + i))
			goto busy;
		evntsel |= 1u << i;
	}
	return 0;
busy:
	release_taken(perfctr, evntsel);
	if (why)
		*why = status_why(PMUPROF_PMU_BUSY);
	return -EBUSY;
}

void pmu__release(const struct pmu_plan *plan)
{
	u32 m;

	if (!plan->nr)
		return;
	m = reserve_mask(plan);
	release_taken(m, m);
}

/* ===================================================================== */
/* Per-CPU start/stop                                                      */
/* ===================================================================== */

static bool has_global(const struct pmu_plan *plan)
{
	return plan->version >= X86_PMU_V_FIXED;
}

static u64 fixed_nibbles(const struct pmu_plan *plan)
{
	u64 m = 0;

	for (u32 i = 0; i < plan->nr; i++)
		if (plan->a[i].kind == PMU_CTR_FIXED)
			m |= (X86_FIXED_CTRL_NIBBLE << X86_FIXED_CTRL_SHIFT(plan->a[i].idx)) |
			     ((plan->pebs_enable && plan->pebs_format >= X86_PEBS_FORMAT_ADAPTIVE)
				      ? X86_FIXED_CTRL_ADAPTIVE(plan->a[i].idx)
				      : 0);
	return m;
}

/* Status bits pmuprof acknowledges: its counters, plus the DS-buffer bit
 * when it runs PEBS (it is then the only DS user: perf is locked out by
 * the counter reservation). */
static u64 ack_mask(const struct pmu_plan *plan)
{
	return plan->global_ctrl | (plan->pebs_enable ? X86_GLOBAL_STATUS_OVF_BUF : 0);
}

static void arm(struct pmu_cpu *pc, u32 i, u64 period)
{
	const struct pmu_plan *plan = pc->plan;
	const struct pmu_assign *a = &plan->a[i];

	pc->armed[i] = period;
	plat_wrmsr(pmu__counter_msr(plan, a), pmu__arm_value(period, assign_width(plan, a)));
}

/* --- PEBS memory (DS save area + buffer), owned by the glue ----------- */

static bool has_pebs(const struct pmu_plan *plan)
{
	return plan->pebs_enable != 0;
}

static bool adaptive(const struct pmu_plan *plan)
{
	return plan->pebs_format >= X86_PEBS_FORMAT_ADAPTIVE;
}

/* Counter reset value the CPU reloads after writing a record: the same
 * arm value as the counter itself, so every record stands for armed[i]. */
static void pebs_set_reset(struct pmu_cpu *pc, u32 i)
{
	const struct pmu_plan *plan = pc->plan;
	const struct pmu_assign *a = &plan->a[i];
	int off = pebs__ds_reset_offset(plan->pebs_format, a->kind == PMU_CTR_FIXED, a->idx);
	u64 v = pmu__arm_value(pc->armed[i], assign_width(plan, a));

	if (off >= 0 && (u32)off + sizeof(v) <= PMU_PEBS_DS_BYTES)
		memcpy((u8 *)pc->pebs_mem.ds + off, &v, sizeof(v));
}

/* Lay out the DS area: threshold = one record, so every record raises the
 * DS-buffer PMI (perf's single-record mode: the IP and data address go
 * out while the task that caused them is still current). */
static int pebs_setup(struct pmu_cpu *pc, const struct pmu_plan *plan,
		      const struct pmu_pebs_mem *mem)
{
	struct pebs_ds_params p;
	int rc;

	if (!mem || !mem->ds || !mem->buf || !plan->pebs_record_size ||
	    ((uintptr_t)mem->ds & (X86_DS_AREA_ALIGN - 1)) || mem->buf_len < plan->pebs_record_size)
		return -EINVAL;
	p.buf_base = (u64)(uintptr_t)mem->buf;
	p.buf_len = mem->buf_len;
	p.record_size = plan->pebs_record_size;
	p.threshold = 1;
	rc = pebs__ds_setup(mem->ds, PMU_PEBS_DS_BYTES, &p);
	if (rc < 0)
		return rc;
	pc->pebs_mem = *mem;
	pc->pebs_base = p.buf_base;
	pc->pebs_nrec = (u32)rc;
	return 0;
}

void pmu__cpu_start(struct pmu_cpu *pc, const struct pmu_plan *plan)
{
	(void)pmu__cpu_start_mem(pc, plan, NULL);
}

int pmu__cpu_start_mem(struct pmu_cpu *pc, const struct pmu_plan *plan,
		       const struct pmu_pebs_mem *mem)
{
	u64 ctrl = 0, fixed, v;
	u64 now = plat_now_ns();

	memset(pc, 0, sizeof(*pc));
	pc->plan = plan;
	if (!plan->nr)
		return 0;
	if (has_pebs(plan) && pebs_setup(pc, plan, mem)) {
		pc->plan = NULL; /* not running: the NMI handler ignores this CPU */
		return -EINVAL;
	}
	if (has_global(plan)) {
		ctrl = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl & ~plan->global_ctrl);
	}
	for (u32 i = 0; i < plan->nr; i++) {
		const struct pmu_assign *a = &plan->a[i];

		pc->period[i] = a->period;
		pc->last_ns[i] = now;
		if (a->kind == PMU_CTR_GP)
			plat_wrmsr(MSR_IA32_PERFEVTSEL0 + a->idx, 0);
		arm(pc, i, a->period);
		if (a->pebs)
			pebs_set_reset(pc, i);
		if (a->kind == PMU_CTR_GP)
			plat_wrmsr(MSR_IA32_PERFEVTSEL0 + a->idx,
				   a->evtsel); /* v1: counts from here */
	}
	if (plan->fixed_ctrl) {
		fixed = plat_rdmsr(MSR_IA32_FIXED_CTR_CTRL);
		plat_wrmsr(MSR_IA32_FIXED_CTR_CTRL,
			   (fixed & ~fixed_nibbles(plan)) | plan->fixed_ctrl);
	}
	if (has_pebs(plan)) {
		/* PEBS implies version 2+ (pmu__probe). */
		pc->saved_ds_area = plat_rdmsr(MSR_IA32_DS_AREA);
		plat_wrmsr(MSR_IA32_DS_AREA, (u64)(uintptr_t)pc->pebs_mem.ds);
		if (adaptive(plan)) {
			pc->saved_pebs_data_cfg = plat_rdmsr(MSR_IA32_PEBS_DATA_CFG);
			plat_wrmsr(MSR_IA32_PEBS_DATA_CFG, plan->pebs_data_cfg);
		}
		v = plat_rdmsr(MSR_IA32_PEBS_ENABLE);
		plat_wrmsr(MSR_IA32_PEBS_ENABLE, v | plan->pebs_enable);
	}
	if (has_global(plan))
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, ack_mask(plan));
	pc->saved_lvtpc = plat_lvtpc_read();
	plat_lvtpc_set_nmi();
	pc->running = true;
	if (has_global(plan))
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl | plan->global_ctrl);
	return 0;
}

void pmu__cpu_stop(struct pmu_cpu *pc)
{
	const struct pmu_plan *plan = pc->plan;
	u64 v;

	if (!pc->running || !plan)
		return;
	if (has_global(plan)) {
		v = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, v & ~plan->global_ctrl);
	}
	if (has_pebs(plan)) {
		v = plat_rdmsr(MSR_IA32_PEBS_ENABLE);
		plat_wrmsr(MSR_IA32_PEBS_ENABLE, v & ~plan->pebs_enable);
	}
	for (u32 i = 0; i < plan->nr; i++)
		if (plan->a[i].kind == PMU_CTR_GP)
			plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx, 0);
	if (plan->fixed_ctrl) {
		v = plat_rdmsr(MSR_IA32_FIXED_CTR_CTRL);
		plat_wrmsr(MSR_IA32_FIXED_CTR_CTRL, v & ~fixed_nibbles(plan));
	}
	if (has_global(plan))
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, ack_mask(plan));
	if (has_pebs(plan)) {
		if (adaptive(plan))
			plat_wrmsr(MSR_IA32_PEBS_DATA_CFG, pc->saved_pebs_data_cfg);
		plat_wrmsr(MSR_IA32_DS_AREA, pc->saved_ds_area);
	}
	pc->running = false;
	plat_lvtpc_write(pc->saved_lvtpc);
}

/* ===================================================================== */
/* NMI path: small and bounded (<= PMU_MAX_OVF_LOOPS x plan->nr steps)   */
/* ===================================================================== */

/*
 * Emit the period that just elapsed (what the counter was armed with, even
 * if pmu__scale_period() changed the next one), adjust the period in
 * frequency mode from armed events / elapsed time, re-arm. [NMI]
 * Events counted between the overflow and the re-arm (skid, handler
 * latency) are not carried over: each sample stands for `armed` events.
 */
static void freq_update(struct pmu_cpu *pc, u32 i, u64 now)
{
	const struct pmu_plan *plan = pc->plan;
	const struct pmu_assign *a = &plan->a[i];

	/* elapsed 0: a second record of the same drain, already accounted */
	if (a->freq_hz && now != pc->last_ns[i]) {
		pc->period[i] = pmu__freq_next_period(pc->armed[i], now - pc->last_ns[i],
						      a->freq_hz, pmu__max_period(plan, a));
		pc->last_ns[i] = now;
	}
}

static void overflow_one(struct pmu_cpu *pc, u32 i, u64 now, pmu_emit_fn emit, void *ctx)
{
	emit(ctx, pc->plan->a[i].event, pc->armed[i]);
	freq_update(pc, i, now);
	arm(pc, i, pc->period[i]);
}

/* Re-arm a PEBS counter: the counter and the reset value the CPU reloads
 * after its next record. Counters are disabled while this runs. */
static void pebs_rearm(struct pmu_cpu *pc, u32 i)
{
	arm(pc, i, pc->period[i]);
	pebs_set_reset(pc, i);
}

/*
 * Counters of ours a record belongs to (GLOBAL_STATUS layout). Format 0
 * has no such field, and allows PEBS on PMC0 only: the record is that
 * counter's. Formats 1/2 carry a copy of GLOBAL_STATUS, which can name
 * several counters (and other overflows): a record naming more than one
 * of ours is ambiguous and dropped. Formats 3+ carry "applicable
 * counters": the record counts once for each. A record naming none of
 * ours (the status copy raced with clearing) goes to the only PEBS
 * counter when there is just one. [NMI]
 */
static u64 pebs_attribute(struct pmu_cpu *pc, const struct pebs_sample *rec)
{
	const struct pmu_plan *plan = pc->plan;
	u64 mine = plan->pebs_counters;
	u64 app;

	if (plan->pebs_format == 0)
		return mine;
	app = rec->applicable & mine;
	if (!app && !(mine & (mine - 1)))
		app = mine;
	if (!app) {
		pc->pebs.unattributed++;
		return 0;
	}
	if (plan->pebs_format < X86_PEBS_FORMAT_APPLICABLE && (app & (app - 1))) {
		pc->pebs.ambiguous++;
		return 0;
	}
	return app;
}

/*
 * Drain the PEBS buffer: at most pc->pebs_nrec records, each read inside
 * the buffer whatever the DS index says (pebs__ds_take validates it against
 * our own base and size). Sets bit i of *rearm for every counter that
 * produced a record. Returns the samples emitted. [NMI]
 */
static int drain_pebs(struct pmu_cpu *pc, const struct pmu_emit_ops *ops, void *ctx, u64 now,
		      u32 *rearm)
{
	const struct pmu_plan *plan = pc->plan;
	const u8 *buf = pc->pebs_mem.buf;
	u32 rs = plan->pebs_record_size, nrec;
	int n = 0;

	if (pebs__ds_take(pc->pebs_mem.ds, PMU_PEBS_DS_BYTES, pc->pebs_base, rs, pc->pebs_nrec,
			  &nrec))
		pc->pebs.bad_index++;
	for (u32 k = 0; k < nrec && k < pc->pebs_nrec; k++) {
		struct pebs_sample rec;
		u64 app;

		if (pebs__parse(plan->pebs_format, buf + (size_t)k * rs, rs, plan->pebs_data_cfg,
				&rec) < 0) {
			pc->pebs.bad_record++;
			continue;
		}
		pc->pebs.records++;
		app = pebs_attribute(pc, &rec);
		for (u32 i = 0; app && i < plan->nr; i++) {
			const struct pmu_assign *a = &plan->a[i];

			if (!a->pebs || !(app & pmu__global_bit(a)))
				continue;
			if (ops->emit_pebs)
				ops->emit_pebs(ctx, a->event, pc->armed[i], &rec);
			else
				ops->emit(ctx, a->event, pc->armed[i]);
			freq_update(pc, i, now);
			*rearm |= 1u << i;
			n++;
		}
	}
	return n;
}

/* Loop cap hit: status keeps re-asserting. Re-arm all of ours and clear
 * their status bits, like Linux's intel_pmu_reset() for its counters. */
static void reset_ours(struct pmu_cpu *pc)
{
	const struct pmu_plan *plan = pc->plan;

	pc->loops_capped++;
	for (u32 i = 0; i < plan->nr; i++) {
		arm(pc, i, pc->period[i]);
		if (plan->a[i].pebs)
			pebs_set_reset(pc, i);
	}
	if (has_pebs(plan)) {
		u32 dropped;

		pebs__ds_take(pc->pebs_mem.ds, PMU_PEBS_DS_BYTES, pc->pebs_base,
			      plan->pebs_record_size, pc->pebs_nrec, &dropped);
	}
	if (has_global(plan))
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, ack_mask(plan));
}

/* Version 1: no GLOBAL_STATUS. A counter armed with -period has its top
 * bit set until it wraps; a clear top bit means it overflowed. */
static u32 v1_overflowed(const struct pmu_plan *plan)
{
	u32 m = 0;

	for (u32 i = 0; i < plan->nr; i++) {
		const struct pmu_assign *a = &plan->a[i];
		u64 v = plat_rdmsr(MSR_IA32_PMC0 + a->idx);

		if (!test_bit64(v, plan->gp_width - 1))
			m |= 1u << i;
	}
	return m;
}

static int handle_v1(struct pmu_cpu *pc, pmu_emit_fn emit, void *ctx)
{
	const struct pmu_plan *plan = pc->plan;
	u32 ovf = v1_overflowed(plan);
	unsigned int loops = 0;
	int n = 0;
	u64 now;

	if (!ovf)
		return 0;
	now = plat_now_ns();
	for (u32 i = 0; i < plan->nr; i++)
		plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx,
			   plan->a[i].evtsel & ~X86_EVTSEL_EN);
	while (ovf) {
		for (u32 i = 0; i < plan->nr; i++)
			if (ovf & (1u << i)) {
				overflow_one(pc, i, now, emit, ctx);
				n++;
			}
		ovf = v1_overflowed(plan);
		if (ovf && ++loops >= PMU_MAX_OVF_LOOPS) {
			reset_ours(pc);
			break;
		}
	}
	for (u32 i = 0; i < plan->nr; i++)
		plat_wrmsr(MSR_IA32_PERFEVTSEL0 + plan->a[i].idx, plan->a[i].evtsel);
	plat_lvtpc_set_nmi();
	return n;
}

int pmu__handle_nmi(struct pmu_cpu *pc, pmu_emit_fn emit, void *ctx)
{
	const struct pmu_emit_ops ops = {emit, NULL};

	return pmu__handle_nmi_ex(pc, &ops, ctx);
}

int pmu__handle_nmi_ex(struct pmu_cpu *pc, const struct pmu_emit_ops *ops, void *ctx)
{
	const struct pmu_plan *plan = pc->plan;
	unsigned int loops = 0;
	u64 ours, want, status, ctrl, now;
	bool buf_pmi = false;
	int n = 0;

	if (!pc->running || !plan || !plan->nr)
		return 0;
	if (!has_global(plan))
		return handle_v1(pc, ops->emit, ctx); /* no PEBS before version 2 */

	ours = plan->global_ctrl;
	/* What makes an NMI ours: an overflow of a counter that interrupts
	 * (not PEBS counters: their INT is clear, and their own status bit
	 * may be set while the record is still to come), or the DS-buffer
	 * bit when we run PEBS. */
	want = (ours & ~plan->pebs_counters) | (has_pebs(plan) ? X86_GLOBAL_STATUS_OVF_BUF : 0);
	status = plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	if (!(status & want))
		return 0; /* someone else's NMI or counter: touch nothing */

	ctrl = plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl & ~ours);
	now = plat_now_ns();
	for (;;) {
		u64 mine = status & want;
		u32 rearm = 0;

		if (mine & X86_GLOBAL_STATUS_OVF_BUF) {
			buf_pmi = true;
			n += drain_pebs(pc, ops, ctx, now, &rearm);
			/* PEBS counters' own overflow bits are served by the
			 * records: acknowledge them with the buffer bit */
			mine |= status & plan->pebs_counters;
		}
		for (u32 i = 0; i < plan->nr; i++) {
			const struct pmu_assign *a = &plan->a[i];

			if (!(mine & pmu__global_bit(a)))
				continue;
			if (a->pebs) {
				rearm |= 1u << i;
				continue;
			}
			overflow_one(pc, i, now, ops->emit, ctx);
			n++;
		}
		for (u32 i = 0; rearm && i < plan->nr; i++)
			if (rearm & (1u << i))
				pebs_rearm(pc, i);
		/* ack only our bits: foreign overflow stays for its owner */
		plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, mine);
		status = plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
		if (!(status & want))
			break;
		if (++loops >= PMU_MAX_OVF_LOOPS) {
			reset_ours(pc);
			break;
		}
	}
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl | ours);
	/* The APIC masked LVTPC when it delivered the PMI; reopen it last so
	 * that a new overflow cannot interrupt us half-way. */
	plat_lvtpc_set_nmi();
	/* a buffer PMI of ours with no usable record is still ours */
	return n ? n : (buf_pmi ? 1 : 0);
}

void pmu__restore_period(struct pmu_cpu *pc, u32 event, u32 factor)
{
	const struct pmu_plan *plan = pc->plan;

	if (!plan || !factor)
		return;
	for (u32 i = 0; i < plan->nr; i++) {
		const struct pmu_assign *a = &plan->a[i];

		if (a->event != event || a->freq_hz)
			continue;
		pc->period[i] =
			pc->period[i] / factor > a->period ? pc->period[i] / factor : a->period;
	}
}

void pmu__scale_period(struct pmu_cpu *pc, u32 event, u32 factor)
{
	const struct pmu_plan *plan = pc->plan;

	if (!plan || !factor)
		return;
	for (u32 i = 0; i < plan->nr; i++) {
		u64 max = pmu__max_period(plan, &plan->a[i]);

		if (plan->a[i].event != event)
			continue;
		pc->period[i] = pc->period[i] > max / factor ? max : pc->period[i] * factor;
	}
}
