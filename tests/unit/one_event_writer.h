/* SPDX-License-Identifier: MIT */
/*
 * The unit tests' start of a small pmuprof file: a writer on path with host
 * "h", one CPU, pid -1, header flags cf and one PMU event `name` (period
 * 1000), fsync off. The test adds its records and closes it.
 */
#ifndef PMUPROF_TESTS_ONE_EVENT_WRITER_H
#define PMUPROF_TESTS_ONE_EVENT_WRITER_H

#include <check.h>
#include <stdio.h>

#include "lib/pmufile/pmufile.h"

static inline struct pmufile_writer *one_event_writer(const char *path, uint32_t cf,
						      const char *name)
{
	struct pmufile_header hdr = {.nr_cpus = 1, .pid = -1, .config_flags = cf};
	struct pmufile_event ev = {.source = PMUPROF_SOURCE_PMU, .period = 1000};
	struct pmufile_writer *w;
	char err[512];

	snprintf(hdr.hostname, sizeof(hdr.hostname), "h");
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	w = pmufile_writer__open(path, &hdr, err, sizeof(err));
	ck_assert_msg(w, "%s", err);
	pmufile_writer__no_fsync(w);
	ck_assert_int_eq(pmufile_writer__event(w, &ev), 0);
	return w;
}

#endif
