/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host test platform: cpu part. See platform_test.h.
 *
 * A scriptable fake of the CPU side of platform.h:
 *  - CPUID: a table of (cpu, leaf, subleaf) -> regs; unset leaves read as
 *    zeros. Entries for one cpu (plat_test_set_cpuid_on) beat entries for
 *    every cpu, so hybrid parts can give each core type its own leaves.
 *  - MSRs: a fake MSR file. An MSR exists only once defined; touching an
 *    undefined MSR with plat_rdmsr/plat_wrmsr, or writing bits outside its
 *    writable mask, is a "fault" (what #GP would be on hardware): it is
 *    counted and the access has no effect (reads return 0). plat_rdmsr_safe
 *    returns -EIO on an undefined MSR and counts it separately (not a fault).
 *    A handler (the PMU model, tests/unit/pmu_model.c) can claim MSRs first.
 *  - LVTPC: one u32 register; plat_lvtpc_set_nmi() writes NMI delivery, unmasked.
 *  - Counter reservation: per MSR owner FREE / OURS / FOREIGN; tests mark
 *    MSRs FOREIGN to play "perf or the NMI watchdog holds it".
 *  - Clock: plat_now_ns() returns a value the test sets (optionally
 *    advancing by a fixed step on every call); current cpu is settable.
 *  - CR4: one value per CPU (0 after reset), every CPU online;
 *    plat_cr4_any_cpu() ORs them and counts the queries (a query is a round
 *    of IPIs on Linux).
 *  - Access log: every MSR read/write, LVTPC write, reservation and release
 *    is appended to a bounded log so tests can check order ("LVTPC last").
 */
#ifndef PLATFORM_TEST_CPU_H
#define PLATFORM_TEST_CPU_H

#include "pmuprof/platform.h"

void plat_test_cpu_reset(void);

/* --- CPUID ------------------------------------------------------------ */
#define PLAT_TEST_ANY_SUBLEAF 0xffffffffu
#define PLAT_TEST_ANY_CPU     0xffffffffu
#define PLAT_TEST_MAX_CPUID   64
/* Define (or replace) a leaf for every cpu. subleaf PLAT_TEST_ANY_SUBLEAF
 * matches all. */
void plat_test_set_cpuid(u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx);
/* Same, seen only while plat_cpu() == cpu (plat_test_set_cpu); it wins
 * over an every-cpu entry of the same leaf. */
void plat_test_set_cpuid_on(u32 cpu, u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx);
/* Convenience: leaf 0 (max_leaf + vendor string, 12 chars) and leaf 1
 * (signature eax, ecx and edx feature words; ebx 0). */
void plat_test_set_vendor(const char *vendor12, u32 max_leaf);
void plat_test_set_cpuid1(u32 eax, u32 ecx, u32 edx);
/* Number of plat_cpuid calls since reset. */
unsigned int plat_test_cpuid_calls(void);

/* --- MSR file ----------------------------------------------------------- */
#define PLAT_TEST_MAX_MSRS 128
/* Define an MSR with initial value and the mask of bits a write may set;
 * writing a 1 outside writable_mask faults (reserved bits). */
void plat_test_msr_define(u32 msr, u64 val, u64 writable_mask);
/* Make a defined MSR disappear again (reads/writes fault). */
void plat_test_msr_undefine(u32 msr);
bool plat_test_msr_defined(u32 msr);
/* Set/get the stored value directly (no log, no fault checks). Setting an
 * undefined MSR defines it with writable_mask ~0. */
void plat_test_msr_poke(u32 msr, u64 val);
u64 plat_test_msr_peek(u32 msr);
/* Faults (#GP equivalents) from plat_rdmsr/plat_wrmsr since reset, and the
 * MSR of the last one. */
unsigned int plat_test_msr_faults(void);
u32 plat_test_msr_last_fault(void);
/* plat_rdmsr_safe calls that returned -EIO. */
unsigned int plat_test_msr_safe_failures(void);

/* A handler that gets every MSR access first (the PMU model). Return 0 if
 * handled (*val filled for reads), -ENOENT to fall through to the MSR
 * file, -EIO for a fault. Pass NULL to remove. `after` (optional) runs
 * once the access (or an LVTPC write) has taken effect and been logged:
 * the instruction boundary where the model counts the instruction and
 * may deliver an NMI. */
struct plat_test_msr_handler {
	int (*read)(void *ctx, u32 msr, u64 *val);
	int (*write)(void *ctx, u32 msr, u64 val);
	void *ctx;
	void (*after)(void *ctx);
};
void plat_test_msr_set_handler(const struct plat_test_msr_handler *h);

/* --- LVTPC ------------------------------------------------------------- */
/* Set the register as hardware would (APIC masking on delivery), no log. */
void plat_test_lvtpc_poke(u32 val);
u32 plat_test_lvtpc_peek(void);

/* --- Counter reservation ------------------------------------------------ */
enum plat_test_owner {
	PLAT_TEST_FREE = 0,
	PLAT_TEST_OURS = 1,
	PLAT_TEST_FOREIGN = 2, /* held by perf / the NMI watchdog */
};
void plat_test_hold_perfctr(u32 msr); /* mark FOREIGN */
void plat_test_hold_evntsel(u32 msr);
enum plat_test_owner plat_test_perfctr_owner(u32 msr);
enum plat_test_owner plat_test_evntsel_owner(u32 msr);
/* MSRs currently reserved by us (perfctr + evntsel). */
unsigned int plat_test_reserved_count(void);
/* Release calls for an MSR we did not hold (a bug in the caller). */
unsigned int plat_test_bad_releases(void);

/* --- Clock and cpu -------------------------------------------------------- */
void plat_test_set_now(u64 ns);
void plat_test_advance_ns(u64 ns);
/* Every plat_now_ns() call advances the clock by step AFTER returning. */
void plat_test_set_clock_step(u64 step_ns);
void plat_test_set_cpu(unsigned int cpu);

/* --- CR4 ------------------------------------------------------------------ */
#define PLAT_TEST_MAX_CPUS 64
/* CR4 of `cpu` as plat_cr4_any_cpu() sees it (e.g. VMXE: KVM runs VMs). */
void plat_test_set_cr4(unsigned int cpu, u64 val);
/* plat_cr4_any_cpu() calls since reset. */
unsigned int plat_test_cr4_queries(void);

/* --- Access log ----------------------------------------------------------- */
enum plat_test_op {
	PLAT_OP_RDMSR = 1,
	PLAT_OP_WRMSR,
	PLAT_OP_RDMSR_SAFE,
	PLAT_OP_LVTPC_WRITE, /* plat_lvtpc_write and plat_lvtpc_set_nmi */
	PLAT_OP_RESERVE_PERFCTR,
	PLAT_OP_RELEASE_PERFCTR,
	PLAT_OP_RESERVE_EVNTSEL,
	PLAT_OP_RELEASE_EVNTSEL,
};
struct plat_test_access {
	u8 op;	 /* enum plat_test_op */
	bool ok; /* false: faulted / reservation refused */
	u32 msr; /* 0 for LVTPC */
	u64 val; /* value read or written */
};
#define PLAT_TEST_LOG_MAX 4096
unsigned int plat_test_log_len(void); /* entries kept (<= PLAT_TEST_LOG_MAX) */
unsigned int plat_test_log_dropped(void);
const struct plat_test_access *plat_test_log_get(unsigned int i);
void plat_test_log_clear(void);
/* Index of the last entry with this op (and msr unless msr == 0), or -1. */
int plat_test_log_last(enum plat_test_op op, u32 msr);
/* Number of entries with this op (and msr unless msr == 0). */
unsigned int plat_test_log_count(enum plat_test_op op, u32 msr);

#endif
