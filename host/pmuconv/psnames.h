/* SPDX-License-Identifier: MIT */
/* Names of the page-size answer's enums, as text and JSON print them, and
 * the record ABI's page codes (PMUPROF_PAGE_*) as enum ps_page. */
#ifndef PMUCONV_PSNAMES_H
#define PMUCONV_PSNAMES_H

#include "pagesize_types.h"

extern const char *const ps_page_names[PS__NR];		/* "4K", "2M", "1G", "unknown" */
extern const char *const ps_view_names[PS_VIEW__NR];	/* "user", "kernel", "all" */
extern const char *const ps_confidence_names[3];	/* enum ps_confidence */
extern const char *const ps_map_kind_names[PS_MAP__NR]; /* enum ps_map_kind */

uint8_t ps_page_of_record(uint8_t pmuprof_page); /* unknown codes: PS_UNKNOWN */

#endif
