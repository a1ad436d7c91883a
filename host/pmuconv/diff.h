/* SPDX-License-Identifier: MIT */
/* The comparison of one event's function tables between two recordings. */
#ifndef PMUCONV_DIFF_H
#define PMUCONV_DIFF_H

#include <stdio.h>
#include "report.h"

struct diff_side {
	double self, total;	  /* percent of the recording's total */
	uint64_t self_w, total_w; /* weights (estimated counts) */
	uint64_t self_s;	  /* self samples */
};

struct diff_row {
	const char *name;
	int kind;
	struct diff_side s[2]; /* A, B */
};

/* Join A's and B's function tables by (name, kind) into *out (to free),
 * largest change first. Re-sorts the tables' funcs by name. 0 or -ENOMEM. */
int diff_rows(const struct pc_report_event *ra, const struct pc_report_event *rb,
	      struct diff_row **out, size_t *nr);
/* Print the first `top` rows as text or JSON; path/ev: the two inputs. */
int diff_print(FILE *out, const char *const path[2], const struct pc_agg *const ev[2],
	       const struct diff_row *rows, size_t nr, size_t top, int json);

/* Absolute mode (pmuconv diff --absolute): the same rows as weight and
 * samples per second of each recording's run time (secs[k] > 0), the change
 * B - A per second and relative to A; largest absolute self change first
 * (re-sorts rows). */
int diff_print_absolute(FILE *out, const char *const path[2], const struct pc_agg *const ev[2],
			const double secs[2], struct diff_row *rows, size_t nr, size_t top,
			int json);

#endif
