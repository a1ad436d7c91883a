/* SPDX-License-Identifier: MIT */
/*
 * perf report's table for `pmuconv report --sort KEYS`: a pmuprof
 * recording's samples grouped by perf's sort keys (comm, pid, cpu, dso, sym,
 * data_page_size, code_page_size), one table per event, rows by overhead,
 * symbols marked [k] (kernel) or [.] (user) as perf marks them.
 */
#ifndef PMUCONV_SORTTAB_H
#define PMUCONV_SORTTAB_H

#include <stdio.h>
#include "input.h"

#define PC_SORT_MAX_KEYS 8

struct pc_sort_spec {
	int keys[PC_SORT_MAX_KEYS]; /* enum pc_sort_key (sorttab.c) */
	int nr;
};

/* "comm,dso,sym": 0, or -EINVAL with err naming the bad key and the keys. */
int pc_sort_spec__parse(struct pc_sort_spec *s, const char *text, char *err, size_t errlen);

/* Walk the pmuprof file at path (o: filters, symbols) and print one table
 * per event; rows whose overhead is below percent_limit are left out.
 * 0 or a negative errno with err filled. */
int pc_sorttab__print(FILE *out, const char *path, const struct pc_load_opts *o,
		      const struct pc_sort_spec *spec, double percent_limit, char *err,
		      size_t errlen);

#endif
