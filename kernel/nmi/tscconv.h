/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TSC cycles -> nanoseconds by a multiply and a shift, for timing the NMI
 * handler without a second clock read (issue 15): the factor is computed
 * once at session start from the TSC frequency in kHz, the conversion in
 * the NMI is two multiplications. Header only, portable (host unit test:
 * tests/unit/test_tscconv.c).
 *
 *   ns = cycles * 10^6 / khz ~= (cycles * mult) >> PP_TSCCONV_SHIFT,
 *   mult = (10^6 << PP_TSCCONV_SHIFT) / khz
 *
 * mult < 2^32 for khz >= PP_TSCCONV_MIN_KHZ; the product is split at bit 32
 * of cycles so that it cannot overflow for any delta below 2^54 cycles.
 * Relative error below 1 / mult (6e-7 at 2.6 GHz), plus 1 ns of rounding.
 */
#ifndef PMUPROF_NMI_TSCCONV_H
#define PMUPROF_NMI_TSCCONV_H

#include "pmuprof/types.h"

#define PP_TSCCONV_SHIFT   22
#define PP_TSCCONV_MIN_KHZ 1000u /* below 1 MHz mult would not fit 32 bits */
#define PP_NSEC_PER_MSEC   1000000ull

struct pp_tscconv {
	u32 mult; /* 0: not usable, the caller reads its clock instead */
};

/* The factor for a TSC of `khz` kHz; mult 0 when khz is unknown (0) or too
 * low to convert exactly enough. */
static inline void pp_tscconv_init(struct pp_tscconv *c, u64 khz)
{
	c->mult =
		khz < PP_TSCCONV_MIN_KHZ ? 0 : (u32)((PP_NSEC_PER_MSEC << PP_TSCCONV_SHIFT) / khz);
}

static inline u64 pp_tscconv_ns(const struct pp_tscconv *c, u64 cycles)
{
	u64 hi = cycles >> 32, lo = cycles & 0xffffffffull;

	return ((hi * c->mult) << (32 - PP_TSCCONV_SHIFT)) + ((lo * c->mult) >> PP_TSCCONV_SHIFT);
}

#endif /* PMUPROF_NMI_TSCCONV_H */
