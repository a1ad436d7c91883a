/* SPDX-License-Identifier: MIT */
/* `pmuconv pagesize --compare BEFORE AFTER`: two page-size summaries side by
 * side, as text or JSON (pagesize_compare.c). */
#ifndef PMUCONV_PAGESIZE_COMPARE_H
#define PMUCONV_PAGESIZE_COMPARE_H

#include <stdio.h>
#include "pagesize_types.h"

/* pagesize_compare.c: `pmuconv pagesize --compare BEFORE AFTER`, the
 * per-mapping tables of two recordings side by side (mappings matched by
 * name and kind, then by rank, since addresses move between runs). */
int pagesize_compare_print(FILE *out, const struct pagesize_summary *before,
			   const struct pagesize_summary *after, int json);

#endif
