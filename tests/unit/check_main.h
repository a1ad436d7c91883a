/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How every Check unit-test program runs its suite and turns the result into
 * an exit status (header only: each test program links its own objects).
 * tests/run-all.sh reads the summary line Check prints.
 */
#ifndef PMUPROF_TESTS_CHECK_MAIN_H
#define PMUPROF_TESTS_CHECK_MAIN_H

#include <check.h>

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
