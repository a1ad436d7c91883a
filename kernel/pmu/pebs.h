/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/pmu/pebs: PEBS record parsing (formats 0..5) and debug-store (DS)
 * save area arithmetic. Pure functions over byte buffers: no MSR access,
 * no allocation, bounded; callable from NMI context.
 *
 * Layouts: pmuprof/x86_pmu_regs.h (X86_PEBS_*, X86_DS_*), from the SDM.
 * Status: unit-tested with byte-exact synthetic records only; UNVERIFIED ON
 * HARDWARE (see docs/PMU.md). The module does not program PEBS yet.
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
	u32 size;	 /* bytes this record occupies */
	bool ip_exact;	 /* ip is the instruction that caused the event */
	bool has_addr;	 /* the format/record carries a data address */
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

#endif /* PMUPROF_PEBS_H */
