// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmu event validation and counter scheduling (pmu__plan: pure, no
 * MSR access), and the reservation of the counters a plan uses
 * (pmu__reserve/pmu__release, through the platform's reservation API),
 * which also refuses PEBS while a hypervisor has VMX on.
 */
#include "pmu_internal.h"
#include "pmuprof/platform.h"

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
	case PMUPROF_PMU_HYBRID:
		return "pmu: hybrid CPU (P-cores and E-cores have different counters), not "
		       "supported "
		       "yet; use the cpu-clock (NMI-IPI) source, or disable the E-cores in the "
		       "firmware setup to use PMU events";
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
			plan->any_freq = true;
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
			plat_release_perfctr(X86_MSR_IA32_PMC0 + (u32)i);
	}
}

/*
 * PEBS under a hypervisor on this host. Before a VM entry, KVM asks perf
 * which PMU MSRs to switch (perf_guest_get_msrs: GLOBAL_CTRL, PEBS_ENABLE)
 * and perf answers from its own events, in which pmuprof's counters do not
 * appear: our GLOBAL_CTRL and PEBS_ENABLE bits stay set across the entry,
 * and the CPU goes on writing PEBS records through our DS area's linear
 * addresses while the guest runs, in the guest's address space. So a PEBS
 * plan does not start while CR4.VMXE is set on any online CPU (Linux 6.1's
 * KVM sets it from its first VM's creation to its last VM's destruction;
 * newer kernels from KVM's load). Asked once, at START: a VM created later
 * in the session is not seen (docs/PMU.md).
 */
static bool vmx_in_use(void)
{
	return plat_cr4_any_cpu() & X86_CR4_VMX_ENABLE;
}

int pmu__reserve(const struct pmu_plan *plan, const char **why)
{
	u32 want, perfctr = 0, evntsel = 0;

	if (!plan->nr)
		return 0;
	if (pmu__has_pebs(plan) && vmx_in_use()) {
		if (why)
			*why = "pmu: PEBS refused: VMX is on (CR4.VMXE) on at least one CPU, "
			       "so KVM (or another hypervisor) runs VMs on this host, and KVM "
			       "switches the PMU at guest entry from perf's state, not "
			       "pmuprof's: PEBS would stay armed inside the guests; stop the "
			       "VMs, or drop the precise modifier";
		return -EAGAIN;
	}
	want = reserve_mask(plan);
	for (u32 i = 0; i < X86_PMU_MAX_GP; i++) {
		if (!(want & (1u << i)))
			continue;
		if (!plat_reserve_perfctr(X86_MSR_IA32_PMC0 + i))
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
