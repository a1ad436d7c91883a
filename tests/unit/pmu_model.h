/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A register-level model of the Intel architectural PMU (SDM vol. 3B ch.
 * 20) for host tests. It plugs into the fake MSR file of
 * platform_test_cpu.c as an MSR handler and sets up CPUID so that
 * pmu__probe() sees the configured PMU.
 *
 * Modelled: IA32_PMCx (legacy writes: bits 31:0, bit 31 sign-extended to
 * the width), IA32_A_PMCx (only with PERF_CAPABILITIES.FW_WRITE; bits
 * beyond the width fault), IA32_PERFEVTSELx (reserved bits and AnyThread
 * before v3 fault), IA32_FIXED_CTRx, IA32_FIXED_CTR_CTRL, and on v2+
 * IA32_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL (v1: those MSRs do not exist).
 * Counting: pmu_model_count() adds events to every enabled counter that
 * counts them in the given mode; a wrap past the width sets the counter's
 * GLOBAL_STATUS bit (v2+) and, with INT/PMI set, raises a PMI: if LVTPC
 * is unmasked with NMI delivery, the "APIC" masks LVTPC and queues an NMI
 * (pmu_model_take_nmi), else the PMI is counted as lost.
 * Not modelled: counter freezing, PEBS, uncore, PERF_METRICS, skid.
 */
#ifndef PMU_MODEL_H
#define PMU_MODEL_H

#include "pmuprof/types.h"

struct pmu_model_cfg {
	u32 version;
	u32 nr_gp, gp_width;
	u32 nr_fixed, fixed_width; /* CPUID.0AH:EDX fields */
	u32 fixed_ecx;		   /* CPUID.0AH:ECX bitmap (v5) */
	u32 ebx, ebx_len;	   /* EBX "not available" bits and length */
	bool anythread_deprecated;
	bool full_width; /* PERF_CAPABILITIES.FW_WRITE (implies PDCM) */
	u32 signature;	 /* CPUID.1:EAX; 0 -> a Skylake client signature */
};

#define PMU_MODEL_MAX_GP    8
#define PMU_MODEL_MAX_FIXED 4

struct pmu_model {
	struct pmu_model_cfg cfg;
	u64 pmc[PMU_MODEL_MAX_GP];
	u64 evtsel[PMU_MODEL_MAX_GP];
	u64 fixed[PMU_MODEL_MAX_FIXED];
	u64 fixed_ctrl;
	u64 global_ctrl;
	u64 global_status;
	u64 sticky_status; /* bits OVF_CTRL cannot clear (a stuck-status test) */
	u32 nmis_pending;  /* PMIs delivered as NMI, not yet taken */
	u32 pmis_lost;	   /* PMIs raised while LVTPC was masked */
	u32 overflows;	   /* counter wraps */
	u32 faults;	   /* accesses the model refused (also in plat_test_msr_faults) */
};

/* Reset the platform's cpu part is the caller's job; this defines CPUID
 * (GenuineIntel, leaf 1, leaf 0AH), PERF_CAPABILITIES (when full_width),
 * and installs the MSR handler. LVTPC starts as NMI delivery, unmasked. */
void pmu_model_init(struct pmu_model *m, const struct pmu_model_cfg *cfg);
void pmu_model_detach(void);

/* Add n events of encoding event_umask (event | umask << 8) counted in
 * user (true) or kernel mode. Fixed counter 0 counts instructions, 1 core
 * cycles, 2 reference cycles (also the 0x0300 pseudo-encoding). */
void pmu_model_count(struct pmu_model *m, u64 event_umask, u64 n, bool user);
/* Take one queued NMI; false if none. */
bool pmu_model_take_nmi(struct pmu_model *m);

#endif
