/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/pmu unit tests. Tables list the source line, the input and the
 * expected result or the expected error (libpfm4 tests/validate_x86.c
 * style); the end-to-end tests drive the real kernel/pmu against the register
 * model in pmu_model.c.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pmu/pmu_internal.h"
#include "platform_test_cpu.h"
#include "pmu_model.h"
#include "pmu_glue_test.h"
#include "check_main.h"
#include "plan_check.h"

/* Error rows of the tables leave the "expected mapping" fields out. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* ------------------------------------------------------------------ */
/* PMU profiles used by the plan tests (probed through the model).     */
/* ------------------------------------------------------------------ */
enum profile { P_SKL, P_NHM, P_ICL, P_V1, P_PARTIAL, P_V0, P_SKL_LEGACY, P_V2_2FIXED, P_V2_WIDTHS };

static const struct pmu_model_cfg profiles[] = {
	/* Skylake client: v4, 4 GP x 48, 3 fixed x 48, full-width writes */
	[P_SKL] = {PMU_MODEL_SKL, .full_width = true},
	/* Nehalem: v3, 4 GP x 48, 3 fixed x 48, legacy writes */
	[P_NHM] = {PMU_MODEL_NHM, .signature = 0x000106a5},
	/* Ice Lake-like: v5, 8 GP, fixed bitmap 0xf, AnyThread deprecated */
	[P_ICL] = {PMU_MODEL_ICL, .fixed_ecx = 0xf, .anythread_deprecated = true,
		   .full_width = true, .signature = 0x000706e5},
	/* version 1 (Core Solo/Duo era): 2 GP x 40, no fixed, no global MSRs */
	[P_V1] = {.version = 1, .nr_gp = 2, .gp_width = 40, .ebx_len = 7, .signature = 0x000006e8},
	/* a virtual PMU hiding ref cycles (bit 2) and branch misses (bit 6) */
	[P_PARTIAL] = {PMU_MODEL_LAYOUT(2, 4, 48, 3, 48, 7), .ebx = 0x44},
	/* QEMU TCG: CPUID.0AH all zero */
	[P_V0] = {.version = 0},
	/* Skylake without FW_WRITE (e.g. some hypervisors): legacy 32-bit writes */
	[P_SKL_LEGACY] = {PMU_MODEL_SKL},
	/* v2 with 2 fixed counters only: ref cycles must go to a GP counter */
	[P_V2_2FIXED] = {PMU_MODEL_LAYOUT(2, 2, 40, 2, 40, 7)},
	/* v2, GP and fixed counters of different widths (CPUID.0AH reports
	 * them separately): each counter armed and read with its own */
	[P_V2_WIDTHS] = {PMU_MODEL_LAYOUT(2, 4, 40, 3, 48, 7)},
};

static struct pmu_model M;
static struct pmu_caps C;

static void use_profile(enum profile p)
{
	plat_test_cpu_reset();
	pmu_model_init(&M, &profiles[p]);
	pmu__probe(&C);
}

static void setup(void)
{
	plat_test_cpu_reset();
}

static void teardown(void)
{
	pmu_model_detach();
}

/* ================================================================== */
/* 1. CPUID.0AH / signature decode for real CPU signatures            */
/* ================================================================== */
struct probe_row {
	int line;
	const char *what;
	const char *vendor;
	u32 max_leaf, sig, ecx1, edx1;
	u32 a, b, c, d; /* CPUID.0AH */
	bool have_caps; /* define IA32_PERF_CAPABILITIES */
	u64 perf_caps;
	bool have_misc; /* define IA32_MISC_ENABLE (= 0, PEBS available) */
	/* expected */
	u32 status, version, nr_gp, gp_width, nr_fixed, fixed_width, fixed_mask, arch_events;
	u32 family, model, stepping;
	bool full_width, hypervisor, any_thread, pebs;
	u32 pebs_format;
};

#define PDCM	 X86_CPUID1_ECX_PDCM
#define HV	 X86_CPUID1_ECX_HYPERVISOR
#define DS	 X86_CPUID1_EDX_DS
#define INTEL	 "GenuineIntel"
#define OK	 PMUPROF_PMU_OK
#define NOARCH	 PMUPROF_PMU_NO_ARCH_PERFMON
#define NOTINTEL PMUPROF_PMU_NOT_INTEL

static const struct probe_row probe_rows[] = {
	{__LINE__,   "Skylake client v4 4gp48 3fixed48 FW PEBS fmt3",
	 INTEL,	     0x16,
	 0x000506e3, PDCM,
	 DS,	     0x07300404,
	 0,	     0,
	 0x00000603, true,
	 0x33c5,     true,
	 OK,	     4,
	 4,	     48,
	 3,	     48,
	 0x7,	     0x7f,
	 6,	     0x5e,
	 3,	     true,
	 false,	     true,
	 true,	     3},
	{__LINE__,   "Ice Lake client v5 8gp48, ECX bitmap, AnyThread deprecated",
	 INTEL,	     0x1b,
	 0x000706e5, PDCM,
	 DS,	     0x08300805,
	 0,	     0xf,
	 0x00008604, true,
	 0x64c5,     true,
	 OK,	     5,
	 8,	     48,
	 4,	     48,
	 0xf,	     0xff,
	 6,	     0x7e,
	 5,	     true,
	 false,	     false,
	 true,	     4},
	{__LINE__,   "v5 sparse ECX bitmap {0,3} with EDX.num_fixed 1",
	 INTEL,	     0x1b,
	 0x000706e5, 0,
	 0,	     0x08300805,
	 0,	     0x9,
	 0x00008601, false,
	 0,	     false,
	 OK,	     5,
	 8,	     48,
	 4,	     48,
	 0x9,	     0xff,
	 6,	     0x7e,
	 5,	     false,
	 false,	     false,
	 false,	     0},
	{__LINE__,   "Yonah v1 2gp40: EDX ignored before v2",
	 INTEL,	     0xa,
	 0x000006e8, 0,
	 0,	     0x07280201,
	 0,	     0,
	 0x00000603, false,
	 0,	     false,
	 OK,	     1,
	 2,	     40,
	 0,	     0,
	 0,	     0x7f,
	 6,	     0x0e,
	 8,	     false,
	 false,	     false,
	 false,	     0},
	{__LINE__,   "Nehalem v3 4gp48 3fixed48, PDCM but MSR faults",
	 INTEL,	     0xb,
	 0x000106a5, PDCM,
	 DS,	     0x07300403,
	 0,	     0,
	 0x00000603, false,
	 0,	     false,
	 OK,	     3,
	 4,	     48,
	 3,	     48,
	 0x7,	     0x7f,
	 6,	     0x1a,
	 5,	     false,
	 false,	     true,
	 false,	     0},
	{__LINE__,   "QEMU TCG: version 0 under a hypervisor",
	 INTEL,	     0xd,
	 0x000906ed, HV,
	 0,	     0,
	 0,	     0,
	 0,	     false,
	 0,	     false,
	 NOARCH,     0,
	 0,	     0,
	 0,	     0,
	 0,	     0,
	 6,	     0x9e,
	 13,	     false,
	 true,	     false,
	 false,	     0},
	{__LINE__,   "KVM v2 hiding ref cycles and branch misses",
	 INTEL,	     0xd,
	 0x000506e3, HV,
	 0,	     0x07300402,
	 0x44,	     0,
	 0x00000603, false,
	 0,	     false,
	 OK,	     2,
	 4,	     48,
	 3,	     48,
	 0x7,	     0x3b,
	 6,	     0x5e,
	 3,	     false,
	 true,	     false,
	 false,	     0},
	{__LINE__,   "EBX length 5: events 5..7 unknown, so unavailable",
	 INTEL,	     0xd,
	 0x000506e3, 0,
	 0,	     0x05300402,
	 0x1,	     0,
	 0x00000603, false,
	 0,	     false,
	 OK,	     2,
	 4,	     48,
	 3,	     48,
	 0x7,	     0x1e,
	 6,	     0x5e,
	 3,	     false,
	 false,	     false,
	 false,	     0},
	{__LINE__,   "max basic leaf 2 (< 0AH): no architectural PMU",
	 INTEL,	     0x2,
	 0x00000f29, 0,
	 0,	     0x07300403,
	 0,	     0,
	 0x603,	     false,
	 0,	     false,
	 NOARCH,     0,
	 0,	     0,
	 0,	     0,
	 0,	     0,
	 15,	     2,
	 9,	     false,
	 false,	     false,
	 false,	     0},
	{__LINE__,
	 "AMD Zen: extended family 0x17, not Intel",
	 "AuthenticAMD",
	 0xd,
	 0x00800f11,
	 0,
	 0,
	 0x07300404,
	 0,
	 0,
	 0x603,
	 false,
	 0,
	 false,
	 NOTINTEL,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0x17,
	 0x01,
	 1,
	 false,
	 false,
	 false,
	 false,
	 0},
	{__LINE__,   "broken virtual PMU: v2 with zero widths",
	 INTEL,	     0xd,
	 0x000506e3, HV,
	 0,	     0x07000402,
	 0,	     0,
	 0x00000003, false,
	 0,	     false,
	 NOARCH,     2,
	 0,	     0,
	 0,	     0,
	 0,	     0x7f,
	 6,	     0x5e,
	 3,	     false,
	 true,	     false,
	 false,	     0},
	{__LINE__,   "PEBS unavailable: DS set but IA32_MISC_ENABLE unreadable",
	 INTEL,	     0x16,
	 0x000506e3, PDCM,
	 DS,	     0x07300404,
	 0,	     0,
	 0x603,	     true,
	 0x33c5,     false,
	 OK,	     4,
	 4,	     48,
	 3,	     48,
	 0x7,	     0x7f,
	 6,	     0x5e,
	 3,	     true,
	 false,	     true,
	 false,	     0},
};

START_TEST(test_probe_table)
{
	const struct probe_row *r = &probe_rows[_i];
	char msg[256];

	plat_test_cpu_reset();
	snprintf(msg, sizeof(msg), "line %d (%s)", r->line, r->what);
	plat_test_set_vendor(r->vendor, r->max_leaf);
	plat_test_set_cpuid1(r->sig, r->ecx1, r->edx1);
	plat_test_set_cpuid(X86_CPUID_LEAF_PERFMON, PLAT_TEST_ANY_SUBLEAF, r->a, r->b, r->c, r->d);
	if (r->have_caps)
		plat_test_msr_define(X86_MSR_IA32_PERF_CAPABILITIES, r->perf_caps, 0);
	if (r->have_misc)
		plat_test_msr_define(X86_MSR_IA32_MISC_ENABLE, 0, 0);
	pmu__probe(&C);

	ck_assert_msg(C.status == r->status, "%s: status %u", msg, C.status);
	ck_assert_msg(C.version == r->version, "%s: version %u", msg, C.version);
	ck_assert_msg(C.nr_gp == r->nr_gp && C.gp_width == r->gp_width, "%s: gp %ux%u", msg,
		      C.nr_gp, C.gp_width);
	ck_assert_msg(C.nr_fixed == r->nr_fixed && C.fixed_width == r->fixed_width,
		      "%s: fixed %ux%u", msg, C.nr_fixed, C.fixed_width);
	ck_assert_msg(C.fixed_mask == r->fixed_mask, "%s: fixed_mask %#x", msg, C.fixed_mask);
	ck_assert_msg(C.arch_events == r->arch_events, "%s: arch_events %#x", msg, C.arch_events);
	ck_assert_msg(C.family == r->family && C.model == r->model && C.stepping == r->stepping,
		      "%s: family %#x model %#x stepping %u", msg, C.family, C.model, C.stepping);
	ck_assert_msg(C.full_width == r->full_width, "%s: full_width", msg);
	ck_assert_msg(C.hypervisor == r->hypervisor, "%s: hypervisor", msg);
	ck_assert_msg(C.any_thread == r->any_thread, "%s: any_thread", msg);
	ck_assert_msg(C.pebs == r->pebs && C.pebs_format == r->pebs_format, "%s: pebs %d fmt %u",
		      msg, C.pebs, C.pebs_format);
	ck_assert_msg(C.perf_capabilities == (r->have_caps && r->ecx1 & PDCM ? r->perf_caps : 0),
		      "%s: perf_capabilities", msg);
	ck_assert_str_eq(C.vendor_string, r->vendor);
	ck_assert_msg(
		C.vendor == (strcmp(r->vendor, INTEL) ? PMUPROF_VENDOR_AMD : PMUPROF_VENDOR_INTEL),
		"%s: vendor", msg);
	/* probing never faults: IA32_PERF_CAPABILITIES only via rdmsr_safe */
	ck_assert_msg(plat_test_msr_faults() == 0, "%s: %u MSR faults", msg,
		      plat_test_msr_faults());
	ck_assert_msg(plat_test_log_count(PLAT_OP_RDMSR_SAFE, X86_MSR_IA32_PERF_CAPABILITIES) ==
			      ((r->ecx1 & PDCM) && r->status == OK ? 1u : 0u),
		      "%s: PERF_CAPABILITIES read iff PDCM", msg);
}
END_TEST

START_TEST(test_describe)
{
	char buf[256];
	int n;

	use_profile(P_SKL);
	n = pmu__describe(&C, buf, sizeof(buf));
	ck_assert_int_eq(n, (int)strlen(buf));
	ck_assert_msg(strstr(buf, "pmu: version=4 gp=4x48 fixed=3x48 events=0x7f full-width") ==
			      buf,
		      "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "cpu=GenuineIntel family=6 model=0x5e stepping=3"));

	use_profile(P_V0);
	pmu__describe(&C, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "unavailable") && strstr(buf, "virtual PMU"), "%s", buf);

	n = pmu__describe(&C, buf, 10);
	ck_assert_int_eq(n, 9);
	ck_assert_str_eq(buf, "pmu: unav");
	ck_assert_int_eq(pmu__describe(&C, buf, 0), -EINVAL);
}
END_TEST

/* ================================================================== */
/* 2. Encoding validation and single-event mapping                     */
/* ================================================================== */
struct enc_row {
	int line;
	enum profile prof;
	u32 cflags; /* PMUPROF_CF_* */
	u64 config;
	u64 period;
	u32 evflags;
	u32 source;	 /* 0 -> PMUPROF_SOURCE_PMU */
	int rc;		 /* expected return */
	const char *why; /* substring of the message on error */
	u8 kind, idx;
	u64 evtsel;	/* GP */
	u64 fixed_bits; /* FIXED */
	u64 first_period;
};

#define FIXED PMU_CTR_FIXED
#define GP    PMU_CTR_GP
#define EXU   PMUPROF_CF_EXCLUDE_USER
#define EXK   PMUPROF_CF_EXCLUDE_KERNEL
#define FREQ  PMUPROF_EVF_FREQ
/* USR|OS|INT|EN */
#define K 0x530000ull

static const struct enc_row enc_rows[] = {
	/* fixed-counter mapping (SDM table 20-2) */
	{__LINE__, P_SKL, 0, 0x00c0, 100000, 0, 0, 0, NULL, FIXED, 0, 0, 0xb, 100000},
	{__LINE__, P_SKL, 0, 0x003c, 100000, 0, 0, 0, NULL, FIXED, 1, 0, 0xb0, 100000},
	{__LINE__, P_SKL, 0, 0x013c, 100000, 0, 0, 0, NULL, FIXED, 2, 0, 0xb00, 100000},
	{__LINE__, P_SKL, 0, 0x0300, 100000, 0, 0, 0, NULL, FIXED, 2, 0, 0xb00, 100000},
	{__LINE__, P_SKL, EXU, 0x00c0, 100000, 0, 0, 0, NULL, FIXED, 0, 0, 0x9, 100000},
	{__LINE__, P_SKL, EXK, 0x003c, 100000, 0, 0, 0, NULL, FIXED, 1, 0, 0xa0, 100000},
	{__LINE__, P_SKL, 0, 0x1003c, 100000, 0, 0, 0, NULL, FIXED, 1, 0, 0xa0, 100000},  /* :u */
	{__LINE__, P_SKL, 0, 0x20003c, 100000, 0, 0, 0, NULL, FIXED, 1, 0, 0xf0, 100000}, /* ANY */
	/* filters force a GP counter */
	{__LINE__, P_SKL, 0, 0x010000c0, 100000, 0, 0, 0, NULL, GP, 0, 0x010000c0 | K, 0, 100000},
	{__LINE__, P_SKL, 0, 0x8400c0, 100000, 0, 0, 0, NULL, GP, 0, 0x8400c0 | K, 0, 100000},
	{__LINE__, P_SKL, 0, 0x4003c, 100000, 0, 0, 0, NULL, GP, 0, 0x4003c | K, 0, 100000},
	/* general events */
	{__LINE__, P_SKL, 0, 0x412e, 5000, 0, 0, 0, NULL, GP, 0, 0x53412e, 0, 5000},
	{__LINE__, P_SKL, 0, 0x1412e, 5000, 0, 0, 0, NULL, GP, 0, 0x51412e, 0, 5000},
	{__LINE__, P_SKL, EXK, 0x412e, 5000, 0, 0, 0, NULL, GP, 0, 0x51412e, 0, 5000},
	{__LINE__, P_SKL, EXU, 0x2412e, 5000, 0, 0, 0, NULL, GP, 0, 0x52412e, 0, 5000},
	{__LINE__, P_SKL, 0, 0x08d1, 1000, 0, 0, 0, NULL, GP, 0, 0x5308d1, 0, 1000},
	{__LINE__, P_NHM, 0, 0x20412e, 5000, 0, 0, 0, NULL, GP, 0, 0x73412e, 0, 5000},
	{__LINE__, P_V1, 0, 0x00c0, 5000, 0, 0, 0, NULL, GP, 0, 0x5300c0, 0, 5000},
	{__LINE__, P_V2_2FIXED, 0, 0x013c, 5000, 0, 0, 0, NULL, GP, 0, 0x53013c, 0, 5000},
	/* periods */
	{__LINE__, P_SKL, 0, 0x412e, 999, 0, 0, -EINVAL, "below PMUPROF_MIN_PMU_PERIOD"},
	{__LINE__, P_SKL, 0, 0x412e, 0, 0, 0, -EINVAL, "below PMUPROF_MIN_PMU_PERIOD"},
	{__LINE__, P_SKL, 0, 0x412e, 0x7fffffffffffull, 0, 0, 0, NULL, GP, 0, 0x53412e, 0,
	 0x7fffffffffffull},
	{__LINE__, P_SKL, 0, 0x412e, 0x800000000000ull, 0, 0, -EINVAL, "too large"},
	{__LINE__, P_SKL_LEGACY, 0, 0x412e, 0x7fffffff, 0, 0, 0, NULL, GP, 0, 0x53412e, 0,
	 0x7fffffff},
	{__LINE__, P_SKL_LEGACY, 0, 0x412e, 0x80000000, 0, 0, -EINVAL, "2^31-1"},
	{__LINE__, P_SKL_LEGACY, 0, 0x00c0, 0x80000000, 0, 0, -EINVAL, "2^31-1"},
	{__LINE__, P_V1, 0, 0x412e, 0x80000000, 0, 0, -EINVAL, "2^31-1"},
	/* frequency mode: first guess = 1e9 / Hz, clamped */
	{__LINE__, P_SKL, 0, 0x003c, 1000, FREQ, 0, 0, NULL, FIXED, 1, 0, 0xb0, 1000000},
	{__LINE__, P_SKL, 0, 0x412e, 4000, FREQ, 0, 0, NULL, GP, 0, 0x53412e, 0, 250000},
	{__LINE__, P_SKL, 0, 0x412e, 50000, FREQ, 0, 0, NULL, GP, 0, 0x53412e, 0, 20000},
	{__LINE__, P_SKL_LEGACY, 0, 0x412e, 1, FREQ, 0, 0, NULL, GP, 0, 0x53412e, 0, 1000000000},
	{__LINE__, P_SKL, 0, 0x412e, 0, FREQ, 0, -EINVAL, "frequency"},
	{__LINE__, P_SKL, 0, 0x412e, 50001, FREQ, 0, -EINVAL, "frequency"},
	/* reserved and kernel-owned bits */
	{__LINE__, P_SKL, 0, 0x10000412eull, 5000, 0, 0, -EINVAL, "reserved bits"},
	{__LINE__, P_SKL, 0, 0x8000000000000000ull | 0x412e, 5000, 0, 0, -EINVAL, "reserved bits"},
	{__LINE__, P_SKL, 0, 0x10412e, 5000, 0, 0, -EINVAL, "INT"},
	{__LINE__, P_SKL, 0, 0x40412e, 5000, 0, 0, -EINVAL, "EN"},
	{__LINE__, P_SKL, 0, 0x08412e, 5000, 0, 0, -EINVAL, "PC"},
	/* AnyThread */
	{__LINE__, P_V1, 0, 0x20412e, 5000, 0, 0, -EINVAL, "version 3"},
	{__LINE__, P_PARTIAL, 0, 0x20412e, 5000, 0, 0, -EINVAL, "version 3"},
	{__LINE__, P_ICL, 0, 0x20412e, 5000, 0, 0, -EINVAL, "deprecated"},
	{__LINE__, P_ICL, 0, 0x20003c, 5000, 0, 0, -EINVAL, "deprecated"},
	/* availability per CPUID */
	{__LINE__, P_PARTIAL, 0, 0x013c, 5000, 0, 0, -ENODEV, "not available"},
	{__LINE__, P_PARTIAL, 0, 0x00c5, 5000, 0, 0, -ENODEV, "not available"},
	{__LINE__, P_PARTIAL, 0, 0x00c4, 5000, 0, 0, 0, NULL, GP, 0, 0x5300c4, 0, 5000},
	{__LINE__, P_PARTIAL, 0, 0x0300, 5000, 0, 0, 0, NULL, FIXED, 2, 0, 0xb00, 5000},
	{__LINE__, P_V1, 0, 0x0300, 5000, 0, 0, -ENODEV, "fixed counter"},
	{__LINE__, P_ICL, 0, 0x0400, 5000, 0, 0, -ENODEV, "fixed counter"},
	{__LINE__, P_SKL, 0, 0x0000, 5000, 0, 0, -EINVAL, "event select 00H"},
	{__LINE__, P_SKL, 0, 0x1000300, 5000, 0, 0, -EINVAL, "pseudo-encoding cannot"},
	{__LINE__, P_V0, 0, 0x003c, 5000, 0, 0, -ENODEV, "CPUID.0AH version 0"},
	/* flags, PEBS, session excludes */
	{__LINE__, P_SKL, 0, 0x412e, 5000, 1u << 5, 0, -EINVAL, "unknown event flag"},
	{__LINE__, P_SKL, 0, 0x412e, 5000, PMUPROF_EVF_PRECISE, 0, -ENODEV, "PEBS"},
	{__LINE__, P_SKL, 0, 0x412e, 5000, 0, PMUPROF_SOURCE_PEBS, -ENODEV, "PEBS"},
	{__LINE__, P_SKL, EXU | EXK, 0x412e, 5000, 0, 0, -EINVAL, "nothing to count"},
	{__LINE__, P_SKL, EXU, 0x1412e, 5000, 0, 0, -EINVAL, "nothing to count"},
	{__LINE__, P_SKL, EXK, 0x2003c, 5000, 0, 0, -EINVAL, "nothing to count"},
};

static void one_event(struct pmuprof_config *cfg, u32 cflags, u64 config, u64 period, u32 evflags,
		      u32 source)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->flags = cflags;
	cfg->nr_events = 1;
	cfg->events[0].config = config;
	cfg->events[0].period = period;
	cfg->events[0].flags = evflags;
	cfg->events[0].source = source ? source : PMUPROF_SOURCE_PMU;
}

START_TEST(test_encode_table)
{
	const struct enc_row *r = &enc_rows[_i];
	struct pmuprof_config cfg;
	struct pmu_plan plan;

	use_profile(r->prof);
	one_event(&cfg, r->cflags, r->config, r->period, r->evflags, r->source);
	if (plan_check(&C, &cfg, &plan, r->line, r->rc, r->why))
		return;
	ck_assert_int_eq(plan.nr, 1);
	ck_assert_msg(plan.a[0].kind == r->kind && plan.a[0].idx == r->idx,
		      "line %d: got kind %u idx %u", r->line, plan.a[0].kind, plan.a[0].idx);
	ck_assert_msg(plan.a[0].evtsel == r->evtsel, "line %d: evtsel %#llx want %#llx", r->line,
		      (unsigned long long)plan.a[0].evtsel, (unsigned long long)r->evtsel);
	ck_assert_msg(plan.a[0].fixed_bits == (r->fixed_bits << X86_FIXED_CTRL_SHIFT(0)),
		      "line %d: fixed_bits %#llx", r->line,
		      (unsigned long long)plan.a[0].fixed_bits);
	ck_assert_msg(plan.a[0].period == r->first_period, "line %d: period %llu", r->line,
		      (unsigned long long)plan.a[0].period);
	ck_assert_msg(plan.a[0].freq_hz == ((r->evflags & FREQ) ? r->period : 0), "line %d: freq",
		      r->line);
	ck_assert_msg(plan.any_freq == !!(r->evflags & FREQ), "line %d: any_freq", r->line);
	ck_assert_uint_eq(plan.fixed_ctrl, plan.a[0].fixed_bits);
	ck_assert_uint_eq(plan.global_ctrl, pmu__global_bit(&plan.a[0]));
	ck_assert_int_eq(plan.a[0].event, 0);
}
END_TEST

/* ================================================================== */
/* 3. Counter choice with several events                               */
/* ================================================================== */
struct choice_row {
	int line;
	enum profile prof;
	u32 n;
	u64 config[PMUPROF_MAX_EVENTS + 1];
	u32 source[PMUPROF_MAX_EVENTS + 1]; /* 0 = PMU */
	int rc;
	const char *want; /* "F0 G0 F1 ..." per PMU event, in config order */
	u64 global_ctrl, fixed_ctrl;
};

#define IPI PMUPROF_SOURCE_NMI_IPI
static const struct choice_row choice_rows[] = {
	{__LINE__,
	 P_SKL,
	 5,
	 {0x00c0, 0x00c0, 0x003c, 0x412e, 0x00c4},
	 {0},
	 0,
	 "F0 G0 F1 G1 G2",
	 0x300000007ull,
	 0xbb},
	{__LINE__,
	 P_SKL,
	 7,
	 {0x412e, 0x4f2e, 0x00c4, 0x00c5, 0x00c0, 0x003c, 0x0300},
	 {0},
	 0,
	 "G0 G1 G2 G3 F0 F1 F2",
	 0x70000000full,
	 0xbbb},
	{__LINE__,
	 P_SKL,
	 8,
	 {0x412e, 0x4f2e, 0x00c4, 0x00c5, 0x00c0, 0x003c, 0x0300, 0x08d1},
	 {0},
	 -ENOSPC,
	 NULL,
	 0,
	 0},
	{__LINE__,
	 P_SKL,
	 6,
	 {0x003c, 0x003c, 0x003c, 0x003c, 0x003c, 0x003c},
	 {0},
	 -ENOSPC,
	 NULL,
	 0,
	 0},
	{__LINE__,
	 P_SKL,
	 5,
	 {0x003c, 0x003c, 0x003c, 0x003c, 0x003c},
	 {0},
	 0,
	 "F1 G0 G1 G2 G3",
	 0x20000000full,
	 0xb0},
	{__LINE__, P_SKL, 2, {0x0300, 0x0300}, {0}, -ENOSPC, NULL, 0, 0},
	{__LINE__, P_SKL, 3, {0, 0x412e, 0}, {IPI, 0, IPI}, 0, "G0", 0x1, 0},
	{__LINE__, P_V0, 2, {0, 0}, {IPI, IPI}, 0, "", 0, 0},
	{__LINE__, P_V1, 3, {0x00c0, 0x003c, 0x412e}, {0}, -ENOSPC, NULL, 0, 0},
	{__LINE__, P_V1, 2, {0x00c0, 0x003c}, {0}, 0, "G0 G1", 0x3, 0},
	{__LINE__,
	 P_ICL,
	 11,
	 {0x00c0, 0x003c, 0x0300, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e},
	 {0},
	 0,
	 "F0 F1 F2 G0 G1 G2 G3 G4 G5 G6 G7",
	 0x7000000ffull,
	 0xbbb},
	{__LINE__,
	 P_ICL,
	 12,
	 {0x00c0, 0x003c, 0x0300, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e, 0x412e,
	  0x00c0},
	 {0},
	 -ENOSPC,
	 NULL,
	 0,
	 0},
	{__LINE__, P_SKL, PMUPROF_MAX_EVENTS + 1, {0x412e}, {0}, -EINVAL, NULL, 0, 0},
};

START_TEST(test_choice_table)
{
	const struct choice_row *r = &choice_rows[_i];
	struct pmuprof_config cfg;
	struct pmu_plan plan;
	const char *why = NULL;
	char got[128] = "";
	int rc;

	use_profile(r->prof);
	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_events = r->n;
	for (u32 i = 0; i < r->n && i < PMUPROF_MAX_EVENTS; i++) {
		cfg.events[i].config = r->config[i];
		cfg.events[i].period = 10000;
		cfg.events[i].source = r->source[i] ? r->source[i] : PMUPROF_SOURCE_PMU;
	}
	rc = pmu__plan(&C, &cfg, &plan, &why);
	ck_assert_msg(rc == r->rc, "line %d: rc %d want %d (%s)", r->line, rc, r->rc,
		      why ? why : "-");
	if (rc) {
		ck_assert_ptr_nonnull(why);
		if (rc == -ENOSPC)
			ck_assert_msg(strstr(why, "more"), "line %d: %s", r->line, why);
		return;
	}
	for (u32 i = 0; i < plan.nr; i++) {
		char one[8];

		snprintf(one, sizeof(one), "%s%c%u", i ? " " : "",
			 plan.a[i].kind == PMU_CTR_FIXED ? 'F' : 'G', plan.a[i].idx);
		strcat(got, one);
	}
	ck_assert_msg(!strcmp(got, r->want), "line %d: got '%s' want '%s'", r->line, got, r->want);
	if (r->global_ctrl)
		ck_assert_msg(plan.global_ctrl == r->global_ctrl, "line %d: global_ctrl %#llx",
			      r->line, (unsigned long long)plan.global_ctrl);
	ck_assert_msg(plan.fixed_ctrl == r->fixed_ctrl, "line %d: fixed_ctrl %#llx", r->line,
		      (unsigned long long)plan.fixed_ctrl);
	/* event indexes skip non-PMU events and stay in config order */
	for (u32 i = 1; i < plan.nr; i++)
		ck_assert(plan.a[i].event > plan.a[i - 1].event);
}
END_TEST

/* ================================================================== */
/* 4. Arm values, max periods, counter MSRs                            */
/* ================================================================== */
struct arm_row {
	int line;
	u64 period;
	u32 width;
	u64 want;
};
static const struct arm_row arm_rows[] = {
	{__LINE__, 1000, 48, 0xfffffffffc18ull},
	{__LINE__, 1000, 40, 0xfffffffc18ull},
	{__LINE__, 100000, 48, 0xfffffffe7960ull},
	{__LINE__, 100000, 40, 0xfffffe7960ull},
	{__LINE__, 0x7fffffff, 48, 0xffff80000001ull},
	{__LINE__, 0x7fffffff, 40, 0xff80000001ull},
	{__LINE__, 0x7fffffffffffull, 48, 0x800000000001ull},
	{__LINE__, 0x7fffffffffull, 40, 0x8000000001ull},
	{__LINE__, 1, 64, 0xffffffffffffffffull},
};

START_TEST(test_arm_table)
{
	const struct arm_row *r = &arm_rows[_i];
	u64 v = pmu__arm_value(r->period, r->width);

	ck_assert_msg(v == r->want, "line %d: %#llx want %#llx", r->line, (unsigned long long)v,
		      (unsigned long long)r->want);
	/* the counter overflows after exactly `period` increments */
	ck_assert_uint_eq((v + r->period) & pmu__width_mask(r->width), 0);
	/* and the top bit is set until then (the v1 overflow test relies on it) */
	ck_assert(v >> (r->width - 1) & 1);
}
END_TEST

START_TEST(test_max_period_and_msr)
{
	struct pmu_plan p = {.gp_width = 48, .fixed_width = 48, .full_width = true};
	struct pmu_assign g = {.kind = PMU_CTR_GP, .idx = 2};
	struct pmu_assign f = {.kind = PMU_CTR_FIXED, .idx = 1};

	ck_assert_uint_eq(pmu__max_period(&p, &g), 0x7fffffffffffull);
	ck_assert_uint_eq(pmu__counter_msr(&p, &g), MSR_IA32_A_PMC0 + 2);
	ck_assert_uint_eq(pmu__counter_msr(&p, &f), MSR_IA32_FIXED_CTR0 + 1);
	p.full_width = false;
	ck_assert_uint_eq(pmu__max_period(&p, &g), 0x7fffffffull);
	ck_assert_uint_eq(pmu__max_period(&p, &f), 0x7fffffffull);
	ck_assert_uint_eq(pmu__counter_msr(&p, &g), X86_MSR_IA32_PMC0 + 2);
	p.gp_width = 40;
	p.full_width = true;
	ck_assert_uint_eq(pmu__max_period(&p, &g), 0x7fffffffffull);
	ck_assert_uint_eq(pmu__global_bit(&g), 1ull << 2);
	ck_assert_uint_eq(pmu__global_bit(&f), 1ull << 33);
}
END_TEST

/* ================================================================== */
/* 5. Overflow-status decoding                                          */
/* ================================================================== */
struct status_row {
	int line;
	u64 status;
	const char *want; /* assignment indexes */
};
/* plan: a0 = F0, a1 = G0, a2 = F1, a3 = G1 */
static const struct status_row status_rows[] = {
	{__LINE__, 0, ""},
	{__LINE__, 1ull << 32, "0"},
	{__LINE__, 1ull << 0, "1"},
	{__LINE__, (1ull << 33) | (1ull << 1), "2 3"},
	{__LINE__, (1ull << 32) | (1ull << 0) | (1ull << 33) | (1ull << 1), "0 1 2 3"},
	{__LINE__, 1ull << 2, ""},  /* PMC2: not ours */
	{__LINE__, 1ull << 34, ""}, /* FIXED_CTR2: not ours */
	{__LINE__, X86_GLOBAL_STATUS_OVF_BUF | X86_GLOBAL_STATUS_COND_CHGD | (1ull << 1), "3"},
	{__LINE__, ~0ull, "0 1 2 3"},
};

START_TEST(test_status_table)
{
	const struct status_row *r = &status_rows[_i];
	struct pmuprof_config cfg = {.nr_events = 4};
	struct pmu_plan plan;
	const char *why;
	u8 idx[PMUPROF_MAX_EVENTS];
	char got[64] = "";
	unsigned int n;

	use_profile(P_SKL);
	cfg.events[0] =
		(struct pmuprof_event_config){.config = 0x00c0, .period = 5000, .source = 1};
	cfg.events[1] =
		(struct pmuprof_event_config){.config = 0x412e, .period = 5000, .source = 1};
	cfg.events[2] =
		(struct pmuprof_event_config){.config = 0x003c, .period = 5000, .source = 1};
	cfg.events[3] =
		(struct pmuprof_event_config){.config = 0x00c4, .period = 5000, .source = 1};
	ck_assert_int_eq(pmu__plan(&C, &cfg, &plan, &why), 0);
	n = pmu__decode_status(&plan, r->status, idx);
	for (unsigned int i = 0; i < n; i++) {
		char one[8];

		snprintf(one, sizeof(one), "%s%u", i ? " " : "", idx[i]);
		strcat(got, one);
	}
	ck_assert_msg(!strcmp(got, r->want), "line %d: got '%s' want '%s'", r->line, got, r->want);
}
END_TEST

/* ================================================================== */
/* 6. Reservation                                                       */
/* ================================================================== */
static void plan_events(enum profile prof, struct pmu_plan *plan, u32 n, const u64 *configs,
			u64 period)
{
	struct pmuprof_config cfg;
	const char *why = NULL;

	use_profile(prof);
	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_events = n;
	for (u32 i = 0; i < n; i++)
		cfg.events[i] = (struct pmuprof_event_config){
			.config = configs[i], .period = period, .source = PMUPROF_SOURCE_PMU};
	ck_assert_msg(pmu__plan(&C, &cfg, plan, &why) == 0, "plan: %s", why ? why : "-");
}

START_TEST(test_reserve_ok_and_release)
{
	static const u64 ev[] = {0x00c0, 0x412e, 0x00c4, 0x003c};
	struct pmu_plan plan;
	const char *why = NULL;

	plan_events(P_SKL, &plan, 4, ev, 10000);
	ck_assert_int_eq(pmu__reserve(&plan, &why), 0);
	/* GP0 and GP1: perfctr + evntsel each, by their legacy addresses */
	ck_assert_uint_eq(plat_test_reserved_count(), 4);
	ck_assert_int_eq(plat_test_perfctr_owner(X86_MSR_IA32_PMC0), PLAT_TEST_OURS);
	ck_assert_int_eq(plat_test_evntsel_owner(MSR_IA32_PERFEVTSEL0 + 1), PLAT_TEST_OURS);
	ck_assert_int_eq(plat_test_evntsel_owner(MSR_IA32_PERFEVTSEL0 + 2), PLAT_TEST_FREE);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_RESERVE_PERFCTR, MSR_IA32_A_PMC0), 0);
	/* reservation touches no MSR */
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, 0), 0);
	pmu__release(&plan);
	ck_assert_uint_eq(plat_test_reserved_count(), 0);
	ck_assert_uint_eq(plat_test_bad_releases(), 0);
}
END_TEST

START_TEST(test_reserve_fixed_only_takes_sentinel)
{
	static const u64 ev[] = {0x00c0, 0x003c};
	struct pmu_plan plan;
	const char *why = NULL;

	plan_events(P_SKL, &plan, 2, ev, 10000);
	ck_assert_int_eq(pmu__reserve(&plan, &why), 0);
	ck_assert_uint_eq(plat_test_reserved_count(), 2);
	ck_assert_int_eq(plat_test_evntsel_owner(MSR_IA32_PERFEVTSEL0), PLAT_TEST_OURS);
	pmu__release(&plan);
	ck_assert_uint_eq(plat_test_reserved_count(), 0);

	/* the NMI watchdog (perf) holds the block: fixed-only plans fail too */
	plat_test_hold_evntsel(MSR_IA32_PERFEVTSEL0);
	ck_assert_int_eq(pmu__reserve(&plan, &why), -EBUSY);
	ck_assert_uint_eq(plat_test_reserved_count(), 0);
}
END_TEST

struct busy_row {
	int line;
	bool perfctr; /* hold a perfctr (else an evntsel) */
	u32 idx;
};
static const struct busy_row busy_rows[] = {
	{__LINE__, false, 0}, {__LINE__, true, 0},  {__LINE__, false, 1},
	{__LINE__, true, 2},  {__LINE__, false, 2},
};

START_TEST(test_reserve_busy_releases_everything)
{
	const struct busy_row *r = &busy_rows[_i];
	static const u64 ev[] = {0x412e, 0x00c4, 0x4f2e};
	struct pmu_plan plan;
	const char *why = NULL;

	plan_events(P_SKL, &plan, 3, ev, 10000);
	if (r->perfctr)
		plat_test_hold_perfctr(X86_MSR_IA32_PMC0 + r->idx);
	else
		plat_test_hold_evntsel(MSR_IA32_PERFEVTSEL0 + r->idx);
	ck_assert_int_eq(pmu__reserve(&plan, &why), -EBUSY);
	ck_assert_msg(why && strstr(why, "sysctl kernel.nmi_watchdog=0") && strstr(why, "perf"),
		      "line %d: %s", r->line, why ? why : "(null)");
	ck_assert_msg(plat_test_reserved_count() == 0, "line %d: %u still reserved", r->line,
		      plat_test_reserved_count());
	ck_assert_uint_eq(plat_test_bad_releases(), 0);
	/* the foreign owner keeps its counter */
	ck_assert_int_eq(r->perfctr ? plat_test_perfctr_owner(X86_MSR_IA32_PMC0 + r->idx)
				    : plat_test_evntsel_owner(MSR_IA32_PERFEVTSEL0 + r->idx),
			 PLAT_TEST_FOREIGN);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, 0), 0);
}
END_TEST

/* ================================================================== */
/* 7. Enabling: v1 vs v2+, start/stop, LVTPC save/restore              */
/* ================================================================== */
#define LVT_SAVED (X86_LVT_DM_NMI | X86_LVT_MASKED)

START_TEST(test_start_stop_v2)
{
	static const u64 ev[] = {0x00c0, 0x412e};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	int last_lvt;
	u64 found;

	plan_events(P_SKL, &plan, 2, ev, 10000);
	plat_test_lvtpc_poke(LVT_SAVED);
	M.fixed_ctrl = 0x0b00;			  /* someone's FIXED_CTR2 nibble: must survive */
	found = M.global_ctrl & plan.global_ctrl; /* the reset value's enables */
	plat_test_log_clear();
	pmu__cpu_start(&pc, &plan);
	ck_assert(pc.running);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	ck_assert_uint_eq(M.pmc[0], 0xffffffffd8f0ull); /* -10000 in 48 bits via IA32_A_PMC0 */
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, MSR_IA32_A_PMC0), 1);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, X86_MSR_IA32_PMC0), 0);
	ck_assert_uint_eq(M.fixed[0], 0xffffffffd8f0ull);
	ck_assert_uint_eq(M.evtsel[0], 0x53412e);
	ck_assert_uint_eq(M.fixed_ctrl, 0x0b0b);
	ck_assert_uint_eq(M.global_ctrl & plan.global_ctrl, plan.global_ctrl);
	ck_assert_uint_eq(plat_test_lvtpc_peek(), X86_LVT_DM_NMI);
	ck_assert_uint_eq(pc.saved_lvtpc, LVT_SAVED);
	/* GLOBAL_CTRL enable is the very last write */
	ck_assert_int_eq(plat_test_log_last(PLAT_OP_WRMSR, 0),
			 plat_test_log_last(PLAT_OP_WRMSR, MSR_IA32_PERF_GLOBAL_CTRL));
	ck_assert_int_eq((int)plat_test_log_len() - 1,
			 plat_test_log_last(PLAT_OP_WRMSR, MSR_IA32_PERF_GLOBAL_CTRL));
	last_lvt = plat_test_log_last(PLAT_OP_LVTPC_WRITE, 0);
	ck_assert_int_ge(last_lvt, 0);

	pmu__cpu_stop(&pc);
	ck_assert(!pc.running);
	/* our enables as found; our counters off by their own controls */
	ck_assert_uint_eq(M.global_ctrl & plan.global_ctrl, found);
	ck_assert_uint_eq(M.evtsel[0], 0);
	ck_assert_uint_eq(M.fixed_ctrl, 0x0b00);
	ck_assert_uint_eq(plat_test_lvtpc_peek(), LVT_SAVED);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	/* stopped: an NMI is not ours */
	ck_assert_int_eq(pmu__handle_nmi(&pc, NULL, NULL), 0);
}
END_TEST

START_TEST(test_start_stop_v1)
{
	static const u64 ev[] = {0x412e, 0x00c4};
	struct pmu_plan plan;
	struct pmu_cpu pc;

	plan_events(P_V1, &plan, 2, ev, 10000);
	plat_test_log_clear();
	pmu__cpu_start(&pc, &plan);
	/* v1 has no GLOBAL_* or FIXED_* MSRs: the model faults on any access */
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, MSR_IA32_PERF_GLOBAL_CTRL), 0);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_RDMSR, MSR_IA32_PERF_GLOBAL_CTRL), 0);
	/* enabled by the EN bit; legacy write of -10000 sign-extends in 40 bits */
	ck_assert_uint_eq(M.evtsel[0], 0x53412e);
	ck_assert_uint_eq(M.evtsel[1], 0x5300c4);
	ck_assert_uint_eq(M.pmc[0], 0xffffffd8f0ull);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, X86_MSR_IA32_PMC0), 1);
	/* the EN write comes after the counter write */
	ck_assert_int_gt(plat_test_log_last(PLAT_OP_WRMSR, MSR_IA32_PERFEVTSEL0),
			 plat_test_log_last(PLAT_OP_WRMSR, X86_MSR_IA32_PMC0));
	pmu__cpu_stop(&pc);
	ck_assert_uint_eq(M.evtsel[0], 0);
	ck_assert_uint_eq(M.evtsel[1], 0);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
}
END_TEST

/* ================================================================== */
/* 8. End to end against the model                                      */
/* ================================================================== */
struct sample {
	u32 event;
	u64 period;
};
#define MAX_SAMPLES 4096
static struct sample samples[MAX_SAMPLES];
static unsigned int nr_samples;

static void emit(void *ctx, u32 event, u64 period)
{
	(void)ctx;
	ck_assert_uint_lt(nr_samples, MAX_SAMPLES);
	samples[nr_samples++] = (struct sample){event, period};
}

static unsigned int count_samples(u32 event, u64 period)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nr_samples; i++)
		n += samples[i].event == event && samples[i].period == period;
	return n;
}

static bool is_counter_msr(u32 msr)
{
	return (msr >= X86_MSR_IA32_PMC0 && msr < X86_MSR_IA32_PMC0 + 8) ||
	       (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + 8) ||
	       (msr >= MSR_IA32_FIXED_CTR0 && msr < MSR_IA32_FIXED_CTR0 + 4);
}

/* Every counter write of the handler happens while all of ours are
 * disabled: v2+ through GLOBAL_CTRL, v1 through the EN bits. */
static void check_disabled_while_rearming(const struct pmu_cpu *pc, unsigned int start)
{
	const struct pmu_plan *plan = pc->plan;
	u64 enabled;
	unsigned int i;

	if (plan->version >= 2) {
		enabled = ~0ull; /* unknown until the handler writes GLOBAL_CTRL */
		for (i = start; i < plat_test_log_len(); i++) {
			const struct plat_test_access *e = plat_test_log_get(i);

			if (e->op != PLAT_OP_WRMSR)
				continue;
			if (e->msr == MSR_IA32_PERF_GLOBAL_CTRL)
				enabled = e->val & plan->global_ctrl;
			else if (is_counter_msr(e->msr))
				ck_assert_msg(enabled == 0, "counter %#x written while enabled",
					      e->msr);
		}
	} else {
		u32 en = (1u << plan->nr) - 1; /* all of ours enabled at entry */

		for (i = start; i < plat_test_log_len(); i++) {
			const struct plat_test_access *e = plat_test_log_get(i);

			if (e->op != PLAT_OP_WRMSR)
				continue;
			if (e->msr >= MSR_IA32_PERFEVTSEL0 && e->msr < MSR_IA32_PERFEVTSEL0 + 8) {
				u32 b = 1u << (e->msr - MSR_IA32_PERFEVTSEL0);

				en = (e->val & X86_EVTSEL_EN) ? en | b : en & ~b;
			} else if (is_counter_msr(e->msr)) {
				ck_assert_msg(en == 0, "counter %#x written while enabled", e->msr);
			}
		}
	}
}

/* Run one NMI if the model queued one; check the handler's shape. */
static int nmi(struct pmu_cpu *pc)
{
	unsigned int start = plat_test_log_len();
	int n, lvt;

	if (!pmu_model_take_nmi(&M))
		return -1;
	n = pmu__handle_nmi(pc, emit, NULL);
	if (n > 0) {
		/* LVTPC unmasked, and as the handler's last write: what may
		 * follow is the one GLOBAL_STATUS read of the tail check */
		lvt = plat_test_log_last(PLAT_OP_LVTPC_WRITE, 0);
		if (lvt != (int)plat_test_log_len() - 1) {
			const struct plat_test_access *tail =
				plat_test_log_get((unsigned int)lvt + 1);

			ck_assert_int_eq(lvt, (int)plat_test_log_len() - 2);
			ck_assert_uint_eq(tail->op, PLAT_OP_RDMSR);
			ck_assert_uint_eq(tail->msr, MSR_IA32_PERF_GLOBAL_STATUS);
		}
		ck_assert_int_ge(lvt, (int)start);
		ck_assert_uint_eq(plat_test_lvtpc_peek(), X86_LVT_DM_NMI);
		check_disabled_while_rearming(pc, start);
		if (pc->plan->version >= 2) {
			const struct plat_test_access *first = plat_test_log_get(start);

			ck_assert_uint_eq(first->msr, MSR_IA32_PERF_GLOBAL_STATUS);
			ck_assert_uint_eq(M.global_status & pc->plan->global_ctrl, 0);
			ck_assert_uint_eq(M.global_ctrl & pc->plan->global_ctrl,
					  pc->plan->global_ctrl);
		}
	}
	return n;
}

START_TEST(test_e2e_v4_several_events)
{
	/* e0 instructions -> F0, e1 cpu-clock (not PMU), e2 llc-misses -> G0,
	 * e3 branches -> G1, e4 cycles -> F1 */
	struct pmuprof_config cfg = {.nr_events = 5};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	const char *why;
	unsigned int nmis = 0;
	u64 tot_ins = 0, tot_llc = 0, tot_br = 0, tot_cyc = 0;

	use_profile(P_SKL);
	cfg.events[0] =
		(struct pmuprof_event_config){.config = 0x00c0, .period = 10000, .source = 1};
	cfg.events[1] = (struct pmuprof_event_config){.period = 1000000, .source = 2};
	cfg.events[2] =
		(struct pmuprof_event_config){.config = 0x412e, .period = 5000, .source = 1};
	cfg.events[3] =
		(struct pmuprof_event_config){.config = 0x00c4, .period = 20000, .source = 1};
	cfg.events[4] =
		(struct pmuprof_event_config){.config = 0x003c, .period = 30000, .source = 1};
	ck_assert_int_eq(pmu__plan(&C, &cfg, &plan, &why), 0);
	ck_assert_int_eq(pmu__reserve(&plan, &why), 0);
	pmu__cpu_start(&pc, &plan);
	nr_samples = 0;
	for (int step = 0; step < 600; step++) {
		bool user = step & 1;

		pmu_model_count(&M, 0x00c0, 1000, user);
		pmu_model_count(&M, 0x412e, 500, user);
		pmu_model_count(&M, 0x00c4, 2000, user);
		pmu_model_count(&M, 0x003c, 3000, user);
		tot_ins += 1000, tot_llc += 500, tot_br += 2000, tot_cyc += 3000;
		while (nmi(&pc) >= 0)
			nmis++;
	}
	/* PMIs raised while LVTPC was still masked are "lost" as interrupts,
	 * but their status bits are handled in the same NMI: no sample lost */
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	ck_assert_uint_eq(count_samples(0, 10000), tot_ins / 10000);
	ck_assert_uint_eq(count_samples(2, 5000), tot_llc / 5000);
	ck_assert_uint_eq(count_samples(3, 20000), tot_br / 20000);
	ck_assert_uint_eq(count_samples(4, 30000), tot_cyc / 30000);
	ck_assert_uint_eq(nr_samples,
			  tot_ins / 10000 + tot_llc / 5000 + tot_br / 20000 + tot_cyc / 30000);
	/* several counters overflowed in one step: fewer NMIs than samples */
	ck_assert_uint_lt(nmis, nr_samples);
	ck_assert_uint_eq(pc.loops_capped, 0);
	pmu__cpu_stop(&pc);
	pmu__release(&plan);
	ck_assert_uint_eq(plat_test_reserved_count(), 0);
}
END_TEST

static void e2e_simple(enum profile prof, u64 period, u64 chunk, unsigned int steps)
{
	static const u64 ev[] = {0x412e, 0x00c4};
	struct pmu_plan plan;
	struct pmu_cpu pc;

	plan_events(prof, &plan, 2, ev, period);
	pmu__cpu_start(&pc, &plan);
	nr_samples = 0;
	for (unsigned int s = 0; s < steps; s++) {
		pmu_model_count(&M, 0x412e, chunk, false);
		while (nmi(&pc) >= 0)
			;
		pmu_model_count(&M, 0x00c4, chunk, true);
		while (nmi(&pc) >= 0)
			;
	}
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	ck_assert_uint_eq(count_samples(0, period), (u64)steps * chunk / period);
	ck_assert_uint_eq(count_samples(1, period), (u64)steps * chunk / period);
	ck_assert_uint_eq(nr_samples, 2 * ((u64)steps * chunk / period));
	pmu__cpu_stop(&pc);
}

START_TEST(test_e2e_v1)
{
	/* no GLOBAL_STATUS: overflow found by the counter's top bit; legacy
	 * 40-bit writes */
	e2e_simple(P_V1, 100000, 25000, 40);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_RDMSR, MSR_IA32_PERF_GLOBAL_STATUS), 0);
}
END_TEST

START_TEST(test_e2e_legacy_max_period)
{
	/* period 2^31-1 through legacy IA32_PMCx on a 48-bit counter */
	e2e_simple(P_SKL_LEGACY, 0x7fffffff, 0x7fffffff, 3);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, MSR_IA32_A_PMC0), 0);
}
END_TEST

START_TEST(test_e2e_v1_max_period)
{
	e2e_simple(P_V1, 0x7fffffff, 0x7fffffff, 3);
}
END_TEST

START_TEST(test_e2e_icl_v5)
{
	e2e_simple(P_ICL, 0x100000000ull, 0x40000000ull, 8);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_WRMSR, MSR_IA32_A_PMC0 + 1), 3);
}
END_TEST

START_TEST(test_foreign_overflow_not_ours)
{
	static const u64 ev[] = {0x412e};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	unsigned int mark;

	plan_events(P_SKL, &plan, 1, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	/* "perf" owns PMC3 (not reserved by us), counting branches */
	M.evtsel[3] = 0x00c4 | X86_EVTSEL_USR | X86_EVTSEL_OS | X86_EVTSEL_INT | X86_EVTSEL_EN;
	M.pmc[3] = pmu__arm_value(100, 48);
	pmu_model_count(&M, 0x00c4, 100, true);
	ck_assert(M.global_status & X86_GLOBAL_PMC(3));
	ck_assert(pmu_model_take_nmi(&M));
	mark = plat_test_log_len();
	ck_assert_int_eq(pmu__handle_nmi(&pc, emit, NULL), 0);
	/* GLOBAL_STATUS read, no MSR written, LVTPC reopened (defect 3) */
	ck_assert_uint_eq(plat_test_log_get(mark)->op, PLAT_OP_RDMSR);
	ck_assert_uint_eq(plat_test_log_get(mark)->msr, MSR_IA32_PERF_GLOBAL_STATUS);
	for (unsigned int i = mark; i < plat_test_log_len(); i++)
		ck_assert_uint_ne(plat_test_log_get(i)->op, PLAT_OP_WRMSR);
	ck_assert(M.global_status & X86_GLOBAL_PMC(3));
	ck_assert_uint_eq(plat_test_lvtpc_peek(), X86_LVT_DM_NMI);

	/* ours and foreign together: ours handled and acked, foreign bit stays */
	nr_samples = 0;
	M.pmc[3] = pmu__arm_value(100, 48);
	pmu_model_count(&M, 0x00c4, 100, true);
	pmu_model_count(&M, 0x412e, 10000, true);
	ck_assert_int_eq(pmu__handle_nmi(&pc, emit, NULL), 1);
	ck_assert_uint_eq(nr_samples, 1);
	ck_assert_uint_eq(samples[0].event, 0);
	ck_assert(M.global_status & X86_GLOBAL_PMC(3));
	ck_assert(!(M.global_status & X86_GLOBAL_PMC(0)));
	ck_assert_uint_eq(M.evtsel[3] & X86_EVTSEL_EN, X86_EVTSEL_EN);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	pmu__cpu_stop(&pc);
}
END_TEST

START_TEST(test_nmi_ipi_not_ours)
{
	static const u64 ev[] = {0x412e, 0x00c0};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	unsigned int mark;

	plan_events(P_SKL, &plan, 2, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	pmu_model_count(&M, 0x412e, 9999, true); /* one short of overflow */
	mark = plat_test_log_len();
	ck_assert_int_eq(pmu__handle_nmi(&pc, emit, NULL), 0);
	for (unsigned int i = mark; i < plat_test_log_len(); i++)
		ck_assert_uint_ne(plat_test_log_get(i)->op, PLAT_OP_WRMSR);
	/* LVTPC rewritten (unmasked), as Linux does on every NMI it runs */
	ck_assert_int_eq(plat_test_log_last(PLAT_OP_LVTPC_WRITE, 0), (int)plat_test_log_len() - 1);
	ck_assert_uint_eq(plat_test_lvtpc_peek(), X86_LVT_DM_NMI);
	pmu__cpu_stop(&pc);
}
END_TEST

START_TEST(test_loop_cap)
{
	static const u64 ev[] = {0x412e};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	int n;

	plan_events(P_SKL, &plan, 1, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	M.sticky_status = X86_GLOBAL_PMC(0); /* the ack does not clear it */
	pmu_model_count(&M, 0x412e, 10000, true);
	nr_samples = 0;
	ck_assert(pmu_model_take_nmi(&M));
	n = pmu__handle_nmi(&pc, emit, NULL);
	ck_assert_int_eq(n, PMU_MAX_OVF_LOOPS);
	ck_assert_uint_eq(pc.loops_capped, 1);
	ck_assert_uint_eq(plat_test_lvtpc_peek(), X86_LVT_DM_NMI);
	ck_assert_int_eq(plat_test_log_last(PLAT_OP_LVTPC_WRITE, 0), (int)plat_test_log_len() - 1);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_RDMSR, MSR_IA32_PERF_GLOBAL_STATUS),
			  PMU_MAX_OVF_LOOPS + 1);
	/* counter re-armed by the reset */
	ck_assert_uint_eq(M.pmc[0], pmu__arm_value(10000, 48));
	pmu__cpu_stop(&pc);
}
END_TEST

START_TEST(test_freq_mode)
{
	struct pmuprof_config cfg = {.nr_events = 1};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	const char *why;
	u64 prev, now = 0;

	use_profile(P_SKL);
	cfg.events[0] = (struct pmuprof_event_config){
		.config = 0x00c0, .period = 1000, .source = 1, .flags = PMUPROF_EVF_FREQ};
	ck_assert_int_eq(pmu__plan(&C, &cfg, &plan, &why), 0);
	ck_assert_uint_eq(plan.a[0].period, 1000000); /* first guess 1e9 / 1000 Hz */
	plat_test_set_now(0);
	pmu__cpu_start(&pc, &plan);

	/* the workload retires 2 instructions/ns: 1e6 events took 0.5 ms,
	 * twice the 1000 Hz target rate; the target period is 2e6 */
	nr_samples = 0;
	now += 500000;
	plat_test_set_now(now);
	pmu_model_count(&M, 0x00c0, 1000000, true);
	ck_assert_int_eq(nmi(&pc), 1);
	ck_assert_uint_eq(samples[0].period, 1000000);
	/* 1/8 of the way: 1e6 + (2e6 - 1e6) / 8 */
	ck_assert_uint_eq(pc.period[0], 1125000);
	ck_assert_uint_eq(M.fixed[0], pmu__arm_value(1125000, 48));

	prev = pc.period[0];
	for (int i = 0; i < 80; i++) {
		u64 p = pc.period[0];

		now += p / 2; /* 2 events per ns */
		plat_test_set_now(now);
		pmu_model_count(&M, 0x00c0, p, true);
		ck_assert_int_eq(nmi(&pc), 1);
		ck_assert_uint_eq(samples[nr_samples - 1].period, p);
		ck_assert_uint_ge(pc.period[0], prev); /* monotonic approach from below */
		ck_assert_uint_le(pc.period[0], 2000100);
		prev = pc.period[0];
	}
	ck_assert_uint_ge(pc.period[0], 1990000);

	/* the rate halves (1 event/ns): the period comes down toward 1e6 */
	for (int i = 0; i < 200; i++) {
		u64 p = pc.period[0];

		now += p;
		plat_test_set_now(now);
		pmu_model_count(&M, 0x00c0, p, true);
		ck_assert_int_eq(nmi(&pc), 1);
	}
	ck_assert_uint_le(pc.period[0], 1000010);
	ck_assert_uint_ge(pc.period[0], 1000000);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	pmu__cpu_stop(&pc);
}
END_TEST

struct freq_row {
	int line;
	u64 period, elapsed, hz, max, want;
};
static const struct freq_row freq_rows[] = {
	{__LINE__, 1000000, 500000, 1000, 0x7fffffff, 1125000},	 /* too fast: grow 1/8 */
	{__LINE__, 1000000, 2000000, 1000, 0x7fffffff, 937500},	 /* too slow: shrink 1/8 */
	{__LINE__, 1000000, 1000000, 1000, 0x7fffffff, 1000000}, /* on target */
	{__LINE__, 1000, 100000000, 1000, 0x7fffffff, 1000},	 /* clamped at the minimum */
	{__LINE__, 0x7fffffff, 1, 1, 0x7fffffff, 0x7fffffff},	 /* clamped at the maximum */
	{__LINE__, 0x7fffffffffffull, 1000, 1, 0x7fffffffffffull,
	 0x7fffffffffffull},			     /* no overflow */
	{__LINE__, 5000, 0, 1000, 0x7fffffff, 5000}, /* no time passed */
};

START_TEST(test_freq_table)
{
	const struct freq_row *r = &freq_rows[_i];
	u64 got = pmu__freq_next_period(r->period, r->elapsed, r->hz, r->max);

	ck_assert_msg(got == r->want, "line %d: %llu want %llu", r->line, (unsigned long long)got,
		      (unsigned long long)r->want);
}
END_TEST

/* LLC misses (event 0) and branch misses (event 1), period 10000, legacy
 * writes (2^31-1 maximum), started on this CPU. */
static void start_two_events(struct pmu_plan *plan, struct pmu_cpu *pc)
{
	static const u64 ev[] = {0x412e, 0x00c4};

	plan_events(P_SKL_LEGACY, plan, 2, ev, 10000);
	pmu__cpu_start(pc, plan);
}

START_TEST(test_scale_period)
{
	struct pmu_plan plan;
	struct pmu_cpu pc;

	start_two_events(&plan, &pc);
	pmu__scale_period(&pc, 1, 4);
	ck_assert_uint_eq(pc.period[0], 10000);
	ck_assert_uint_eq(pc.period[1], 40000);
	nr_samples = 0;
	pmu_model_count(&M, 0x00c4, 10000, true);
	ck_assert_int_eq(nmi(&pc), 1);
	ck_assert_uint_eq(samples[0].period, 10000); /* the elapsed period */
	ck_assert_uint_eq(M.pmc[1], pmu__arm_value(40000, 48));
	pmu__scale_period(&pc, 1, 1u << 20); /* clamps at 2^31-1 */
	ck_assert_uint_eq(pc.period[1], 0x7fffffff);
	pmu__cpu_stop(&pc);
}
END_TEST

/* pmu__restore_period undoes throttling one step at a time, never below
 * the configured period, only for the event named, and re-arms with it. */
START_TEST(test_restore_period)
{
	struct pmu_plan plan;
	struct pmu_cpu pc;

	start_two_events(&plan, &pc);
	pmu__scale_period(&pc, 1, 2);
	pmu__scale_period(&pc, 1, 2);
	ck_assert_uint_eq(pc.period[1], 40000);
	pmu__restore_period(&pc, 1, 2);
	ck_assert_uint_eq(pc.period[1], 20000);
	ck_assert_uint_eq(pc.period[0], 10000); /* other event untouched */
	nr_samples = 0;
	pmu_model_count(&M, 0x00c4, 40000, true);
	ck_assert_int_eq(nmi(&pc), 1);
	ck_assert_uint_eq(M.pmc[1], pmu__arm_value(20000, 48)); /* re-armed restored */
	pmu__restore_period(&pc, 1, 2);
	ck_assert_uint_eq(pc.period[1], 10000);
	pmu__restore_period(&pc, 1, 2); /* not below the configured period */
	ck_assert_uint_eq(pc.period[1], 10000);
	pmu__restore_period(&pc, 0, 2);
	ck_assert_uint_eq(pc.period[0], 10000);
	pmu__cpu_stop(&pc);
}
END_TEST

/* ================================================================== */
/* 9. The register model itself (what the tests above rely on)        */
/* ================================================================== */
#define INSNS  X86_ARCH_EV_INSTRUCTIONS
#define CYCLES X86_ARCH_EV_CORE_CYCLES
/* IA32_PERFEVTSELx: instructions, kernel mode only, INT, EN */
#define EVTSEL_INSNS_OS_INT (INSNS | X86_EVTSEL_OS | X86_EVTSEL_INT | X86_EVTSEL_EN)

/* SDM vol. 3A table 10-1: GLOBAL_CTRL powers up with bits n-1:0 (the GP
 * counters) set and the upper (fixed) bits clear. */
START_TEST(test_model_global_ctrl_reset)
{
	use_profile(P_SKL);
	ck_assert_uint_eq(plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0xf);
	use_profile(P_ICL);
	ck_assert_uint_eq(plat_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0xff);
	/* a fixed counter programmed without GLOBAL_CTRL does not count */
	plat_wrmsr(MSR_IA32_FIXED_CTR_CTRL, X86_FIXED_CTRL_USR);
	pmu_model_count(&M, INSNS, 10, true);
	ck_assert_uint_eq(M.fixed[0], 0);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
}
END_TEST

/* One latch per CPU shared by PMIs and IPIs; no delivery while a handler
 * runs; a PMI while LVTPC is masked is dropped, not queued. */
START_TEST(test_model_nmi_latch)
{
	use_profile(P_SKL);
	pmu_model_send_ipi(&M);
	pmu_model_send_ipi(&M); /* the first is due: this one waits in the latch */
	pmu_model_send_ipi(&M); /* latch full: coalesced */
	ck_assert_uint_eq(M.nmis_latched, 1);
	ck_assert_uint_eq(M.nmis_coalesced, 1);
	ck_assert(pmu_model_take_nmi(&M));
	ck_assert(M.in_nmi);
	ck_assert(pmu_model_take_nmi(&M)); /* IRET, then the latched one */
	ck_assert(!pmu_model_take_nmi(&M));
	ck_assert(!M.in_nmi);
	ck_assert_uint_eq(M.nmis_taken, 2);

	/* PMI: LVTPC masked on delivery; the next PMI is dropped */
	M.evtsel[0] = EVTSEL_INSNS_OS_INT;
	M.pmc[0] = pmu__width_mask(48);
	pmu_model_count(&M, INSNS, 1, false);
	ck_assert(plat_test_lvtpc_peek() & X86_LVT_MASKED);
	ck_assert(pmu_model_take_nmi(&M));
	M.pmc[0] = pmu__width_mask(48);
	pmu_model_count(&M, INSNS, 1, false);
	ck_assert_uint_eq(M.pmis_lost, 1);
	ck_assert(!M.nmi_latched);
	/* the handler reopens LVTPC: a PMI now waits for the IRET */
	plat_lvtpc_set_nmi();
	M.pmc[0] = pmu__width_mask(48);
	pmu_model_count(&M, INSNS, 1, false);
	ck_assert(M.nmi_latched);
	ck_assert(pmu_model_take_nmi(&M));
	ck_assert(!pmu_model_take_nmi(&M));
	ck_assert_uint_eq(M.nmis_taken, 4);
}
END_TEST

/* The handler's own instructions count in kernel-mode counters until
 * GLOBAL_CTRL disables them; a WRMSR counts under the settings it makes. */
START_TEST(test_model_handler_counts)
{
	use_profile(P_SKL);
	M.evtsel[0] = INSNS | X86_EVTSEL_OS | X86_EVTSEL_EN;
	M.evtsel[1] = INSNS | X86_EVTSEL_USR | X86_EVTSEL_EN;
	M.nmi_cost = 10;
	pmu_model_send_ipi(&M);
	ck_assert(pmu_model_take_nmi(&M));
	plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	ck_assert_uint_eq(M.pmc[0], 10);
	ck_assert_uint_eq(M.pmc[1], 0);		  /* user-mode counter: not in the handler */
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0); /* disables: does not count */
	plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	ck_assert_uint_eq(M.pmc[0], 10);
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1); /* enables: counts */
	ck_assert_uint_eq(M.pmc[0], 20);
	pmu_model_iret(&M);
	plat_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS); /* outside the handler: free */
	ck_assert_uint_eq(M.pmc[0], 20);
}
END_TEST

/* DEBUGCTL.FREEZE_PERFMON_ON_PMI: v4 freezes through GLOBAL_STATUS.CTR_FRZ
 * (bit 59) until GLOBAL_STATUS_RESET clears it; v3 clears GLOBAL_CTRL.
 * GLOBAL_STATUS_SET exists from v4 on and cannot set CondChgd. */
START_TEST(test_model_freeze_and_status_msrs)
{
	use_profile(P_SKL);
	plat_wrmsr(MSR_IA32_DEBUGCTL, X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	M.evtsel[0] = EVTSEL_INSNS_OS_INT;
	M.evtsel[1] = INSNS | X86_EVTSEL_OS | X86_EVTSEL_EN;
	M.pmc[0] = pmu__width_mask(48);
	pmu_model_count(&M, INSNS, 1, false);
	ck_assert(M.global_status & X86_GLOBAL_STATUS_CTR_FRZ);
	ck_assert_uint_eq(M.global_ctrl, 0xf); /* v4: GLOBAL_CTRL untouched */
	pmu_model_count(&M, INSNS, 5, false);
	ck_assert_uint_eq(M.pmc[0], 0); /* frozen */
	ck_assert_uint_eq(M.pmc[1], 1);
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, X86_GLOBAL_STATUS_CTR_FRZ);
	pmu_model_count(&M, INSNS, 5, false);
	ck_assert_uint_eq(M.pmc[0], 5);
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, X86_GLOBAL_PMC(2));
	ck_assert(M.global_status & X86_GLOBAL_PMC(2));
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, X86_GLOBAL_STATUS_COND_CHGD);
	ck_assert_uint_eq(plat_test_msr_faults(), 1);

	use_profile(P_NHM); /* v3: legacy freeze, no STATUS_SET, no bit 59 */
	plat_wrmsr(MSR_IA32_DEBUGCTL, X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	M.evtsel[0] = EVTSEL_INSNS_OS_INT;
	M.pmc[0] = pmu__width_mask(48);
	pmu_model_count(&M, INSNS, 1, false);
	ck_assert_uint_eq(M.global_ctrl, 0);
	ck_assert(!(M.global_status & X86_GLOBAL_STATUS_CTR_FRZ));
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, X86_GLOBAL_PMC(2));
	ck_assert_uint_eq(plat_test_msr_faults(), 1);
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, X86_GLOBAL_STATUS_CTR_FRZ);
	ck_assert_uint_eq(plat_test_msr_faults(), 2);
}
END_TEST

/*
 * Defect 1, reproduced (the fix belongs to kernel/linux/sampler.c): an NMI
 * IPI's handler also finds a PMI of ours that was raised while it ran (the
 * capture's kernel instructions overflowed the counter); that PMI's NMI
 * waits in the latch and runs after the IRET with nothing left to do. Linux
 * (arch/x86/kernel/nmi.c default_do_nmi) swallows such an unknown NMI only
 * when the previous handler returned more than 1 ("handled multiple
 * events"); a handler returning NMI_HANDLED (1) for two events gets an
 * "NMI received for unknown reason".
 */
struct linux_nmi {
	struct pmu_cpu *pc;
	unsigned int ipis; /* pending IPI samples (sampler's nmi_pending) */
	bool return_sum;   /* return the events handled, not NMI_HANDLED */
	bool swallow;	   /* Linux: previous handler returned > 1 */
	unsigned int unknown, swallowed;
};

static int linux_nmi_handler(void *ctx)
{
	struct linux_nmi *l = ctx;
	int handled = 0, n;

	if (l->ipis) {
		l->ipis--;
		handled++;
		/* the capture's own kernel instructions */
		pmu_model_count(&M, INSNS, 500, false);
	}
	n = pmu__handle_nmi(l->pc, emit, NULL);
	if (n > 0)
		handled += l->return_sum ? n : 1;
	if (!l->return_sum && handled > 1)
		handled = 1; /* NMI_HANDLED */
	/* default_do_nmi(), the latched NMI is back-to-back */
	if (handled) {
		l->swallow = handled > 1;
		return handled;
	}
	if (l->swallow)
		l->swallowed++;
	else
		l->unknown++;
	l->swallow = false;
	return 0;
}

static void run_ipi_then_pmi(bool return_sum, struct linux_nmi *l)
{
	static const u64 ev[] = {INSNS | X86_EVTSEL_OS};
	struct pmu_plan plan;
	struct pmu_cpu pc;

	plan_events(P_SKL, &plan, 1, ev, 1000);
	ck_assert_uint_eq(plan.a[0].kind, PMU_CTR_FIXED);
	pmu__cpu_start(&pc, &plan);
	memset(l, 0, sizeof(*l));
	l->pc = &pc;
	l->return_sum = return_sum;
	nr_samples = 0;
	pmu_model_count(&M, INSNS, 900, false);
	pmu_model_set_nmi_handler(&M, linux_nmi_handler, l);
	l->ipis = 1;
	pmu_model_send_ipi(&M); /* runs the handler, then the latched NMI */
	pmu_model_set_nmi_handler(&M, NULL, NULL);
	ck_assert_uint_eq(nr_samples, 1);
	ck_assert_uint_eq(M.nmis_taken, 2);
	ck_assert_uint_eq(M.nmis_latched, 1);
	ck_assert_uint_eq(M.nmis_unknown, 1); /* the latched NMI found nothing */
	pmu__cpu_stop(&pc);
}

START_TEST(test_model_defect1_latched_nmi)
{
	struct linux_nmi l;

	run_ipi_then_pmi(false, &l); /* sampler.c today: NMI_HANDLED */
	ck_assert_uint_eq(l.unknown, 1);
	run_ipi_then_pmi(true, &l); /* sum of IPI + PMU samples */
	ck_assert_uint_eq(l.unknown, 0);
	ck_assert_uint_eq(l.swallowed, 1);
}
END_TEST

/* ================================================================== */
/* 10. Defects from the SDM / Linux arch/x86/events review             */
/* ================================================================== */
/* "perf" owns PMC3 (not reserved by us), counting branches with INT. */
static void foreign_pmc3_overflows(void)
{
	M.evtsel[3] = 0x00c4 | X86_EVTSEL_USR | X86_EVTSEL_OS | X86_EVTSEL_INT | X86_EVTSEL_EN;
	M.pmc[3] = pmu__arm_value(100, 48);
	pmu_model_count(&M, 0x00c4, 100, true);
}

/* Defect 3: a PMI that is not ours (a foreign counter, or one raced away)
 * left LVTPC masked by its delivery: sampling ended on that CPU. The
 * handler now reopens LVTPC on every NMI while the session runs, still
 * returning 0 and touching no counter or status MSR. */
START_TEST(test_defect3_foreign_pmi_reopens_lvtpc)
{
	static const u64 ev[] = {0x412e};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	unsigned int mark;

	plan_events(P_SKL, &plan, 1, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	foreign_pmc3_overflows();
	ck_assert(pmu_model_take_nmi(&M));
	ck_assert(plat_test_lvtpc_peek() & X86_LVT_MASKED);
	mark = plat_test_log_len();
	ck_assert_int_eq(pmu__handle_nmi(&pc, emit, NULL), 0);
	ck_assert_uint_eq(plat_test_lvtpc_peek(), X86_LVT_DM_NMI);
	for (unsigned int i = mark; i < plat_test_log_len(); i++)
		ck_assert_uint_ne(plat_test_log_get(i)->op, PLAT_OP_WRMSR);
	ck_assert(M.global_status & X86_GLOBAL_PMC(3)); /* left for its owner */

	/* our overflow still interrupts */
	nr_samples = 0;
	pmu_model_count(&M, 0x412e, 10000, true);
	ck_assert_int_eq(nmi(&pc), 1);
	ck_assert_uint_eq(nr_samples, 1);
	ck_assert_uint_eq(M.pmis_lost, 0);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	pmu__cpu_stop(&pc);
}
END_TEST

/* Defect 4: a handler that ran first (Intel PT's ToPA PMI in perf's
 * handler, which acknowledges every GLOBAL_STATUS bit it read) took our
 * overflow bit: the counter's top bit (clear once it wrapped; armed
 * counters hold -period) still tells. */
START_TEST(test_defect4_status_acked_by_someone_else)
{
	static const u64 ev[] = {0x412e, 0x00c4};
	struct pmu_plan plan;
	struct pmu_cpu pc;

	plan_events(P_SKL, &plan, 2, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	nr_samples = 0;
	pmu_model_count(&M, 0x412e, 10000, true);
	pmu_model_count(&M, 0x00c4, 9999, true); /* one short: not overflowed */
	ck_assert(M.global_status & X86_GLOBAL_PMC(0));
	ck_assert(pmu_model_take_nmi(&M));
	/* the foreign handler: ack all it saw */
	plat_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, M.global_status);
	ck_assert_uint_eq(M.global_status, 0);
	ck_assert_int_eq(pmu__handle_nmi(&pc, emit, NULL), 1);
	ck_assert_uint_eq(nr_samples, 1);
	ck_assert_uint_eq(samples[0].event, 0);
	ck_assert_uint_eq(samples[0].period, 10000);
	ck_assert_uint_eq(M.pmc[0], pmu__arm_value(10000, 48)); /* re-armed */
	ck_assert_uint_eq(M.pmc[1], pmu__arm_value(1, 48));	/* untouched */
	ck_assert_uint_eq(M.global_ctrl & plan.global_ctrl, plan.global_ctrl);
	ck_assert_uint_eq(plat_test_lvtpc_peek(), X86_LVT_DM_NMI);
	/* and the next period is sampled as usual */
	pmu_model_count(&M, 0x412e, 10000, true);
	ck_assert_int_eq(nmi(&pc), 1);
	ck_assert_uint_eq(count_samples(0, 10000), 2);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	pmu__cpu_stop(&pc);
}
END_TEST

/* Defect 8: events counted between the wrap and the re-arm (skid, NMI
 * entry, the handler's own instructions until it disables the counters)
 * were dropped: every sample stood for its armed period, so the sum of
 * sample periods ran low by (skid + latency) / period. They are now
 * carried into the next period (Linux x86_perf_event_set_period). */
static void overshoot_run(enum profile prof, u64 ev, u64 period, u64 skid, u64 cost,
			  unsigned int pmis)
{
	const u64 evs[] = {ev};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	u64 sum = 0, counted;

	plan_events(prof, &plan, 1, evs, period);
	pmu__cpu_start(&pc, &plan);
	M.nmi_cost = cost;
	nr_samples = 0;
	for (unsigned int k = 0; k < pmis; k++) {
		for (u64 guard = 0; !M.nmi_due && guard < 2 * period; guard++)
			pmu_model_count(&M, ev & X86_EVTSEL_EVENT_UMASK, 1, true);
		ck_assert(M.nmi_due);
		pmu_model_count(&M, ev & X86_EVTSEL_EVENT_UMASK, skid, true);
		ck_assert_int_eq(nmi(&pc), 1);
		pmu_model_iret(&M);
	}
	for (unsigned int k = 0; k < nr_samples; k++) {
		ck_assert_uint_eq(samples[k].period, period); /* the armed period */
		sum += samples[k].period;
	}
	counted = plan.a[0].kind == PMU_CTR_FIXED ? M.counted_fixed[plan.a[0].idx]
						  : M.counted_gp[plan.a[0].idx];
	ck_assert_msg(sum <= counted && counted - sum < period,
		      "sum of periods %llu, events counted %llu (period %llu)",
		      (unsigned long long)sum, (unsigned long long)counted,
		      (unsigned long long)period);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	pmu__cpu_stop(&pc);
}

START_TEST(test_defect8_overshoot_carried)
{
	/* GP counter, user mode, skid 150 at period 1000 */
	overshoot_run(P_SKL, 0x412e, 1000, 150, 0, 300);
	/* fixed counter 0 counting the handler's kernel instructions too */
	overshoot_run(P_SKL_LEGACY, 0x00c0, 1000, 37, 25, 300);
	/* version 1: no GLOBAL_CTRL, the EN bits disable */
	overshoot_run(P_V1, 0x412e, 1000, 250, 0, 100);
	/* fixed counter 48 bits wide beside 40-bit GP counters, then a GP
	 * counter of the same PMU: each masked by its own width */
	overshoot_run(P_V2_WIDTHS, 0x00c0, 1000, 37, 25, 300);
	overshoot_run(P_V2_WIDTHS, 0x412e, 1000, 150, 0, 300);
}
END_TEST

/* A counter re-armed a few events short of its overflow (the overshoot
 * carried down to PMU_MIN_LEFT) wraps on the handler's own instructions
 * between the enabling GLOBAL_CTRL write and the LVTPC write: its PMI meets
 * a masked LVTPC and is dropped. Without the tail check the counter never
 * interrupted again (found on the emulated PMU: pmu_throttle). Every skid
 * from 900 to 999 at period 1000, counting the handler (25 per access). */
START_TEST(test_tail_overflow_not_lost)
{
	static const u64 ev[] = {0x00c0};
	const u64 period = 1000;

	for (u64 skid = 900; skid < 1000; skid++) {
		struct pmu_plan plan;
		struct pmu_cpu pc;

		use_profile(P_SKL_LEGACY);
		plan_events(P_SKL_LEGACY, &plan, 1, ev, period);
		pmu__cpu_start(&pc, &plan);
		M.nmi_cost = 25;
		nr_samples = 0;
		for (unsigned int k = 0; k < 20; k++) {
			u64 guard;

			for (guard = 0; !M.nmi_due && guard < 4 * period; guard++)
				pmu_model_count(&M, 0x00c0, 1, true);
			ck_assert_msg(M.nmi_due,
				      "skid %llu: no PMI after %u samples (%u PMIs lost)",
				      (unsigned long long)skid, nr_samples, M.pmis_lost);
			pmu_model_count(&M, 0x00c0, skid, true);
			while (nmi(&pc) >= 0)
				pmu_model_iret(&M);
		}
		pmu__cpu_stop(&pc);
	}
}
END_TEST

/* Issue 15: a PMI that leaves nothing behind reads GLOBAL_STATUS twice,
 * on entry and in the tail check after LVTPC; the first pass leaves its
 * re-read to the tail check (one RDMSR fewer per sample). */
START_TEST(test_status_read_twice_per_pmi)
{
	static const u64 ev[] = {0x412e};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	unsigned int mark;

	plan_events(P_SKL, &plan, 1, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	nr_samples = 0;
	pmu_model_count(&M, 0x412e, 10000, true);
	mark = plat_test_log_count(PLAT_OP_RDMSR, MSR_IA32_PERF_GLOBAL_STATUS);
	ck_assert_int_eq(nmi(&pc), 1);
	ck_assert_uint_eq(nr_samples, 1);
	ck_assert_uint_eq(plat_test_log_count(PLAT_OP_RDMSR, MSR_IA32_PERF_GLOBAL_STATUS) - mark,
			  2);
	pmu__cpu_stop(&pc);
}
END_TEST

/* ... and an overflow between that first read and the disabling write
 * (a second counter of ours wrapping on the handler's own instructions,
 * its PMI dropped at the masked LVTPC) is still served by the same NMI:
 * the tail check finds it and serves it with the counters disabled.
 * Counter B (fixed 0, instructions) is 10 short when A's PMI comes; every
 * handler MSR access counts 25 kernel instructions. Both v4 and v2. */
static void overflow_before_disable(enum profile prof)
{
	static const u64 ev[] = {0x412e, 0x00c0};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	u64 sum = 0;
	int n;

	plan_events(prof, &plan, 2, ev, 1000);
	pmu__cpu_start(&pc, &plan);
	M.nmi_cost = 25;
	nr_samples = 0;
	pmu_model_count(&M, 0x00c0, 990, true);
	pmu_model_count(&M, 0x412e, 1000, true);
	ck_assert(M.nmi_due);
	n = nmi(&pc);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(nr_samples, 2);
	ck_assert_uint_eq(count_samples(0, 1000), 1);
	ck_assert_uint_eq(count_samples(1, 1000), 1);
	/* B re-armed with its overshoot carried: it counted past its wrap */
	ck_assert_uint_lt(pc.left[1], 1000);
	ck_assert_uint_eq(M.global_status & plan.global_ctrl, 0);
	pmu_model_iret(&M);
	/* and both keep sampling */
	for (unsigned int k = 0; k < 8; k++) {
		pmu_model_count(&M, 0x412e, 100, true);
		pmu_model_count(&M, 0x00c0, 100, true);
		while (nmi(&pc) >= 0)
			pmu_model_iret(&M);
	}
	for (unsigned int k = 0; k < nr_samples; k++)
		sum += samples[k].event == 0;
	ck_assert_uint_ge(sum, 1);
	ck_assert_uint_ge(nr_samples - sum, 1);
	pmu__cpu_stop(&pc);
}

START_TEST(test_overflow_before_disable_served)
{
	overflow_before_disable(P_SKL);
	overflow_before_disable(P_NHM);
}
END_TEST

struct left_row {
	int line;
	u64 period, over, want;
};
/* Linux x86_perf_event_set_period: left = period - overshoot; an
 * overshoot of a whole period or more is dropped (left = period); at least
 * PMU_MIN_LEFT. */
static const struct left_row left_rows[] = {
	{__LINE__, 1000, 0, 1000},
	{__LINE__, 1000, 150, 850},
	{__LINE__, 1000, 998, 2},
	{__LINE__, 1000, 999, 2},
	{__LINE__, 1000, 1000, 1000},
	{__LINE__, 1000, 5000, 1000},
	{__LINE__, 0x7fffffff, 1, 0x7ffffffe},
};

START_TEST(test_defect8_left_table)
{
	const struct left_row *r = &left_rows[_i];
	u64 got = pmu__rearm_left(r->period, r->over);

	ck_assert_msg(got == r->want, "line %d: %llu want %llu", r->line, (unsigned long long)got,
		      (unsigned long long)r->want);
}
END_TEST

/* Defect 7: IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12), set by someone
 * else. On version 4 the first PMI freezes every counter (GLOBAL_STATUS
 * CTR_FRZ, bit 59) until software clears bit 59 through
 * GLOBAL_STATUS_RESET: sampling stopped after one sample. */
static unsigned int freeze_run(struct pmu_cpu *pc, unsigned int periods)
{
	nr_samples = 0;
	for (unsigned int k = 0; k < periods; k++) {
		pmu_model_count(&M, 0x412e, 10000, true);
		while (nmi(pc) >= 0)
			;
	}
	return nr_samples;
}

START_TEST(test_defect7_freeze_set_before_start)
{
	static const u64 ev[] = {0x412e};
	const u64 other = 1ull << 0; /* DEBUGCTL.LBR, someone's: left alone */
	struct pmu_plan plan;
	struct pmu_cpu pc;

	plan_events(P_SKL, &plan, 1, ev, 10000);
	plat_wrmsr(MSR_IA32_DEBUGCTL, X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI | other);
	pmu__cpu_start(&pc, &plan);
	ck_assert_uint_eq(freeze_run(&pc, 5), 5);
	ck_assert(!(M.global_status & X86_GLOBAL_STATUS_CTR_FRZ));
	pmu__cpu_stop(&pc);
	/* restored for its owner */
	ck_assert_uint_eq(M.debugctl, X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI | other);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
}
END_TEST

START_TEST(test_defect7_freeze_set_while_running)
{
	static const u64 ev[] = {0x412e};
	struct pmu_plan plan;
	struct pmu_cpu pc;

	plan_events(P_SKL, &plan, 1, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	ck_assert_uint_eq(M.debugctl, 0);
	plat_wrmsr(MSR_IA32_DEBUGCTL, X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	/* every PMI freezes; the handler acknowledges CTR_FRZ with ours */
	ck_assert_uint_eq(freeze_run(&pc, 5), 5);
	ck_assert(!(M.global_status & X86_GLOBAL_STATUS_CTR_FRZ));
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	pmu__cpu_stop(&pc);
	ck_assert_uint_eq(M.debugctl, X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI);

	/* version 3 (legacy freeze clears GLOBAL_CTRL): no bit 59 to ack,
	 * and writing it would fault */
	plan_events(P_NHM, &plan, 1, ev, 10000);
	pmu__cpu_start(&pc, &plan);
	plat_wrmsr(MSR_IA32_DEBUGCTL, X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	ck_assert_uint_eq(freeze_run(&pc, 5), 5);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
	pmu__cpu_stop(&pc);
}
END_TEST

/* Defect 9: an NMI during stop re-enabled our counters after stop had
 * disabled them (the handler restores the GLOBAL_CTRL / EN bits it found
 * at entry); version 1 started counting before LVTPC pointed at NMI. */
static struct pmu_cpu *race_pc;
/* LVTPC as its owner left it before start: masked, fixed vector 0xfe */
#define LVT_OWNER (X86_LVT_MASKED | X86_LVT_DM_FIXED | 0xfe)

static int race_nmi(void *ctx)
{
	(void)ctx;
	return pmu__handle_nmi(race_pc, emit, NULL);
}

/* Overflow of ours pending (its PMI dropped: LVTPC masked), then stop;
 * an NMI IPI arrives right after stop's first write to `msr`. */
static void stop_with_nmi(enum profile prof, u32 msr)
{
	static const u64 ev[] = {0x412e, 0x00c4};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	u64 found;

	plan_events(prof, &plan, 2, ev, 10000);
	plat_test_lvtpc_poke(LVT_OWNER);
	found = M.global_ctrl & plan.global_ctrl;
	pmu__cpu_start(&pc, &plan);
	plat_test_lvtpc_poke(X86_LVT_DM_NMI | X86_LVT_MASKED);
	pmu_model_count(&M, 0x412e, 10000, true);
	pmu_model_count(&M, 0x00c4, 10000, true);
	race_pc = &pc;
	nr_samples = 0;
	pmu_model_set_nmi_handler(&M, race_nmi, NULL);
	pmu_model_ipi_after_write(&M, msr, 1);
	pmu__cpu_stop(&pc);
	pmu_model_set_nmi_handler(&M, NULL, NULL);
	ck_assert_uint_eq(M.nmis_taken, 1);
	ck_assert_uint_eq(nr_samples, 2); /* still claimed: no unknown NMI */
	ck_assert_uint_eq(M.nmis_unknown, 0);
	/* stopped for good: the event selects are off (the counting check
	 * below), GLOBAL_CTRL's enables as found before the session */
	if (plan.version >= 2)
		ck_assert_uint_eq(M.global_ctrl & plan.global_ctrl, found);
	ck_assert_uint_eq(M.evtsel[0], 0);
	ck_assert_uint_eq(M.evtsel[1], 0);
	ck_assert_uint_eq(plat_test_lvtpc_peek(), LVT_OWNER); /* restored last */
	pmu_model_count(&M, 0x412e, 100000, true);
	ck_assert_uint_eq(M.overflows, 2);
	ck_assert_uint_eq(plat_test_msr_faults(), 0);
}

START_TEST(test_defect9_nmi_during_stop)
{
	stop_with_nmi(P_SKL, MSR_IA32_PERF_GLOBAL_CTRL);
	stop_with_nmi(P_V1, MSR_IA32_PERFEVTSEL0);
}
END_TEST

START_TEST(test_defect9_v1_lvtpc_before_enable)
{
	static const u64 ev[] = {0x412e, 0x00c4};
	struct pmu_plan plan;
	struct pmu_cpu pc;
	int lvt = -1, first_en = -1;

	plan_events(P_V1, &plan, 2, ev, 10000);
	plat_test_lvtpc_poke(X86_LVT_DM_NMI | X86_LVT_MASKED);
	plat_test_log_clear();
	pmu__cpu_start(&pc, &plan);
	for (unsigned int i = 0; i < plat_test_log_len(); i++) {
		const struct plat_test_access *e = plat_test_log_get(i);

		if (e->op == PLAT_OP_LVTPC_WRITE && lvt < 0)
			lvt = (int)i;
		if (e->op == PLAT_OP_WRMSR && e->msr >= MSR_IA32_PERFEVTSEL0 &&
		    e->msr < MSR_IA32_PERFEVTSEL0 + 8 && (e->val & X86_EVTSEL_EN) && first_en < 0)
			first_en = (int)i;
	}
	ck_assert_int_ge(lvt, 0);
	ck_assert_int_ge(first_en, 0);
	ck_assert_msg(lvt < first_en, "LVTPC written at %d, first EN at %d", lvt, first_en);
	/* and an overflow right after enabling is ours */
	ck_assert(pc.running);
	pmu__cpu_stop(&pc);
}
END_TEST

/* Defect 6: a hybrid part (CPUID.07H:EDX[15]) has different PMUs per core
 * type: Alder Lake P-cores 8 GP + 4 fixed (v5), E-cores 6 GP + 3 fixed
 * (CPUID.1AH:EAX[31:24] = 40H Core / 20H Atom). Capabilities probed on one
 * CPU were applied to all: a plan using PMC6/7 faults on the E-cores. */
#define CORE_TYPE_CORE 0x40u
#define CORE_TYPE_ATOM 0x20u

static const struct pmu_model_cfg pcore = {PMU_MODEL_ICL, .fixed_ecx = 0xf,
					   .anythread_deprecated = true, .full_width = true,
					   .signature = 0x00090675 /* Alder Lake-S */};
static const struct pmu_model_cfg ecore = {PMU_MODEL_LAYOUT(5, 6, 48, 3, 48, 8), .fixed_ecx = 0x7,
					   .anythread_deprecated = true, .full_width = true,
					   .signature = 0x00090675};

/* CPU 0 a P-core (the model), CPU 1 an E-core (its own CPUID.0AH). */
static void hybrid_machine(bool hybrid_bit)
{
	union x86_cpuid10_eax eax = {.full = 0};
	union x86_cpuid10_edx edx = {.full = 0};

	plat_test_cpu_reset();
	pmu_model_init(&M, &pcore);
	plat_test_set_vendor(X86_VENDOR_INTEL_STR, 0x20);
	eax.split.version = ecore.version;
	eax.split.num_gp = ecore.nr_gp;
	eax.split.gp_width = ecore.gp_width;
	eax.split.ebx_length = ecore.ebx_len;
	edx.split.num_fixed = ecore.nr_fixed;
	edx.split.fixed_width = ecore.fixed_width;
	edx.split.anythread_deprecated = 1;
	plat_test_set_cpuid_on(1, X86_CPUID_LEAF_PERFMON, PLAT_TEST_ANY_SUBLEAF, eax.full, 0,
			       ecore.fixed_ecx, edx.full);
	plat_test_set_cpuid(0x07, 0, 0, 0, 0, hybrid_bit ? 1u << 15 : 0);
	plat_test_set_cpuid_on(0, 0x1a, 0, CORE_TYPE_CORE << 24, 0, 0, 0);
	plat_test_set_cpuid_on(1, 0x1a, 0, CORE_TYPE_ATOM << 24, 0, 0, 0);
}

START_TEST(test_defect6_hybrid_refused)
{
	static const u64 ev[] = {0x412e};
	struct pmuprof_config cfg;
	struct pmu_plan plan;
	const char *why = NULL;
	char buf[256];

	/* the per-CPU profiles are what the probe sees on each CPU */
	hybrid_machine(false);
	plat_test_set_cpu(1);
	pmu__probe(&C);
	ck_assert_uint_eq(C.status, PMUPROF_PMU_OK);
	ck_assert_uint_eq(C.nr_gp, 6);
	plat_test_set_cpu(0);
	pmu__probe(&C);
	ck_assert_uint_eq(C.nr_gp, 8);

	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		hybrid_machine(true);
		plat_test_set_cpu(cpu);
		pmu__probe(&C);
		ck_assert_msg(C.status == PMUPROF_PMU_HYBRID, "cpu %u: status %u", cpu, C.status);
		ck_assert(!C.pebs);
		pmu__describe(&C, buf, sizeof(buf));
		ck_assert_msg(strstr(buf, "hybrid"), "%s", buf);
		one_event(&cfg, 0, ev[0], 10000, 0, 0);
		ck_assert_int_eq(pmu__plan(&C, &cfg, &plan, &why), -ENODEV);
		ck_assert_msg(why && strstr(why, "hybrid") && strstr(why, "cpu-clock"), "%s",
			      why ? why : "(null)");
		ck_assert_uint_eq(plan.nr, 0);
		ck_assert_uint_eq(plat_test_msr_faults(), 0);
	}
}
END_TEST

static Suite *pmu_suite(void)
{
	Suite *s = suite_create("pmu");
	TCase *tc = pp_tcase(s, "tables", setup, teardown,
			     PP_TESTS(test_describe, test_max_period_and_msr));
	tcase_add_loop_test(tc, test_probe_table, 0, PP_ARRAY_SIZE(probe_rows));
	tcase_add_loop_test(tc, test_encode_table, 0, PP_ARRAY_SIZE(enc_rows));
	tcase_add_loop_test(tc, test_choice_table, 0, PP_ARRAY_SIZE(choice_rows));
	tcase_add_loop_test(tc, test_arm_table, 0, PP_ARRAY_SIZE(arm_rows));
	tcase_add_loop_test(tc, test_status_table, 0, PP_ARRAY_SIZE(status_rows));
	tcase_add_loop_test(tc, test_freq_table, 0, PP_ARRAY_SIZE(freq_rows));

	tc = pp_tcase(
		s, "reserve", setup, teardown,
		PP_TESTS(test_reserve_ok_and_release, test_reserve_fixed_only_takes_sentinel));
	tcase_add_loop_test(tc, test_reserve_busy_releases_everything, 0, PP_ARRAY_SIZE(busy_rows));

	pp_tcase(s, "model", setup, teardown,
		 PP_TESTS(test_start_stop_v2, test_start_stop_v1, test_e2e_v4_several_events,
			  test_e2e_v1, test_e2e_legacy_max_period, test_e2e_v1_max_period,
			  test_e2e_icl_v5, test_foreign_overflow_not_ours, test_nmi_ipi_not_ours,
			  test_loop_cap, test_freq_mode, test_scale_period, test_restore_period));

	pp_tcase(s, "model-itself", setup, teardown,
		 PP_TESTS(test_model_global_ctrl_reset, test_model_nmi_latch,
			  test_model_handler_counts, test_model_freeze_and_status_msrs,
			  test_model_defect1_latched_nmi));

	tc = pp_tcase(s, "defects", setup, teardown,
		      PP_TESTS(test_defect3_foreign_pmi_reopens_lvtpc,
			       test_defect4_status_acked_by_someone_else,
			       test_defect6_hybrid_refused, test_defect7_freeze_set_before_start,
			       test_defect7_freeze_set_while_running,
			       test_defect8_overshoot_carried, test_tail_overflow_not_lost,
			       test_status_read_twice_per_pmi, test_overflow_before_disable_served,
			       test_defect9_nmi_during_stop, test_defect9_v1_lvtpc_before_enable));
	tcase_add_loop_test(tc, test_defect8_left_table, 0, PP_ARRAY_SIZE(left_rows));
	return s;
}

int main(void)
{
	return pp_check_run(pmu_suite());
}
