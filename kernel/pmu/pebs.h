/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/pmu/pebs: PEBS record parsing (formats 0..5) and debug-store (DS)
 * save area arithmetic. Pure functions over byte buffers: no MSR access,
 * no allocation, bounded; callable from NMI context.
 *
 * Layouts: pmuprof/x86_pmu_regs.h (X86_PEBS_*, X86_DS_*), from the SDM.
 * Also: the model tables of PEBS counter constraints (pebs__allowed).
 * Status: unit-tested with byte-exact synthetic records and the PMU model
 * (tests/unit/pmu_model.c); UNVERIFIED ON HARDWARE (see docs/PMU.md).
 * pmu_hw.c and pmu_irq.c program PEBS with these helpers.
 */
#ifndef PMUPROF_PEBS_H
#define PMUPROF_PEBS_H

#include "pmuprof/types.h"

struct pebs_sample {
	u64 ip;		 /* eventing IP if ip_exact, else the recorded RIP */
	u64 data_addr;	 /* data linear address if has_addr */
	u64 applicable;	 /* GLOBAL_STATUS (fmt 1,2) / applicable counters (3+) */
	u64 tsc;	 /* fmt 3+ */
	u64 data_source; /* DSE / memory auxiliary info, if has_addr */
	u64 latency;	 /* if has_addr */
	u64 gpr[16];	 /* if has_gprs: RAX.. in PP_REG_* (ModRM) order, the
			  * values after the eventing instruction retired */
	u32 size;	 /* bytes this record occupies */
	bool ip_exact;	 /* ip is the instruction that caused the event */
	bool has_addr;	 /* the format/record carries a data address */
	bool has_gprs;	 /* formats 0..3, adaptive with the GPR group */
};

/* Size of a record of a fixed-layout format (0..3); 0 if unknown/adaptive. */
u32 pebs__fixed_record_size(u32 format);
/* Size of an adaptive (format 4/5) record with this data configuration
 * (IA32_PEBS_DATA_CFG bits); 0 if cfg has unknown bits. */
u32 pebs__adaptive_record_size(u64 cfg);

/*
 * Parse one record at buf (len bytes available). Returns the record size
 * (> 0) and fills *out, or:
 *  -EOPNOTSUPP  unknown PEBS format (> X86_PEBS_FORMAT_MAX)
 *  -EINVAL      record shorter than its layout, or (adaptive) a size field
 *               that disagrees with its groups, unknown group bits, or a
 *               data configuration different from `expect_cfg`
 * expect_cfg is only used for formats 4/5 (the IA32_PEBS_DATA_CFG value
 * the module programmed); pass ~0ull to accept any known configuration.
 */
int pebs__parse(u32 format, const void *buf, size_t len, u64 expect_cfg, struct pebs_sample *out);

/* --- DS save area ------------------------------------------------------ */
struct pebs_ds_params {
	u64 buf_base; /* linear address of the PEBS buffer */
	u64 buf_len;  /* bytes */
	u32 record_size;
	u32 threshold; /* records before the DS-buffer PMI (>= 1) */
};

/*
 * Fill a DS save area (ds, ds_len bytes, as mapped at any address) for
 * PEBS only (BTS fields zero): base, index = base, absolute maximum =
 * base + whole records, interrupt threshold = base + threshold records.
 * Returns the number of records the buffer holds, or -EINVAL (buffer not
 * record-aligned in size < threshold records, ds_len too small, overflow).
 */
int pebs__ds_setup(u8 *ds, size_t ds_len, const struct pebs_ds_params *p);
/* Counter reset value slot for PMCx (gp) or FIXED_CTRx (fixed, format 4+):
 * byte offset in the DS area, or -EINVAL. */
int pebs__ds_reset_offset(u32 format, bool fixed, u32 idx);
/* Records between PEBS base and index, bounded by the absolute maximum;
 * -EINVAL if the index is out of range or not on a record boundary. */
int pebs__ds_pending(const u8 *ds, size_t ds_len, u32 record_size);

/*
 * Take the records the CPU wrote. The PEBS index of the DS area at `ds`
 * (ds_len bytes) is checked against the buffer the caller set up: `base`,
 * `nrec` records of `record_size` bytes - the caller's own values, never
 * the DS area's base/maximum, which memory corruption could have changed.
 * Stores the number of whole records in *n (always <= nrec, so reading *n
 * records from base stays inside the buffer) and resets the index to base.
 * Returns 0, or:
 *  -ERANGE  index below base or past the end: *n = 0, nothing trusted
 *  -EINVAL  index inside the buffer but not on a record boundary (or bad
 *           arguments): *n = the whole records below it
 * Bounded: no loop. [NMI]
 */
int pebs__ds_take(u8 *ds, size_t ds_len, u64 base, u32 record_size, u32 nrec, u32 *n);

/* --- Counter constraints -------------------------------------------------- */

/* One line of a model table: what PEBS allows for an encoding. */
struct pebs_constraint {
	u64 match;	 /* event select, or event select | umask << 8 */
	u64 mask;	 /* X86_EVTSEL_EVENT_MASK or X86_EVTSEL_EVENT_UMASK */
	u32 gp;		 /* GP counters that may sample it (bit i = IA32_PMCi) */
	s8 fixed;	 /* fixed counter that samples it precisely, -1 = none */
	const char *why; /* gp == 0 && fixed < 0: why pmuprof refuses it */
	const char *name;
};

/* Where a precise event may go. */
struct pebs_allowed {
	u32 gp;	       /* GP counters (bit i = IA32_PMCi) */
	s8 fixed;      /* fixed counter named by the model table, -1 if none */
	bool fixed_ok; /* fixed counters can take PEBS at all (adaptive PEBS) */
};

/*
 * Counters on which the event `config` (IA32_PERFEVTSELx bits) may be
 * PEBS-sampled on a CPU of display family/model with PEBS record `format`,
 * PERF_CAPABILITIES.PEBS_BASELINE `baseline` and `nr_gp` GP counters:
 * the format's rule (X86_PEBS_*_GP_COUNTERS, fixed counters only with
 * adaptive PEBS), narrowed by the model's table when pmuprof has one
 * (first matching line wins; models without a table get the format rule
 * alone). Returns 0, or -ENODEV with *why (static) when the event cannot be
 * precise here (format unknown, or refused by the table).
 */
int pebs__allowed(u32 family, u32 model, u32 format, bool baseline, u32 nr_gp, u64 config,
		  struct pebs_allowed *out, const char **why);

/* Name of the model table pebs__allowed() uses, or NULL (format rule only). */
const char *pebs__model_table_name(u32 family, u32 model);

#endif /* PMUPROF_PEBS_H */
