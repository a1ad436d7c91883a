/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PEBS record parsing and DS save area tests. Offsets below are written
 * as literal numbers straight from the SDM tables (vol. 3B, PEBS record
 * formats; figure "64-bit DS Save Area"), independently of the
 * X86_PEBS_* / X86_DS_* constants, so a wrong constant fails here.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pmu/pebs.h"
#include "kernel/pmu/pmu.h"
#include "pmuprof/x86_pmu_regs.h"
#include "kernel/nmi/capture.h"
#include "kernel/nmi/ring.h"
#include "kernel/nmi/session.h"
#include "platform_test.h"
#include "pmu_model.h"
#include "pmu_glue_test.h"
#include "check_main.h"
#include "ring_sample.h"
#include "plan_check.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static u8 buf[4096];

static void put64(u8 *b, unsigned int off, u64 v)
{
	memcpy(b + off, &v, 8);
}

static u64 get64(const u8 *b, unsigned int off)
{
	u64 v;

	memcpy(&v, b + off, 8);
	return v;
}

/* Fill with a pattern whose every quadword differs, so a wrong offset
 * reads a wrong (non-zero) value. */
static void pattern(size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (u8)(0xa5 ^ (i * 7));
}

#define IP	  0xffffffff81234567ull
#define RIP_AFTER 0x0000555555551234ull
#define EIP	  0x0000555555551230ull
#define DLA	  0x00007ffff7a01008ull
#define TSC	  0x0123456789abcdefull
#define STATUS	  0x0000000000000004ull
#define DSE	  0x0000000000000142ull
#define LAT	  0x0000000000000033ull

/* ------------------------------------------------------------------ */
/* Fixed-layout formats 0..3                                            */
/* ------------------------------------------------------------------ */
struct fixed_row {
	int line;
	u32 format;
	u32 size;   /* SDM record size in bytes */
	bool exact; /* eventing IP present */
	bool addr;  /* data linear address present */
	bool tsc;
};
static const struct fixed_row fixed_rows[] = {
	{__LINE__, 0, 144, false, false, false}, /* Core: RFLAGS, RIP, 16 GPRs */
	{__LINE__, 1, 176, false, true, false},	 /* Nehalem: + status, DLA, DSE, latency */
	{__LINE__, 2, 192, true, true, false},	 /* Haswell: + eventing IP, TX abort */
	{__LINE__, 3, 200, true, true, true},	 /* Skylake: + TSC */
};

START_TEST(test_fixed_formats)
{
	const struct fixed_row *r = &fixed_rows[_i];
	struct pebs_sample s;
	int rc;

	pattern(sizeof(buf));
	put64(buf, 0x00, 0x246); /* RFLAGS */
	put64(buf, 0x08, RIP_AFTER);
	if (r->format >= 1) {
		put64(buf, 0x90, STATUS);
		put64(buf, 0x98, DLA);
		put64(buf, 0xa0, DSE);
		put64(buf, 0xa8, LAT);
	}
	if (r->format >= 2)
		put64(buf, 0xb0, EIP);
	if (r->format >= 3)
		put64(buf, 0xc0, TSC);

	ck_assert_uint_eq(pebs__fixed_record_size(r->format), r->size);
	rc = pebs__parse(r->format, buf, r->size, ~0ull, &s);
	ck_assert_msg(rc == (int)r->size, "line %d: rc %d", r->line, rc);
	ck_assert_uint_eq(s.size, r->size);
	ck_assert_msg(s.ip == (r->exact ? EIP : RIP_AFTER), "line %d: ip %#llx", r->line,
		      (unsigned long long)s.ip);
	ck_assert_int_eq(s.ip_exact, r->exact);
	ck_assert_int_eq(s.has_addr, r->addr);
	ck_assert_uint_eq(s.data_addr, r->addr ? DLA : 0);
	ck_assert_uint_eq(s.data_source, r->addr ? DSE : 0);
	ck_assert_uint_eq(s.latency, r->addr ? LAT : 0);
	ck_assert_uint_eq(s.applicable, r->format >= 1 ? STATUS : 0);
	ck_assert_uint_eq(s.tsc, r->tsc ? TSC : 0);

	/* one byte short of the layout */
	ck_assert_int_eq(pebs__parse(r->format, buf, r->size - 1, ~0ull, &s), -EINVAL);
}
END_TEST

START_TEST(test_fixed_consecutive)
{
	struct pebs_sample s;
	size_t off = 0;
	int n = 0;

	memset(buf, 0, sizeof(buf));
	for (int i = 0; i < 3; i++) {
		put64(buf, 200 * i + 0x98, DLA + i * 64);
		put64(buf, 200 * i + 0xb0, EIP + i);
	}
	while (off + 200 <= 600) {
		int rc = pebs__parse(3, buf + off, 600 - off, ~0ull, &s);

		ck_assert_int_eq(rc, 200);
		ck_assert_uint_eq(s.data_addr, DLA + n * 64);
		ck_assert_uint_eq(s.ip, EIP + n);
		off += rc;
		n++;
	}
	ck_assert_int_eq(n, 3);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Adaptive PEBS, formats 4 and 5                                        */
/* ------------------------------------------------------------------ */
struct adaptive_row {
	int line;
	u32 format;
	u64 cfg;	  /* record format field (IA32_PEBS_DATA_CFG) */
	u64 high;	  /* bits 47:32 of the first quadword (other data) */
	int size_delta;	  /* added to the correct size in the size field */
	u64 expect_cfg;	  /* ~0 = any */
	size_t len_delta; /* bytes withheld from the buffer */
	int rc;		  /* 0 -> expect the record size */
	u32 size;	  /* expected size */
};
static const struct adaptive_row adaptive_rows[] = {
	/* basic group only: 4 quadwords */
	{__LINE__, 4, 0x0, 0, 0, ~0ull, 0, 0, 32},
	/* + memory info (4 quadwords) */
	{__LINE__, 4, 0x1, 0, 0, ~0ull, 0, 0, 64},
	/* + GPRs (18 quadwords) */
	{__LINE__, 4, 0x3, 0, 0, ~0ull, 0, 0, 208},
	/* + XMM0..15 (256 bytes) */
	{__LINE__, 4, 0x7, 0, 0, ~0ull, 0, 0, 464},
	/* + 32 LBR entries (count - 1 = 31 in bits 31:24), 24 bytes each */
	{__LINE__, 4, 0x1f00000f, 0, 0, ~0ull, 0, 0, 1232},
	/* LBR group without memory info: 8 entries */
	{__LINE__, 5, 0x07000008, 0, 0, ~0ull, 0, 0, 224},
	{__LINE__, 5, 0x1, 0, 0, 0x1, 0, 0, 64},
	/* bits 47:32 used by newer parts (retire latency) are ignored */
	{__LINE__, 5, 0x1, 0x00001234ull << 32, 0, 0x1, 0, 0, 64},
	/* errors */
	{__LINE__, 4, 0x1, 0, 8, ~0ull, 0, -EINVAL, 0}, /* size field disagrees */
	{__LINE__, 4, 0x1, 0, -8, ~0ull, 0, -EINVAL, 0},
	{__LINE__, 4, 0x10, 0, 0, ~0ull, 0, -EINVAL, 0},       /* unknown group bit 4 */
	{__LINE__, 4, 0x03000001, 0, 0, ~0ull, 0, -EINVAL, 0}, /* LBR count without LBR */
	{__LINE__, 4, 0x1, 0, 0, ~0ull, 1, -EINVAL, 0},	       /* truncated */
	{__LINE__, 4, 0x1, 0, 0, 0x3, 0, -EINVAL, 0},	       /* not what we programmed */
};

START_TEST(test_adaptive)
{
	const struct adaptive_row *r = &adaptive_rows[_i];
	u32 size = pmu_model_adaptive_size(r->cfg);
	u32 field = (u32)((int)size + r->size_delta);
	struct pebs_sample s;
	int rc;

	pattern(sizeof(buf));
	put64(buf, 0x00, r->cfg | r->high | ((u64)field << 48));
	put64(buf, 0x08, EIP);
	put64(buf, 0x10, STATUS);
	put64(buf, 0x18, TSC);
	if (r->cfg & 1) {
		put64(buf, 0x20, DLA);
		put64(buf, 0x28, DSE);
		put64(buf, 0x30, LAT);
	}
	if (r->cfg & 2)
		put64(buf, 0x40 + 0x08, RIP_AFTER); /* GPR group's RIP: not the eventing IP */

	rc = pebs__parse(r->format, buf, size - r->len_delta, r->expect_cfg, &s);
	if (r->rc) {
		ck_assert_msg(rc == r->rc, "line %d: rc %d", r->line, rc);
		return;
	}
	ck_assert_msg(rc == (int)r->size, "line %d: rc %d want %u", r->line, rc, r->size);
	if (!(r->cfg & ~0xfull))
		ck_assert_uint_eq(pebs__adaptive_record_size(r->cfg), r->size);
	ck_assert_uint_eq(s.ip, EIP);
	ck_assert(s.ip_exact);
	ck_assert_uint_eq(s.applicable, STATUS);
	ck_assert_uint_eq(s.tsc, TSC);
	ck_assert_int_eq(s.has_addr, !!(r->cfg & 1));
	ck_assert_uint_eq(s.data_addr, (r->cfg & 1) ? DLA : 0);
	ck_assert_uint_eq(s.data_source, (r->cfg & 1) ? DSE : 0);
	ck_assert_uint_eq(s.latency, (r->cfg & 1) ? LAT : 0);
}
END_TEST

START_TEST(test_unknown_formats)
{
	struct pebs_sample s;

	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(pebs__parse(6, buf, sizeof(buf), ~0ull, &s), -EOPNOTSUPP);
	ck_assert_int_eq(pebs__parse(15, buf, sizeof(buf), ~0ull, &s), -EOPNOTSUPP);
	ck_assert_int_eq(pebs__parse(0, NULL, 0, ~0ull, &s), -EINVAL);
	ck_assert_uint_eq(pebs__fixed_record_size(4), 0);
	ck_assert_uint_eq(pebs__fixed_record_size(6), 0);
	ck_assert_uint_eq(pebs__adaptive_record_size(0x10), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* DS save area                                                         */
/* ------------------------------------------------------------------ */
START_TEST(test_ds_setup)
{
	u8 ds[0xa0];
	struct pebs_ds_params p = {.buf_base = 0xffffc90000100000ull,
				   .buf_len = 4096,
				   .record_size = 200,
				   .threshold = 1};

	memset(ds, 0xee, sizeof(ds));
	ck_assert_int_eq(pebs__ds_setup(ds, sizeof(ds), &p), 20);
	for (unsigned int off = 0x00; off < 0x20; off += 8) /* BTS: unused */
		ck_assert_uint_eq(get64(ds, off), 0);
	ck_assert_uint_eq(get64(ds, 0x20), p.buf_base);		   /* PEBS buffer base */
	ck_assert_uint_eq(get64(ds, 0x28), p.buf_base);		   /* PEBS index */
	ck_assert_uint_eq(get64(ds, 0x30), p.buf_base + 20 * 200); /* absolute maximum */
	ck_assert_uint_eq(get64(ds, 0x38), p.buf_base + 200);	   /* interrupt threshold */
	ck_assert_uint_eq(get64(ds, 0x40), 0);			   /* counter reset values */
	ck_assert_int_eq(pebs__ds_pending(ds, sizeof(ds), 200), 0);

	put64(ds, 0x28, p.buf_base + 3 * 200);
	ck_assert_int_eq(pebs__ds_pending(ds, sizeof(ds), 200), 3);
	put64(ds, 0x28, p.buf_base + 3 * 200 + 8);
	ck_assert_int_eq(pebs__ds_pending(ds, sizeof(ds), 200), -EINVAL);
	put64(ds, 0x28, p.buf_base + 21 * 200);
	ck_assert_int_eq(pebs__ds_pending(ds, sizeof(ds), 200), -EINVAL);
	put64(ds, 0x28, p.buf_base - 200);
	ck_assert_int_eq(pebs__ds_pending(ds, sizeof(ds), 200), -EINVAL);

	/* larger threshold */
	p.threshold = 16;
	ck_assert_int_eq(pebs__ds_setup(ds, sizeof(ds), &p), 20);
	ck_assert_uint_eq(get64(ds, 0x38), p.buf_base + 16 * 200);
}
END_TEST

START_TEST(test_ds_setup_errors)
{
	u8 ds[0xa0];
	struct pebs_ds_params p = {
		.buf_base = 0x100000, .buf_len = 4096, .record_size = 200, .threshold = 1};

	ck_assert_int_eq(pebs__ds_setup(ds, 0x3f, &p), -EINVAL); /* area too small */
	ck_assert_int_eq(pebs__ds_setup(NULL, sizeof(ds), &p), -EINVAL);
	p.record_size = 0;
	ck_assert_int_eq(pebs__ds_setup(ds, sizeof(ds), &p), -EINVAL);
	p.record_size = 200;
	p.threshold = 0;
	ck_assert_int_eq(pebs__ds_setup(ds, sizeof(ds), &p), -EINVAL);
	p.threshold = 21; /* more than the buffer holds */
	ck_assert_int_eq(pebs__ds_setup(ds, sizeof(ds), &p), -EINVAL);
	p.threshold = 1;
	p.buf_len = 199;
	ck_assert_int_eq(pebs__ds_setup(ds, sizeof(ds), &p), -EINVAL);
	p.buf_len = 4096;
	p.buf_base = ~0ull - 1000; /* wraps */
	ck_assert_int_eq(pebs__ds_setup(ds, sizeof(ds), &p), -EINVAL);
}
END_TEST

struct reset_row {
	int line;
	u32 format;
	bool fixed;
	u32 idx;
	int want;
};
static const struct reset_row reset_rows[] = {
	{__LINE__, 3, false, 0, 0x40},	  {__LINE__, 3, false, 3, 0x58},
	{__LINE__, 3, false, 4, -EINVAL}, {__LINE__, 3, true, 0, -EINVAL},
	{__LINE__, 0, false, 1, 0x48},	  {__LINE__, 4, false, 7, 0x78},
	{__LINE__, 4, false, 8, -EINVAL}, {__LINE__, 4, true, 0, 0x80},
	{__LINE__, 5, true, 3, 0x98},	  {__LINE__, 5, true, 4, -EINVAL},
	{__LINE__, 6, false, 0, -EINVAL},
};

START_TEST(test_reset_offsets)
{
	const struct reset_row *r = &reset_rows[_i];
	int got = pebs__ds_reset_offset(r->format, r->fixed, r->idx);

	ck_assert_msg(got == r->want, "line %d: %d want %d", r->line, got, r->want);
}
END_TEST

/* ================================================================== */
/* Probe, plan and end-to-end tests on the PMU model                  */
/* ================================================================== */

/* CPUID.1:EAX signatures (display family 6, model in the comment). */
#define SIG_CORE2 0x000006f6u /* model 0x0f, PEBS format 0 */
#define SIG_NHM	  0x000106a5u /* model 0x1a, format 1 */
#define SIG_HSW	  0x000306c3u /* model 0x3c, format 2 */
#define SIG_SKL	  0x000506e3u /* model 0x5e, format 3 */
#define SIG_ICL	  0x000706e5u /* model 0x7e, format 4 (adaptive) */
#define SIG_NEW	  0x000c06f2u /* model 0xcf: no pmuprof table, format rule only */

enum pebs_prof { Q_CORE2, Q_NHM, Q_HSW, Q_SKL, Q_SKL8, Q_ICL, Q_NEW5, Q_NOPEBS };

static const struct pmu_model_cfg qprof[] = {
	[Q_CORE2] = {PMU_MODEL_CORE2, .signature = SIG_CORE2, .ds = true, .pdcm = true,
		     .pebs_format = 0},
	[Q_NHM] = {PMU_MODEL_NHM, .signature = SIG_NHM, .ds = true, .pdcm = true, .pebs_format = 1},
	[Q_HSW] = {PMU_MODEL_NHM, .signature = SIG_HSW, .ds = true, .full_width = true,
		   .pebs_format = 2},
	[Q_SKL] = {PMU_MODEL_SKL, .signature = SIG_SKL, .ds = true, .full_width = true,
		   .pebs_format = 3},
	/* Skylake with Hyper-Threading off: 8 GP counters, PEBS still on 0..3 */
	[Q_SKL8] = {PMU_MODEL_LAYOUT(4, 8, 48, 3, 48, 7), .signature = SIG_SKL, .ds = true,
		    .full_width = true, .pebs_format = 3},
	[Q_ICL] = {PMU_MODEL_ICL, .fixed_ecx = 0xf, .anythread_deprecated = true,
		   .full_width = true, .signature = SIG_ICL, .ds = true, .pebs_format = 4,
		   .pebs_baseline = true},
	[Q_NEW5] = {PMU_MODEL_ICL, .fixed_ecx = 0xf, .anythread_deprecated = true,
		    .full_width = true, .signature = SIG_NEW, .ds = true, .pebs_format = 5,
		    .pebs_baseline = true},
	[Q_NOPEBS] = {PMU_MODEL_SKL, .full_width = true},
};

static struct pmu_model M;
static struct pmu_caps C;

static void use(enum pebs_prof q)
{
	plat_test_reset();
	pmu_model_init(&M, &qprof[q]);
	pmu__probe(&C);
}

/* --- probe ----------------------------------------------------------- */
struct probe_row {
	int line;
	struct pmu_model_cfg cfg;
	bool pebs;
	u32 format;
	bool baseline;
	const char *why; /* substring when !pebs */
};

static const struct probe_row probe_rows[] = {
	{__LINE__,
	 {PMU_MODEL_SKL, .ds = true, .full_width = true, .pebs_format = 3},
	 true,
	 3,
	 false,
	 NULL},
	{__LINE__,
	 {PMU_MODEL_ICL, .ds = true, .full_width = true, .pebs_format = 4, .pebs_baseline = true},
	 true,
	 4,
	 true,
	 NULL},
	/* no CPUID.1:EDX.DS */
	{__LINE__,
	 {PMU_MODEL_SKL, .full_width = true, .pebs_format = 3},
	 false,
	 0,
	 false,
	 "debug store"},
	/* IA32_MISC_ENABLE[12]: PEBS unavailable */
	{__LINE__,
	 {PMU_MODEL_SKL, .ds = true, .full_width = true, .pebs_format = 3,
	  .pebs_unavailable = true},
	 false,
	 0,
	 false,
	 "unavailable"},
	/* no PDCM: no record format */
	{__LINE__, {PMU_MODEL_NHM, .ds = true}, false, 0, false, "PERF_CAPABILITIES"},
	/* version 1: no GLOBAL_STATUS bit 62 */
	{__LINE__,
	 {.version = 1, .nr_gp = 2, .gp_width = 40, .ebx_len = 7, .ds = true, .pdcm = true},
	 false,
	 0,
	 false,
	 "version 2"},
	/* adaptive format without the baseline bit, and an unknown format */
	{__LINE__,
	 {PMU_MODEL_ICL, .ds = true, .full_width = true, .pebs_format = 4},
	 false,
	 0,
	 false,
	 "format"},
	{__LINE__,
	 {PMU_MODEL_ICL, .ds = true, .full_width = true, .pebs_format = 6, .pebs_baseline = true},
	 false,
	 0,
	 false,
	 "format"},
};

START_TEST(test_probe_pebs)
{
	const struct probe_row *r = &probe_rows[_i];
	struct pmuprof_info info;

	plat_test_reset();
	pmu_model_init(&M, &r->cfg);
	pmu__probe(&C);
	ck_assert_msg(C.pebs == r->pebs, "line %d: pebs %d", r->line, C.pebs);
	ck_assert_msg(plat_test_msr_faults() == 0, "line %d: probe faulted", r->line);
	session__fill_info(&info, &C, 2, 2, true, 4);
	ck_assert_msg(!!(info.sources & (1u << PMUPROF_SOURCE_PEBS)) == r->pebs,
		      "line %d: GET_INFO sources %#x", r->line, info.sources);
	if (r->pebs) {
		char line[256];

		ck_assert_int_gt(pmu__describe(&C, line, sizeof(line)), 0);
		ck_assert_msg(strstr(line, r->baseline ? " pebs-format=4 pebs-adaptive"
						       : " pebs-format=3 cpu="),
			      "line %d: %s", r->line, line);
		ck_assert_uint_eq(C.pebs_format, r->format);
		ck_assert_int_eq(C.pebs_baseline, r->baseline);
		ck_assert_ptr_null(C.pebs_why);
	} else {
		ck_assert_msg(C.pebs_why && strstr(C.pebs_why, r->why), "line %d: why '%s'",
			      r->line, C.pebs_why ? C.pebs_why : "(null)");
	}
}
END_TEST

/* --- plan -------------------------------------------------------------- */
#define PR  PMUPROF_EVF_PRECISE
#define GPK PMU_CTR_GP
#define FXK PMU_CTR_FIXED
/* USR|OS|EN, INT clear (PEBS) */
#define KP 0x430000ull

struct plan_row {
	int line;
	enum pebs_prof q;
	u32 nr;
	u64 config[5];
	u32 flags[5];
	int rc;
	const char *why;
	u8 kind[5], idx[5];
	u64 pebs_enable;
	u32 record_size;
	u64 data_cfg;
};

static const struct plan_row plan_rows[] = {
	/* Skylake, format 3: GP counters 0..3, no INT; PDIR on PMC1 only */
	{__LINE__, Q_SKL, 1, {0x81d0}, {PR}, 0, NULL, {GPK}, {0}, 0x1, 200, 0},
	{__LINE__, Q_SKL, 1, {0x01c0}, {PR}, 0, NULL, {GPK}, {1}, 0x2, 200, 0},
	/* instructions: a fixed counter without PEBS, a GP counter with it */
	{__LINE__, Q_SKL, 1, {0x00c0}, {PR}, 0, NULL, {GPK}, {0}, 0x1, 200, 0},
	{__LINE__, Q_SKL, 1, {0x00c0}, {0}, 0, NULL, {FXK}, {0}, 0, 0, 0},
	/* the PDIR event must not lose PMC1 to earlier, unconstrained events */
	{__LINE__,
	 Q_SKL,
	 3,
	 {0x412e, 0x81d0, 0x01c0},
	 {0, PR, PR},
	 0,
	 NULL,
	 {GPK, GPK, GPK},
	 {0, 2, 1},
	 0x6,
	 200,
	 0},
	{__LINE__, Q_SKL, 2, {0x01c0, 0x01c0}, {PR, PR}, -ENOSPC, "PEBS-capable"},
	/* 8 GP counters but PEBS only on 0..3 */
	{__LINE__,
	 Q_SKL8,
	 5,
	 {0x81d0, 0x81d0, 0x81d0, 0x81d0, 0x81d0},
	 {PR, PR, PR, PR, PR},
	 -ENOSPC,
	 "PEBS-capable"},
	{__LINE__,
	 Q_SKL8,
	 5,
	 {0x81d0, 0x81d0, 0x81d0, 0x81d0, 0x412e},
	 {PR, PR, PR, PR, 0},
	 0,
	 NULL,
	 {GPK, GPK, GPK, GPK, GPK},
	 {0, 1, 2, 3, 4},
	 0xf,
	 200,
	 0},
	/* refused: fixed-only pseudo-encoding, load latency, no PEBS */
	{__LINE__, Q_SKL, 1, {0x0300}, {PR}, -ENODEV, "adaptive PEBS"},
	{__LINE__, Q_SKL, 1, {0x01cd}, {PR}, -ENODEV, "load-latency"},
	{__LINE__, Q_NHM, 1, {0x100b}, {PR}, -ENODEV, "load-latency"},
	{__LINE__, Q_NOPEBS, 1, {0x81d0}, {PR}, -ENODEV, "PEBS"},
	/* format 0: PMC0 only */
	{__LINE__, Q_CORE2, 1, {0x00c5}, {PR}, 0, NULL, {GPK}, {0}, 0x1, 144, 0},
	{__LINE__, Q_CORE2, 2, {0x00c5, 0x00c4}, {PR, PR}, -ENOSPC, "PEBS-capable"},
	{__LINE__, Q_NHM, 1, {0x01cb}, {PR}, 0, NULL, {GPK}, {0}, 0x1, 176, 0},
	{__LINE__, Q_HSW, 1, {0x81d0}, {PR}, 0, NULL, {GPK}, {0}, 0x1, 192, 0},
	/* Ice Lake, adaptive: fixed counters take PEBS; PDist on fixed 0;
	 * memory events on PMC0..3; memory-info group programmed */
	{__LINE__, Q_ICL, 1, {0x00c0}, {PR}, 0, NULL, {FXK}, {0}, 1ull << 32, 64, 1},
	{__LINE__, Q_ICL, 1, {0x01c0}, {PR}, 0, NULL, {FXK}, {0}, 1ull << 32, 64, 1},
	{__LINE__, Q_ICL, 1, {0x003c}, {PR}, 0, NULL, {FXK}, {1}, 1ull << 33, 64, 1},
	{__LINE__, Q_ICL, 1, {0x412e}, {PR}, 0, NULL, {GPK}, {0}, 0x1, 64, 1},
	{__LINE__,
	 Q_ICL,
	 5,
	 {0x412e, 0x412e, 0x412e, 0x412e, 0x81d0},
	 {0, 0, 0, 0, PR},
	 0,
	 NULL,
	 {GPK, GPK, GPK, GPK, GPK},
	 {1, 2, 3, 4, 0},
	 0x1,
	 64,
	 1},
	{__LINE__,
	 Q_ICL,
	 5,
	 {0x81d0, 0x81d0, 0x81d0, 0x81d0, 0x81d0},
	 {PR, PR, PR, PR, PR},
	 -ENOSPC,
	 "PEBS-capable"},
	{__LINE__, Q_ICL, 1, {0x01cd}, {PR}, -ENODEV, "load-latency"},
	{__LINE__, Q_ICL, 2, {0x00c0, 0x01c0}, {0, PR}, -ENOSPC, "fixed counter"},
	/* unknown model, format 5: the format rule alone (every counter) */
	{__LINE__,
	 Q_NEW5,
	 5,
	 {0x81d0, 0x81d0, 0x81d0, 0x81d0, 0x81d0},
	 {PR, PR, PR, PR, PR},
	 0,
	 NULL,
	 {GPK, GPK, GPK, GPK, GPK},
	 {0, 1, 2, 3, 4},
	 0x1f,
	 64,
	 1},
};

START_TEST(test_plan_pebs)
{
	const struct plan_row *r = &plan_rows[_i];
	struct pmuprof_config cfg;
	struct pmu_plan plan;

	use(r->q);
	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg);
	cfg.nr_events = r->nr;
	for (u32 i = 0; i < r->nr; i++) {
		cfg.events[i].config = r->config[i];
		cfg.events[i].period = 10000;
		cfg.events[i].flags = r->flags[i];
		cfg.events[i].source = PMUPROF_SOURCE_PMU;
	}
	if (plan_check(&C, &cfg, &plan, r->line, r->rc, r->why))
		return;
	ck_assert_uint_eq(plan.nr, r->nr);
	for (u32 i = 0; i < r->nr; i++) {
		const struct pmu_assign *a = &plan.a[i];

		ck_assert_msg(a->kind == r->kind[i] && a->idx == r->idx[i],
			      "line %d: event %u on kind %u idx %u", r->line, i, a->kind, a->idx);
		/* adaptive formats: the adaptive record bit, bit 34 / 32 + 4i */
		u64 adapt = a->pebs && r->data_cfg;

		ck_assert_int_eq(a->pebs, !!(r->flags[i] & PR));
		if (a->kind == PMU_CTR_GP)
			ck_assert_msg(a->evtsel == (r->config[i] | KP |
						    (a->pebs ? 0 : X86_EVTSEL_INT) | adapt << 34),
				      "line %d: evtsel %#llx", r->line,
				      (unsigned long long)a->evtsel);
		else
			ck_assert_msg(a->fixed_bits ==
					      (((a->pebs ? 0x3ull : 0xbull) << (4 * a->idx)) |
					       adapt << (32 + 4 * a->idx)),
				      "line %d: nibble %#llx", r->line,
				      (unsigned long long)a->fixed_bits);
	}
	ck_assert_msg(plan.pebs_enable == r->pebs_enable, "line %d: PEBS_ENABLE %#llx", r->line,
		      (unsigned long long)plan.pebs_enable);
	ck_assert_uint_eq(plan.pebs_record_size, r->record_size);
	ck_assert_uint_eq(plan.pebs_data_cfg, r->data_cfg);
}
END_TEST

/* --- VMX in use: no PEBS (issue 15, defect 5) ----------------------------- */
/*
 * KVM builds the MSR switch of a guest entry from perf's state, in which
 * pmuprof's counters do not appear: PEBS_ENABLE and GLOBAL_CTRL bits of
 * ours would stay set while a guest runs. START refuses a plan with PEBS
 * while any CPU has CR4.VMXE (bit 13, written here as a literal) set, with
 * EAGAIN (the VMs may go away) and a message that says so; PMU events
 * without the precise modifier still start. CONFIGURE (pmu__plan) stays
 * pure: the CPUs are asked at START only, and only for a PEBS plan.
 */
#define CR4_VMXE_LIT  (1ull << 13)
#define CR4_LINUX_LIT 0x3706f0ull /* PAE PGE OSFXSR ... SMEP SMAP, no VMXE */
#define VMX_CPU_NONE  0xffffffffu

struct vmx_row {
	int line;
	u32 nr;
	u64 config[2];
	u32 flags[2];
	u32 vmx_cpu; /* CPU whose CR4 has VMXE, VMX_CPU_NONE: none */
	u64 cr4;     /* CR4 of every other CPU 0..7 */
	int rc;	     /* of pmu__reserve */
};

static const struct vmx_row vmx_rows[] = {
	/* no VMX: PEBS allowed */
	{__LINE__, 1, {0x81d0}, {PR}, VMX_CPU_NONE, 0, 0},
	{__LINE__, 1, {0x81d0}, {PR}, VMX_CPU_NONE, CR4_LINUX_LIT, 0},
	/* VMX on one CPU (not the current one): PEBS refused */
	{__LINE__, 1, {0x81d0}, {PR}, 3, CR4_LINUX_LIT, -EAGAIN},
	{__LINE__, 1, {0x81d0}, {PR}, 0, 0, -EAGAIN},
	/* one precise event among others is enough */
	{__LINE__, 2, {0x412e, 0x01c0}, {0, PR}, 7, CR4_LINUX_LIT, -EAGAIN},
	/* VMX on, no precise event: the PMU works as before */
	{__LINE__, 2, {0x412e, 0x00c0}, {0, 0}, 3, CR4_LINUX_LIT, 0},
	{__LINE__, 1, {0x81d0}, {0}, 0, 0, 0},
};

START_TEST(test_vmx_refuses_pebs)
{
	const struct vmx_row *r = &vmx_rows[_i];
	struct pmuprof_config cfg;
	struct pmu_plan plan;
	const char *why = NULL;
	bool pebs = false;
	int rc;

	use(Q_SKL);
	plat_test_set_cpu(1);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		plat_test_set_cr4(cpu, r->cr4 | (cpu == r->vmx_cpu ? CR4_VMXE_LIT : 0));
	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg);
	cfg.nr_events = r->nr;
	for (u32 i = 0; i < r->nr; i++) {
		cfg.events[i].config = r->config[i];
		cfg.events[i].period = 10000;
		cfg.events[i].flags = r->flags[i];
		cfg.events[i].source = PMUPROF_SOURCE_PMU;
		pebs |= !!(r->flags[i] & PR);
	}
	/* CONFIGURE: the plan is made either way, without asking the CPUs */
	ck_assert_msg(pmu__plan(&C, &cfg, &plan, &why) == 0, "line %d: plan: %s", r->line,
		      why ? why : "-");
	ck_assert_uint_eq(plat_test_cr4_queries(), 0);
	plat_test_log_clear();

	why = NULL;
	rc = pmu__reserve(&plan, &why);
	ck_assert_msg(rc == r->rc, "line %d: reserve rc %d want %d (%s)", r->line, rc, r->rc,
		      why ? why : "-");
	/* the CPUs are asked once for a PEBS plan, never otherwise */
	ck_assert_msg(plat_test_cr4_queries() == (pebs ? 1u : 0u), "line %d: %u CR4 queries",
		      r->line, plat_test_cr4_queries());
	if (rc) {
		ck_assert_msg(why && strstr(why, "PEBS") && strstr(why, "KVM") &&
				      strstr(why, "VMX") && strstr(why, "precise"),
			      "line %d: why '%s'", r->line, why ? why : "(null)");
		/* refused before anything was taken or written */
		ck_assert_uint_eq(plat_test_reserved_count(), 0);
		ck_assert_uint_eq(plat_test_log_len(), 0);
		return;
	}
	ck_assert_uint_ne(plat_test_reserved_count(), 0);
	pmu__release(&plan);
	ck_assert_uint_eq(plat_test_reserved_count(), 0);
	ck_assert_uint_eq(plat_test_bad_releases(), 0);
}
END_TEST

/* --- end to end ----------------------------------------------------------- */
#define PERIOD	  1000u
#define N_SAMPLES 10u
#define BUF_RECS  6u
#define GUARD	  2048u /* canary records on both sides of the buffer */
#define CANARY_IP 0x0000dead0000beefull
#define CODE_VA	  0x0000000000401000ull
#define CODE_PA	  0x0000000123456000ull
#define DATA4K_VA 0x0000555500003000ull
#define DATA4K_PA 0x0000000087654000ull
#define DATA2M_VA 0x00007f0000200000ull
#define DATA2M_PA 0x0000000040000000ull
#define OLD_DS	  0xffff888000001000ull

static u8 ring_mem[PMUPROF_RING_MIN * 4] __attribute__((aligned(64)));
static struct ring ring;
static struct capture_cpu cc;
static struct capture_params cp;
static struct pmu_cpu PC;
static struct pmu_plan PLAN;
static u8 *ds_mem;
static u8 arena[GUARD + BUF_RECS * 1232 + GUARD] __attribute__((aligned(64)));
static struct pmu_pebs_mem MEM;

struct e2e {
	struct pp_regs iregs; /* interrupted registers at the PMI */
	unsigned int pebs_emits, plain_emits, checks;
};

static void e2e_emit(void *arg, u32 event, u64 period)
{
	struct e2e *e = arg;
	bool wake;

	e->plain_emits++;
	capture__sample(&cc, CAPTURE_CTX_NMI, &cp, &ring, &e->iregs, PMUPROF_SOURCE_PMU, event,
			period, 1, &wake);
}

/* What the Linux glue does (kernel/linux/sampler.c pp_pmu_emit_pebs). */
static void e2e_emit_pebs(void *arg, u32 event, u64 period, const struct pebs_sample *rec)
{
	struct e2e *e = arg;
	struct capture_precise pr;
	bool wake;

	e->pebs_emits++;
	capture__precise_from_pebs(&pr, rec);
	capture__sample_precise(&cc, CAPTURE_CTX_NMI, &cp, &ring, &e->iregs, PMUPROF_SOURCE_PEBS,
				event, period, 1, &pr, &wake);
}

/* What the glue does once per record (pp_pmu_check_pebs). */
static void e2e_check_pebs(void *arg, const struct pebs_sample *rec)
{
	struct e2e *e = arg;

	e->checks++;
	capture__pebs_check(&cc, &e->iregs, true, rec);
}

static const struct pmu_emit_ops e2e_ops = {e2e_emit, e2e_emit_pebs, e2e_check_pebs};

/* A record that parses in any format and names every counter: if the
 * handler ever read one, a CANARY_IP sample would come out. */
static void canary(u8 *p, size_t len, u32 format, u32 rs)
{
	for (size_t off = 0; off + rs <= len; off += rs) {
		memset(p + off, 0, rs);
		if (format >= 4) {
			put64(p + off, 0x00, 1ull | ((u64)rs << 48));
			put64(p + off, 0x08, CANARY_IP);
			put64(p + off, 0x10, ~0ull);
		} else {
			put64(p + off, 0x08, CANARY_IP);
			put64(p + off, 0x90, ~0ull);
			put64(p + off, 0xb0, CANARY_IP);
		}
	}
}

static u64 data_va(u32 k)
{
	return (k & 1) ? DATA2M_VA + 0x1000 * (k % 64) + 8 * k : DATA4K_VA + 8 * (k % 256);
}

/* Model + platform + capture for profile q, one or more events; returns
 * the plan's rc. Buffer: BUF_RECS records plus half a record. */
static int e2e_setup(enum pebs_prof q, u32 nr, const u64 *config, const u32 *flags,
		     const u32 *periods)
{
	struct pmuprof_config cfg;
	const char *why = NULL;
	int rc;

	use(q);
	plat_test_pt_init(4);
	ck_assert_int_eq(plat_test_pt_map(CODE_VA, CODE_PA, PMUPROF_PAGE_4K), 0);
	ck_assert_int_eq(plat_test_pt_map(DATA4K_VA, DATA4K_PA, PMUPROF_PAGE_4K), 0);
	ck_assert_int_eq(plat_test_pt_map(DATA2M_VA, DATA2M_PA, PMUPROF_PAGE_2M), 0);
	plat_test_task_set(4321, 4322, "pebs-test", false, false);
	ck_assert_int_eq(ring__init(&ring, ring_mem, sizeof(ring_mem), 0, sizeof(ring_mem)), 0);
	memset(&cc, 0, sizeof(cc));
	capture__reset(&cc);
	memset(&cp, 0, sizeof(cp));
	cp.flags = PMUPROF_CF_DATA_ADDR | PMUPROF_CF_PHYS_ADDR | PMUPROF_CF_CODE_PAGE |
		   PMUPROF_CF_USTACK;
	cp.depth = 8;
	cp.privileged = true;
	cp.nr_events = nr;

	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg);
	cfg.flags = cp.flags;
	cfg.nr_events = nr;
	for (u32 i = 0; i < nr; i++) {
		cfg.events[i].config = config[i];
		cfg.events[i].period = periods ? periods[i] : PERIOD;
		cfg.events[i].flags = flags[i];
		cfg.events[i].source = PMUPROF_SOURCE_PMU;
	}
	rc = pmu__plan(&C, &cfg, &PLAN, &why);
	if (rc)
		return rc;
	if (!ds_mem)
		ds_mem = aligned_alloc(4096, 4096);
	ck_assert_ptr_nonnull(ds_mem);
	memset(ds_mem, 0x5a, 4096);
	memset(arena, 0, sizeof(arena));
	if (PLAN.pebs_record_size) {
		canary(arena, GUARD, PLAN.pebs_format, PLAN.pebs_record_size);
		canary(arena + GUARD + BUF_RECS * PLAN.pebs_record_size,
		       sizeof(arena) - GUARD - BUF_RECS * PLAN.pebs_record_size, PLAN.pebs_format,
		       PLAN.pebs_record_size);
	}
	MEM.ds = ds_mem;
	MEM.buf = arena + GUARD;
	MEM.buf_len = BUF_RECS * PLAN.pebs_record_size + PLAN.pebs_record_size / 2;
	M.ds_area = OLD_DS; /* what perf (or nobody) left there */
	ck_assert_int_eq(pmu__reserve(&PLAN, &why), 0);
	return 0;
}

static void insn_for(struct pmu_model_insn *in, u32 k)
{
	memset(in, 0, sizeof(*in));
	in->ip = CODE_VA + 0x10 + 4 * (k % 512);
	in->next_ip = in->ip + 4;
	in->data_addr = data_va(k);
	in->data_source = 0x42;
	in->latency = 7 + k;
	in->tsc = 1000000 + k;
	in->flags = 0x246;
}

/* Run `total` events of encoding ev, one instruction each, taking every
 * NMI the model raises. */
static void run_events(struct e2e *e, u64 ev, u32 first, u32 total)
{
	struct pmu_model_insn in;

	for (u32 k = first; k < first + total; k++) {
		insn_for(&in, k);
		pmu_model_set_insn(&M, &in);
		pmu_model_count(&M, ev, 1, true);
		while (pmu_model_take_nmi(&M)) {
			/* the PMI lands a few instructions later (skid) */
			memset(&e->iregs, 0, sizeof(e->iregs));
			e->iregs.ip = in.next_ip + 12;
			e->iregs.user = true;
			ck_assert_int_gt(pmu__handle_nmi_ex(&PC, &e2e_ops, e), 0);
		}
	}
}

/* One precise MEM_INST_RETIRED.ALL_LOADS on profile q, started. */
#define LOADS 0x81d0ull
static void e2e_start_loads(enum pebs_prof q)
{
	const u64 config = LOADS;
	const u32 flags = PMUPROF_EVF_PRECISE;

	ck_assert_int_eq(e2e_setup(q, 1, &config, &flags, NULL), 0);
	ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &MEM), 0);
}

struct fmt_row {
	int line;
	enum pebs_prof q;
	u64 config;
	u8 kind, idx;
	bool exact; /* eventing IP in the record */
	bool addr;  /* data address in the record */
};

static const struct fmt_row fmt_rows[] = {
	{__LINE__, Q_CORE2, 0x00c5, PMU_CTR_GP, 0, false, false},
	{__LINE__, Q_NHM, 0x01cb, PMU_CTR_GP, 0, false, true},
	{__LINE__, Q_HSW, 0x81d0, PMU_CTR_GP, 0, true, true},
	{__LINE__, Q_SKL, 0x81d0, PMU_CTR_GP, 0, true, true},
	{__LINE__, Q_SKL, 0x01c0, PMU_CTR_GP, 1, true, true},
	{__LINE__, Q_ICL, 0x81d0, PMU_CTR_GP, 0, true, true},
	{__LINE__, Q_ICL, 0x00c0, PMU_CTR_FIXED, 0, true, true},
	{__LINE__, Q_NEW5, 0x81d0, PMU_CTR_GP, 0, true, true},
};

START_TEST(test_e2e_formats)
{
	const struct fmt_row *r = &fmt_rows[_i];
	const u32 flags = PMUPROF_EVF_PRECISE;
	struct e2e e = {0};
	const struct pmuprof_sample *sm;
	u32 n = 0, width = qprof[r->q].gp_width;
	u64 want_reset, ctr;
	int reset_off;

	ck_assert_int_eq(e2e_setup(r->q, 1, &r->config, &flags, NULL), 0);
	ck_assert_int_eq(PLAN.a[0].kind, r->kind);
	ck_assert_int_eq(PLAN.a[0].idx, r->idx);
	ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &MEM), 0);

	/* programmed as the SDM wants it */
	ck_assert_uint_eq(M.ds_area, (u64)(uintptr_t)ds_mem);
	ck_assert_uint_eq(M.pebs_enable,
			  r->kind == PMU_CTR_GP ? 1ull << r->idx : 1ull << (32 + r->idx));
	ck_assert_uint_eq(M.pebs_data_cfg, C.pebs_format >= 4 ? 1 : 0);
	if (r->kind == PMU_CTR_GP) {
		ck_assert_uint_eq(M.evtsel[r->idx] & (X86_EVTSEL_INT | X86_EVTSEL_EN),
				  X86_EVTSEL_EN);
		ck_assert_uint_eq((M.evtsel[r->idx] >> 34) & 1, C.pebs_format >= 4);
	} else {
		ck_assert_uint_eq((M.fixed_ctrl >> (4 * r->idx)) & 0xf, 0x3);
		ck_assert_uint_eq((M.fixed_ctrl >> (32 + 4 * r->idx)) & 1, C.pebs_format >= 4);
	}
	ck_assert_uint_eq(get64(ds_mem, 0x20), (u64)(uintptr_t)MEM.buf); /* base */
	ck_assert_uint_eq(get64(ds_mem, 0x28), (u64)(uintptr_t)MEM.buf); /* index */
	ck_assert_uint_eq(get64(ds_mem, 0x30),				 /* max */
			  (u64)(uintptr_t)MEM.buf + BUF_RECS * PLAN.pebs_record_size);
	ck_assert_uint_eq(get64(ds_mem, 0x38), /* threshold */
			  (u64)(uintptr_t)MEM.buf + PLAN.pebs_record_size);
	reset_off = r->kind == PMU_CTR_FIXED ? 0x80 + 8 * r->idx : 0x40 + 8 * r->idx;
	want_reset = ((1ull << width) - PERIOD);
	ck_assert_uint_eq(get64(ds_mem, (unsigned int)reset_off), want_reset);
	ctr = r->kind == PMU_CTR_GP ? M.pmc[r->idx] : M.fixed[r->idx];
	ck_assert_uint_eq(ctr, want_reset);

	run_events(&e, r->config, 0, N_SAMPLES * PERIOD + PERIOD / 2);
	ck_assert_uint_eq(M.pebs_records, N_SAMPLES);
	ck_assert_uint_eq(M.pebs_dropped, 0);
	ck_assert_uint_eq(M.pmis_lost, 0);
	ck_assert_uint_eq(e.pebs_emits, N_SAMPLES);
	ck_assert_uint_eq(e.plain_emits, 0);
	ck_assert_uint_eq(PC.pebs.records, N_SAMPLES);
	ck_assert_uint_eq(PC.pebs.bad_index + PC.pebs.bad_record + PC.pebs.unattributed, 0);

	pmu__cpu_stop(&PC);
	pmu__release(&PLAN);
	ck_assert_uint_eq(M.pebs_enable, 0);
	ck_assert_uint_eq(M.ds_area, OLD_DS);
	ck_assert_uint_eq(M.global_status, 0);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);

	while ((sm = ring_next_sample(&ring)) != NULL) {
		const struct pmuprof_sample_addr *ad = (const void *)(sm + 1);
		u32 k = (n + 1) * PERIOD - 1; /* the instruction of the overflowing event */
		struct pmu_model_insn in;

		insn_for(&in, k);
		ck_assert_uint_eq(sm->source, PMUPROF_SOURCE_PEBS);
		ck_assert_uint_eq(sm->event, 0);
		ck_assert_uint_eq(sm->period, PERIOD);
		ck_assert_msg(sm->ip == (r->exact ? in.ip : in.next_ip), "sample %u: ip %#llx", n,
			      (unsigned long long)sm->ip);
		ck_assert_uint_eq(sm->hdr.misc,
				  PMUPROF_MISC_USER | (r->exact ? PMUPROF_MISC_EXACT_IP : 0));
		ck_assert(sm->sample_flags & PMUPROF_SF_ADDR);
		ck_assert_uint_eq(sm->nr_ustack, 1);
		ck_assert_uint_eq(((const u64 *)(ad + 1))[0], sm->ip); /* ustack[0] */
		ck_assert_uint_eq(ad->code_page, PMUPROF_PAGE_4K);
		ck_assert_uint_eq(ad->code_phys, CODE_PA + (sm->ip - CODE_VA));
		if (r->addr) {
			u64 va = data_va(k);
			bool big = k & 1;

			ck_assert_uint_eq(ad->addr_status, PMUPROF_ADDR_OK);
			ck_assert_uint_eq(ad->data_addr, va);
			ck_assert_uint_eq(ad->addr_source, PMUPROF_ADDR_SRC_PEBS);
			ck_assert_uint_eq(ad->precision, PMUPROF_ADDR_PREC_EXACT);
			ck_assert_uint_eq(ad->data_page, big ? PMUPROF_PAGE_2M : PMUPROF_PAGE_4K);
			ck_assert_uint_eq(ad->data_phys, big ? DATA2M_PA + (va - DATA2M_VA)
							     : DATA4K_PA + (va - DATA4K_VA));
		} else {
			ck_assert_uint_eq(ad->addr_status, PMUPROF_ADDR_NO_MEM_OPERAND);
			ck_assert_uint_eq(ad->addr_source, PMUPROF_ADDR_SRC_NONE);
			ck_assert_uint_eq(ad->data_addr, 0);
		}
		ring__consume(&ring, &sm->hdr);
		n++;
	}
	ck_assert_uint_eq(n, N_SAMPLES);
}
END_TEST

/* Two precise events and a plain one: records go to the right event by
 * their applicable-counters field, the plain event samples as before. */
START_TEST(test_e2e_mixed)
{
	const u64 config[3] = {0x81d0, 0x82d0, 0x412e};
	const u32 flags[3] = {PMUPROF_EVF_PRECISE, PMUPROF_EVF_PRECISE, 0};
	const u32 periods[3] = {1000, 3000, 2000};
	struct e2e e = {0};
	const struct pmuprof_sample *sm;
	u32 count[3] = {0};

	ck_assert_int_eq(e2e_setup(Q_SKL, 3, config, flags, periods), 0);
	ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &MEM), 0);
	for (u32 k = 0; k < 6000; k++) {
		run_events(&e, 0x81d0, k, 1);
		run_events(&e, 0x82d0, k, 1);
		run_events(&e, 0x412e, k, 1);
	}
	pmu__cpu_stop(&PC);
	ck_assert_uint_eq(e.pebs_emits, 6 + 2);
	ck_assert_uint_eq(e.plain_emits, 3);
	/* the PEBS-vs-decode hook saw every parsed record once */
	ck_assert_uint_eq(e.checks, PC.pebs.records);
	ck_assert_uint_eq(e.checks, 6 + 2);
	while ((sm = ring_next_sample(&ring)) != NULL) {
		ck_assert_uint_lt(sm->event, 3);
		ck_assert_uint_eq(sm->period, periods[sm->event]);
		ck_assert_uint_eq(sm->source,
				  sm->event < 2 ? PMUPROF_SOURCE_PEBS : PMUPROF_SOURCE_PMU);
		if (sm->event < 2) {
			const struct pmuprof_sample_addr *ad = (const void *)(sm + 1);
			u32 k = (count[sm->event] + 1) * periods[sm->event] - 1;
			struct pmu_model_insn in;

			insn_for(&in, k);
			ck_assert_uint_eq(sm->ip, in.ip);
			ck_assert_uint_eq(ad->data_addr, in.data_addr);
		}
		count[sm->event]++;
		ring__consume(&ring, &sm->hdr);
	}
	ck_assert_uint_eq(count[0], 6);
	ck_assert_uint_eq(count[1], 2);
	ck_assert_uint_eq(count[2], 3);
}
END_TEST

/* DS index corruption: the handler never reads outside the buffer (the
 * canaries around it would turn into CANARY_IP samples), claims the NMI,
 * resets the index, and sampling goes on. */
struct index_row {
	int line;
	s64 delta; /* index = base + delta (in bytes), or absolute if abs */
	bool abs;
	u64 absval;
	u32 samples; /* expected from the one real record */
	bool bad;
};

START_TEST(test_e2e_bad_index)
{
	const u64 config = 0x81d0;
	const u32 flags = PMUPROF_EVF_PRECISE;
	u32 rs;
	const struct index_row rows[] = {
		{__LINE__, 0, false, 0, 1, false},   /* correct: one record */
		{__LINE__, -200, false, 0, 0, true}, /* below base */
		{__LINE__, -8, false, 0, 0, true},
		{__LINE__, 200 * (BUF_RECS + 1), false, 0, 0, true},   /* past the end */
		{__LINE__, 200 + 8, false, 0, 1, true},		       /* not on a record */
		{__LINE__, 200 * BUF_RECS, false, 0, BUF_RECS, false}, /* full, all inside */
		{__LINE__, 0, true, 0, 0, true},
		{__LINE__, 0, true, ~0ull, 0, true},
		{__LINE__, 0, true, 0x8000000000000000ull, 0, true},
	};

	for (unsigned int i = 0; i < PP_ARRAY_SIZE(rows); i++) {
		const struct index_row *r = &rows[i];
		struct e2e e = {0};
		u64 base, idx;
		int rc;

		ck_assert_int_eq(e2e_setup(Q_SKL, 1, &config, &flags, NULL), 0);
		rs = PLAN.pebs_record_size;
		ck_assert_uint_eq(rs, 200);
		ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &MEM), 0);
		base = (u64)(uintptr_t)MEM.buf;
		/* one real record; its PMI is held back while we corrupt */
		plat_test_lvtpc_poke(X86_LVT_DM_NMI | X86_LVT_MASKED);
		run_events(&e, config, 0, PERIOD);
		ck_assert_uint_eq(M.pebs_records, 1);
		ck_assert(M.global_status & (1ull << 62));
		/* fill the rest of the buffer with valid records too */
		for (u32 k = 1; k < BUF_RECS; k++)
			memcpy(arena + GUARD + k * rs, arena + GUARD, rs);
		if (r->abs)
			idx = r->absval;
		else
			idx = r->delta ? base + (u64)r->delta : base + rs;
		put64(ds_mem, 0x28, idx);
		rc = pmu__handle_nmi_ex(&PC, &e2e_ops, &e);
		ck_assert_msg(rc == (int)(r->samples ? r->samples : 1), "line %d: rc %d", r->line,
			      rc);
		ck_assert_msg(e.pebs_emits == r->samples, "line %d: %u samples", r->line,
			      e.pebs_emits);
		ck_assert_msg(PC.pebs.bad_index == (r->bad ? 1u : 0u), "line %d: bad_index %llu",
			      r->line, (unsigned long long)PC.pebs.bad_index);
		ck_assert_uint_eq(get64(ds_mem, 0x28), base); /* index reset */
		ck_assert_uint_eq(M.global_status, 0);	      /* acknowledged */
		/* sampling continues normally */
		run_events(&e, config, PERIOD, PERIOD);
		ck_assert_msg(e.pebs_emits == r->samples + 1, "line %d: after: %u", r->line,
			      e.pebs_emits);
		pmu__cpu_stop(&PC);
		pmu__release(&PLAN);
		for (const struct pmuprof_sample *sm = ring_next_sample(&ring); sm;
		     sm = ring_next_sample(&ring)) {
			ck_assert_msg(sm->ip != CANARY_IP, "line %d: read outside the buffer",
				      r->line);
			ring__consume(&ring, &sm->hdr);
		}
	}
}
END_TEST

/* A PEBS counter's own status bit without the buffer bit (an NMI that is
 * not ours, e.g. an NMI IPI, while a record is pending) is not ours:
 * nothing written, nothing emitted. */
START_TEST(test_foreign_nmi)
{
	const u64 config = LOADS;
	struct e2e e = {0};

	e2e_start_loads(Q_SKL);
	run_events(&e, config, 0, PERIOD - 1);
	M.global_status |= 1ull; /* PMC0 overflowed, record still to come */
	plat_test_log_clear();
	ck_assert_int_eq(pmu__handle_nmi_ex(&PC, &e2e_ops, &e), 0);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, 0), 0);
	ck_assert_uint_eq(e.pebs_emits, 0);
	M.global_status = 0;
	run_events(&e, config, PERIOD - 1, 1);
	ck_assert_uint_eq(e.pebs_emits, 1);
	pmu__cpu_stop(&PC);
}
END_TEST

/* The counter's own status bit set with the record (both hardware
 * behaviours): still one sample per record, the bit acknowledged. */
START_TEST(test_ctr_status_with_record)
{
	static struct pmu_model_cfg q;
	const u64 config = 0x81d0;
	const u32 flags = PMUPROF_EVF_PRECISE;
	struct e2e e = {0};

	ck_assert_int_eq(e2e_setup(Q_SKL, 1, &config, &flags, NULL), 0);
	q = qprof[Q_SKL];
	q.pebs_sets_ctr_status = true;
	M.cfg = q;
	ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &MEM), 0);
	run_events(&e, config, 0, 5 * PERIOD);
	ck_assert_uint_eq(e.pebs_emits, 5);
	ck_assert_uint_eq(M.global_status, 0);
	pmu__cpu_stop(&PC);
}
END_TEST

/* Attribution of crafted records: formats 1/2 carry a GLOBAL_STATUS copy
 * (ambiguous when it names two PEBS counters), format 3 "applicable
 * counters" (one sample per counter named). */
START_TEST(test_attribution)
{
	const u64 config[2] = {0x81d0, 0x82d0};
	const u32 flags[2] = {PMUPROF_EVF_PRECISE, PMUPROF_EVF_PRECISE};
	static const struct {
		enum pebs_prof q;
		u32 fmt_rs;
		u64 status;
		u32 samples, ambiguous, unattributed;
	} rows[] = {
		{Q_HSW, 192, 0x1, 1, 0, 0}, {Q_HSW, 192, 0x3, 0, 1, 0},
		{Q_HSW, 192, 0x5, 1, 0, 0}, /* PMC2 is not a PEBS counter of ours */
		{Q_HSW, 192, 0x0, 0, 0, 1}, {Q_SKL, 200, 0x3, 2, 0, 0},
		{Q_SKL, 200, 0x2, 1, 0, 0},
	};

	for (unsigned int i = 0; i < PP_ARRAY_SIZE(rows); i++) {
		struct e2e e = {0};
		u8 *rec;

		ck_assert_int_eq(e2e_setup(rows[i].q, 2, config, flags, NULL), 0);
		ck_assert_uint_eq(PLAN.pebs_record_size, rows[i].fmt_rs);
		ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &MEM), 0);
		rec = arena + GUARD;
		memset(rec, 0, rows[i].fmt_rs);
		put64(rec, 0x08, CODE_VA + 4);
		put64(rec, 0x90, rows[i].status);
		put64(rec, 0x98, DATA4K_VA);
		put64(rec, 0xb0, CODE_VA);
		put64(ds_mem, 0x28, (u64)(uintptr_t)rec + rows[i].fmt_rs);
		M.global_status |= 1ull << 62;
		memset(&e.iregs, 0, sizeof(e.iregs));
		e.iregs.user = true;
		e.iregs.ip = CODE_VA + 64;
		ck_assert_int_gt(pmu__handle_nmi_ex(&PC, &e2e_ops, &e), 0);
		ck_assert_msg(e.pebs_emits == rows[i].samples, "row %u: %u samples", i,
			      e.pebs_emits);
		ck_assert_uint_eq(PC.pebs.ambiguous, rows[i].ambiguous);
		ck_assert_uint_eq(PC.pebs.unattributed, rows[i].unattributed);
		pmu__cpu_stop(&PC);
	}
}
END_TEST

/* Capture of a PEBS record whose IP mode differs from the interrupted
 * mode, and hiding for an unprivileged session. */
START_TEST(test_capture_modes)
{
	const struct pmuprof_sample *sm;
	const struct pmuprof_sample_addr *ad;
	struct pp_regs k, u, saved;
	struct capture_precise pr = {0};
	u64 kframes[3] = {0xffffffff81000100ull, 0xffffffff81000200ull, 0xffffffff81000300ull};
	bool wake;

	plat_test_reset();
	plat_test_pt_init(4);
	ck_assert_int_eq(plat_test_pt_map(CODE_VA, CODE_PA, PMUPROF_PAGE_4K), 0);
	ck_assert_int_eq(ring__init(&ring, ring_mem, sizeof(ring_mem), 0, sizeof(ring_mem)), 0);
	capture__reset(&cc);
	plat_test_task_set(7, 8, "t", false, false);
	plat_test_task_set_kstack(kframes, 3);
	memset(&cp, 0, sizeof(cp));
	cp.flags = PMUPROF_CF_DATA_ADDR | PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	cp.depth = 8;
	cp.privileged = true;
	cp.nr_events = 1;
	memset(&k, 0, sizeof(k));
	k.ip = 0xffffffff81000100ull;
	memset(&u, 0, sizeof(u));
	u.ip = CODE_VA + 100;
	u.user = true;
	saved = u;
	saved.ip = CODE_VA + 200; /* user regs saved at kernel entry */
	plat_test_task_set_user_regs(&saved);

	/* user PEBS IP, PMI in the kernel: user stack from the saved regs,
	 * first entry replaced; the kernel stack is not the sample's */
	pr.ip = CODE_VA + 8;
	pr.ip_exact = true;
	pr.has_addr = true;
	pr.data_addr = DATA4K_VA;
	ck_assert_int_eq(capture__sample_precise(&cc, 0, &cp, &ring, &k, PMUPROF_SOURCE_PEBS, 0,
						 PERIOD, 1, &pr, &wake),
			 CAPTURE_WRITTEN);
	sm = ring_next_sample(&ring);
	ck_assert_ptr_nonnull(sm);
	ck_assert_uint_eq(sm->ip, CODE_VA + 8);
	ck_assert_uint_eq(sm->hdr.misc, PMUPROF_MISC_USER | PMUPROF_MISC_EXACT_IP);
	ck_assert_uint_eq(sm->nr_kstack, 0);
	ck_assert_uint_eq(sm->nr_ustack, 1);
	ad = (const void *)(sm + 1);
	ck_assert_uint_eq(((const u64 *)(ad + 1))[0], CODE_VA + 8);
	ck_assert_uint_eq(ad->data_addr, DATA4K_VA);
	ck_assert_uint_eq(ad->data_page, PMUPROF_PAGE_UNKNOWN); /* not mapped here */
	ring__consume(&ring, &sm->hdr);

	/* kernel PEBS IP, PMI in the kernel: ORC-style stack, IP replaced */
	pr.ip = 0xffffffff81000180ull;
	pr.data_addr = 0xffff888000123440ull;
	ck_assert_int_eq(capture__sample_precise(&cc, 0, &cp, &ring, &k, PMUPROF_SOURCE_PEBS, 0,
						 PERIOD, 1, &pr, &wake),
			 CAPTURE_WRITTEN);
	sm = ring_next_sample(&ring);
	ck_assert_uint_eq(sm->hdr.misc, PMUPROF_MISC_KERNEL | PMUPROF_MISC_EXACT_IP);
	ck_assert_uint_eq(sm->nr_kstack, 4);		    /* the fake: regs->ip + 3 frames */
	ck_assert_ptr_eq(plat_test_task_kstack_regs(), &k); /* the interrupted regs */
	ad = (const void *)(sm + 1);
	ck_assert_uint_eq(((const u64 *)(ad + 1))[0], pr.ip);
	ck_assert_uint_eq(((const u64 *)(ad + 1))[1], kframes[0]);
	ck_assert_uint_eq(ad->data_addr, pr.data_addr);
	ring__consume(&ring, &sm->hdr);

	/* kernel PEBS IP, PMI in user mode: only the IP as kernel stack */
	ck_assert_int_eq(capture__sample_precise(&cc, 0, &cp, &ring, &u, PMUPROF_SOURCE_PEBS, 0,
						 PERIOD, 1, &pr, &wake),
			 CAPTURE_WRITTEN);
	sm = ring_next_sample(&ring);
	ck_assert_uint_eq(sm->nr_kstack, 1);
	ring__consume(&ring, &sm->hdr);

	/* unprivileged: kernel IP and kernel data address hidden */
	cp.privileged = false;
	ck_assert_int_eq(capture__sample_precise(&cc, 0, &cp, &ring, &k, PMUPROF_SOURCE_PEBS, 0,
						 PERIOD, 1, &pr, &wake),
			 CAPTURE_WRITTEN);
	sm = ring_next_sample(&ring);
	ck_assert_uint_eq(sm->ip, 0);
	ad = (const void *)(sm + 1);
	ck_assert_uint_eq(ad->addr_status, PMUPROF_ADDR_HIDDEN);
	ck_assert_uint_eq(ad->data_addr, 0);
	ring__consume(&ring, &sm->hdr);

	/* format 0: no address, not exact */
	cp.privileged = true;
	pr.ip = CODE_VA + 12;
	pr.ip_exact = false;
	pr.has_addr = false;
	pr.data_addr = 0;
	capture__sample_precise(&cc, 0, &cp, &ring, &u, PMUPROF_SOURCE_PEBS, 0, PERIOD, 1, &pr,
				&wake);
	sm = ring_next_sample(&ring);
	ck_assert_uint_eq(sm->hdr.misc, PMUPROF_MISC_USER);
	ad = (const void *)(sm + 1);
	ck_assert_uint_eq(ad->addr_status, PMUPROF_ADDR_NO_MEM_OPERAND);
	ck_assert_uint_eq(ad->addr_source, PMUPROF_ADDR_SRC_NONE);
	ring__consume(&ring, &sm->hdr);
}
END_TEST

/* Adaptive PEBS: without the counter's adaptive record bit the CPU writes
 * basic-group records, which the handler must refuse (records of its
 * PEBS_DATA_CFG are 64 bytes), not misread. */
START_TEST(test_adaptive_bit_needed)
{
	const u64 config = LOADS;
	struct e2e e = {0};

	e2e_start_loads(Q_ICL);
	run_events(&e, config, 0, PERIOD);
	ck_assert_uint_eq(e.pebs_emits, 1);
	M.evtsel[0] &= ~(1ull << 34);
	/* two 32-byte records reach the 64-byte threshold: one slot, whose
	 * header says "basic group, 32 bytes" */
	run_events(&e, config, PERIOD, 2 * PERIOD);
	ck_assert_uint_eq(M.pebs_records, 3);
	ck_assert_uint_eq(e.pebs_emits, 1);
	ck_assert_uint_eq(PC.pebs.bad_record, 1);
	ck_assert_uint_eq(PC.pebs.bad_index, 0);
	pmu__cpu_stop(&PC);
}
END_TEST

/* Starting a PEBS plan without (usable) memory programs nothing. */
START_TEST(test_start_needs_memory)
{
	const u64 config = 0x81d0;
	const u32 flags = PMUPROF_EVF_PRECISE;
	struct pmu_pebs_mem bad;

	ck_assert_int_eq(e2e_setup(Q_SKL, 1, &config, &flags, NULL), 0);
	plat_test_log_clear();
	ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, NULL), -EINVAL);
	bad = MEM;
	bad.ds = ds_mem + 64; /* not page aligned */
	ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &bad), -EINVAL);
	bad = MEM;
	bad.buf_len = 100; /* less than a record */
	ck_assert_int_eq(pmu__cpu_start_mem(&PC, &PLAN, &bad), -EINVAL);
	pmu__cpu_start(&PC, &PLAN);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, 0), 0);
	ck_assert(!PC.running);
	ck_assert_int_eq(pmu__handle_nmi_ex(&PC, &e2e_ops, NULL), 0);
	pmu__cpu_stop(&PC); /* harmless */
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, 0), 0);
}
END_TEST

static Suite *pebs_suite(void)
{
	Suite *s = suite_create("pebs");
	TCase *tc = pp_tcase(s, "records", NULL, NULL,
			     PP_TESTS(test_fixed_consecutive, test_unknown_formats));
	tcase_add_loop_test(tc, test_fixed_formats, 0, PP_ARRAY_SIZE(fixed_rows));
	tcase_add_loop_test(tc, test_adaptive, 0, PP_ARRAY_SIZE(adaptive_rows));
	tc = pp_tcase(s, "ds", NULL, NULL, PP_TESTS(test_ds_setup, test_ds_setup_errors));
	tcase_add_loop_test(tc, test_reset_offsets, 0, PP_ARRAY_SIZE(reset_rows));
	tc = tcase_create("probe-plan");
	tcase_add_loop_test(tc, test_probe_pebs, 0, PP_ARRAY_SIZE(probe_rows));
	tcase_add_loop_test(tc, test_plan_pebs, 0, PP_ARRAY_SIZE(plan_rows));
	tcase_add_loop_test(tc, test_vmx_refuses_pebs, 0, PP_ARRAY_SIZE(vmx_rows));
	suite_add_tcase(s, tc);
	tc = pp_tcase(s, "model-e2e", NULL, NULL,
		      PP_TESTS(test_e2e_mixed, test_e2e_bad_index, test_foreign_nmi,
			       test_ctr_status_with_record, test_attribution, test_capture_modes,
			       test_start_needs_memory, test_adaptive_bit_needed));
	tcase_add_loop_test(tc, test_e2e_formats, 0, PP_ARRAY_SIZE(fmt_rows));
	return s;
}

int main(void)
{
	return pp_check_run(pebs_suite());
}
