/* SPDX-License-Identifier: MIT */
/* "Would huge pages help?": the verdict rules over one event view's
 * per-mapping table, and their text and JSON (verdict.c says the rules). */
#ifndef PMUCONV_VERDICT_H
#define PMUCONV_VERDICT_H

#include <jansson.h>
#include <stdio.h>
#include "pagesize_types.h"

void ps_verdict__decide(struct ps_event *e, const struct ps_tlb *tlb);
bool ps_is_time_event(const char *event, const char *unit);
bool ps_is_zeroing_fn(const char *name);
void ps_verdict__print(FILE *out, const struct ps_event *e, const struct ps_tlb *tlb,
		       const char *indent);
json_t *ps_verdict__json(const struct ps_event *e);

#endif
