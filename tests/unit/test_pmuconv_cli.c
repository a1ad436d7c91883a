// SPDX-License-Identifier: MIT
/*
 * pmuconv's argument parsers, from tables that give the source line, the
 * argument, and the expected result or the expected error: CPU lists
 * (--cpu), time ranges (--time), sort keys (report --sort) and the
 * --dso/--symbol match of a sampled IP.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "host/pmuconv/filterspec.h"
#include "host/pmuconv/sorttab.h"
#include "host/pmuconv/where.h"

/* ---- CPU lists -------------------------------------------------------- */

static const struct {
	int line;
	const char *in;
	const char *cpus; /* the set as "0,1,5" (ascending), or NULL: error */
	const char *err;  /* substring of the error */
} cpu_cases[] = {
	{__LINE__, "0", "0", NULL},
	{__LINE__, "7", "7", NULL},
	{__LINE__, "0-3", "0,1,2,3", NULL},
	{__LINE__, "0-3,7", "0,1,2,3,7", NULL},
	{__LINE__, "7,0-1", "0,1,7", NULL},
	{__LINE__, "2-2", "2", NULL},
	{__LINE__, "1,1,1", "1", NULL},
	{__LINE__, "63-65", "63,64,65", NULL},
	{__LINE__, "4095", "4095", NULL},
	{__LINE__, "", NULL, "is not a CPU list"},
	{__LINE__, "x", NULL, "is not a CPU list"},
	{__LINE__, "1,", NULL, "is not a CPU list"},
	{__LINE__, ",1", NULL, "is not a CPU list"},
	{__LINE__, "1,,2", NULL, "is not a CPU list"},
	{__LINE__, "1-", NULL, "is not a CPU list"},
	{__LINE__, "-1", NULL, "is not a CPU list"},
	{__LINE__, "1-2-3", NULL, "is not a CPU list"},
	{__LINE__, "1 2", NULL, "is not a CPU list"},
	{__LINE__, "3-1", NULL, "runs backwards"},
	{__LINE__, "4096", NULL, "above 4095"},
	{__LINE__, "0-99999999999999999999", NULL, "above 4095"},
};

START_TEST(test_cpulist)
{
	struct pc_cpuset s;
	char err[256] = "", got[8192] = "";
	int r = pc_cpuset__parse(&s, cpu_cases[_i].in, err, sizeof(err));

	if (!cpu_cases[_i].cpus) {
		ck_assert_msg(r == -EINVAL, "line %d: '%s' accepted", cpu_cases[_i].line,
			      cpu_cases[_i].in);
		ck_assert_msg(strstr(err, cpu_cases[_i].err), "line %d: error '%s'",
			      cpu_cases[_i].line, err);
		return;
	}
	ck_assert_msg(r == 0, "line %d: '%s': %s", cpu_cases[_i].line, cpu_cases[_i].in, err);
	for (uint32_t c = 0; c < PC_MAX_CPUS + 10; c++)
		if (pc_cpuset__has(&s, c))
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%u",
				 got[0] ? "," : "", c);
	ck_assert_msg(!strcmp(got, cpu_cases[_i].cpus), "line %d: '%s' gave %s", cpu_cases[_i].line,
		      cpu_cases[_i].in, got);
}
END_TEST

/* ---- time ranges ------------------------------------------------------ */

#define OPEN UINT64_MAX
static const struct {
	int line;
	const char *in;
	int ok;
	uint64_t start, end; /* ns, inclusive */
	const char *err;
} time_cases[] = {
	{__LINE__, "1,2", 1, 1000000000ull, 2000000999ull, NULL},
	{__LINE__, "1054.564438,1056.5", 1, 1054564438000ull, 1056500000999ull, NULL},
	{__LINE__, "0.5,0.500000", 1, 500000000ull, 500000999ull, NULL},
	{__LINE__, "0,0.000000001", 1, 0, 1, NULL},
	{__LINE__, "2.5,", 1, 2500000000ull, OPEN, NULL},
	{__LINE__, ",3", 1, 0, 3000000999ull, NULL},
	{__LINE__, "3,3", 1, 3000000000ull, 3000000999ull, NULL},
	{__LINE__, "", 0, 0, 0, "is not a time range"},
	{__LINE__, ",", 0, 0, 0, "is not a time range"},
	{__LINE__, "5", 0, 0, 0, "is not a time range"},
	{__LINE__, "1-2", 0, 0, 0, "is not a time range"},
	{__LINE__, "a,b", 0, 0, 0, "is not a time range"},
	{__LINE__, "1.,2", 0, 0, 0, "is not a time range"},
	{__LINE__, "1,2,3", 0, 0, 0, "is not a time range"},
	{__LINE__, "1.0000000001,", 0, 0, 0, "is not a time range"},
	{__LINE__, "-1,2", 0, 0, 0, "is not a time range"},
	{__LINE__, "99999999999999999999,", 0, 0, 0, "is not a time range"},
	{__LINE__, "3,2", 0, 0, 0, "ends before it starts"},
	{__LINE__, "2.000001,2", 0, 0, 0, "ends before it starts"},
};

START_TEST(test_time_range)
{
	uint64_t a = 7, b = 7;
	char err[256] = "";
	int r = pc_time_range__parse(time_cases[_i].in, &a, &b, err, sizeof(err));

	if (!time_cases[_i].ok) {
		ck_assert_msg(r == -EINVAL, "line %d: '%s' accepted", time_cases[_i].line,
			      time_cases[_i].in);
		ck_assert_msg(strstr(err, time_cases[_i].err), "line %d: error '%s'",
			      time_cases[_i].line, err);
		return;
	}
	ck_assert_msg(r == 0, "line %d: %s", time_cases[_i].line, err);
	ck_assert_msg(a == time_cases[_i].start && b == time_cases[_i].end,
		      "line %d: '%s' gave %llu,%llu", time_cases[_i].line, time_cases[_i].in,
		      (unsigned long long)a, (unsigned long long)b);
}
END_TEST

/* ---- sort keys -------------------------------------------------------- */

static const struct {
	int line;
	const char *in;
	int nr; /* keys parsed, or -1: error */
	const char *err;
} sort_cases[] = {
	{__LINE__, "comm,dso,sym", 3, NULL},
	{__LINE__, "symbol", 1, NULL},
	{__LINE__, "pid,cpu,data_page_size,code_page_size", 4, NULL},
	{__LINE__, "comm,comm", 2, NULL},
	{__LINE__, "", -1, "unknown sort key ''"},
	{__LINE__, "comm,", -1, "unknown sort key ''"},
	{__LINE__, "Comm", -1, "unknown sort key 'Comm'"},
	{__LINE__, "comm,bogus", -1, "unknown sort key 'bogus' (keys: comm, pid"},
	{__LINE__, "overhead", -1, "unknown sort key 'overhead'"},
	{__LINE__, "sym,sym,sym,sym,sym,sym,sym,sym,sym", -1, "at most 8 sort keys"},
};

START_TEST(test_sort_keys)
{
	struct pc_sort_spec s;
	char err[512] = "";
	int r = pc_sort_spec__parse(&s, sort_cases[_i].in, err, sizeof(err));

	if (sort_cases[_i].nr < 0) {
		ck_assert_msg(r == -EINVAL, "line %d: '%s' accepted", sort_cases[_i].line,
			      sort_cases[_i].in);
		ck_assert_msg(strstr(err, sort_cases[_i].err), "line %d: error '%s'",
			      sort_cases[_i].line, err);
		return;
	}
	ck_assert_msg(r == 0, "line %d: %s", sort_cases[_i].line, err);
	ck_assert_int_eq(s.nr, sort_cases[_i].nr);
}
END_TEST

/* ---- --dso / --symbol ------------------------------------------------- */

static const struct {
	int line;
	const char *dso, *symbol; /* the filter */
	const char *name, *where_dso;
	size_t sym_len;
	bool match;
} match_cases[] = {
	{__LINE__, NULL, NULL, "main", "/usr/bin/app", 4, true},
	{__LINE__, "app", NULL, "main", "/usr/bin/app", 4, true},
	{__LINE__, "/usr/bin/app", NULL, "main", "/usr/bin/app", 4, true},
	{__LINE__, "bin/app", NULL, "main", "/usr/bin/app", 4, false},
	{__LINE__, "libc.so.6", NULL, "main", "/usr/bin/app", 4, false},
	{__LINE__, "[kernel.kallsyms]", NULL, "vfs_read", "[kernel.kallsyms]", 8, true},
	{__LINE__, "[xfs]", NULL, "xfs_ilock [xfs]", "[xfs]", 9, true},
	{__LINE__, "xfs", NULL, "xfs_ilock [xfs]", "[xfs]", 9, false},
	{__LINE__, NULL, "xfs_ilock", "xfs_ilock [xfs]", "[xfs]", 9, true},
	{__LINE__, NULL, "xfs_ilock [xfs]", "xfs_ilock [xfs]", "[xfs]", 9, true},
	{__LINE__, NULL, "xfs_i", "xfs_ilock [xfs]", "[xfs]", 9, false},
	{__LINE__, NULL, "main", "main", "/usr/bin/app", 4, true},
	{__LINE__, NULL, "mai", "main", "/usr/bin/app", 4, false},
	{__LINE__, "app", "main", "main", "/usr/bin/app", 4, true},
	{__LINE__, "app", "other", "main", "/usr/bin/app", 4, false},
	{__LINE__, "db", "main", "main", "/usr/bin/app", 4, false},
};

START_TEST(test_where_match)
{
	struct pc_filter f = {.dso = match_cases[_i].dso, .symbol = match_cases[_i].symbol};
	struct pc_where w = {.name = match_cases[_i].name,
			     .sym_len = match_cases[_i].sym_len,
			     .dso = match_cases[_i].where_dso};

	ck_assert_msg(pc_where__match(&f, &w) == match_cases[_i].match, "line %d",
		      match_cases[_i].line);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pmuconv_cli");
	TCase *t = tcase_create("parsers");

	tcase_add_loop_test(t, test_cpulist, 0, (int)(sizeof(cpu_cases) / sizeof(cpu_cases[0])));
	tcase_add_loop_test(t, test_time_range, 0,
			    (int)(sizeof(time_cases) / sizeof(time_cases[0])));
	tcase_add_loop_test(t, test_sort_keys, 0,
			    (int)(sizeof(sort_cases) / sizeof(sort_cases[0])));
	tcase_add_loop_test(t, test_where_match, 0,
			    (int)(sizeof(match_cases) / sizeof(match_cases[0])));
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
