// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS record parsing and DS save area arithmetic; see pebs.h.
 * Everything here is bounded by the record/area sizes it is given.
 */
#include "pebs.h"
#include "pmuprof/x86_pmu_regs.h"

static u64 rd64(const u8 *p, u32 off)
{
	u64 v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static void wr64(u8 *p, u32 off, u64 v)
{
	memcpy(p + off, &v, sizeof(v));
}

u32 pebs__fixed_record_size(u32 format)
{
	static const u32 sizes[] = {X86_PEBS_FMT0_SIZE, X86_PEBS_FMT1_SIZE, X86_PEBS_FMT2_SIZE,
				    X86_PEBS_FMT3_SIZE};

	return format < PP_ARRAY_SIZE(sizes) ? sizes[format] : 0;
}

u32 pebs__adaptive_record_size(u64 cfg)
{
	u32 size = X86_PEBS_BASIC_SIZE;

	cfg &= X86_PEBS_CFG_FIELD_MASK;
	if (cfg & ~X86_PEBS_CFG_KNOWN)
		return 0;
	if ((cfg & X86_PEBS_CFG_LBR_MASK) && !(cfg & X86_PEBS_CFG_LBRS))
		return 0; /* an LBR count without the LBR group */
	if (cfg & X86_PEBS_CFG_MEMINFO)
		size += X86_PEBS_MEM_SIZE;
	if (cfg & X86_PEBS_CFG_GPRS)
		size += X86_PEBS_GPRS_SIZE;
	if (cfg & X86_PEBS_CFG_XMMS)
		size += X86_PEBS_XMMS_SIZE;
	if (cfg & X86_PEBS_CFG_LBRS)
		size += X86_PEBS_LBR_ENTRY_SIZE *
			(u32)(((cfg & X86_PEBS_CFG_LBR_MASK) >> X86_PEBS_CFG_LBR_SHIFT) + 1);
	return size;
}

static int parse_fixed(u32 format, const u8 *b, size_t len, struct pebs_sample *s)
{
	u32 size = pebs__fixed_record_size(format);

	if (len < size)
		return -EINVAL;
	s->size = size;
	s->ip = rd64(b, X86_PEBS_OFF_RIP);
	if (format >= 1) {
		s->applicable = rd64(b, X86_PEBS_OFF_GLOBAL_STATUS);
		s->data_addr = rd64(b, X86_PEBS_OFF_DLA);
		s->data_source = rd64(b, X86_PEBS_OFF_DSE);
		s->latency = rd64(b, X86_PEBS_OFF_LATENCY);
		s->has_addr = true;
	}
	if (format >= 2) {
		s->ip = rd64(b, X86_PEBS_OFF_EVENTING_IP);
		s->ip_exact = true;
	}
	if (format >= 3)
		s->tsc = rd64(b, X86_PEBS_OFF_TSC);
	return (int)size;
}

static int parse_adaptive(const u8 *b, size_t len, u64 expect_cfg, struct pebs_sample *s)
{
	u64 head, cfg;
	u32 size, want;

	if (len < X86_PEBS_BASIC_SIZE)
		return -EINVAL;
	head = rd64(b, X86_PEBS_BASIC_OFF_FORMAT);
	cfg = head & X86_PEBS_CFG_FIELD_MASK;
	size = (u32)(head >> X86_PEBS_SIZE_SHIFT);
	want = pebs__adaptive_record_size(cfg);
	if (!want || size != want || len < size)
		return -EINVAL;
	if (expect_cfg != ~0ull && cfg != (expect_cfg & X86_PEBS_CFG_FIELD_MASK))
		return -EINVAL;
	s->size = size;
	s->ip = rd64(b, X86_PEBS_BASIC_OFF_IP);
	s->ip_exact = true;
	s->applicable = rd64(b, X86_PEBS_BASIC_OFF_APPLICABLE);
	s->tsc = rd64(b, X86_PEBS_BASIC_OFF_TSC);
	if (cfg & X86_PEBS_CFG_MEMINFO) {
		const u32 m = X86_PEBS_BASIC_SIZE;

		s->data_addr = rd64(b, m + X86_PEBS_MEM_OFF_ADDRESS);
		s->data_source = rd64(b, m + X86_PEBS_MEM_OFF_AUX);
		s->latency = rd64(b, m + X86_PEBS_MEM_OFF_LATENCY);
		s->has_addr = true;
	}
	return (int)size;
}

int pebs__parse(u32 format, const void *buf, size_t len, u64 expect_cfg, struct pebs_sample *out)
{
	memset(out, 0, sizeof(*out));
	if (format > X86_PEBS_FORMAT_MAX)
		return -EOPNOTSUPP;
	if (!buf)
		return -EINVAL;
	if (pebs__fixed_record_size(format))
		return parse_fixed(format, buf, len, out);
	return parse_adaptive(buf, len, expect_cfg, out);
}

int pebs__ds_setup(u8 *ds, size_t ds_len, const struct pebs_ds_params *p)
{
	u64 nrec, end;

	if (!ds || ds_len < X86_DS_PEBS_COUNTER_RESET || !p->record_size || !p->threshold)
		return -EINVAL;
	nrec = p->buf_len / p->record_size;
	if (nrec < p->threshold || nrec > 0x7fffffff)
		return -EINVAL;
	end = p->buf_base + nrec * p->record_size;
	if (end < p->buf_base)
		return -EINVAL; /* wraps the address space */
	memset(ds, 0, ds_len);
	wr64(ds, X86_DS_PEBS_BUFFER_BASE, p->buf_base);
	wr64(ds, X86_DS_PEBS_INDEX, p->buf_base);
	wr64(ds, X86_DS_PEBS_ABSOLUTE_MAXIMUM, end);
	wr64(ds, X86_DS_PEBS_INTERRUPT_THRESHOLD, p->buf_base + (u64)p->threshold * p->record_size);
	return (int)nrec;
}

int pebs__ds_reset_offset(u32 format, bool fixed, u32 idx)
{
	u32 slot;

	if (format > X86_PEBS_FORMAT_MAX)
		return -EINVAL;
	if (format < 4) {
		if (fixed || idx >= X86_DS_RESET_SLOTS_LEGACY)
			return -EINVAL;
		slot = idx;
	} else if (fixed) {
		if (idx >= X86_DS_RESET_SLOTS_FIXED)
			return -EINVAL;
		slot = X86_DS_RESET_SLOTS_GP_FMT4 + idx;
	} else {
		if (idx >= X86_DS_RESET_SLOTS_GP_FMT4)
			return -EINVAL;
		slot = idx;
	}
	return (int)(X86_DS_PEBS_COUNTER_RESET + slot * sizeof(u64));
}

int pebs__ds_pending(const u8 *ds, size_t ds_len, u32 record_size)
{
	u64 base, index, max;

	if (!ds || ds_len < X86_DS_PEBS_COUNTER_RESET || !record_size)
		return -EINVAL;
	base = rd64(ds, X86_DS_PEBS_BUFFER_BASE);
	index = rd64(ds, X86_DS_PEBS_INDEX);
	max = rd64(ds, X86_DS_PEBS_ABSOLUTE_MAXIMUM);
	if (index < base || index > max || (index - base) % record_size)
		return -EINVAL;
	return (int)((index - base) / record_size);
}
