/* SPDX-License-Identifier: MIT */
/* "Would huge pages help?": the verdict rules over one event view's
 * per-mapping table, and their text and JSON (verdict.c says the rules). */
#ifndef PMUCONV_VERDICT_H
#define PMUCONV_VERDICT_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include "pagesize_types.h"

void ps_verdict__decide(struct ps_event *e, const struct ps_tlb *tlb);
bool ps_is_zeroing_fn(const char *name);
void ps_verdict__print(FILE *out, const struct ps_event *e, const struct ps_tlb *tlb,
		       const char *indent);
json_t *ps_verdict__json(const struct ps_event *e);
/* Walk events: the share of the candidates' walks that stay on 2M pages
 * (verdict.c gives the model), and the predicted reduction of the view's
 * walks with a data address, in percent (0 without walks). */
double ps_remain_on_2m(uint64_t n4_entries, uint64_t n2_entries, unsigned stlb_entries);
double ps_verdict__reduction(const struct ps_verdict *v);

#endif
