/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pmu__plan() step the table-driven plan tests of test_pmu and
 * test_pebs share: plan a configuration and check the row's expected
 * result before the test checks the counters it got.
 */
#ifndef PMUPROF_TESTS_PLAN_CHECK_H
#define PMUPROF_TESTS_PLAN_CHECK_H

#include <check.h>
#include <string.h>

#include "kernel/pmu/pmu.h"

/*
 * pmu__plan(caps, cfg, plan): rc must be want_rc; on failure the reason
 * must hold want_why and the plan be empty, on success no reason is set.
 * line names the table row in the messages. Returns rc.
 */
static inline int plan_check(const struct pmu_caps *caps, const struct pmuprof_config *cfg,
			     struct pmu_plan *plan, int line, int want_rc, const char *want_why)
{
	const char *why = NULL;
	int rc = pmu__plan(caps, cfg, plan, &why);

	ck_assert_msg(rc == want_rc, "line %d: rc %d, want %d (%s)", line, rc, want_rc,
		      why ? why : "-");
	if (rc) {
		ck_assert_msg(why && strstr(why, want_why), "line %d: why '%s' lacks '%s'", line,
			      why ? why : "(null)", want_why);
		ck_assert_msg(plan->nr == 0, "line %d: plan not empty on error", line);
	} else {
		ck_assert_msg(why == NULL, "line %d: why set on success", line);
	}
	return rc;
}

#endif
