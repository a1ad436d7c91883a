// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS record parsing and DS save area arithmetic; see pebs.h.
 * Everything here is bounded by the record/area sizes it is given.
 */
#include "pebs.h"
#include "pmuprof/platform.h"
#include "pmuprof/x86_pmu_regs.h"
#include "pmuprof/x86_models.h"

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
PP_NOKPROBE(wr64);

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
PP_NOKPROBE(pebs__adaptive_record_size);

/* PEBS GPR slot (X86_PEBS_GPR_*) -> PP_REG_* (ModRM register number) */
static const u8 pebs_gpr_to_pp[X86_PEBS_NR_GPR] = {
	[X86_PEBS_GPR_RAX] = PP_REG_AX,	    [X86_PEBS_GPR_RBX] = PP_REG_BX,
	[X86_PEBS_GPR_RCX] = PP_REG_CX,	    [X86_PEBS_GPR_RDX] = PP_REG_DX,
	[X86_PEBS_GPR_RSI] = PP_REG_SI,	    [X86_PEBS_GPR_RDI] = PP_REG_DI,
	[X86_PEBS_GPR_RBP] = PP_REG_BP,	    [X86_PEBS_GPR_RSP] = PP_REG_SP,
	[X86_PEBS_GPR_R8 + 0] = PP_REG_R8,  [X86_PEBS_GPR_R8 + 1] = PP_REG_R9,
	[X86_PEBS_GPR_R8 + 2] = PP_REG_R10, [X86_PEBS_GPR_R8 + 3] = PP_REG_R11,
	[X86_PEBS_GPR_R8 + 4] = PP_REG_R12, [X86_PEBS_GPR_R8 + 5] = PP_REG_R13,
	[X86_PEBS_GPR_R8 + 6] = PP_REG_R14, [X86_PEBS_GPR_R8 + 7] = PP_REG_R15,
};

/* The 16 GPR slots at b + off, into s->gpr in PP_REG_* order. */
static void take_gprs(const u8 *b, u32 off, struct pebs_sample *s)
{
	for (u32 i = 0; i < X86_PEBS_NR_GPR; i++)
		s->gpr[pebs_gpr_to_pp[i]] = rd64(b, off + i * (u32)sizeof(u64));
	s->has_gprs = true;
}
PP_NOKPROBE(take_gprs);

static int parse_fixed(u32 format, const u8 *b, size_t len, struct pebs_sample *s)
{
	u32 size = pebs__fixed_record_size(format);

	if (len < size)
		return -EINVAL;
	s->size = size;
	s->ip = rd64(b, X86_PEBS_OFF_RIP);
	take_gprs(b, X86_PEBS_OFF_GPR, s);
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
	if (cfg & X86_PEBS_CFG_GPRS)
		take_gprs(b,
			  X86_PEBS_BASIC_SIZE +
				  ((cfg & X86_PEBS_CFG_MEMINFO) ? X86_PEBS_MEM_SIZE : 0) +
				  X86_PEBS_GPRS_OFF_GPR,
			  s);
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
PP_NOKPROBE(pebs__parse);

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
PP_NOKPROBE(pebs__ds_reset_offset);

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

int pebs__ds_take(u8 *ds, size_t ds_len, u64 base, u32 record_size, u32 nrec, u32 *n)
{
	u64 index, end, off;
	int rc = 0;

	*n = 0;
	if (!ds || ds_len < X86_DS_PEBS_COUNTER_RESET || !record_size)
		return -EINVAL;
	end = base + (u64)nrec * record_size;
	index = rd64(ds, X86_DS_PEBS_INDEX);
	if (index < base || index > end || end < base) {
		rc = -ERANGE;
	} else {
		off = index - base;
		if (off % record_size)
			rc = -EINVAL;
		*n = (u32)(off / record_size); /* <= nrec: index <= end */
	}
	wr64(ds, X86_DS_PEBS_INDEX, base);
	return rc;
}
PP_NOKPROBE(pebs__ds_take);

/* ===================================================================== */
/* Model tables of PEBS counter constraints (family 06H)                  */
/* ===================================================================== */

/*
 * Facts from the SDM (vol. 3B, PEBS sections per microarchitecture) and
 * Intel's published event lists (the "Counter" and "PEBS" columns): the
 * counters a precise event may use on top of the format rule. Lines that
 * refuse an encoding name the extra facility pmuprof does not program.
 */
#define EV(e)	  X86_EVTSEL_ENCODE(e, 0), X86_EVTSEL_EVENT_MASK
#define EVU(e, u) X86_EVTSEL_ENCODE(e, u), X86_EVTSEL_EVENT_UMASK
#define PMC1_ONLY 0x2u
#define PMC0_3	  0xfu

static const char why_ldlat[] = "pmu: load-latency PEBS needs MSR_PEBS_LD_LAT_THRESHOLD, which "
				"pmuprof does not program; use MEM_INST_RETIRED/MEM_LOAD_RETIRED "
				"events for data addresses";
static const char why_pst[] = "pmu: precise-store PEBS needs IA32_PEBS_ENABLE.PS_EN, which "
			      "pmuprof does not program";

static const u8 nhm_models[] = {X86_MODEL_NEHALEM_EP, X86_MODEL_NEHALEM,  X86_MODEL_NEHALEM_G,
				X86_MODEL_NEHALEM_EX, X86_MODEL_WESTMERE, X86_MODEL_WESTMERE_EP,
				X86_MODEL_WESTMERE_EX};
static const struct pebs_constraint nhm_pebs[] = {
	{EVU(0x0b, 0x10), 0, -1, why_ldlat, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD"},
};

static const u8 snb_models[] = {X86_MODEL_SANDYBRIDGE, X86_MODEL_SANDYBRIDGE_X, X86_MODEL_IVYBRIDGE,
				X86_MODEL_IVYBRIDGE_X};
static const struct pebs_constraint snb_pebs[] = {
	{EVU(0xc0, 0x01), PMC1_ONLY, -1, NULL, "INST_RETIRED.PREC_DIST (PDIR: PMC1 only)"},
	{EVU(0xcd, 0x01), 0, -1, why_ldlat, "MEM_TRANS_RETIRED.LOAD_LATENCY"},
	{EVU(0xcd, 0x02), 0, -1, why_pst, "MEM_TRANS_RETIRED.PRECISE_STORE"},
};

/* Haswell, Broadwell, Skylake, Kaby/Coffee/Comet Lake, Skylake-SP */
static const u8 hsw_skl_models[] = {
	X86_MODEL_HASWELL,   X86_MODEL_HASWELL_X,   X86_MODEL_HASWELL_L,   X86_MODEL_HASWELL_G,
	X86_MODEL_BROADWELL, X86_MODEL_BROADWELL_G, X86_MODEL_BROADWELL_X, X86_MODEL_BROADWELL_D,
	X86_MODEL_SKYLAKE_L, X86_MODEL_SKYLAKE,	    X86_MODEL_SKYLAKE_X,   X86_MODEL_KABYLAKE_L,
	X86_MODEL_KABYLAKE,  X86_MODEL_COMETLAKE,   X86_MODEL_COMETLAKE_L};
static const struct pebs_constraint hsw_skl_pebs[] = {
	{EVU(0xc0, 0x01), PMC1_ONLY, -1, NULL, "INST_RETIRED.PREC_DIST (PDIR: PMC1 only)"},
	{EVU(0xcd, 0x01), 0, -1, why_ldlat, "MEM_TRANS_RETIRED.LOAD_LATENCY"},
};

/* Ice Lake client/server, Tiger Lake, Rocket Lake (adaptive PEBS) */
static const u8 icl_models[] = {X86_MODEL_ICELAKE_NNPI, X86_MODEL_ICELAKE_L,   X86_MODEL_ICELAKE_X,
				X86_MODEL_ICELAKE_D,	X86_MODEL_TIGERLAKE_L, X86_MODEL_TIGERLAKE,
				X86_MODEL_ROCKETLAKE};
static const struct pebs_constraint icl_pebs[] = {
	{EVU(0xc0, 0x01), 0, X86_FIXED_CTR_INSTRUCTIONS, NULL,
	 "INST_RETIRED.PREC_DIST (PDist: fixed counter 0 only)"},
	{EVU(0xcd, 0x01), 0, -1, why_ldlat, "MEM_TRANS_RETIRED.LOAD_LATENCY"},
	{EV(0xd0), PMC0_3, -1, NULL, "MEM_INST_RETIRED.*"},
	{EV(0xd1), PMC0_3, -1, NULL, "MEM_LOAD_RETIRED.*"},
	{EV(0xd2), PMC0_3, -1, NULL, "MEM_LOAD_L3_HIT_RETIRED.*"},
	{EV(0xd3), PMC0_3, -1, NULL, "MEM_LOAD_L3_MISS_RETIRED.*"},
};

struct pebs_model_table {
	const char *name;
	const u8 *models;
	u32 nr_models;
	const struct pebs_constraint *c;
	u32 nr;
};

#define TABLE(n, m, c)                                                                             \
	{                                                                                          \
		n, m, PP_ARRAY_SIZE(m), c, PP_ARRAY_SIZE(c)                                        \
	}
static const struct pebs_model_table pebs_tables[] = {
	TABLE("nehalem", nhm_models, nhm_pebs),
	TABLE("sandybridge", snb_models, snb_pebs),
	TABLE("haswell-skylake", hsw_skl_models, hsw_skl_pebs),
	TABLE("icelake", icl_models, icl_pebs),
};

static const struct pebs_model_table *model_table(u32 family, u32 model)
{
	if (family != X86_FAMILY_P6)
		return NULL;
	for (u32 t = 0; t < PP_ARRAY_SIZE(pebs_tables); t++)
		for (u32 i = 0; i < pebs_tables[t].nr_models; i++)
			if (pebs_tables[t].models[i] == model)
				return &pebs_tables[t];
	return NULL;
}

const char *pebs__model_table_name(u32 family, u32 model)
{
	const struct pebs_model_table *t = model_table(family, model);

	return t ? t->name : NULL;
}

int pebs__allowed(u32 family, u32 model, u32 format, bool baseline, u32 nr_gp, u64 config,
		  struct pebs_allowed *out, const char **why)
{
	const struct pebs_model_table *t;
	u32 n;

	out->gp = 0;
	out->fixed = -1;
	out->fixed_ok = false;
	if (format > X86_PEBS_FORMAT_MAX || (format >= X86_PEBS_FORMAT_ADAPTIVE && !baseline)) {
		*why = "pmu: PEBS record format unknown to pmuprof (or adaptive format without "
		       "PERF_CAPABILITIES.PEBS_BASELINE)";
		return -ENODEV;
	}
	if (format == 0)
		n = X86_PEBS_FMT0_GP_COUNTERS;
	else if (format < X86_PEBS_FORMAT_ADAPTIVE)
		n = X86_PEBS_LEGACY_GP_COUNTERS;
	else
		n = nr_gp;
	if (n > nr_gp)
		n = nr_gp;
	out->gp = n >= 32 ? ~0u : (1u << n) - 1;
	out->fixed_ok = format >= X86_PEBS_FORMAT_ADAPTIVE;

	t = model_table(family, model);
	for (u32 i = 0; t && i < t->nr; i++) {
		const struct pebs_constraint *c = &t->c[i];

		if ((config & c->mask) != c->match)
			continue;
		if (!c->gp && c->fixed < 0) {
			*why = c->why;
			out->gp = 0;
			return -ENODEV;
		}
		out->gp &= c->gp;
		out->fixed = c->fixed;
		break;
	}
	return 0;
}
