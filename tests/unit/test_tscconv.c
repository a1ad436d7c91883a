// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kernel/nmi/tscconv.h (TSC cycles -> ns, the NMI handler's
 * own duration for GET_STATS and throttling, issue 15):
 *  - exact values: one second / millisecond of cycles at real and round
 *    TSC frequencies, zero cycles;
 *  - against the exact quotient (128-bit) over cycles from 1 to 2^50 and
 *    frequencies from 1 MHz to 10 GHz: within 1e-6 relative + 1 ns;
 *  - unknown or too-low frequency: mult 0 (the caller keeps its clock).
 */
#include <check.h>

#include "kernel/nmi/tscconv.h"
#include "check_main.h"

static u64 exact_ns(u64 cycles, u64 khz)
{
	return (u64)((unsigned __int128)cycles * 1000000u / khz);
}

START_TEST(test_exact_values)
{
	struct pp_tscconv c;

	pp_tscconv_init(&c, 1000000); /* 1 GHz: 1 cycle = 1 ns */
	ck_assert_uint_eq(pp_tscconv_ns(&c, 0), 0);
	ck_assert_uint_eq(pp_tscconv_ns(&c, 1000), 1000);
	ck_assert_uint_eq(pp_tscconv_ns(&c, 1000000000ull), 1000000000ull);
	pp_tscconv_init(&c, 2000000); /* 2 GHz */
	ck_assert_uint_eq(pp_tscconv_ns(&c, 2000), 1000);
	pp_tscconv_init(&c, 2596075); /* the test VM's refined TSC */
	ck_assert_uint_le(pp_tscconv_ns(&c, 2596075), 1000000);
	ck_assert_uint_ge(pp_tscconv_ns(&c, 2596075), 999999);
	ck_assert_uint_le(pp_tscconv_ns(&c, 2596075000ull), 1000000000ull);
	ck_assert_uint_ge(pp_tscconv_ns(&c, 2596075000ull), 1000000000ull - 1000);
}
END_TEST

START_TEST(test_against_exact)
{
	static const u64 khz[] = {1000, 1001, 100000, 1800000, 2596075, 3700000, 5000000, 10000000};

	for (unsigned int k = 0; k < PP_ARRAY_SIZE(khz); k++) {
		struct pp_tscconv c;

		pp_tscconv_init(&c, khz[k]);
		ck_assert_uint_ne(c.mult, 0);
		for (u64 cyc = 1; cyc <= (1ull << 50); cyc = cyc * 3 + 7) {
			u64 want = exact_ns(cyc, khz[k]), got = pp_tscconv_ns(&c, cyc);
			u64 diff = got > want ? got - want : want - got;

			ck_assert_msg(diff <= want / 1000000 + 1,
				      "khz %llu cycles %llu: got %llu ns, exact %llu",
				      (unsigned long long)khz[k], (unsigned long long)cyc,
				      (unsigned long long)got, (unsigned long long)want);
		}
	}
}
END_TEST

START_TEST(test_unusable)
{
	struct pp_tscconv c = {.mult = 5};

	pp_tscconv_init(&c, 0);
	ck_assert_uint_eq(c.mult, 0);
	pp_tscconv_init(&c, PP_TSCCONV_MIN_KHZ - 1);
	ck_assert_uint_eq(c.mult, 0);
	pp_tscconv_init(&c, PP_TSCCONV_MIN_KHZ); /* the largest factor still fits */
	ck_assert_uint_eq(c.mult,
			  (u32)((PP_NSEC_PER_MSEC << PP_TSCCONV_SHIFT) / PP_TSCCONV_MIN_KHZ));
}
END_TEST

static Suite *tscconv_suite(void)
{
	Suite *s = suite_create("tscconv");

	pp_tcase(s, "conv", NULL, NULL,
		 PP_TESTS(test_exact_values, test_against_exact, test_unusable));
	return s;
}

int main(void)
{
	return pp_check_run(tscconv_suite());
}
