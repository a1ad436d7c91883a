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
 * before v3 fault), IA32_FIXED_CTRx, IA32_FIXED_CTR_CTRL, IA32_DEBUGCTL
 * (FREEZE_PERFMON_ON_PMI), and on v2+ IA32_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL
 * (v1: those MSRs do not exist); on v4+ OVF_CTRL is GLOBAL_STATUS_RESET
 * (also clears CTR_FRZ, LBR_FRZ, ASCI, TraceToPA) and GLOBAL_STATUS_SET
 * exists (it cannot set CondChgd). GLOBAL_CTRL powers up with the GP
 * counters' enables set and the fixed ones clear (SDM vol. 3A table 10-1,
 * "Processor States Following Power-up, Reset, or INIT": "IA32_PERF_GLOBAL_CTRL:
 * Sets bits n-1:0 and clears the upper bits", n = number of GP counters;
 * March 2023 SDM and later, as KVM emulates it since Linux 6.9).
 *
 * Counting: pmu_model_count() adds events to every enabled counter that
 * counts them in the given mode; a wrap past the width sets the counter's
 * GLOBAL_STATUS bit (v2+) and, with INT/PMI set, makes a PMI request. With
 * DEBUGCTL.FREEZE_PERFMON_ON_PMI the request freezes the counters: v4+
 * sets GLOBAL_STATUS.CTR_FRZ (bit 59) and nothing counts until software
 * clears it through GLOBAL_STATUS_RESET; v2/v3 ("legacy freeze") clear
 * GLOBAL_CTRL. The PMI goes through LVTPC: unmasked with NMI delivery, the
 * "APIC" masks LVTPC and raises an NMI; masked (or not NMI), the PMI is
 * dropped and counted in pmis_lost, never queued.
 *
 * NMIs (SDM vol. 3A 6.7.1 "Handling Multiple NMIs"): one latch per CPU,
 * shared by PMIs and NMI IPIs (pmu_model_send_ipi). An NMI raised while
 * none runs is due (taken at the next instruction boundary); one raised
 * while a handler runs, or while one is already due, is latched; further
 * ones coalesce into the latch (nmis_coalesced). No NMI is delivered while
 * a handler runs: the latched one becomes due at its IRET. Tests either
 * take NMIs themselves (pmu_model_take_nmi: ends the running handler with
 * IRET, then enters the due one; the caller runs the handler) or install
 * a handler (pmu_model_set_nmi_handler) that the model runs at every
 * instruction boundary (after each MSR access or LVTPC write, after
 * pmu_model_count / pmu_model_send_ipi) when an NMI is due: the handler can
 * interrupt any MSR sequence of the code under test, and the latched NMI
 * runs right after its IRET. An NMI whose handler returns 0 is counted in
 * nmis_unknown (Linux: "Uhhuh. NMI received for unknown reason", unless
 * the previous handler returned > 1 and the NMI is back-to-back).
 * While a handler runs, each of its MSR accesses and LVTPC writes retires
 * `nmi_cost` kernel-mode instructions and core cycles (0 = free): counting
 * goes on until the handler disables the counters, and a WRMSR counts under
 * the settings it makes (as tests/vm/qemu-pmu does).
 *
 * PEBS (cfg.ds): IA32_MISC_ENABLE (PEBS-unavailable bit), PERF_CAPABILITIES
 * (record format, PEBS_BASELINE), IA32_DS_AREA (holds a host pointer: the
 * "linear address" the model writes through), IA32_PEBS_ENABLE (bits the
 * format allows: PMC0 for format 0, PMC0..3 for 1..3, every GP and fixed
 * counter with the baseline; others fault), IA32_PEBS_DATA_CFG (baseline
 * only; a counter's records carry its groups only with the counter's
 * adaptive record bit: PERFEVTSELx bit 34, FIXED_CTR_CTRL bit 32 + 4i,
 * else the basic group alone). When a counter with its PEBS_ENABLE bit overflows, the model does
 * the PEBS assist: it writes a byte-exact record of the configured format
 * (offsets written from the SDM tables, independently of x86_pmu_regs.h)
 * for the current instruction (pmu_model_set_insn) at the DS PEBS index -
 * unless the record would pass the absolute maximum (dropped, counted) -,
 * advances the index, reloads the counter from its DS reset slot, and
 * when the index reaches the interrupt threshold sets GLOBAL_STATUS bit 62
 * and raises the PMI. The counter's own status bit is set too only with
 * cfg.pebs_sets_ctr_status (both behaviours exist on hardware).
 * Not modelled: LBR freezing, uncore, PERF_METRICS, skid (tests count
 * events between the overflow and pmu_model_take_nmi themselves), the PEBS
 * "arming" delay (the record is for the overflowing instruction itself),
 * load-latency and precise-store facilities.
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
	/* PEBS */
	bool ds;		   /* CPUID.1:EDX.DS; also models the PEBS MSRs */
	bool pdcm;		   /* PERF_CAPABILITIES present even without full_width */
	u32 pebs_format;	   /* PERF_CAPABILITIES[11:8] */
	bool pebs_baseline;	   /* PERF_CAPABILITIES[14] (adaptive PEBS) */
	bool pebs_unavailable;	   /* IA32_MISC_ENABLE[12] */
	bool pebs_sets_ctr_status; /* a PEBS record also sets the counter's status bit */
};

/* The instruction the next counted events belong to (PEBS records). */
struct pmu_model_insn {
	u64 ip;		 /* the instruction that caused the event (eventing IP) */
	u64 next_ip;	 /* the one after it (formats 0/1 record this as RIP) */
	u64 data_addr;	 /* data linear address; 0 = none */
	u64 data_source; /* DSE / memory auxiliary info */
	u64 latency;
	u64 tsc;
	u64 flags;   /* RFLAGS */
	u64 gpr[16]; /* RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8..R15 */
};

/* Counter layouts the tests' CPU profiles share: the leading designated
 * initializers of a struct pmu_model_cfg; a profile adds its own fields.
 * PMU_MODEL_LAYOUT: version, GP counters x width, fixed counters x width,
 * CPUID.0AH EBX length (events enumerated). */
#define PMU_MODEL_LAYOUT(ver, gp, gp_bits, fixed, fixed_bits, events)                              \
	.version = (ver), .nr_gp = (gp), .gp_width = (gp_bits), .nr_fixed = (fixed),               \
	.fixed_width = (fixed_bits), .ebx_len = (events)
#define PMU_MODEL_SKL	PMU_MODEL_LAYOUT(4, 4, 48, 3, 48, 7) /* Skylake client */
#define PMU_MODEL_NHM	PMU_MODEL_LAYOUT(3, 4, 48, 3, 48, 7) /* Nehalem .. Haswell */
#define PMU_MODEL_ICL	PMU_MODEL_LAYOUT(5, 8, 48, 4, 48, 8) /* Ice Lake */
#define PMU_MODEL_CORE2 PMU_MODEL_LAYOUT(2, 2, 40, 3, 40, 7) /* Core 2 */

#define PMU_MODEL_MAX_GP    8
#define PMU_MODEL_MAX_FIXED 4

struct pmu_model {
	struct pmu_model_cfg cfg;
	u64 pmc[PMU_MODEL_MAX_GP];
	u64 evtsel[PMU_MODEL_MAX_GP];
	u64 fixed[PMU_MODEL_MAX_FIXED];
	u64 fixed_ctrl;
	/* events each counter counted since init (ground truth for tests) */
	u64 counted_gp[PMU_MODEL_MAX_GP];
	u64 counted_fixed[PMU_MODEL_MAX_FIXED];
	u64 global_ctrl;
	u64 global_status;
	u64 sticky_status; /* bits OVF_CTRL cannot clear (a stuck-status test) */
	u64 debugctl;	   /* IA32_DEBUGCTL */
	u32 pmis_lost;	   /* PMIs raised while LVTPC was masked */
	u32 overflows;	   /* counter wraps */
	u32 faults;	   /* accesses the model refused (also in plat_test_msr_faults) */
	/* NMI delivery: see the header comment */
	bool nmi_due;	    /* raised, handler not entered yet */
	bool in_nmi;	    /* a handler runs (until IRET) */
	bool nmi_latched;   /* raised while blocked: runs after the IRET */
	u32 nmis_taken;	    /* handlers entered */
	u32 nmis_latched;   /* NMIs that had to wait in the latch */
	u32 nmis_coalesced; /* NMIs lost because the latch was full */
	u32 nmis_unknown;   /* installed handler returned 0 */
	u64 nmi_cost;	    /* instructions per handler MSR access / LVTPC write */
	int (*nmi_handler)(void *ctx);
	void *nmi_ctx;
	u32 ipi_msr, ipi_nth; /* pmu_model_ipi_after_write */
	bool ipi_fire;
	unsigned int nmi_depth; /* recursion guard for the installed handler */
	/* PEBS */
	u64 ds_area;
	u64 pebs_enable;
	u64 pebs_data_cfg;
	struct pmu_model_insn insn;
	u32 pebs_records; /* records written */
	u32 pebs_dropped; /* assists without room (index + record > maximum) */
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
/* Set the instruction later events are attributed to in PEBS records. */
void pmu_model_set_insn(struct pmu_model *m, const struct pmu_model_insn *insn);
/* Record size the model writes with its current configuration. */
u32 pmu_model_pebs_record_size(const struct pmu_model *m);
/* The size of an adaptive (format 4+) PEBS record for MSR_PEBS_DATA_CFG
 * value cfg: basic group, then memory, GPR, XMM and cfg[31:24]+1 LBR entries. */
u32 pmu_model_adaptive_size(u64 cfg);
/* End the running handler (IRET), if any, then enter the due NMI's
 * handler (the latched one after an IRET); false if none is due. */
bool pmu_model_take_nmi(struct pmu_model *m);
/* IRET: the handler ends; a latched NMI becomes due. */
void pmu_model_iret(struct pmu_model *m);
/* An NMI IPI from another CPU arrives (shares the latch with PMIs). */
void pmu_model_send_ipi(struct pmu_model *m);
/* An NMI IPI arrives right after the nth (1-based) coming write to msr,
 * whoever writes it: an NMI inside a start/stop sequence. */
void pmu_model_ipi_after_write(struct pmu_model *m, u32 msr, u32 nth);
/* Run fn at every instruction boundary where an NMI is due (NULL: tests
 * take NMIs themselves). fn returns what Linux NMI handlers return: the
 * number of events it handled, 0 = not mine. */
void pmu_model_set_nmi_handler(struct pmu_model *m, int (*fn)(void *ctx), void *ctx);

#endif
