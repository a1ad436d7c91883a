// SPDX-License-Identifier: MIT
/* Names of the page-size answer's enums; record page codes as enum ps_page. */
#include "psnames.h"
#include "include/uapi/pmuprof.h"

const char *const ps_page_names[PS__NR] = {"4K", "2M", "1G", "unknown"};
const char *const ps_view_names[PS_VIEW__NR] = {"user", "kernel", "all"};
const char *const ps_confidence_names[3] = {"high", "medium", "low"};
const char *const ps_map_kind_names[PS_MAP__NR] = {"anon",    "heap",	 "stack",  "file",
						   "hugetlb", "special", "kernel", "unmapped"};

uint8_t ps_page_of_record(uint8_t p)
{
	static const uint8_t idx[] = {[PMUPROF_PAGE_UNKNOWN] = PS_UNKNOWN,
				      [PMUPROF_PAGE_4K] = PS_4K,
				      [PMUPROF_PAGE_2M] = PS_2M,
				      [PMUPROF_PAGE_1G] = PS_1G};

	return p < sizeof(idx) ? idx[p] : PS_UNKNOWN;
}
