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

static u32 adaptive_size(u64 cfg)
{
	u32 size = 32;

	if (cfg & 1)
		size += 32;
	if (cfg & 2)
		size += 144;
	if (cfg & 4)
		size += 256;
	if (cfg & 8)
		size += 24 * (u32)(((cfg >> 24) & 0xff) + 1);
	return size;
}

START_TEST(test_adaptive)
{
	const struct adaptive_row *r = &adaptive_rows[_i];
	u32 size = adaptive_size(r->cfg);
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

static Suite *pebs_suite(void)
{
	Suite *s = suite_create("pebs");
	TCase *tc = tcase_create("records");

	tcase_add_loop_test(tc, test_fixed_formats, 0, PP_ARRAY_SIZE(fixed_rows));
	tcase_add_test(tc, test_fixed_consecutive);
	tcase_add_loop_test(tc, test_adaptive, 0, PP_ARRAY_SIZE(adaptive_rows));
	tcase_add_test(tc, test_unknown_formats);
	suite_add_tcase(s, tc);
	tc = tcase_create("ds");
	tcase_add_test(tc, test_ds_setup);
	tcase_add_test(tc, test_ds_setup_errors);
	tcase_add_loop_test(tc, test_reset_offsets, 0, PP_ARRAY_SIZE(reset_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pebs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
