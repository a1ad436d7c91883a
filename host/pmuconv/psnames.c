// SPDX-License-Identifier: MIT
/* Names of the page-size answer's enums, as text and JSON print them. */
#include "psnames.h"

const char *const ps_page_names[PS__NR] = {"4K", "2M", "1G", "unknown"};
const char *const ps_view_names[PS_VIEW__NR] = {"user", "kernel", "all"};
const char *const ps_confidence_names[3] = {"high", "medium", "low"};
const char *const ps_map_kind_names[PS_MAP__NR] = {"anon",    "heap",	 "stack",  "file",
						   "hugetlb", "special", "kernel", "unmapped"};
