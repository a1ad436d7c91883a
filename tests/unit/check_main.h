/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How every Check unit-test program builds its suite from lists of tests and
 * runs it, the result as its exit status (header only: each test program
 * links its own objects). tests/run-all.sh reads the summary line Check
 * prints.
 */
#ifndef PMUPROF_TESTS_CHECK_MAIN_H
#define PMUPROF_TESTS_CHECK_MAIN_H

#include <check.h>

/* A NULL-terminated list of Check tests (START_TEST names). */
#define PP_TESTS(...) ((const TTest *const[]){__VA_ARGS__, NULL})

/*
 * Add a test case NAME to s: the checked fixture SETUP/TEARDOWN (NULL: none)
 * and the TESTS (PP_TESTS(...)); returns it for loop tests and timeouts.
 */
static inline TCase *pp_tcase(Suite *s, const char *name, void (*setup)(void),
			      void (*teardown)(void), const TTest *const *tests)
{
	TCase *tc = tcase_create(name);

	if (setup || teardown)
		tcase_add_checked_fixture(tc, setup, teardown);
	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return tc;
}

/* Run every test of s (CK_FORK and timeouts from the environment); 0 when
 * all passed, 1 otherwise. */
static inline int pp_check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

#endif
