// SPDX-License-Identifier: MIT
/*
 * Reliability unit tests (issue 8) for host-side code whose failure only a
 * long run would show otherwise:
 *  - pmuctl's process table (userspace/pmuctl/procmaps.c) stays bounded by
 *    the processes alive or recently gone, not by every pid ever seen (a
 *    10-minute soak with fork/exec churn saw pmuctl's RSS grow in steps as
 *    the table doubled), and a reused pid is snapshot afresh.
 * A fake /proc (an empty directory) makes every pid "gone".
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "userspace/pmuctl/procmaps.h"
#include "check_main.h"

#define SEC 1000000000ull

static char dir[] = "/tmp/test_reliability.XXXXXX";
static char path[sizeof(dir) + 16];
static struct pmufile_writer *w;
static struct procmaps *pm;

static void setup(void)
{
	static struct pmufile_header h;
	char err[256];

	ck_assert_ptr_nonnull(mkdtemp(strcpy(dir, "/tmp/test_reliability.XXXXXX")));
	snprintf(path, sizeof(path), "%s/f.pmu", dir);
	memset(&h, 0, sizeof(h));
	h.pid = -1;
	w = pmufile_writer__open(path, &h, err, sizeof(err));
	ck_assert_msg(w != NULL, "%s", err);
	pmufile_writer__no_fsync(w);
	pm = procmaps__new(w, dir); /* fake /proc: nothing in it */
	ck_assert_ptr_nonnull(pm);
}

static void teardown(void)
{
	char err[256];

	procmaps__free(pm);
	pmufile_writer__close(w, 0, 0, err, sizeof(err));
	unlink(path);
	rmdir(dir);
}

/* 40000 short-lived processes, one every 10 ms (400 s of churn), about 3000
 * of them within the 30 s window at any time: the table stays as large in
 * the second half of the run as in the first (flat), far below all pids. */
START_TEST(table_bounded_under_churn)
{
	size_t max_first = 0, max_second = 0;

	for (int i = 0; i < 40000; i++) {
		size_t n;

		ck_assert_int_eq(
			procmaps__see(pm, 1000 + i, "churn", SEC + (uint64_t)i * 10000000ull), 0);
		n = procmaps__nr_tracked(pm);
		if (i < 20000 && n > max_first)
			max_first = n;
		if (i >= 20000 && n > max_second)
			max_second = n;
	}
	ck_assert_uint_eq(procmaps__nr_processes(pm), 40000);
	ck_assert_msg(max_second <= max_first,
		      "the table grew: %zu pids at most in the first half, %zu in the second",
		      max_first, max_second);
	ck_assert_msg(max_first <= 10000, "the table held %zu pids at once", max_first);
}
END_TEST

/* A pid that went away and comes back 60 s later is a new process: it gets
 * a process record of its own. Seen again within the window, it does not. */
START_TEST(reused_pid_recorded_again)
{
	ck_assert_int_eq(procmaps__see(pm, 4242, "old", SEC), 0);
	ck_assert_uint_eq(procmaps__nr_processes(pm), 1);
	ck_assert_int_eq(procmaps__see(pm, 4242, "old", 2 * SEC), 0);
	ck_assert_uint_eq(procmaps__nr_processes(pm), 1);
	/* enough other pids to make the table rebuild after the window */
	for (int i = 0; i < 600; i++)
		ck_assert_int_eq(procmaps__see(pm, 10000 + i, "other", 62 * SEC + (uint64_t)i), 0);
	ck_assert_int_eq(procmaps__see(pm, 4242, "new", 63 * SEC), 0);
	ck_assert_uint_eq(procmaps__nr_processes(pm), 602);
}
END_TEST

/* Samples may arrive slightly out of order across CPUs: an older time than
 * an entry's last sight must never make it forgettable. */
START_TEST(out_of_order_time_keeps_entries)
{
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(procmaps__see(pm, 20000 + i, "x", 100 * SEC), 0);
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(procmaps__see(pm, 30000 + i, "y", 99 * SEC), 0);
	ck_assert_uint_eq(procmaps__nr_tracked(pm), 2000);
	ck_assert_uint_eq(procmaps__nr_processes(pm), 2000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("reliability");
	pp_tcase(s, "procmaps", setup, teardown,
		 PP_TESTS(table_bounded_under_churn, reused_pid_recorded_again,
			  out_of_order_time_keeps_entries));
	return pp_check_run(s);
}
