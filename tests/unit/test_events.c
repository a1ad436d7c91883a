// SPDX-License-Identifier: MIT
/*
 * pmuctl event resolution and encoding (userspace/pmuctl/events.c), argument
 * parsers (args.c), and the process-map/build-id capture (procmaps.c).
 *
 * Encodings are checked per CPU model with LIBPFM_FORCE_PMU, from tables
 * that give the input and either the expected IA32_PERFEVTSELx value or the
 * expected error and a fragment of its message (libpfm4 validate_x86 style).
 * Check runs each test in its own process, so every test sets the forced
 * PMU and initialises libpfm4 afresh.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "include/uapi/pmuprof.h"
#include "userspace/pmuctl/args.h"
#include "userspace/pmuctl/events.h"
#include "userspace/pmuctl/evtsel.h"
#include "userspace/pmuctl/procmaps.h"
#include "userspace/pmuctl/util.h"
#include "check_main.h"

#define NO_FIXED -1

struct enc_case {
	int line;
	const char *spec;
	int ret;		   /* 0 or the expected -errno */
	unsigned long long config; /* expected config when ret == 0 */
	int fixed;		   /* expected fixed counter or NO_FIXED */
	int fixed_only;
	unsigned long long period;
	const char *err; /* fragment expected in the message (errors) */
};

#define OK(spec, cfg, fx, fo)                                                                      \
	{                                                                                          \
		__LINE__, spec, 0, cfg, fx, fo, 0, NULL                                            \
	}
#define OKP(spec, cfg, fx, fo, per)                                                                \
	{                                                                                          \
		__LINE__, spec, 0, cfg, fx, fo, per, NULL                                          \
	}
#define ERR(spec, e, msg)                                                                          \
	{                                                                                          \
		__LINE__, spec, e, 0, NO_FIXED, 0, 0, msg                                          \
	}

/* Skylake client (libpfm4 PMU "skl"). usr|os = 0x30000 unless a modifier says otherwise. */
static const struct enc_case skl_cases[] = {
	OK("cycles", 0x3003c, 1, 0),
	OK("instructions", 0x300c0, 0, 0),
	OK("ref-cycles", 0x30300, 2, 1), /* CPU_CLK_UNHALTED.REF_TSC pseudo encoding */
	OK("llc-references", 0x34f2e, NO_FIXED, 0),
	OK("llc-misses", 0x3412e, NO_FIXED, 0),
	OK("branches", 0x300c4, NO_FIXED, 0),
	OK("branch-misses", 0x300c5, NO_FIXED, 0),
	OK("dtlb-load-misses", 0x30e08, NO_FIXED, 0),
	OK("dtlb-store-misses", 0x30e49, NO_FIXED, 0),
	OK("itlb-misses", 0x30e85, NO_FIXED, 0),
	OK("CYCLES", 0x3003c, 1, 0),
	OK("cycles:u", 0x1003c, 1, 0),
	OK("cycles:k", 0x2003c, 1, 0),
	OK("DTLB_LOAD_MISSES.WALK_COMPLETED", 0x30e08, NO_FIXED, 0),
	OK("dtlb_load_misses:walk_completed", 0x30e08, NO_FIXED, 0),
	OK("dtlb_load_misses:walk_completed:u:c=2", 0x2010e08, NO_FIXED, 0),
	OK("DTLB_LOAD_MISSES:MISS_CAUSES_A_WALK", 0x30108, NO_FIXED, 0),
	OK("skl::INST_RETIRED:ANY_P", 0x300c0, 0, 0),
	OK("LONGEST_LAT_CACHE:MISS:e:i:c=1", 0x187412e, NO_FIXED,
	   0), /* edge|inv disqualify fixed */
	OK("r01a2", 0x1a2, NO_FIXED, 0),
	OK("r3c", 0x3c, 1, 0),
	OK("r01a2:u", 0x101a2, NO_FIXED, 0),
	OK("r01a2:k:u", 0x301a2, NO_FIXED, 0),
	OK("r4003c", 0x4003c, NO_FIXED, 0), /* edge set: not a fixed-counter event */
	OKP("cycles/100000", 0x3003c, 1, 0, 100000),
	OKP("r01a2/0x1000", 0x1a2, NO_FIXED, 0, 0x1000),
	ERR("cycels", -ENOENT, "did you mean cycles"),
	ERR("DTLB_LOAD_MISES", -ENOENT, "DTLB_LOAD_MISSES"),
	ERR("instrutions", -ENOENT, "instructions"),
	ERR("dtlb_load_misses:walk_complete", -EINVAL, "WALK_COMPLETED"),
	ERR("nosuchevent_at_all_xyz", -ENOENT, "pmuctl list"),
	ERR("cycles/0", -EINVAL, "period 0 is invalid"),
	ERR("cycles/-5", -EINVAL, "not a number"),
	ERR("cycles/abc", -EINVAL, "not a number"),
	ERR("/100", -EINVAL, "empty event name"),
	ERR("r1234567890", -EINVAL, "reserves"),
	ERR("r50003c", -EINVAL, "reserves"), /* EN|INT belong to the kernel */
	ERR("r01a2:x", -EINVAL, "unknown modifier"),
	ERR("cpu-clock:u", -EINVAL, "no modifiers"),
};

/* Ice Lake client ("icl"): different branch events, no LLC reference event. */
static const struct enc_case icl_cases[] = {
	OK("cycles", 0x3003c, 1, 0),
	OK("instructions", 0x300c0, 0, 0),
	OK("ref-cycles", 0x30300, 2, 1),
	OK("llc-misses", 0x3412e, NO_FIXED, 0),
	OK("branches", 0x300c4, NO_FIXED, 0),
	OK("branch-misses", 0x300c5, NO_FIXED, 0),
	OK("dtlb-load-misses", 0x30e08, NO_FIXED, 0),
	OK("dtlb-store-misses", 0x30e49, NO_FIXED, 0),
	OK("itlb-misses", 0x30e85, NO_FIXED, 0),
	OK("TOPDOWN:SLOTS", 0x30400, 3, 1),
	OK("INST_RETIRED:PREC_DIST", 0x30100, 0, 1),
	ERR("llc-references", -EOPNOTSUPP, "no mapping on this CPU model"),
	ERR("LONGEST_LAT_CACHE:REFERENCE", -EINVAL, "LONGEST_LAT_CACHE"),
	ERR("BRANCH_INSTRUCTIONS_RETIRED", -ENOENT, "unknown event"),
};

/* Haswell ("hsw") and Goldmont ("glm", different TLB events). */
static const struct enc_case hsw_cases[] = {
	OK("llc-references", 0x34f2e, NO_FIXED, 0),
	OK("dtlb-load-misses", 0x30e08, NO_FIXED, 0),
	OK("branches", 0x300c4, NO_FIXED, 0),
};
static const struct enc_case glm_cases[] = {
	OK("dtlb-load-misses", 0x311d0, NO_FIXED, 0),
	OK("dtlb-store-misses", 0x312d0, NO_FIXED, 0),
	OK("itlb-misses", 0x30481, NO_FIXED, 0),
	OK("cycles", 0x3003c, 1, 0),
};

/* No PMU known to libpfm4 (e.g. a VM without a virtual PMU). */
static const struct enc_case nopmu_cases[] = {
	ERR("cycles", -ENODEV, "cpu-clock"),
	ERR("cycels", -ENOENT, "did you mean cycles"),
	ERR("DTLB_LOAD_MISSES", -ENOENT, "only generic names"),
	OK("r01a2", 0x1a2, NO_FIXED, 0),
};

static void run_cases(const char *pmu, const struct enc_case *c, size_t n)
{
	char err[1024];
	size_t i;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	ck_assert_int_eq(events__init(err, sizeof(err)), 0);
	for (i = 0; i < n; i++) {
		struct pmuctl_event ev;
		int ret = events__resolve(c[i].spec, &ev, err, sizeof(err));

		ck_assert_msg(ret == c[i].ret, "line %d %s '%s': ret %d, expected %d (%s)",
			      c[i].line, pmu, c[i].spec, ret, c[i].ret, err);
		if (ret < 0) {
			ck_assert_msg(strstr(err, c[i].err) != NULL,
				      "line %d %s '%s': message '%s' lacks '%s'", c[i].line, pmu,
				      c[i].spec, err, c[i].err);
			ck_assert_msg(!strchr(err, '\n'), "line %d: message is not one line",
				      c[i].line);
			continue;
		}
		ck_assert_msg(ev.config == c[i].config,
			      "line %d %s '%s': config 0x%llx, expected 0x%llx", c[i].line, pmu,
			      c[i].spec, (unsigned long long)ev.config, c[i].config);
		ck_assert_msg(ev.fixed == c[i].fixed && ev.fixed_only == (c[i].fixed_only != 0),
			      "line %d %s '%s': fixed %d/%d, expected %d/%d", c[i].line, pmu,
			      c[i].spec, ev.fixed, ev.fixed_only, c[i].fixed, c[i].fixed_only);
		ck_assert_msg(ev.period == c[i].period, "line %d: period %llu", c[i].line,
			      (unsigned long long)ev.period);
		ck_assert_int_eq(ev.source, PMUPROF_SOURCE_PMU);
		ck_assert_msg(!(ev.config & (X86_EVTSEL_EN | X86_EVTSEL_INT)),
			      "line %d: EN/INT set", c[i].line);
	}
}

START_TEST(test_skl)
{
	run_cases("skl", skl_cases, sizeof(skl_cases) / sizeof(skl_cases[0]));
	ck_assert_str_eq(events__pmu_name(), "skl");
}
END_TEST

START_TEST(test_icl)
{
	run_cases("icl", icl_cases, sizeof(icl_cases) / sizeof(icl_cases[0]));
	ck_assert_str_eq(events__pmu_name(), "icl");
}
END_TEST

START_TEST(test_hsw_glm)
{
	run_cases("hsw", hsw_cases, sizeof(hsw_cases) / sizeof(hsw_cases[0]));
}
END_TEST

START_TEST(test_glm)
{
	run_cases("glm", glm_cases, sizeof(glm_cases) / sizeof(glm_cases[0]));
}
END_TEST

START_TEST(test_no_pmu)
{
	/* A PMU name libpfm4 does not have: nothing is active. */
	run_cases("no_such_pmu", nopmu_cases, sizeof(nopmu_cases) / sizeof(nopmu_cases[0]));
	ck_assert_ptr_null(events__pmu_name());
}
END_TEST

/* ":p" / ":pp" / ":ppp" request PEBS (perf's spelling), with any other
 * modifiers around it; never passed on to libpfm4 or the raw parser. */
START_TEST(test_precise_modifier)
{
	static const struct {
		const char *spec;
		int ret;
		unsigned int source;
		unsigned long long config;
	} rows[] = {
		{"r81d0:p", 0, PMUPROF_SOURCE_PEBS, 0x81d0},
		{"r81d0:u:pp", 0, PMUPROF_SOURCE_PEBS, 0x181d0},
		{"r81d0:ppp:k", 0, PMUPROF_SOURCE_PEBS, 0x281d0},
		{"r81d0", 0, PMUPROF_SOURCE_PMU, 0x81d0},
		{"r81d0:pppp", -EINVAL, 0, 0},
		{"r81d0:up", -EINVAL, 0, 0},
		{"cpu-clock:p", -EINVAL, 0, 0},
		{"MEM_INST_RETIRED:ALL_LOADS:p", 0, PMUPROF_SOURCE_PEBS, 0x381d0},
		{"skl::MEM_INST_RETIRED:ALL_LOADS:pp/5000", 0, PMUPROF_SOURCE_PEBS, 0x381d0},
		{"MEM_INST_RETIRED:ALL_LOADS", 0, PMUPROF_SOURCE_PMU, 0x381d0},
	};
	struct pmuctl_event ev[2];
	char err[1024];

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	ck_assert_int_eq(events__init(err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ret = events__resolve(rows[i].spec, &ev[0], err, sizeof(err));

		ck_assert_msg(ret == rows[i].ret, "'%s': ret %d (%s)", rows[i].spec, ret, err);
		if (ret)
			continue;
		ck_assert_msg(ev[0].source == rows[i].source, "'%s': source %u", rows[i].spec,
			      ev[0].source);
		ck_assert_msg(ev[0].config == rows[i].config, "'%s': config 0x%llx", rows[i].spec,
			      (unsigned long long)ev[0].config);
		ck_assert_str_eq(ev[0].name, strchr(rows[i].spec, '/')
						     ? "skl::MEM_INST_RETIRED:ALL_LOADS:pp"
						     : rows[i].spec);
	}
	/* precise events need counters like any other */
	ck_assert_int_eq(events__resolve("r81d0:p", &ev[0], err, sizeof(err)), 0);
	ck_assert_int_eq(events__resolve("r82d0:p", &ev[1], err, sizeof(err)), 0);
	ck_assert_int_eq(events__check_counters(ev, 2, 1, 3, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(events__check_counters(ev, 2, 2, 3, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_cpu_clock)
{
	struct pmuctl_event ev;
	char err[512];

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	ck_assert_int_eq(events__resolve("cpu-clock/250000", &ev, err, sizeof(err)), 0);
	ck_assert_int_eq(ev.source, PMUPROF_SOURCE_NMI_IPI);
	ck_assert_uint_eq(ev.config, 0);
	ck_assert_uint_eq(ev.period, 250000);
	ck_assert_str_eq(ev.unit, "ns");
	ck_assert_int_eq(events__resolve("CPU-CLOCK", &ev, err, sizeof(err)), 0);
	ck_assert_int_eq(ev.source, PMUPROF_SOURCE_NMI_IPI);
	ck_assert_int_eq(events__resolve("cpu-clock/0", &ev, err, sizeof(err)), -EINVAL);
}
END_TEST

/* Every generic name maps to an encodable event on every listed model,
 * except the cells the table marks unavailable. */
START_TEST(test_generic_table_complete)
{
	static const struct {
		const char *pmu;
		const char *missing; /* generic names expected unavailable */
	} models[] = {
		{"skl", ""},
		{"skx", ""},
		{"clx", ""},
		{"hsw", ""},
		{"bdw", ""},
		{"ivb", ""},
		{"snb", ""},
		{"icl", "llc-references"},
		{"icx", "llc-references"},
		{"spr", ""},
		{"glm", ""},
	};
	char err[1024];
	int m = _i; /* loop test index */
	int g;

	setenv("LIBPFM_FORCE_PMU", models[m].pmu, 1);
	ck_assert_int_eq(events__init(err, sizeof(err)), 0);
	ck_assert_str_eq(events__pmu_name(), models[m].pmu);
	for (g = 0; g < events__generic_count(); g++) {
		struct pmuctl_event ev;
		const char *name = events__generic_name(g);
		int ret = events__resolve(name, &ev, err, sizeof(err));

		if (strstr(models[m].missing, name))
			ck_assert_msg(ret == -EOPNOTSUPP, "%s %s: %d", models[m].pmu, name, ret);
		else
			ck_assert_msg(ret == 0, "%s %s: %s", models[m].pmu, name, err);
	}
}
END_TEST

START_TEST(test_suggest_and_distance)
{
	const char *s[3];
	int n;

	ck_assert_uint_eq(events__distance("cycles", "cycles"), 0);
	ck_assert_uint_eq(events__distance("cycles", "CYCLES"), 0);
	ck_assert_uint_eq(events__distance("cycels", "cycles"), 2);
	ck_assert_uint_eq(events__distance("", "abc"), 3);
	ck_assert_uint_eq(events__distance("kitten", "sitting"), 3);
	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	n = events__suggest("branch-mises", s, 3);
	ck_assert_int_ge(n, 1);
	ck_assert_str_eq(s[0], "branch-misses");
	n = events__suggest("zzzzzzzzzzzzzzzz", s, 3);
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_match)
{
	ck_assert(events__match(NULL, "anything"));
	ck_assert(events__match("tlb", "DTLB_LOAD_MISSES"));
	ck_assert(events__match("TLB", "dtlb-load-misses"));
	ck_assert(!events__match("tlbx", "DTLB_LOAD_MISSES"));
	ck_assert(events__match("dtlb*walk*", "DTLB_LOAD_MISSES:WALK_COMPLETED"));
	ck_assert(!events__match("dtlb*walk", "DTLB_LOAD_MISSES:WALK_COMPLETED"));
	ck_assert(events__match("?tlb_load_misses", "DTLB_LOAD_MISSES"));
}
END_TEST

START_TEST(test_list)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int n;

	char err[256];

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	ck_assert_int_eq(events__init(err, sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	n = events__list(f, "walk_completed_1g", false, NULL);
	fclose(f);
	ck_assert_int_ge(n, 2); /* DTLB_LOAD_MISSES and DTLB_STORE_MISSES at least */
	ck_assert_ptr_nonnull(strstr(buf, "DTLB_LOAD_MISSES"));
	ck_assert_ptr_nonnull(strstr(buf, ":WALK_COMPLETED_1G"));
	ck_assert_ptr_null(strstr(buf, ":STLB_HIT")); /* other umasks filtered out */
	free(buf);
	f = open_memstream(&buf, &len);
	n = events__list(f, "no-such-event-anywhere", false, NULL);
	fclose(f);
	ck_assert_int_eq(n, 0);
	free(buf);
}
END_TEST

/* An AMD core PMU (libpfm4 lists ~250 events pmuprof cannot program):
 * pmuctl list shows cpu-clock and one line saying why and how many events
 * are left out; --all (hidden_why NULL) lists them; Intel lists all. */
START_TEST(test_list_amd_hidden)
{
	char err[256], *buf = NULL;
	const char *why;
	size_t len = 0;
	FILE *f;
	int n;

	setenv("LIBPFM_FORCE_PMU", "amd64_fam17h", 1);
	ck_assert_int_eq(events__init(err, sizeof(err)), 0);
	why = events__hw_unusable();
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "AMD"));
	f = open_memstream(&buf, &len);
	n = events__list(f, NULL, false, why);
	fclose(f);
	ck_assert_int_eq(n, 1);
	ck_assert_ptr_nonnull(strstr(buf, "cpu-clock"));
	ck_assert_ptr_nonnull(strstr(buf, "Only cpu-clock is usable here: this is an AMD CPU"));
	ck_assert_ptr_nonnull(strstr(buf, "'pmuctl list --all' lists them"));
	ck_assert_ptr_null(strstr(buf, "RETIRED_INSTRUCTIONS"));
	ck_assert_ptr_null(strstr(buf, "cycles "));
	free(buf);
	f = open_memstream(&buf, &len);
	n = events__list(f, NULL, false, NULL);
	fclose(f);
	ck_assert_int_gt(n, 50);
	ck_assert_ptr_nonnull(strstr(buf, "RETIRED_INSTRUCTIONS"));
	free(buf);
}
END_TEST

START_TEST(test_list_intel_usable)
{
	char err[256];

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	ck_assert_int_eq(events__init(err, sizeof(err)), 0);
	ck_assert_ptr_null(events__hw_unusable());
}
END_TEST

/* Counter budget with the counters GET_INFO would report (Skylake: 4 GP, 3 fixed). */
START_TEST(test_counters)
{
	static const struct {
		int line;
		const char *events; /* comma-separated */
		unsigned int nr_gp, nr_fixed;
		const char *err; /* NULL: fits */
	} cases[] = {
		{__LINE__, "cycles,instructions,ref-cycles,r01a2,r02a2,r03a2,r04a2", 4, 3, NULL},
		{__LINE__, "cycles,instructions,ref-cycles,r01a2,r02a2,r03a2,r04a2,r05a2", 4, 3,
		 "too many events"},
		{__LINE__, "cycles,cycles,r01a2,r02a2,r03a2", 4, 3, NULL}, /* 2nd cycles on GP */
		{__LINE__, "cycles,cycles,r01a2,r02a2,r03a2,r04a2", 4, 3, "too many events"},
		{__LINE__, "ref-cycles,ref-cycles", 4, 3, "another event already uses"},
		{__LINE__, "ref-cycles", 4, 0, "this CPU lacks"},
		{__LINE__, "instructions,cycles", 0, 3, NULL},
		{__LINE__, "instructions,llc-misses", 0, 3, "too many events"},
		{__LINE__, "cpu-clock,cpu-clock,r01a2", 1, 0,
		 NULL}, /* cpu-clock needs no counter */
	};
	char err[1024];
	size_t i;

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	ck_assert_int_eq(events__init(err, sizeof(err)), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmuctl_event ev[PMUPROF_MAX_EVENTS];
		char list[256], *tok, *save = NULL;
		int n = 0, ret;

		snprintf(list, sizeof(list), "%s", cases[i].events);
		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			ck_assert_int_eq(events__resolve(tok, &ev[n++], err, sizeof(err)), 0);
		err[0] = '\0';
		ret = events__check_counters(ev, n, cases[i].nr_gp, cases[i].nr_fixed, err,
					     sizeof(err));
		if (!cases[i].err)
			ck_assert_msg(ret == 0, "line %d: %s", cases[i].line, err);
		else
			ck_assert_msg(ret == -EINVAL && strstr(err, cases[i].err),
				      "line %d: ret %d '%s'", cases[i].line, ret, err);
	}
}
END_TEST

START_TEST(test_evtsel)
{
	struct evtsel_fields f;

	evtsel__decode(0x2010e08ull | X86_EVTSEL_EN, &f);
	ck_assert_uint_eq(f.event, 0x08);
	ck_assert_uint_eq(f.umask, 0x0e);
	ck_assert_uint_eq(f.cmask, 2);
	ck_assert_uint_eq(f.usr, 1);
	ck_assert_uint_eq(f.os, 0);
	ck_assert_uint_eq(f.inv, 0);
	ck_assert_uint_eq(f.other, X86_EVTSEL_EN);
	ck_assert_ptr_nonnull(evtsel__fixed(0x300c0));
	ck_assert_ptr_null(evtsel__fixed(0x10300c0)); /* cmask=1 */
	ck_assert_ptr_null(evtsel__fixed(0x301a2));
}
END_TEST

START_TEST(test_args)
{
	unsigned long long mask[PMUPROF_MAX_CPUS / 64];
	uint64_t v;

	ck_assert_int_eq(args__cpulist("0-3,6", mask, PMUPROF_MAX_CPUS / 64, 8), 5);
	ck_assert_uint_eq(mask[0], 0x4f);
	ck_assert_int_eq(args__cpulist("1", mask, PMUPROF_MAX_CPUS / 64, 2), 1);
	ck_assert_int_eq(args__cpulist("0,0,0-1", mask, PMUPROF_MAX_CPUS / 64, 2), 2);
	ck_assert_int_eq(args__cpulist("2", mask, PMUPROF_MAX_CPUS / 64, 2), -ERANGE);
	ck_assert_int_eq(args__cpulist("3-1", mask, PMUPROF_MAX_CPUS / 64, 8), -EINVAL);
	ck_assert_int_eq(args__cpulist("1,", mask, PMUPROF_MAX_CPUS / 64, 8), -EINVAL);
	ck_assert_int_eq(args__cpulist("a", mask, PMUPROF_MAX_CPUS / 64, 8), -EINVAL);
	ck_assert_int_eq(args__cpulist("", mask, PMUPROF_MAX_CPUS / 64, 8), -EINVAL);
	ck_assert_int_eq(args__cpulist("64-65", mask, PMUPROF_MAX_CPUS / 64, 128), 2);
	ck_assert_uint_eq(mask[1], 3);

	ck_assert_int_eq(args__size("4M", &v), 0);
	ck_assert_uint_eq(v, 4u << 20);
	ck_assert_int_eq(args__size("64KiB", &v), 0);
	ck_assert_uint_eq(v, 64u << 10);
	ck_assert_int_eq(args__size("65536", &v), 0);
	ck_assert_uint_eq(v, 65536);
	ck_assert_int_eq(args__size("4X", &v), -EINVAL);
	ck_assert_int_eq(args__size("-4", &v), -EINVAL);

	ck_assert_int_eq(args__u64("100000", &v), 0);
	ck_assert_uint_eq(v, 100000);
	ck_assert_int_eq(args__u64("0x10", &v), 0);
	ck_assert_uint_eq(v, 16);
	ck_assert_int_eq(args__u64("0", &v), -EINVAL);
	ck_assert_int_eq(args__u64("-1", &v), -EINVAL);
	ck_assert_int_eq(args__u64("12abc", &v), -EINVAL);

	ck_assert_int_eq(args__duration("2", &v), 0);
	ck_assert_uint_eq(v, 2000000000ull);
	ck_assert_int_eq(args__duration("0.5", &v), 0);
	ck_assert_uint_eq(v, 500000000ull);
	ck_assert_int_eq(args__duration("0", &v), -EINVAL);
	ck_assert_int_eq(args__duration("x", &v), -EINVAL);
}
END_TEST

/* ---------------------------------------------------------------- */
/* procmaps: notes parser, maps lines, and a snapshot of ourselves   */
/* read back through lib/pmufile.                                    */
/* ---------------------------------------------------------------- */
static size_t put_note(uint8_t *p, const char *name, uint32_t type, const uint8_t *desc,
		       uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;
	size_t off = 0;

	memcpy(p + off, &namesz, 4);
	memcpy(p + off + 4, &descsz, 4);
	memcpy(p + off + 8, &type, 4);
	off = 12;
	memcpy(p + off, name, namesz);
	off = (off + namesz + 3) & ~3ul;
	memcpy(p + off, desc, descsz);
	return (off + descsz + 3) & ~3ul;
}

START_TEST(test_notes)
{
	uint8_t buf[256] = {0}, id[BUILD_ID_MAX], want[20];
	size_t off;
	int i;

	for (i = 0; i < 20; i++)
		want[i] = (uint8_t)(0xa0 + i);
	off = put_note(buf, "Linux", 1, (const uint8_t *)"xyz", 3);
	off += put_note(buf + off, "GNU", 1 /* ABI tag, not a build-id */, want, 16);
	off += put_note(buf + off, "GNU", 3 /* NT_GNU_BUILD_ID */, want, 20);
	ck_assert_int_eq(buildid__parse_notes(buf, off, 4, id), 20);
	ck_assert_mem_eq(id, want, 20);
	/* Truncated: the id's descriptor runs past the end. */
	ck_assert_int_eq(buildid__parse_notes(buf, off - 8, 4, id), 0);
	/* No build-id note at all. */
	ck_assert_int_eq(buildid__parse_notes(buf, 20, 4, id), 0);
	/* Damaged size field: never reads out of bounds. */
	buf[4] = 0xff;
	buf[5] = 0xff;
	ck_assert_int_eq(buildid__parse_notes(buf, off, 4, id), 0);
}
END_TEST

START_TEST(test_maps_line)
{
	struct pmufile_mmap m;

	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(procmaps__parse_line("55d0c0a00000-55d0c0a21000 r-xp 00002000 08:01 1234 "
					      "   /usr/bin/my prog (deleted)\n",
					      &m),
			 0);
	ck_assert_uint_eq(m.start, 0x55d0c0a00000ull);
	ck_assert_uint_eq(m.end, 0x55d0c0a21000ull);
	ck_assert_uint_eq(m.pgoff, 0x2000);
	ck_assert_uint_eq(m.prot, 5); /* PROT_READ | PROT_EXEC */
	ck_assert_str_eq(m.path, "/usr/bin/my prog (deleted)");
	ck_assert_int_eq(procmaps__parse_line("7ffd1000-7ffd2000 rw-p 00000000 00:00 0\n", &m), 0);
	ck_assert_str_eq(m.path, "");
	ck_assert_int_eq(
		procmaps__parse_line("7ffd1000-7ffd2000 rw-p 00000000 00:00 0 [stack]", &m), 0);
	ck_assert_str_eq(m.path, "[stack]");
	/* an anonymous mapping inside a whole maps file: the scan's trailing
	 * blank must not run into the next line (it took "7ffc...[stack]" as
	 * the anonymous mapping's path, seen in the pagesize_split VM test) */
	ck_assert_int_eq(procmaps__parse_line("7f0000000000-7f0004001000 rw-p 00000000 00:00 0 \n"
					      "7ffc70248000-7ffc70269000 rw-p 00000000 00:00 0  "
					      "    [stack]\n",
					      &m),
			 0);
	ck_assert_uint_eq(m.end, 0x7f0004001000ull);
	ck_assert_str_eq(m.path, "");
	ck_assert_int_eq(procmaps__parse_line("7f0000000000-7f0004001000 rw-p 00000000 00:00 0\n"
					      "7ffc70248000-7ffc70269000 rw-p 00000000 00:00 0\n",
					      &m),
			 0);
	ck_assert_str_eq(m.path, "");
	ck_assert_int_eq(procmaps__parse_line("garbage", &m), -EINVAL);
}
END_TEST

static int dummy_symbol(void)
{
	return 42;
}

START_TEST(test_snapshot_roundtrip)
{
	char path[] = "/tmp/test_events_XXXXXX", err[512], exe[4096];
	struct pmufile_header *hdr = calloc(1, sizeof(*hdr));
	struct pmufile_writer *w;
	struct procmaps *pm;
	struct pmufile *f;
	const struct pmufile_mmap *m;
	const struct pmufile_process *p;
	uint8_t id[BUILD_ID_MAX];
	int fd = mkstemp(path), idlen;
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	close(fd);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	idlen = buildid__from_path("/proc/self/exe", id);
	ck_assert_int_gt(idlen, 0); /* gcc/ld on Debian emit --build-id */
	w = pmufile_writer__open(path, hdr, err, sizeof(err));
	ck_assert_msg(w != NULL, "%s", err);
	pm = procmaps__new(w, NULL);
	ck_assert_ptr_nonnull(pm);
	ck_assert_int_eq(procmaps__see(pm, getpid(), "self", 1000), 0);
	ck_assert_int_eq(procmaps__nr_processes(pm), 1);
	/* Seen again within the refresh interval: nothing new. */
	ck_assert_int_eq(procmaps__see(pm, getpid(), "self", 2000), 0);
	ck_assert_int_eq(procmaps__nr_processes(pm), 1);
	/* A pid that does not exist: recorded as exited with the sample's comm. */
	ck_assert_int_eq(procmaps__see(pm, 0x3ffffff, "ghost", 3000), 0);
	procmaps__free(pm);
	ck_assert_int_eq(pmufile_writer__close(w, 1, 2, err, sizeof(err)), 0);

	f = pmufile__open(path, 0, err, sizeof(err));
	ck_assert_msg(f != NULL, "%s", err);
	p = pmufile__find_process(f, getpid());
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p->exe, exe);
	ck_assert_str_eq(p->comm, "test_events"); /* /proc/PID/comm */
	ck_assert_int_eq(p->ppid, getppid());	  /* /proc/PID/stat */
	ck_assert_uint_eq(p->build_id_size, (unsigned int)idlen);
	ck_assert_mem_eq(p->build_id, id, (size_t)idlen);
	/* Our own code is covered by a mapping of our executable with its build-id. */
	m = pmufile__find_mmap(f, getpid(), (uint64_t)(uintptr_t)dummy_symbol, 1000);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->path, exe);
	ck_assert_uint_eq(m->prot & 4, 4); /* executable */
	ck_assert_uint_eq(m->build_id_size, (unsigned int)idlen);
	ck_assert_mem_eq(m->build_id, id, (size_t)idlen);
	p = pmufile__find_process(f, 0x3ffffff);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p->comm, "ghost");
	ck_assert(p->exited);
	pmufile__close(f);
	unlink(path);
	free(hdr);
	ck_assert_int_eq(dummy_symbol(), 42);
}
END_TEST

/* util.c's line reader, used for kallsyms and maps: lines joined by '|'. */
static const struct {
	int line;
	const char *in, *out;
} line_cases[] = {
	{__LINE__, "", ""},
	{__LINE__, "a", "a|"},
	{__LINE__, "a\n", "a|"},
	{__LINE__, "a\nbc", "a|bc|"},
	{__LINE__, "\n\nx\n", "||x|"},
	{__LINE__, "ab\ncd\n\n", "ab|cd||"},
};

START_TEST(test_next_line)
{
	const char *in = line_cases[_i].in, *p = in, *l;
	char out[64] = "";
	size_t len;

	while ((l = next_line(&p, in + strlen(in), &len)))
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%.*s|", (int)len, l);
	ck_assert_msg(!strcmp(out, line_cases[_i].out), "line %d: got \"%s\"", line_cases[_i].line,
		      out);
}
END_TEST

static Suite *events_suite(void)
{
	Suite *s = suite_create("events");
	TCase *tc = pp_tcase(
		s, "resolve", NULL, NULL,
		PP_TESTS(test_skl, test_icl, test_hsw_glm, test_glm, test_no_pmu, test_cpu_clock,
			 test_precise_modifier, test_suggest_and_distance, test_match, test_list,
			 test_list_amd_hidden, test_list_intel_usable, test_evtsel, test_counters));
	tcase_add_loop_test(tc, test_generic_table_complete, 0, 11);
	tcase_add_loop_test(tc, test_next_line, 0,
			    (int)(sizeof(line_cases) / sizeof(line_cases[0])));
	pp_tcase(s, "args", NULL, NULL, PP_TESTS(test_args));
	pp_tcase(s, "procmaps", NULL, NULL,
		 PP_TESTS(test_notes, test_maps_line, test_snapshot_roundtrip));
	return s;
}

int main(void)
{
	return pp_check_run(events_suite());
}
