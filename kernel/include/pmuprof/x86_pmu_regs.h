/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one header of Intel SDM facts pmuprof relies on: MSR numbers, CPUID
 * leaf layouts and register bit fields of the architectural PMU, the local
 * APIC LVT performance-counter entry, and the PEBS/DS constants.
 *
 * Sources: Intel SDM vol. 3B ch. 20 "Performance Monitoring" (architectural
 * performance monitoring versions 1..5, PEBS), vol. 4 "Model-Specific
 * Registers" (table 2-2, architectural MSRs), vol. 2A CPUID (leaves 0, 1,
 * 0AH), vol. 3A ch. 11 "APIC" (LVT layout) and vol. 3A 2.5 (the one CR4
 * bit pmuprof looks at: VMXE). Bit fields are declared LSB first, as GCC
 * lays them out on x86 (the same convention as Linux's
 * arch/x86/include/asm/perf_event.h).
 *
 * No logic here; .c files use only these names, never bare numbers.
 *
 * No name here may also be one of Linux's (<asm/msr-index.h>,
 * <asm/processor-flags.h>, ...): the kernel build includes both, and Linux
 * can mean another number by the same name (its MSR_IA32_PMC0 is 0x4c1, the
 * full-width alias; IA32_PMC0 is 0xc1). Where the SDM's name is taken, ours
 * is X86_-prefixed (X86_MSR_IA32_PMC0). scripts/check-linux-names.sh
 * (make lint) checks every name against the kernel headers.
 */
#ifndef PMUPROF_X86_PMU_REGS_H
#define PMUPROF_X86_PMU_REGS_H

#include "pmuprof/types.h"

/* ------------------------------------------------------------------ */
/* CPUID leaves                                                         */
/* ------------------------------------------------------------------ */
#define X86_CPUID_LEAF_VENDOR	   0x00u /* EAX max basic leaf; EBX,EDX,ECX vendor */
#define X86_CPUID_LEAF_FEATURE	   0x01u /* signature + feature flags */
#define X86_CPUID_LEAF_EXT_FEATURE 0x07u /* structured extended features, subleaf 0 */
#define X86_CPUID_LEAF_PERFMON	   0x0au /* architectural performance monitoring */
#define X86_CPUID_LEAF_HYBRID	   0x1au /* native model ID and core type (hybrid parts) */

/* CPUID.0: vendor string is EBX, EDX, ECX in that order (12 chars). */
#define X86_VENDOR_STRING_LEN 12
#define X86_VENDOR_INTEL_STR  "GenuineIntel"
#define X86_VENDOR_AMD_STR    "AuthenticAMD"
#define X86_VENDOR_HYGON_STR  "HygonGenuine"

/* CPUID.1:EAX version information (SDM vol. 2A, figure 3-6). */
union x86_cpuid1_eax {
	struct {
		u32 stepping : 4;
		u32 model : 4;
		u32 family : 4;
		u32 type : 2;
		u32 reserved0 : 2;
		u32 ext_model : 4;
		u32 ext_family : 8;
		u32 reserved1 : 4;
	} split;
	u32 full;
};
/* Display family = family + ext_family only when family == 0FH. Display
 * model = (ext_model << 4) + model when family is 06H or 0FH. */
#define X86_FAMILY_EXT_FAMILY 0x0fu /* family value that adds ext_family */
#define X86_FAMILY_P6	      0x06u /* family value that also uses ext_model */
#define X86_EXT_MODEL_SHIFT   4

/* CPUID.1:ECX feature bits used here. */
#define X86_CPUID1_ECX_PDCM	  (1u << 15) /* IA32_PERF_CAPABILITIES exists */
#define X86_CPUID1_ECX_HYPERVISOR (1u << 31) /* running under a hypervisor */
/* CPUID.1:EDX feature bits used here. */
#define X86_CPUID1_EDX_DS (1u << 21) /* debug store (BTS/PEBS) */

/* CPUID.(EAX=07H,ECX=0):EDX bit 15 "Hybrid": the processor is identified
 * as a hybrid part (more than one core type; SDM vol. 2A CPUID). Each core
 * type then reports its own CPUID.0AH (e.g. Alder Lake: P-cores 8 GP + 4
 * fixed counters, E-cores 6 GP + 3 fixed). */
#define X86_CPUID7_EDX_HYBRID (1u << 15)

/* CPUID.1AH:EAX "Native Model ID Enumeration" (hybrid parts). */
union x86_cpuid1a_eax {
	struct {
		u32 native_model_id : 24;
		u32 core_type : 8;
	} split;
	u32 full;
};
#define X86_CORE_TYPE_ATOM 0x20u /* E-core */
#define X86_CORE_TYPE_CORE 0x40u /* P-core */

/*
 * CPUID.0AH, architectural performance monitoring (SDM vol. 2A, table 3-8
 * "Information returned by CPUID", leaf 0AH; vol. 3B 20.2).
 */
union x86_cpuid10_eax {
	struct {
		u32 version : 8;    /* 0 = no architectural PMU */
		u32 num_gp : 8;	    /* general-purpose counters per logical cpu */
		u32 gp_width : 8;   /* bit width of general-purpose counters */
		u32 ebx_length : 8; /* number of valid bits in EBX */
	} split;
	u32 full;
};

/* EBX: bit i SET means architectural event i is NOT available. */
union x86_cpuid10_ebx {
	struct {
		u32 no_core_cycles : 1;
		u32 no_instructions : 1;
		u32 no_ref_cycles : 1;
		u32 no_llc_references : 1;
		u32 no_llc_misses : 1;
		u32 no_branch_instructions : 1;
		u32 no_branch_misses : 1;
		u32 no_topdown_slots : 1;
		u32 reserved : 24;
	} split;
	u32 full;
};

/* ECX (version 5+): bit i set = fixed counter i supported. Fixed counter i
 * exists iff ECX[i] || EDX.num_fixed > i (SDM vol. 3B 20.2.5). */
union x86_cpuid10_ecx {
	u32 fixed_mask;
	u32 full;
};

union x86_cpuid10_edx {
	struct {
		u32 num_fixed : 5;   /* contiguous fixed counters (version > 1) */
		u32 fixed_width : 8; /* bit width of fixed counters (version > 1) */
		u32 reserved0 : 2;
		u32 anythread_deprecated : 1; /* AnyThread must be 0 */
		u32 reserved1 : 16;
	} split;
	u32 full;
};

/* Version thresholds (SDM vol. 3B 20.2.2 .. 20.2.6). */
#define X86_PMU_V_FIXED	       2 /* fixed counters, GLOBAL_CTRL/STATUS/OVF_CTRL */
#define X86_PMU_V_ANYTHREAD    3 /* AnyThread bit in PERFEVTSEL / FIXED_CTR_CTRL */
#define X86_PMU_V_STATUS_RESET 4 /* GLOBAL_STATUS_RESET/SET/INUSE */
#define X86_PMU_V_FIXED_MASK   5 /* CPUID.0AH:ECX fixed-counter bitmap */

/* ------------------------------------------------------------------ */
/* MSRs (SDM vol. 4, table 2-2)                                         */
/* ------------------------------------------------------------------ */
#define X86_MSR_IA32_PMC0		  0x0c1u /* IA32_PMCx = PMC0 + x; writes sign-extend bit 31 */
#define MSR_IA32_PERFEVTSEL0		  0x186u /* IA32_PERFEVTSELx = PERFEVTSEL0 + x */
#define X86_MSR_IA32_MISC_ENABLE	  0x1a0u
#define MSR_IA32_DEBUGCTL		  0x1d9u
#define MSR_IA32_FIXED_CTR0		  0x309u /* IA32_FIXED_CTRx = FIXED_CTR0 + x */
#define X86_MSR_IA32_PERF_CAPABILITIES	  0x345u /* present iff CPUID.1:ECX.PDCM */
#define MSR_IA32_FIXED_CTR_CTRL		  0x38du /* version 2+ */
#define MSR_IA32_PERF_GLOBAL_STATUS	  0x38eu /* version 2+ */
#define MSR_IA32_PERF_GLOBAL_CTRL	  0x38fu /* version 2+ */
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL	  0x390u /* version 2,3: OVF_CTRL */
#define MSR_IA32_PERF_GLOBAL_STATUS_RESET 0x390u /* version 4+: same address */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET	  0x391u /* version 4+ */
#define MSR_IA32_PERF_GLOBAL_INUSE	  0x392u /* version 4+ */
#define X86_MSR_IA32_PEBS_ENABLE	  0x3f1u
#define MSR_IA32_A_PMC0			  0x4c1u /* full-width alias of PMC0 */
#define X86_MSR_IA32_DS_AREA		  0x600u

/* Counter number limits of the architecture (MSR ranges are contiguous). */
#define X86_PMU_MAX_GP	  8 /* IA32_PERFEVTSEL0..7 precede IA32_MISC_ENABLE's range */
#define X86_PMU_MAX_FIXED 4 /* FIXED_CTR0..3 (3 = TOPDOWN.SLOTS, Ice Lake+) */

/* Legacy IA32_PMCx writes: bits 31:0 written, bit 31 sign-extended to the
 * counter width (SDM vol. 3B 20.2.6 "Full-Width Writes"). */
#define X86_PMC_LEGACY_WRITE_BITS 32

/* IA32_MISC_ENABLE bits (SDM vol. 4, table 2-2). */
#define X86_MISC_ENABLE_PERF_AVAIL   (1ull << 7)
#define X86_MISC_ENABLE_BTS_UNAVAIL  (1ull << 11)
#define X86_MISC_ENABLE_PEBS_UNAVAIL (1ull << 12)

/* IA32_DEBUGCTL bits. */
#define X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI (1ull << 12)

/* ------------------------------------------------------------------ */
/* IA32_PERFEVTSELx (SDM vol. 3B figure 20-1 / 20-6)                    */
/* ------------------------------------------------------------------ */
union x86_perfevtsel {
	struct {
		u64 event : 8;
		u64 umask : 8;
		u64 usr : 1; /* count at CPL > 0 */
		u64 os : 1;  /* count at CPL 0 */
		u64 edge : 1;
		u64 pc : 1;   /* pin control */
		u64 intr : 1; /* APIC interrupt (PMI) on overflow */
		u64 any : 1;  /* AnyThread, version 3+ unless deprecated */
		u64 en : 1;   /* enable counter */
		u64 inv : 1;
		u64 cmask : 8;
		u64 reserved : 32; /* must be zero (TSX/v6 extensions not supported) */
	} split;
	u64 full;
};
#define X86_EVTSEL_EVENT_MASK  0x00000000000000ffull
#define X86_EVTSEL_UMASK_MASK  0x000000000000ff00ull
#define X86_EVTSEL_UMASK_SHIFT 8
#define X86_EVTSEL_USR	       (1ull << 16)
#define X86_EVTSEL_OS	       (1ull << 17)
#define X86_EVTSEL_EDGE	       (1ull << 18)
#define X86_EVTSEL_PC	       (1ull << 19)
#define X86_EVTSEL_INT	       (1ull << 20)
#define X86_EVTSEL_ANY	       (1ull << 21)
#define X86_EVTSEL_EN	       (1ull << 22)
#define X86_EVTSEL_INV	       (1ull << 23)
#define X86_EVTSEL_CMASK_MASK  0x00000000ff000000ull
#define X86_EVTSEL_CMASK_SHIFT 24
#define X86_EVTSEL_RESERVED    0xffffffff00000000ull
/* Adaptive PEBS (PERF_CAPABILITIES.PEBS_BASELINE): the counter's PEBS
 * records carry the groups IA32_PEBS_DATA_CFG selects; clear = the basic
 * group only (SDM vol. 3B, "Adaptive PEBS"). Bit 34 of the otherwise
 * reserved half, set by the kernel, never by the caller. */
#define X86_EVTSEL_ADAPTIVE (1ull << 34)
/* event select + umask, the part that names the event */
#define X86_EVTSEL_EVENT_UMASK		(X86_EVTSEL_EVENT_MASK | X86_EVTSEL_UMASK_MASK)
#define X86_EVTSEL_ENCODE(event, umask) ((u64)(event) | ((u64)(umask) << X86_EVTSEL_UMASK_SHIFT))

/* ------------------------------------------------------------------ */
/* IA32_FIXED_CTR_CTRL: one 4-bit field per fixed counter (figure 20-2) */
/* ------------------------------------------------------------------ */
#define X86_FIXED_CTRL_BITS_PER_CTR 4
#define X86_FIXED_CTRL_OS	    0x1ull /* EN field bit 0: count at CPL 0 */
#define X86_FIXED_CTRL_USR	    0x2ull /* EN field bit 1: count at CPL > 0 */
#define X86_FIXED_CTRL_ANY	    0x4ull /* AnyThread (version 3+) */
#define X86_FIXED_CTRL_PMI	    0x8ull /* PMI on overflow */
#define X86_FIXED_CTRL_NIBBLE	    0xfull
#define X86_FIXED_CTRL_SHIFT(i)	    ((i)*X86_FIXED_CTRL_BITS_PER_CTR)
/* Adaptive PEBS: FIXED_CTR_CTRL bit 32 + 4i = fixed counter i's adaptive
 * record bit (same meaning as X86_EVTSEL_ADAPTIVE). */
#define X86_FIXED_CTRL_ADAPTIVE(i) (1ull << (32 + (i)*X86_FIXED_CTRL_BITS_PER_CTR))

/* ------------------------------------------------------------------ */
/* IA32_PERF_GLOBAL_CTRL / STATUS / OVF_CTRL (figures 20-3 .. 20-5)     */
/* ------------------------------------------------------------------ */
/* Same bit positions in all three: bit i = PMCi, bit 32+i = FIXED_CTRi. */
#define X86_GLOBAL_FIXED_SHIFT 32
#define X86_GLOBAL_PMC(i)      (1ull << (i))
#define X86_GLOBAL_FIXED(i)    (1ull << (X86_GLOBAL_FIXED_SHIFT + (i)))
#define X86_GLOBAL_PMC_MASK    0x00000000ffffffffull
#define X86_GLOBAL_FIXED_MASK  0x0000ffff00000000ull
/* GLOBAL_STATUS other bits */
#define X86_GLOBAL_STATUS_PERF_METRICS (1ull << 48) /* Ice Lake+ */
#define X86_GLOBAL_STATUS_TRACE_TOPA   (1ull << 55)
#define X86_GLOBAL_STATUS_LBR_FRZ      (1ull << 58) /* version 4+ */
#define X86_GLOBAL_STATUS_CTR_FRZ      (1ull << 59) /* version 4+ */
#define X86_GLOBAL_STATUS_ASCI	       (1ull << 60)
#define X86_GLOBAL_STATUS_OVF_UNCORE   (1ull << 61)
#define X86_GLOBAL_STATUS_OVF_BUF      (1ull << 62) /* DS buffer (PEBS/BTS) threshold */
#define X86_GLOBAL_STATUS_COND_CHGD    (1ull << 63)

/* ------------------------------------------------------------------ */
/* IA32_PERF_CAPABILITIES (SDM vol. 3B 20.6.2.4, vol. 4 table 2-2)      */
/* ------------------------------------------------------------------ */
union x86_perf_capabilities {
	struct {
		u64 lbr_format : 6;
		u64 pebs_trap : 1;
		u64 pebs_arch_reg : 1;
		u64 pebs_format : 4; /* PEBS record format, see pebs.h */
		u64 smm_freeze : 1;
		u64 full_width_write : 1; /* IA32_A_PMCx usable */
		u64 pebs_baseline : 1;	  /* adaptive PEBS (format 4+) */
		u64 perf_metrics : 1;
		u64 pebs_output_pt : 1;
		u64 reserved : 47;
	} split;
	u64 full;
};
#define X86_PERF_CAP_PEBS_TRAP	    (1ull << 6)
#define X86_PERF_CAP_PEBS_FMT_SHIFT 8
#define X86_PERF_CAP_PEBS_FMT_MASK  (0xfull << X86_PERF_CAP_PEBS_FMT_SHIFT)
#define X86_PERF_CAP_FW_WRITE	    (1ull << 13)
#define X86_PERF_CAP_PEBS_BASELINE  (1ull << 14)

/* ------------------------------------------------------------------ */
/* Local APIC LVT Performance Monitoring Counters register (vol. 3A     */
/* figure 11-8). The APIC sets MASKED when it delivers a PMI.           */
/* ------------------------------------------------------------------ */
#define X86_LVT_VECTOR_MASK	0x000000ffu
#define X86_LVT_DM_MASK		0x00000700u /* delivery mode [10:8] */
#define X86_LVT_DM_FIXED	0x00000000u
#define X86_LVT_DM_SMI		0x00000200u
#define X86_LVT_DM_NMI		0x00000400u
#define X86_LVT_DELIVERY_STATUS 0x00001000u
#define X86_LVT_MASKED		0x00010000u

/* ------------------------------------------------------------------ */
/* Pre-defined architectural events (SDM vol. 3B table 20-1), in       */
/* CPUID.0AH:EBX bit order, = enum pmuprof_arch_event.                  */
/* ------------------------------------------------------------------ */
#define X86_ARCH_EV_CORE_CYCLES	   X86_EVTSEL_ENCODE(0x3c, 0x00) /* UnHalted Core Cycles */
#define X86_ARCH_EV_INSTRUCTIONS   X86_EVTSEL_ENCODE(0xc0, 0x00) /* Instruction Retired */
#define X86_ARCH_EV_REF_CYCLES	   X86_EVTSEL_ENCODE(0x3c, 0x01) /* UnHalted Reference Cycles */
#define X86_ARCH_EV_LLC_REFERENCES X86_EVTSEL_ENCODE(0x2e, 0x4f) /* LLC Reference */
#define X86_ARCH_EV_LLC_MISSES	   X86_EVTSEL_ENCODE(0x2e, 0x41) /* LLC Misses */
#define X86_ARCH_EV_BRANCH_INSTR   X86_EVTSEL_ENCODE(0xc4, 0x00) /* Branch Instruction Retired */
#define X86_ARCH_EV_BRANCH_MISSES  X86_EVTSEL_ENCODE(0xc5, 0x00) /* Branch Misses Retired */
#define X86_ARCH_EV_TOPDOWN_SLOTS  X86_EVTSEL_ENCODE(0xa4, 0x01) /* Topdown Slots */
#define X86_ARCH_EV_COUNT	   8

/*
 * What each fixed counter counts (SDM vol. 3B table 20-2 "Association of
 * Fixed-Function Performance Counters with Architectural Performance
 * Events"), and the event-select pseudo-encodings Linux and libpfm4 use for
 * fixed-only events (event 00H, umask = counter + 1).
 */
#define X86_FIXED_CTR_INSTRUCTIONS 0 /* INST_RETIRED.ANY */
#define X86_FIXED_CTR_CORE_CYCLES  1 /* CPU_CLK_UNHALTED.THREAD / CORE */
#define X86_FIXED_CTR_REF_CYCLES   2 /* CPU_CLK_UNHALTED.REF_TSC */
#define X86_FIXED_CTR_SLOTS	   3 /* TOPDOWN.SLOTS */
#define X86_FIXED_PSEUDO_REF_TSC   X86_EVTSEL_ENCODE(0x00, 0x03) /* fixed counter 2 only */
#define X86_FIXED_PSEUDO_SLOTS	   X86_EVTSEL_ENCODE(0x00, 0x04) /* fixed counter 3 only */

/* ------------------------------------------------------------------ */
/* Debug store (DS) save area, 64-bit layout (SDM vol. 3B 18.6.3.4,     */
/* figure 18-10 "64-bit DS Save Area"): byte offsets of its fields.     */
/* ------------------------------------------------------------------ */
#define X86_DS_BTS_BUFFER_BASE		0x00
#define X86_DS_BTS_INDEX		0x08
#define X86_DS_BTS_ABSOLUTE_MAXIMUM	0x10
#define X86_DS_BTS_INTERRUPT_THRESHOLD	0x18
#define X86_DS_PEBS_BUFFER_BASE		0x20
#define X86_DS_PEBS_INDEX		0x28
#define X86_DS_PEBS_ABSOLUTE_MAXIMUM	0x30
#define X86_DS_PEBS_INTERRUPT_THRESHOLD 0x38
#define X86_DS_PEBS_COUNTER_RESET	0x40 /* u64 per counter: PMC0..PMCn, then fixed */
#define X86_DS_RESET_SLOTS_LEGACY	4    /* formats 0..3: PMC0..3 only */
#define X86_DS_RESET_SLOTS_GP_FMT4	8    /* format 4+: PMC0..7, then FIXED_CTR0..3 */
#define X86_DS_RESET_SLOTS_FIXED	4
#define X86_DS_AREA_ALIGN		4096 /* pmuprof keeps it page aligned, as Linux does */
/* Bytes of the 64-bit DS save area up to the last reset slot (format 4+:
 * 8 GP + 4 fixed reset values). */
#define X86_DS_AREA_SIZE                                                                           \
	(X86_DS_PEBS_COUNTER_RESET +                                                               \
	 (X86_DS_RESET_SLOTS_GP_FMT4 + X86_DS_RESET_SLOTS_FIXED) * sizeof(u64))

/* IA32_PEBS_ENABLE: bit i enables PEBS on PMCi; format 4+ extends to fixed
 * counters at bit 32+i. Bits 35:32 on older parts are load-latency enables. */
#define X86_PEBS_ENABLE_PMC(i)	 (1ull << (i))
#define X86_PEBS_ENABLE_FIXED(i) (1ull << (32 + (i)))

/*
 * Which counters can take PEBS, by record format (SDM vol. 3B, PEBS
 * sections of each microarchitecture):
 *  - format 0 (Intel Core, Atom): IA32_PMC0 only;
 *  - formats 1..3 (Nehalem .. Skylake): IA32_PMC0..3 (PEBS_EN_PMC3:0; the
 *    DS area has 4 counter-reset slots);
 *  - adaptive PEBS (format 4+, PERF_CAPABILITIES.PEBS_BASELINE, Ice Lake+,
 *    "extended PEBS"): every GP counter and the fixed counters.
 * Model-specific limits on top of this are tables in kernel/pmu/pebs.c.
 */
#define X86_PEBS_FMT0_GP_COUNTERS   1
#define X86_PEBS_LEGACY_GP_COUNTERS 4
#define X86_PEBS_FORMAT_ADAPTIVE    4 /* first adaptive format */
#define X86_PEBS_FORMAT_APPLICABLE  3 /* first format with "applicable counters" */

/* ------------------------------------------------------------------ */
/* PEBS records (SDM vol. 3B 20.x "Processor Event Based Sampling"):    */
/* byte offsets per PEBS record format, IA32_PERF_CAPABILITIES[11:8].   */
/* ------------------------------------------------------------------ */
/* Format 0 (Intel Core / Atom, 64-bit): RFLAGS, RIP, RAX..R15. RIP is the
 * instruction AFTER the one that caused the event (trap-like). */
#define X86_PEBS_OFF_RFLAGS 0x00
#define X86_PEBS_OFF_RIP    0x08
#define X86_PEBS_OFF_GPR    0x10 /* RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8..R15 */
/* The 16 GPR slots from X86_PEBS_OFF_GPR (and in the adaptive GPR group,
 * after its RFLAGS and RIP), 8 bytes each, in this order. Format 0..3:
 * the values AFTER the eventing instruction retired (SDM 20.3.8.1.1). */
#define X86_PEBS_GPR_RAX   0
#define X86_PEBS_GPR_RBX   1
#define X86_PEBS_GPR_RCX   2
#define X86_PEBS_GPR_RDX   3
#define X86_PEBS_GPR_RSI   4
#define X86_PEBS_GPR_RDI   5
#define X86_PEBS_GPR_RBP   6
#define X86_PEBS_GPR_RSP   7
#define X86_PEBS_GPR_R8	   8 /* R8..R15 follow in order */
#define X86_PEBS_NR_GPR	   16
#define X86_PEBS_FMT0_SIZE 0x90 /* 144 bytes */
/* Format 1 (Nehalem .. Ivy Bridge): format 0 plus: */
#define X86_PEBS_OFF_GLOBAL_STATUS 0x90 /* format 3+: "applicable counters" */
#define X86_PEBS_OFF_DLA	   0x98 /* data linear address (load latency / precise store) */
#define X86_PEBS_OFF_DSE	   0xa0 /* data source encoding */
#define X86_PEBS_OFF_LATENCY	   0xa8
#define X86_PEBS_FMT1_SIZE	   0xb0 /* 176 bytes */
/* Format 2 (Haswell, Broadwell): format 1 plus: */
#define X86_PEBS_OFF_EVENTING_IP 0xb0 /* IP of the instruction that caused the event */
#define X86_PEBS_OFF_TX_ABORT	 0xb8
#define X86_PEBS_FMT2_SIZE	 0xc0 /* 192 bytes */
/* Format 3 (Skylake .. ): format 2 plus: */
#define X86_PEBS_OFF_TSC   0xc0
#define X86_PEBS_FMT3_SIZE 0xc8 /* 200 bytes */

/* Formats 4 and 5: adaptive PEBS (Ice Lake+). Groups in this order: basic
 * (always), memory info, GPRs, XMMs, LBR entries; the first quadword holds
 * the record format (which groups, = IA32_PEBS_DATA_CFG) in its low bits
 * and the record size in bytes in bits 63:48. */
#define MSR_IA32_PEBS_DATA_CFG 0x3f2u
#define X86_PEBS_CFG_MEMINFO   (1ull << 0)
#define X86_PEBS_CFG_GPRS      (1ull << 1)
#define X86_PEBS_CFG_XMMS      (1ull << 2)
#define X86_PEBS_CFG_LBRS      (1ull << 3)
#define X86_PEBS_CFG_LBR_SHIFT 24 /* LBR entries - 1, bits 31:24 */
#define X86_PEBS_CFG_LBR_MASK  (0xffull << X86_PEBS_CFG_LBR_SHIFT)
#define X86_PEBS_CFG_KNOWN                                                                         \
	(X86_PEBS_CFG_MEMINFO | X86_PEBS_CFG_GPRS | X86_PEBS_CFG_XMMS | X86_PEBS_CFG_LBRS |        \
	 X86_PEBS_CFG_LBR_MASK)
#define X86_PEBS_CFG_FIELD_MASK                                                                    \
	0x00000000ffffffffull /* bits 47:32 carry other data on newer parts */
#define X86_PEBS_SIZE_SHIFT	      48
#define X86_PEBS_BASIC_OFF_FORMAT     0x00
#define X86_PEBS_BASIC_OFF_IP	      0x08 /* eventing IP */
#define X86_PEBS_BASIC_OFF_APPLICABLE 0x10
#define X86_PEBS_BASIC_OFF_TSC	      0x18
#define X86_PEBS_BASIC_SIZE	      0x20
#define X86_PEBS_MEM_OFF_ADDRESS      0x00 /* within the memory info group */
#define X86_PEBS_MEM_OFF_AUX	      0x08 /* data source */
#define X86_PEBS_MEM_OFF_LATENCY      0x10
#define X86_PEBS_MEM_OFF_TSX	      0x18
#define X86_PEBS_MEM_SIZE	      0x20
#define X86_PEBS_GPRS_SIZE	      0x90  /* RFLAGS, RIP, 16 GPRs */
#define X86_PEBS_GPRS_OFF_GPR	      0x10  /* within the GPR group: RAX.. (X86_PEBS_GPR_*) */
#define X86_PEBS_XMMS_SIZE	      0x100 /* XMM0..15, 16 bytes each */
#define X86_PEBS_LBR_ENTRY_SIZE	      0x18  /* from, to, info */

#define X86_PEBS_FORMAT_MAX 5 /* highest format pmuprof parses */

/* ------------------------------------------------------------------ */
/* CR4 (SDM vol. 3A 2.5 "Control Registers")                           */
/* ------------------------------------------------------------------ */
/* CR4.VMXE, bit 13: VMX enable. VMXON faults unless it is set, and it
 * cannot be cleared while the CPU is in VMX operation (vol. 3C "Enabling
 * and Entering VMX Operation", "Restrictions on VMX Operation"). Linux's
 * KVM sets it just before VMXON and clears it after VMXOFF, so on Linux it
 * reads "a hypervisor has VMX on on this CPU". */
#define X86_CR4_VMX_ENABLE (1ull << 13)

#endif /* PMUPROF_X86_PMU_REGS_H */
